// The front tracker's moving time origin (docs/physics.md §6.6): when only the outcome is wanted
// and the chain's ends are free (loads and walls keep absolute times), the solver's time 0 moves
// forward to the next group's time whenever that lies more than a longest period past it, so that
// the times it computes carry the rounding of a few transit times however long the run. This
// class keeps the policy and the absolute time of the origin; the tracker's move_time_origin()
// moves every stored time with it (time_shift.hpp).
#pragma once

#include "solvers/shared/time_shift.hpp"

#include <limits>

namespace rodcollide::exact {

class TimeOrigin {
public:
    /// `on`: the origin moves; `rebase_after` [s]: how far past it the next group must lie.
    TimeOrigin(bool on, double rebase_after) : on_(on), rebase_after_(on ? rebase_after : inf) {}

    bool on() const { return on_; }
    /// Absolute time of the solver's time 0 [s].
    double origin() const { return origin_; }
    /// Whether the origin moves before a group at the solver's time t.
    bool due(double t) const { return on_ && t > rebase_after_; }
    /// Moves the origin to the solver's time t; returns the shift of every stored time (t becomes
    /// about 0).
    TimeShift move_to(double t) {
        const double origin = origin_ + t;
        const TimeShift shift = TimeShift::between(origin_, origin);
        origin_ = origin;
        return shift;
    }

private:
    static constexpr double inf = std::numeric_limits<double>::infinity();
    bool on_ = false;
    double rebase_after_ = inf;
    double origin_ = 0;
};

}  // namespace rodcollide::exact
