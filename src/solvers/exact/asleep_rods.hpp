// Rods asleep in free flight (docs/physics.md §6.7), apart from the front tracker's event loop.
// A rod whose two ends are free (open contacts, free chain ends) moves periodically about its
// drift for as long as they stay free. Asleep, its reflections are not processed: its ends follow
// the periodic paths it had when it fell asleep, its neighbours reflect at their own ends as
// before, and each of its contacts has a wake-up time before which the gap provably stays open
// (closing_lower_bound() against the neighbour's path, or against the neighbour's end moving
// steadily until its next arrival there). At the wake-up time the rod's arrivals are rebuilt from
// its paths (as after a whole-chain flight) and it is processed as before.
//
// The tracker asks: is a rod asleep (asleep(), has_sleeper()), a junction beside a sleeper is due
// (beside_sleeper()), a group touched these rods (try_sleep()), wake everyone (wake_all()), a rod's
// momentum (momentum()), and moves the time origin (shift_times()). The rest is private.
#pragma once

#include "solvers/exact/free_flight.hpp"
#include "solvers/exact/tracked_chain.hpp"
#include "solvers/shared/time_shift.hpp"

#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace rodcollide::exact {

class AsleepRods {
public:
    /// `on`: rods may sleep (free-flight skipping on a chain without loads or walls).
    AsleepRods(TrackedChain& chain, TrackerActions& tracker, bool on);

    bool on() const { return on_; }
    /// Whether element e is asleep (false for e < 0: no element).
    bool asleep(std::ptrdiff_t e) const { return on_ && e >= 0 && sleep_[static_cast<std::size_t>(e)].asleep; }
    /// Whether a rod beside junction j is asleep.
    bool has_sleeper(std::size_t j) const {
        return asleep(chain_.junctions[j].left) || asleep(chain_.junctions[j].right);
    }
    /// The wake-up time of the contact at junction j, while a rod beside it sleeps [s].
    double wake_time(std::size_t j) const { return wake_[j]; }

    /// Junction j, beside a sleeper, at its event time t (the group reads up to read_until): the
    /// gap's exact value now; at the wake-up time, a new bound from here, and the sleepers woken
    /// if the contact may close soon. Returns whether a rod beside j still sleeps: the contact is
    /// then open and each awake end reflects its own arrivals (the tracker's
    /// reflect_beside_sleeper(), which then calls rearm()).
    bool beside_sleeper(std::size_t j, double t, double read_until);
    /// After an awake end beside a sleeper reflected at t: the contact's wake-up time from there.
    void rearm(std::size_t j, double t) { arm_wake(j, t); }

    // An awake end beside a sleeper reflecting ahead of the event loop (docs/physics.md §6.8): it
    // follows `awake`, its known arrivals from t (a path over one transit, exact up to `limit`).
    /// How long after t the open contact at junction j, synced at t, provably stays open [s], up to `limit`.
    double open_for(std::size_t j, double t, const PeriodicPath& awake, double limit) const;
    /// The gap at junction j, synced at t, brought to t + u with the awake end along `awake`.
    void sync_gap_along(std::size_t j, double t, const PeriodicPath& awake, double u);
    /// The gap at junction j brought to t, its awake end steady since the last sync.
    void sync(std::size_t j, double t) { sync_gap(j, t); }
    /// Junction j's sync and wake-up times, to be taken back with the reflections made ahead.
    struct Sync {
        double synced = 0, wake = 0;  // [s]
    };
    Sync sync_state(std::size_t j) const { return {synced_[j], wake_[j]}; }
    void restore_sync_state(std::size_t j, const Sync& s) {
        synced_[j] = s.synced;
        wake_[j] = s.wake;
    }

    /// Puts element e (a rod) to sleep at t if both its ends are free and neither contact can
    /// close within a period (or before the neighbour's next arrival), at most once per period.
    void try_sleep(std::size_t e, double t);
    /// Wakes every rod at t.
    void wake_all(double t);
    /// A rod's momentum at t; asleep, the one it fell asleep with.
    double momentum(std::size_t i, double t) const {
        return asleep(static_cast<std::ptrdiff_t>(i)) ? sleep_[i].momentum : chain_.field.momentum(i, t);
    }
    /// Rods put to sleep so far.
    std::size_t sleeps() const { return sleeps_; }

    /// The time origin moved (the tracker's move_time_origin()): every stored time with it.
    void shift_times(const TimeShift& shift);

private:
    /// A rod asleep in free flight: its reflections are not processed; its two ends follow the
    /// periodic paths it had when it fell asleep.
    struct Sleep {
        bool asleep = false;
        double since = 0;     // [s]: when it fell asleep (the paths' start)
        double momentum = 0;  // [N s]: constant while free
        double next_try = 0;  // [s]: falling asleep is tried at most once per period
        std::optional<std::pair<PeriodicPath, PeriodicPath>> paths;  // right end, left end, from `since`
    };

    const Element& element(std::ptrdiff_t e) const { return chain_.elements[static_cast<std::size_t>(e)]; }
    double shortest_sleeper_period(std::size_t j) const;
    EndView end_view(std::size_t e, bool right_end, double t) const;
    /// Junction j's two ends from t: a sleeper's along its path, the awake one along `awake`.
    std::pair<EndView, EndView> ends_along(std::size_t j, double t, const PeriodicPath& awake) const;
    void sync_gap(std::size_t j, double t);
    bool arm_wake(std::size_t j, double t);
    double inert_until(std::size_t j, double t) const;
    bool arrivals_pending(std::size_t e, double t) const;
    void restore_rate(std::size_t j, double t);
    void wake(std::size_t e, double t);

    TrackedChain& chain_;
    TrackerActions& tracker_;
    bool on_ = false;
    std::vector<Sleep> sleep_;    // per element
    std::vector<double> wake_;    // per junction: wake-up time of a contact with a sleeper [s]
    std::vector<double> synced_;  // per junction: when that contact's gap was last synced [s]
    std::size_t sleeps_ = 0;
};

}  // namespace rodcollide::exact
