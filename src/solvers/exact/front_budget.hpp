// How a solve without time_resolution divides its memory budget of stored fronts (docs/physics.md
// §5.1, "Accuracy by default"): fronts are tracked exactly up to exact_fronts, then merged at a time
// resolution whose merged fronts fit what exact tracking leaves. The bound on the merged fronts is
// fronts_at() (the one tests/solvers/exact/test_front_merging.cpp checks); every element holds a
// margin of 148 of them, so a long chain (about 5,400 elements at the default 1.6 M fronts) leaves
// no room in half the budget even at the coarsest resolution: the plan then gives exact tracking
// less than half, and says when no split holds the bound at all.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace rodcollide {

/// Stored fronts the memory budget holds: max_memory / resident_bytes_per_front, at most max_fronts.
std::size_t front_budget(const SolverOptions& options);

/// Stored fronts the chain may hold once merged at time resolution delta (relative to T_min): each
/// history 2T/delta + 5 pieces in flight, as many again arrived, and 64 kept as margin, two
/// histories per element.
double fronts_at(const Chain& chain, double delta);

/// The work budget of a run to a horizon (end_time) that must merge: the event groups its merged
/// fronts may cost by events_at(), SolverOptions::max_work (default_max_work, 10^7: about 2-3 s of
/// one core at 200-300 ns per group; its estimate's run at twice the resolution costs about half
/// again). Stored fronts beyond what this pays for buy no accuracy a user could use
/// (docs/scaling.md, "Runs to a horizon"), so a horizon run merges at the coarser of the
/// resolution the memory budget allows and the one this budget allows (at most half of
/// max_events: solve_to_accuracy()).
double horizon_event_budget(const SolverOptions& options);

/// Event groups the merged fronts may cost on the way to `horizon` [s] at time resolution delta
/// (relative to T_min): every element a wave can reach by the horizon (wave_reach()) holds at
/// most 2T/delta + 5 pieces in flight per history (the bound fronts_at() counts), each arriving
/// once, so its two histories see at most horizon (4 / (delta T_min) + 10 / T_e) arrivals; event
/// groups are at most the arrivals.
double events_at(const Chain& chain, double delta, double horizon);

/// The elements a wave can reach by `horizon` [s]: those within a sum of transit times <= horizon
/// of a junction whose two sides start at different velocities, or of an end that is not free or
/// is loaded. A gap delays a wave (it crosses when the gap closes), so this over-counts; elements
/// beyond hold the fronts they started with and cost no events.
std::vector<bool> wave_reach(const Chain& chain, double horizon);

struct FrontBudgetPlan {
    std::size_t exact_fronts = 0;  ///< fronts tracked exactly before merging begins
    double finest = 0;             ///< finest resolution (of T_min) whose merged fronts fit the rest [-]
    /// With a horizon: the fronts a run may store before it merges, for the work budget (half of
    /// it pays for them: each arrives at most once per T_min), when fewer than exact_fronts; a
    /// run whose fronts outgrow this is solved again with it in place of exact_fronts. 0: none.
    std::size_t work_exact_fronts = 0;
    /// Whether the work budget of a horizon run set `finest` (coarser than the memory budget's).
    bool work_set = false;
    double event_budget = 0;       ///< the work budget applied (0: no horizon, none)
    /// With a horizon: the work budget whose merged half pays for the coarsest resolution,
    /// 2 events_at(largest_time_resolution); a smaller event_budget cannot hold the run to it.
    double coarsest_work = 0;
    /// Whether exact_fronts + fronts_at(finest) <= budget. If not, even the coarsest resolution's
    /// merged fronts exceed the whole budget by the bound: the plan is half exact and the coarsest
    /// resolution, and the run may still outgrow the budget (the bound is a worst case: a run to a
    /// horizon reaches only the rods its waves reach).
    bool bounded = true;
};

/// The plan for `budget` stored fronts: half exact and the finest resolution whose merged fronts
/// fit the other half, when the coarsest resolution (largest_time_resolution) fits it; else exact
/// tracking gets what the merged fronts at the coarsest resolution leave of the budget; else
/// (bounded = false) half exact at the coarsest resolution.
/// With a horizon (end_time, or record_until beyond it), the work budget is split: half for the
/// fronts stored before merging (work_exact_fronts = event_budget/2 x T_min / horizon, when fewer
/// than exact_fronts), half for the merged fronts by events_at(), and `finest` is no finer than
/// the resolution that half allows (work_set says when that decided). exact_fronts stays as
/// above: a run whose fronts fit it is exact as before (solve_to_accuracy() tries that first).
FrontBudgetPlan plan_front_budget(const Chain& chain, std::size_t budget, std::optional<double> horizon = {},
                                  double event_budget = default_max_work);

}  // namespace rodcollide
