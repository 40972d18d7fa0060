// The split of the memory budget between exact and merged fronts (front_budget.hpp).
#include "solvers/exact/front_budget.hpp"

#include <algorithm>
#include <cmath>

namespace rodcollide {

namespace {

/// Sum over the elements of T_e / T_min.
double transit_sum(const Chain& chain) {
    double sum = 0;
    for (const Element& e : chain.elements()) sum += e.transit_time;
    return sum / chain.shortest_transit_time();
}

constexpr double margin_per_element = 148;

}  // namespace

std::size_t front_budget(const SolverOptions& options) {
    const double fronts = static_cast<double>(options.max_memory) * 1e6 / resident_bytes_per_front;
    return std::min(options.max_fronts, static_cast<std::size_t>(fronts));
}

double fronts_at(const Chain& chain, double delta) {
    return 8 * transit_sum(chain) / delta + margin_per_element * static_cast<double>(chain.elements().size());
}

FrontBudgetPlan plan_front_budget(const Chain& chain, std::size_t budget) {
    const double coarsest = fronts_at(chain, largest_time_resolution);
    const double half = 0.5 * static_cast<double>(budget);
    if (coarsest <= half) {
        // The finest resolution whose merged fronts fit in half the budget: the other half holds
        // the fronts tracked exactly until merging began, which drain within a transit time.
        const double room = half - margin_per_element * static_cast<double>(chain.elements().size());
        return {.exact_fronts = budget / 2, .finest = std::min(8 * transit_sum(chain) / room, largest_time_resolution)};
    }
    if (coarsest <= static_cast<double>(budget))
        return {.exact_fronts = budget - static_cast<std::size_t>(std::ceil(coarsest)), .finest = largest_time_resolution};
    return {.exact_fronts = budget / 2, .finest = largest_time_resolution, .bounded = false};
}

}  // namespace rodcollide
