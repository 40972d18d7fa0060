// Moving a time origin forward (docs/physics.md §6.6). The exact solver can keep its times relative
// to an origin near the current time, so that every time it adds or subtracts has the magnitude
// of a few transit times and carries a rounding of eps x (a few T), not eps x t. Moving the origin
// from o to o' shifts every stored time s by o' - o. That difference is held exactly as hi + lo
// (Knuth's TwoSum), and s - hi is exact by Sterbenz's lemma whenever hi/2 <= s <= 2 hi, which
// holds for every time near the new origin; lo is 0 unless the origin jumps by more than itself.
// Where the origin is too large for a double near it to land near the group (time_origin.hpp), the
// shift is the group's time itself. Times that skip moves (an element asleep) are shifted once
// later by the sum of the shifts they skipped, held the same way.
#pragma once

namespace rodcollide {

struct TimeShift {
    double hi = 0, lo = 0;  ///< the shift is hi + lo exactly [s]

    /// The shift from origin `from` to origin `to` (both absolute) [s].
    static TimeShift between(double from, double to) {
        TimeShift s;
        s.hi = to - from;
        const double to_part = s.hi + from, from_part = s.hi - to_part;  // TwoSum(to, -from)
        s.lo = (to - to_part) + (-from - from_part);
        return s;
    }
    /// This shift followed by `next`: their sum, held as hi + lo (TwoSum of the two his, then
    /// renormalized: hi is the sum rounded, as between() has it for the two origins' difference),
    /// for times that skip moves and are shifted once later (WaveField::freeze()).
    TimeShift then(const TimeShift& next) const {
        const double sum = hi + next.hi, next_part = sum - hi;
        const double rest = ((hi - (sum - next_part)) + (next.hi - next_part)) + (lo + next.lo);
        TimeShift s;
        s.hi = sum + rest;
        s.lo = rest - (s.hi - sum);
        return s;
    }
    /// A time relative to the old origin, made relative to the new one [s].
    double operator()(double t) const { return (t - hi) - lo; }
};

}  // namespace rodcollide
