// The two-run error estimate (error_estimate.hpp; Roache 1994).
#include "outcome/error_estimate.hpp"

#include <algorithm>
#include <cmath>

namespace rodcollide {

double two_run_estimate(const Outcome& fine, const Outcome& coarse, const ConvergenceIndex& index, double floor) {
    double difference = 0;
    for (std::size_t i = 0; i < fine.rods.size(); ++i)
        difference = std::max(difference, std::abs(fine.rods[i].final_velocity - coarse.rods[i].final_velocity));
    return std::max(index.safety * difference / (std::pow(index.ratio, index.order) - 1), floor);
}

}  // namespace rodcollide
