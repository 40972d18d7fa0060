// A solver's error estimate from runs at different resolutions (Roache 1994, the grid convergence
// index): both solvers estimate the error of their final velocities this way when their run
// approximated something (docs/finite_difference.md, "Error estimate"; docs/physics.md §5.1).
#pragma once

#include "rodcollide/outcome.hpp"

#include <span>

namespace rodcollide {

/// How a two-run estimate is formed: the runs' resolutions differ by `ratio` (> 1), the error
/// is taken to fall as resolution^order, and `safety` is Roache's factor of safety.
struct ConvergenceIndex {
    double ratio = 2;
    double order = 1;
    double safety = 3;
};

/// max_i |u_i(a) - u_i(b)| over the rods' final velocities [m/s].
double final_velocity_difference(const Outcome& a, const Outcome& b);

/// Estimated error of `fine`'s final velocities [m/s]:
///   safety x max_i |u_i(fine) - u_i(coarse)| / (ratio^order - 1),
/// and never below `floor` [m/s] (rounding).
double two_run_estimate(const Outcome& fine, const Outcome& coarse, const ConvergenceIndex& index, double floor);

/// One run of a sequence for run_sequence_estimate(): its outcome and its resolution (cells).
struct ResolvedRun {
    const Outcome* outcome = nullptr;
    double resolution = 0;
};

/// Estimated error of the finest of several runs [m/s], `runs` finest first (resolutions strictly
/// decreasing, at least two): each successive pair (n_k, n_k+1) gives the two-run estimate of its
/// finer run, safety x max_i |u_i(n_k) - u_i(n_k+1)| / ((n_k / n_k+1)^order - 1), carried to the
/// finest run n_0 at the same order, x (n_k / n_0)^order; the largest of these, never below
/// `floor`. With two runs it is two_run_estimate(). Several pairs guard against two runs that
/// agree by chance while both are off (docs/finite_difference.md, "Error estimate").
double run_sequence_estimate(std::span<const ResolvedRun> runs, double order, double safety, double floor);

}  // namespace rodcollide
