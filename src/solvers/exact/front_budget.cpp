// The split of the memory budget between exact and merged fronts (front_budget.hpp).
#include "solvers/exact/front_budget.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

/// Sum over the elements of T_e / T_min.
double transit_sum(const Chain& chain) {
    double sum = 0;
    for (const Element& e : chain.elements()) sum += e.transit_time;
    return sum / chain.shortest_transit_time();
}

constexpr double margin_per_element = 148;

/// The plan of the memory budget alone (plan_front_budget() without a horizon).
FrontBudgetPlan plan_for_memory(const Chain& chain, std::size_t budget) {
    const double coarsest = fronts_at(chain, largest_time_resolution);
    const double half = 0.5 * static_cast<double>(budget);
    if (coarsest <= half) {
        // The finest resolution whose merged fronts fit in half the budget: the other half holds
        // the fronts stored before merging begins (merging then keeps the store near that share).
        const double room = half - margin_per_element * static_cast<double>(chain.elements().size());
        return {.exact_fronts = budget / 2, .finest = std::min(8 * transit_sum(chain) / room, largest_time_resolution)};
    }
    if (coarsest <= static_cast<double>(budget))
        return {.exact_fronts = budget - static_cast<std::size_t>(std::ceil(coarsest)), .finest = largest_time_resolution};
    return {.exact_fronts = budget / 2, .finest = largest_time_resolution, .bounded = false};
}

}  // namespace

std::size_t front_budget(const SolverOptions& options) {
    const double fronts = static_cast<double>(options.max_memory) * 1e6 / resident_bytes_per_front;
    return std::min(options.max_fronts, static_cast<std::size_t>(fronts));
}

double horizon_event_budget(const SolverOptions& options) {
    return std::min(static_cast<double>(options.max_work), 0.5 * static_cast<double>(options.max_events));
}

double fronts_at(const Chain& chain, double delta) {
    return 8 * transit_sum(chain) / delta + margin_per_element * static_cast<double>(chain.elements().size());
}

std::vector<bool> wave_reach(const Chain& chain, double horizon) {
    const std::vector<Element>& elements = chain.elements();
    const std::vector<Junction>& junctions = chain.junctions();
    const std::size_t n = elements.size();
    const auto seed = [&](std::size_t j) {
        const Junction& junction = junctions[j];
        if (junction.left < 0 || junction.right < 0) {
            const ChainSide side = junction.left < 0 ? ChainSide::left : ChainSide::right;
            return junction.kind != JunctionKind::free_end || chain.ends().load_at(side) != nullptr;
        }
        return elements[static_cast<std::size_t>(junction.left)].initial_velocity !=
               elements[static_cast<std::size_t>(junction.right)].initial_velocity;
    };
    // The transit time from the nearest seed junction on the left to element e's left end, and on
    // the right to its right end (junction e is at the left end of element e).
    constexpr double never = std::numeric_limits<double>::infinity();
    std::vector<double> from_left(n, never), from_right(n, never);
    double d = never;
    for (std::size_t e = 0; e < n; ++e) {
        if (seed(e)) d = 0;
        from_left[e] = d;
        d += elements[e].transit_time;
    }
    d = never;
    for (std::size_t e = n; e-- > 0;) {
        if (seed(e + 1)) d = 0;
        from_right[e] = d;
        d += elements[e].transit_time;
    }
    std::vector<bool> reached(n);
    for (std::size_t e = 0; e < n; ++e) reached[e] = std::min(from_left[e], from_right[e]) <= horizon;
    return reached;
}

double events_at(const Chain& chain, double delta, double horizon) {
    const std::vector<bool> reached = wave_reach(chain, horizon);
    const double t_min = chain.shortest_transit_time();
    double events = 0;
    for (std::size_t e = 0; e < reached.size(); ++e)
        if (reached[e]) events += horizon * (4 / (delta * t_min) + 10 / chain.elements()[e].transit_time);
    return events;
}

FrontBudgetPlan plan_front_budget(const Chain& chain, std::size_t budget, std::optional<double> horizon,
                                  double event_budget) {
    FrontBudgetPlan plan = plan_for_memory(chain, budget);
    if (!horizon) return plan;
    // events_at() is a / delta + b: the resolution whose merged fronts cost event_budget.
    const double b = events_at(chain, std::numeric_limits<double>::infinity(), *horizon);
    const double a = events_at(chain, 1, *horizon) - b;
    const double merged_budget = 0.5 * event_budget;
    const double for_work = merged_budget > b ? std::min(a / (merged_budget - b), largest_time_resolution)
                                              : largest_time_resolution;
    plan.event_budget = event_budget;
    plan.coarsest_work = 2 * (a / largest_time_resolution + b);
    const double exact_for_work = 0.5 * event_budget * chain.shortest_transit_time() / *horizon;
    if (exact_for_work < static_cast<double>(plan.exact_fronts))
        plan.work_exact_fronts = std::max<std::size_t>(1, static_cast<std::size_t>(exact_for_work));
    if (for_work > plan.finest) {
        plan.finest = for_work;
        plan.work_set = true;
    }
    return plan;
}


}  // namespace rodcollide
