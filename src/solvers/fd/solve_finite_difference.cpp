// The finite-difference solver's error estimate and default refinement (finite_difference.hpp;
// derivation and validation in docs/finite_difference.md, "Error estimate").
//
// A run on N cells (shortest rod) is repeated on about N / sqrt(2). Off the commensurate case the
// final velocities converge at order 1 to 1.5, with a sawtooth in N from off-grid events, so the
// error of the fine run is estimated as Roache's grid convergence index for two grids (Roache
// 1994: the two-grid safety factor 3) at the lowest observed order, p = 1:
//   E(N) = 3 max_i |u_i(N) - u_i(N')| / (r - 1),  r = N / N' (about sqrt(2)),
// and never below rounding (finite_difference_rounding x V). A run at Courant 1 in every rod with
// every gap closing on a grid time is exact, and needs no second run. The ratio is not 2 on purpose: the
// error depends on where each off-grid event falls in its step, and a grid and its double share
// those phases (measured: N and N/2 often agree to 1e-14 while both are 1e-4 off), whereas N and
// N / sqrt(2) do not. With the default resolution, while the estimate exceeds the target the grid
// is refined by sqrt(2) and the previous fine run becomes the coarse one, so each level costs one
// new run (2x the last: cells and steps both grow by sqrt(2)), until the next would pass the work
// limit.
#include "outcome/error_estimate.hpp"
#include "solvers/fd/finite_difference.hpp"
#include "outcome/outcome_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace rodcollide {

namespace {

/// The velocity error [m/s] the scheme's own energy defect reveals. Approximations only remove
/// energy; energy the scheme created (dropped < 0, at grazing re-contacts) is evidence of error
/// that two phase-locked grids can miss (fuzz/regressions/fd_accuracy_claim.toml). A relative
/// velocity error a changes energies by a (2 + a) of their scale (outcome_check.cpp), so the
/// error is at least the a that explains the created energy (with 1% margin for rounding).
double energy_defect_error(const Outcome& o, double scale) {
    const EnergyBalance& e = o.energy;
    if (!(e.dropped < 0)) return 0;
    const double energy_scale = e.scale();
    if (!(energy_scale > 0)) return 0;
    const double created = -e.dropped / energy_scale;
    return 1.01 * created / (std::sqrt(1 + created) + 1) * scale;  // sqrt(1 + r) - 1, without cancellation
}

/// The estimate above of the fine run's velocity error [m/s] from a coarser run: order 1,
/// Roache's safety factor 3 for a two-grid estimate.
double richardson_estimate(const FiniteDifferenceSolution& fine, const FiniteDifferenceSolution& coarse, double scale) {
    const double r = static_cast<double>(fine.grid.shortest_rod_cells) / static_cast<double>(coarse.grid.shortest_rod_cells);
    return two_run_estimate(fine.outcome, coarse.outcome, {.ratio = r, .order = 1, .safety = 3},
                            finite_difference_rounding * scale);
}

/// Fewest cells (shortest element) of the coarser grid of an estimate. Below it two grids can
/// agree while both are far off (fuzz/regressions/fd_accuracy_claim.toml: 4 and 2 cells agreed
/// to 1e-10 V and were 5e-7 V off), so no estimate is made.
constexpr std::size_t smallest_estimate_cells = 8;

/// Grid refinement ratio between the two runs of an estimate and between refinement levels.
constexpr double refinement_ratio = 1.4142135623730951;

/// The grid an estimate compares `fine` with: about fine / sqrt(2) cells, and truly coarser (a
/// commensurate grid rounds its cells up to a multiple of Q). nullopt if there is none.
std::optional<GridLayout> coarser_grid(const Chain& chain, const GridLayout& fine) {
    for (auto c = static_cast<std::size_t>(static_cast<double>(fine.shortest_rod_cells) / refinement_ratio); c >= 1;
         c = static_cast<std::size_t>(static_cast<double>(c) / refinement_ratio)) {
        GridLayout g = choose_grid(chain, c);
        if (g.shortest_rod_cells < fine.shortest_rod_cells) return g;
    }
    return std::nullopt;
}

/// The next refinement level after `fine`: about sqrt(2) times its cells, and truly finer.
GridLayout finer_grid(const Chain& chain, const GridLayout& fine) {
    auto c = static_cast<std::size_t>(std::ceil(static_cast<double>(fine.shortest_rod_cells) * refinement_ratio));
    while (true) {
        GridLayout g = choose_grid(chain, c);  // throws InvalidResolution past the memory limit
        if (g.shortest_rod_cells > fine.shortest_rod_cells) return g;
        c = static_cast<std::size_t>(std::ceil(static_cast<double>(c) * refinement_ratio));
    }
}

}  // namespace

