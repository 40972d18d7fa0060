// The error estimates from runs at different resolutions (error_estimate.hpp; Roache 1994).
#include "outcome/error_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rodcollide {

double final_velocity_difference(const Outcome& a, const Outcome& b) {
    double difference = 0;
    for (std::size_t i = 0; i < a.rods.size(); ++i)
        difference = std::max(difference, std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity));
    return difference;
}

double two_run_estimate(const Outcome& fine, const Outcome& coarse, const ConvergenceIndex& index, double floor) {
    return std::max(index.safety * final_velocity_difference(fine, coarse) / (std::pow(index.ratio, index.order) - 1), floor);
}

double run_sequence_estimate(std::span<const ResolvedRun> runs, double order, double safety, double floor) {
    if (runs.size() < 2) throw std::invalid_argument("run_sequence_estimate: needs at least two runs");
    double estimate = floor;
    for (std::size_t k = 0; k + 1 < runs.size(); ++k) {
        const double ratio = runs[k].resolution / runs[k + 1].resolution;
        if (!(ratio > 1)) throw std::invalid_argument("run_sequence_estimate: resolutions must decrease");
        const double carried = std::pow(runs[k].resolution / runs[0].resolution, order);
        estimate = std::max(estimate, two_run_estimate(*runs[k].outcome, *runs[k + 1].outcome,
                                                       {.ratio = ratio, .order = order, .safety = safety}, 0) *
                                          carried);
    }
    return estimate;
}

}  // namespace rodcollide
