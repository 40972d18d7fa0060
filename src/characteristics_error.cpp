// The exact solver's error estimate (characteristics.hpp; derivation and validation in
// docs/physics.md §5.1, "Error estimate"). A run that merged fronts below its time resolution or
// dropped jumps below its drop tolerance is repeated with that resolution (tolerance) doubled, and
// the error of the first is estimated as a two-run convergence index (error_estimate.hpp, Roache
// 1994): E = S max_i |u_i(delta) - u_i(2 delta)| / (2^p - 1), with the order p = 1/2 measured on
// seeded mismatched chains and Roache's safety factor S = 3 for two runs. The coarser run merges
// more and costs about half as much (the stored fronts scale as 1 / delta); a run that
// approximated nothing is exact and reports a bound of 0 without a second run.
#include "rodcollide/characteristics.hpp"
#include "rodcollide/error_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

/// The coarser run's resolution and drop tolerance, relative to the first run's, and the estimate:
/// order 1/2 (the median order measured, docs/physics.md §5.1) and Roache's safety factor 3 for two
/// runs, so E = 3 |u(delta) - u(2 delta)| / (sqrt(2) - 1) = 7.24 |u(delta) - u(2 delta)|.
constexpr double coarsening = 2;
constexpr ConvergenceIndex merge_index{.ratio = coarsening, .order = 0.5, .safety = 3};

}  // namespace

CharacteristicsSolution solve_characteristics(const Chain& chain, const SolverOptions& options) {
    CharacteristicsSolution s = track_fronts(chain, options);
    Outcome& o = s.outcome;
    if (o.velocity_error_bound == 0) return s;  // nothing approximated: exact to rounding
    // Only what acted is coarsened: a run that merged (dropped) nothing is the run with no
    // merging (dropping), computation for computation.
    SolverOptions coarse = options;
    if (o.stats.merged_fronts > 0) coarse.time_resolution *= coarsening;
    if (o.stats.dropped_fronts > 0) coarse.drop_tolerance *= coarsening;
    coarse.keep_history = false;  // only its outcome is wanted
    coarse.record_until.reset();
    coarse.record_after_settling = 0;
    coarse.force_samples = 0;
    const double scale = chain.velocity_scale();
    o.velocity_error_kind = Outcome::ErrorKind::estimate;
    try {
        const Outcome c = track_fronts(chain, coarse).outcome;
        o.velocity_error_bound = two_run_estimate(o, c, merge_index, characteristics_rounding * scale);
        o.stats.estimate_events = c.stats.events;
    } catch (const SolverLimitExceeded& e) {
        o.velocity_error_bound = std::numeric_limits<double>::infinity();
        o.warnings.push_back(fmt::format(
            "characteristics: no error estimate for the merged or dropped fronts: the coarser run for it stopped ({})",
            e.what()));
    }
    if (scale > 0) o.accuracy = std::max(o.accuracy, o.velocity_error_bound / scale);
    return s;
}

}  // namespace rodcollide
