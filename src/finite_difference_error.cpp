// The finite-difference solver's error estimate and default refinement (finite_difference.hpp;
// derivation and validation in docs/finite_difference.md, "Error estimate").
//
// A run on N cells (shortest rod) is repeated on N/2. Off the commensurate case the final
// velocities converge at order 1 to 1.5, with a sawtooth in N from off-grid events, so the error
// of the fine run is estimated as Roache's grid convergence index for two grids (Roache 1994:
// the two-grid safety factor 3) at the lowest observed order, p = 1:
//   E(N) = 3 max_i |u_i(N) - u_i(N/2)| / (r - 1),  r = N / (N/2) (2, or near it once rounded),
// and never below rounding (characteristics_rounding x V). The safety factor covers the sawtooth:
// two grids can happen to sit at similar phases (docs/finite_difference.md has the measured
// ratios of estimate to true error).
// With the default resolution, while the estimate exceeds the target the grid is doubled and the
// previous fine run becomes the coarse one, so each level costs one new run (4x the last: cells
// and steps both double), until the next would pass the work limit.
#include "rodcollide/characteristics.hpp"
#include "rodcollide/finite_difference.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

/// Roache's safety factor for a two-grid estimate.
constexpr double safety_factor = 3;

/// The estimate above of the fine run's velocity error [m/s] from a coarser run.
double richardson_estimate(const FiniteDifferenceSolution& fine, const FiniteDifferenceSolution& coarse, double scale) {
    double difference = 0;
    for (std::size_t i = 0; i < fine.outcome.rods.size(); ++i)
        difference = std::max(difference, std::abs(fine.outcome.rods[i].final_velocity -
                                                   coarse.outcome.rods[i].final_velocity));
    const double r = static_cast<double>(fine.grid.shortest_rod_cells) / static_cast<double>(coarse.grid.shortest_rod_cells);
    return std::max(safety_factor * difference / (r - 1), characteristics_rounding * scale);
}

/// The coarser grid an estimate compares with: half the cells (at least 1, and always fewer).
std::size_t estimate_cells(const GridLayout& fine) { return std::max<std::size_t>(1, fine.shortest_rod_cells / 2); }

}  // namespace

FiniteDifferenceSolution solve_finite_difference(const Chain& chain, const SolverOptions& options,
                                                 std::optional<FieldResolution> field) {
    require_finite_difference_support(chain);
    std::vector<std::string> warnings;
    const GridLayout first = starting_grid(chain, options, warnings);
    if (field) validate(*field);
    const bool default_resolution = options.cells == 0 && warnings.empty();
    const double scale = chain.velocity_scale();
    const double target = finite_difference_accuracy * scale;

    FiniteDifferenceSolution fine = solve_on_grid(chain, options, first, field, warnings);
    double spent = work_done(fine);
    double estimate = std::numeric_limits<double>::infinity();
    std::size_t coarse_cells = 0;
    if (first.shortest_rod_cells > 1) {
        try {
            const FiniteDifferenceSolution coarse =
                solve_on_grid(chain, options, choose_grid(chain, estimate_cells(first)), std::nullopt, {});
            spent += work_done(coarse);
            if (coarse.grid.shortest_rod_cells < first.shortest_rod_cells) {
                estimate = richardson_estimate(fine, coarse, scale);
                coarse_cells = coarse.grid.shortest_rod_cells;
            }
        } catch (const SolverLimitExceeded&) {
            // The coarse run did not settle within the limit: no estimate (reported as such).
        }
    }
    // Refine while the estimate misses the target and the next level (4x the last run) fits.
    while (default_resolution && std::isfinite(estimate) && estimate > target &&
           spent + 4 * work_done(fine) <= largest_cell_updates) {
        const GridLayout next = choose_grid(chain, 2 * fine.grid.shortest_rod_cells);
        if (next.total_cells() > largest_total_cells) break;
        try {
            FiniteDifferenceSolution finer = solve_on_grid(chain, options, next, field, warnings);
            spent += work_done(finer);
            estimate = richardson_estimate(finer, fine, scale);
            coarse_cells = fine.grid.shortest_rod_cells;
            fine = std::move(finer);
        } catch (const SolverLimitExceeded&) {
            break;  // keep the last run that finished, and say that it misses the target
        }
    }

    Outcome& o = fine.outcome;
    o.velocity_error_bound = estimate;
    o.accuracy = scale > 0 ? estimate / scale : characteristics_rounding;
    o.stats.estimate_cells = coarse_cells;
    o.stats.velocity_error_target = target;
    o.stats.velocity_error_target_met = estimate <= target;
    if (!std::isfinite(estimate))
        o.warnings.push_back(
            "finite differences: no error estimate: the coarser run for it did not finish within the work limit");
    else if (estimate > target)
        o.warnings.push_back(fmt::format(
            "finite differences: estimated velocity error {:.2g} m/s ({:.2g} of the velocity scale) misses the "
            "target {:.0e} of the velocity scale{}; use more cells or the characteristics method",
            estimate, estimate / scale, finite_difference_accuracy,
            default_resolution ? " within the work limit" : ""));
    return fine;
}

}  // namespace rodcollide
