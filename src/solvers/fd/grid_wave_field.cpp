// A finite-difference run's wave field from its element ends' emissions (grid_wave_field.hpp).
#include "solvers/fd/grid_wave_field.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rodcollide {

GridWaveField::GridWaveField(const Chain& chain, const std::vector<std::size_t>& rods, std::size_t max_fronts)
    : field_(chain), max_fronts_(max_fronts) {
    for (std::size_t rod : rods)
        for (std::size_t e : chain.element_indices(rod)) {
            const bool seen = std::any_of(elements_.begin(), elements_.end(), [e](const Recorded& r) { return r.element == e; });
            const Element& el = chain.elements()[e];
            if (!seen) elements_.push_back({e, el.transit_time, el.initial_velocity, el.initial_velocity});
        }
}

void GridWaveField::record(const StaggeredGrid& grid, double step_start) {
    for (Recorded& r : elements_) {
        // Emitted over [step_start, step_start + dt): arrives at the element's far end one transit later.
        const double alpha = grid.newest_alpha_emitted(r.element), beta = grid.newest_beta_emitted(r.element);
        if (alpha != r.alpha) {
            field_.alpha_arrivals(r.element).push(step_start + r.transit_time, alpha);
            r.alpha = alpha;
            ++fronts_;
        }
        if (beta != r.beta) {
            field_.beta_arrivals(r.element).push(step_start + r.transit_time, beta);
            r.beta = beta;
            ++fronts_;
        }
    }
    if (fronts_ > max_fronts_)
        throw SolverLimitExceeded(fmt::format(
            "finite differences: the gauges' wave field reached max_fronts = {} stored values at t = {:g}; raise "
            "[solver] max_fronts (--max-fronts), set [solver] end_time, or use the characteristics method",
            max_fronts_, step_start));
}

WaveField GridWaveField::finish(double valid_until) && {
    field_.set_valid_until(valid_until);
    return std::move(field_);
}

}  // namespace rodcollide
