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

namespace rodcollide {

/// Stored fronts the memory budget holds: max_memory / resident_bytes_per_front, at most max_fronts.
std::size_t front_budget(const SolverOptions& options);

/// Stored fronts the chain may hold once merged at time resolution delta (relative to T_min): each
/// history 2T/delta + 5 pieces in flight, as many again arrived, and 64 kept as margin, two
/// histories per element.
double fronts_at(const Chain& chain, double delta);

struct FrontBudgetPlan {
    std::size_t exact_fronts = 0;  ///< fronts tracked exactly before merging begins
    double finest = 0;             ///< finest resolution (of T_min) whose merged fronts fit the rest [-]
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
FrontBudgetPlan plan_front_budget(const Chain& chain, std::size_t budget);

}  // namespace rodcollide
