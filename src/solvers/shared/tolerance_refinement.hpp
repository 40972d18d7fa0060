// The accuracy loop of the exact solver's error-controlled integrations, shared by the chains of
// rigid bodies (docs/physics.md §9.9) and the delay network (§9.10): a run at the step tolerance
// τ = accuracy and one at τ/100, whose largest velocity difference is the stated bound (the finer
// run's own error is about 1/100 of it); τ/100 again while the bound misses the target.
#pragma once

#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace rodcollide {

/// The last two runs of refine_tolerance() and what they show.
template <class Run>
struct RefinedRuns {
    Run coarse, fine;     ///< at 100 tol and at tol
    double tol = 0;       ///< the fine run's step tolerance
    double bound = 0;     ///< velocity error bound of the fine run [m/s] (bound_of(coarse, fine))
    std::string stopped;  ///< empty, or why a finer run stopped (its budget): refining ended there
};

/// Runs `run_at(τ)` at τ = max(target, smallest) and τ/100, then τ/100 again while
/// `bound_of(coarse, fine)` exceeds target·V, down to `smallest`. A finer run that exceeds a budget
/// (SolverLimitExceeded: max_work, max_events) ends the loop with the pair before it, whose bound
/// still holds, and says so in `stopped`; the first two runs' budgets are the caller's to meet.
template <class Run, class RunAt, class BoundOf>
RefinedRuns<Run> refine_tolerance(double target, double V, double smallest, RunAt&& run_at, BoundOf&& bound_of) {
    RefinedRuns<Run> r;
    r.coarse = run_at(std::max(target, smallest));
    r.tol = std::max(target / 100, smallest);
    r.fine = run_at(r.tol);
    r.bound = bound_of(r.coarse, r.fine);
    while (r.bound > target * V && r.tol > smallest) {
        const double finer = std::max(r.tol / 100, smallest);
        try {
            Run next = run_at(finer);
            r.coarse = std::move(r.fine);
            r.fine = std::move(next);
        } catch (const SolverLimitExceeded& e) {
            r.stopped = e.what();
            break;
        }
        r.tol = finer;
        r.bound = bound_of(r.coarse, r.fine);
    }
    return r;
}

/// The bound of a pair: the largest difference of the two runs' final velocities plus the fine
/// run's rounding, 10 ε V √(steps + 1) (each step rounds the velocities by a few ulps of V, at
/// random); +inf where one run settled and the other did not [m/s].
double pair_bound(const std::vector<double>& coarse_velocity, const std::vector<double>& fine_velocity,
                  bool coarse_settled, bool fine_settled, std::size_t fine_steps, double V);

/// The accuracy report of a refined pair with bound `bound` (the final one) against `target`:
/// met, or missed at the smallest tolerance or where a finer run stopped, then with a warning
/// (`pushed` onto `warnings`). `integrator` names the runs in the statement ("ODE", "delay
/// network"), `source` the warning's origin ("rigid bodies", "delay network").
AccuracyReport refined_accuracy_report(const char* integrator, const char* source, double bound, double V,
                                       double target, double tol, const std::string& stopped,
                                       std::vector<std::string>& warnings);

}  // namespace rodcollide
