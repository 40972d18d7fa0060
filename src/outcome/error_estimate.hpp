// A solver's error estimate from two runs at different resolutions (Roache 1994, the grid
// convergence index): both solvers estimate the error of their final velocities this way when
// their run approximated something (docs/finite_difference.md, "Error estimate"; docs/physics.md §5.1).
#pragma once

#include "rodcollide/outcome.hpp"

namespace rodcollide {

/// How a two-run estimate is formed: the runs' resolutions differ by `ratio` (> 1), the error
/// is taken to fall as resolution^order, and `safety` is Roache's factor of safety.
struct ConvergenceIndex {
    double ratio = 2;
    double order = 1;
    double safety = 3;
};

/// Estimated error of `fine`'s final velocities [m/s]:
///   safety x max_i |u_i(fine) - u_i(coarse)| / (ratio^order - 1),
/// and never below `floor` [m/s] (rounding).
double two_run_estimate(const Outcome& fine, const Outcome& coarse, const ConvergenceIndex& index, double floor);

}  // namespace rodcollide
