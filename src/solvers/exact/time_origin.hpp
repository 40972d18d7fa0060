// The front tracker's moving time origin (docs/physics.md §6.6): when only the outcome is wanted
// and the chain's ends are free (loads and walls keep absolute times), the solver's time 0 moves
// forward to the next group's time whenever that lies more than a longest period past it, so that
// the times it computes carry the rounding of a few transit times however long the run. This
// class keeps the policy and the absolute time of the origin; the tracker's move_time_origin()
// moves every stored time with it (time_shift.hpp).
#pragma once

#include "solvers/shared/time_shift.hpp"

#include <cmath>
#include <limits>

namespace rodcollide::exact {

class TimeOrigin {
public:
    /// `on`: the origin moves; `rebase_after` [s]: how far past it the next group must lie.
    TimeOrigin(bool on, double rebase_after) : on_(on), rebase_after_(on ? rebase_after : inf) {}

    bool on() const { return on_; }
    /// Absolute time of the solver's time 0 [s], rounded once (for what is reported).
    double origin() const { return hi_ + lo_; }
    /// An absolute time (the horizon) relative to the origin [s].
    double relative(double absolute) const { return (absolute - hi_) - lo_; }
    /// Whether the origin moves before a group at the solver's time t.
    bool due(double t) const { return on_ && t > rebase_after_; }
    /// Moves the origin to the solver's time t; returns the shift of every stored time (t becomes
    /// about 0): the difference from the old origin to the double nearest o + t, exact as hi + lo,
    /// while that lands t within rebase_after of 0 (the times the solver computes stay a few
    /// periods). Beyond o = 2 T_max / eps (1e12 s for steel rods up to 0.5 m) the double nearest
    /// o + t can lie farther from it than the transit times: the group would stay at
    /// t - (fl(o + t) - o), up to half an ulp of o from 0, and every time computed from it would
    /// carry the rounding of that residue. A 60-rod chain with gaps kept colliding out to 3e41 s
    /// (bench/study/chain_60_gaps_member132.toml at time_resolution = 0.02): at 5e21 s its groups
    /// lay 5e5 s from the origin, every time was rounded by 1e-10 s (5e-6 T_min), arrivals 5e-9 s
    /// apart were grouped as simultaneous, and 40% of the momentum was lost. There the shift is t
    /// itself (t becomes exactly 0), and the origin is the sum of the moves, held as hi + lo
    /// (TwoSum), for what is reported and the horizon (relative()).
    TimeShift move_to(double t) {
        if (lo_ == 0) {
            const double rounded = hi_ + t;
            const TimeShift shift = TimeShift::between(hi_, rounded);
            if (std::abs(shift(t)) <= rebase_after_) {
                hi_ = rounded;
                return shift;
            }
        }
        const double sum = hi_ + t, t_part = sum - hi_;
        const double rest = ((hi_ - (sum - t_part)) + (t - t_part)) + lo_;  // TwoSum(hi, t) + lo
        hi_ = sum + rest;
        lo_ = rest - (hi_ - sum);
        return TimeShift{t, 0};
    }

private:
    static constexpr double inf = std::numeric_limits<double>::infinity();
    bool on_ = false;
    double rebase_after_ = inf;
    double hi_ = 0, lo_ = 0;  // the origin, the sum of the moves: hi_ + lo_ (to 2^-105 of it)
};

}  // namespace rodcollide::exact