FiniteDifferenceSolution solve_finite_difference(const Chain& chain, const SolverOptions& options,
                                                 std::optional<FieldResolution> field,
                                                 const std::vector<std::size_t>& field_rods) {
    std::vector<std::string> warnings;
    const GridLayout first = starting_grid(chain, options, warnings);
    if (field) validate(*field);
    const bool default_resolution = options.cells == 0 && warnings.empty();
    const double scale = chain.velocity_scale();
    const double target = finite_difference_accuracy * scale;

    FiniteDifferenceSolution fine = solve_on_grid(chain, options, first, field, warnings, field_rods);
    double spent = work_done(fine);
    double estimate = std::numeric_limits<double>::infinity();
    std::size_t coarse_cells = 0, coarse_steps = 0;
    if (fine.exact()) {
        // Courant 1 in every element and every event on a grid time: the run is the method of
        // characteristics on its lattice, exact to rounding (docs/finite_difference.md).
        estimate = finite_difference_rounding * scale;
    } else if (const std::optional<GridLayout> coarse_grid = coarser_grid(chain, first);
               coarse_grid && coarse_grid->shortest_rod_cells >= smallest_estimate_cells) {
        try {
            const FiniteDifferenceSolution coarse = solve_on_grid(chain, options, *coarse_grid, std::nullopt, {});
            spent += work_done(coarse);
            estimate = richardson_estimate(fine, coarse, scale);
            coarse_cells = coarse.grid.shortest_rod_cells;
            coarse_steps = coarse.outcome.stats.events;
        } catch (const SolverLimitExceeded&) {
            // The coarse run did not settle within the limit: no estimate (reported as such).
        }
    }
    // Refine while the estimate misses the target and the next level fits the work limit.
    while (default_resolution && std::isfinite(estimate) && estimate > target) {
        std::optional<GridLayout> next;
        try {
            next = finer_grid(chain, fine.grid);
        } catch (const InvalidResolution&) {
            break;  // over the memory limit
        }
        const double ratio = static_cast<double>(next->shortest_rod_cells) / static_cast<double>(fine.grid.shortest_rod_cells);
        if (spent + ratio * ratio * work_done(fine) > largest_cell_updates) break;
        try {
            FiniteDifferenceSolution finer = solve_on_grid(chain, options, *next, field, warnings, field_rods);
            spent += work_done(finer);
            estimate = richardson_estimate(finer, fine, scale);
            coarse_cells = fine.grid.shortest_rod_cells;
            coarse_steps = fine.outcome.stats.events;
            fine = std::move(finer);
        } catch (const SolverLimitExceeded&) {
            break;  // keep the last run that finished, and say that it misses the target
        }
    }

    Outcome& o = fine.outcome;
    estimate = std::max(estimate, energy_defect_error(o, scale));
    o.velocity_error_bound = estimate;
    o.velocity_error_kind = Outcome::ErrorKind::estimate;
    o.accuracy = scale > 0 ? estimate / scale : finite_difference_rounding;
    o.stats.estimate_cells = coarse_cells;
    o.stats.estimate_events = coarse_steps;
    o.stats.velocity_error_target = target;
    o.stats.velocity_error_target_met = estimate <= target;
    if (!std::isfinite(estimate) && coarse_cells == 0 && fine.grid.shortest_rod_cells < 2 * smallest_estimate_cells)
        o.warnings.push_back(fmt::format(
            "finite differences: no error estimate: {} cells in the shortest element are too few for a coarser "
            "grid of at least {} to compare with; use cells >= {}",
            fine.grid.shortest_rod_cells, smallest_estimate_cells, 2 * smallest_estimate_cells));
    else if (!std::isfinite(estimate))
        o.warnings.push_back(
            "finite differences: no error estimate: the coarser run for it did not finish within the work limit");
    else if (estimate > target)
        o.warnings.push_back(fmt::format(
            "finite differences: estimated velocity error {:.2g} m/s ({:.2g} of the velocity scale) misses the "
            "target {:.0e} of the velocity scale{}; use more cells or the characteristics method",
            estimate, estimate / scale, finite_difference_accuracy,
            default_resolution ? " within the work limit" : ""));
    // The self-check of build_outcome held the run to its grid's accuracy; the outcome now states
    // the estimate's, so it is checked again against what it claims.
    check_outcome(o);
    return fine;
}

}  // namespace rodcollide
