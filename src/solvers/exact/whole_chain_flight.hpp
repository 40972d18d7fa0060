// Whole-chain free flight (docs/physics.md §6.6), apart from the front tracker's event loop: with
// no contact carrying force, every rod of a chain of free rods moves periodically about its
// drift, so the whole chain can be advanced at once to just before the next possible closing
// (free_flight.hpp), or to the settling time or the horizon, by rebuilding each rod's arrivals
// there from its periodic motion. Only chains whose rods do not sleep take such flights (a load
// on a free end: sleeping rods, asleep_rods.hpp, make them unnecessary), so every rod is awake
// when one starts.
#pragma once

#include "solvers/exact/tracked_chain.hpp"
#include "solvers/shared/chain_end_state.hpp"
#include "solvers/shared/time_shift.hpp"

#include <cstddef>

namespace rodcollide::exact {

class WholeChainFlight {
public:
    /// `on`: flights are taken (free-flight skipping, no history kept, rods that do not sleep).
    WholeChainFlight(TrackedChain& chain, TrackerActions& tracker, const ChainEndState& chain_ends, bool on)
        : chain_(chain), tracker_(tracker), chain_ends_(chain_ends), on_(on) {}

    /// Whether a flight may be tried at t (at most once per longest period after a failed try).
    bool due(double t) const { return on_ && t >= next_try_; }
    /// With no contact carrying force at t: flies the chain to the next possible closing, or to
    /// `until` (the settling time or the horizon) if that comes first, when the flight is worth
    /// more than a longest period; otherwise nothing changes.
    void fly(double t, double until);
    /// Flights taken so far.
    std::size_t flights() const { return flights_; }

    /// The time origin moved (the tracker's move_time_origin()).
    void shift_times(const TimeShift& shift) { next_try_ = shift(next_try_); }

private:
    TrackedChain& chain_;
    TrackerActions& tracker_;
    const ChainEndState& chain_ends_;
    bool on_ = false;
    double next_try_ = 0;  // [s]
    std::size_t flights_ = 0;
};

}  // namespace rodcollide::exact
