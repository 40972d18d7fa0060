// What the front tracker (front_tracker.cpp) shares with the two helpers that skip work it need
// not do: rods asleep in free flight (asleep_rods.hpp) and whole-chain free flight
// (whole_chain_flight.hpp). The tracker owns the wave field, the contacts and each junction's
// transport state; TrackedChain lends them to the helpers, and TrackerActions is what the helpers
// ask the tracker to do in return (reschedule a junction, rebuild an element's arrivals). Nothing
// here decides physics: that stays in the tracker and in solvers/shared.
#pragma once

#include "rodcollide/elements.hpp"
#include "solvers/exact/free_flight.hpp"
#include "solvers/shared/arrival_window.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/wave_field.hpp"

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

namespace rodcollide::exact {

/// Rounding of large times, relative to |t|: part of an event group's simultaneity window.
inline constexpr double time_rounding = 1e-14;

/// Transport state of one junction: where it reads its arrivals and what it last emitted (its next
/// event time is in the EventQueue). Its physics is the model's (Junction, junction.hpp), its
/// contact history the ContactRecord's.
struct JunctionState {
    std::size_t cursor_alpha = 0;  // current piece of the left element's alpha history
    std::size_t cursor_beta = 0;   // current piece of the right element's beta history

    // Emitted and ideal (undropped) outgoing invariants, for energy accounting of dropped jumps.
    double emitted_left = 0, ideal_left = 0;    // beta into the left element
    double emitted_right = 0, ideal_right = 0;  // alpha into the right element
    double accounted_until = 0;                 // [s]
};

/// The tracker's chain as its helpers see it: the layout, the field, the contacts, each junction's
/// cursors, and the tolerances of one run.
struct TrackedChain {
    const std::vector<Element>& elements;
    const std::vector<Junction>& junctions;
    WaveField& field;
    ContactHistory& contacts;
    std::vector<JunctionState>& state;  // per junction
    double velocity_scale = 0;          // V [m/s]
    double velocity_tolerance = 0;      // contact opening tolerance [m/s]
    double time_tolerance = 0;          // simultaneous arrivals [s]

    /// Arrivals within this of t belong to the group at t [s].
    double group_tolerance(double t) const { return time_tolerance + time_rounding * std::abs(t); }

    /// The periodic paths of element e's right and left ends from t (free_flight.hpp).
    std::pair<PeriodicPath, PeriodicPath> end_paths_of(std::size_t e, double t) const {
        const ArrivalWindow alpha = field.alpha_window(e, t), beta = field.beta_window(e, t);
        const double period = 2 * elements[e].transit_time;
        return {PeriodicPath(alpha, beta, period), PeriodicPath(beta, alpha, period)};
    }
};

/// What the helpers ask of the tracker.
class TrackerActions {
public:
    /// Junction j's next event time, from its cursors, its contact and its chain end.
    virtual void reschedule(std::size_t j) = 0;
    /// Junction j is rescheduled again after the current event group.
    virtual void touch(std::size_t j) = 0;
    /// Element e's arrivals from `to` on: `alpha` and `beta` over [to, to + T), as its free ends
    /// have emitted them; each junction has read what arrived up to `to` and reflected it.
    virtual void restart_element(std::size_t e, const ArrivalWindow& alpha, const ArrivalWindow& beta, double to) = 0;
    /// Integrates junction j's dropped-jump energy up to t.
    virtual void account_energy(std::size_t j, double t) = 0;
    /// Element e falls asleep at t: its two junctions are free ends from then on, so the power of
    /// a jump they dropped ends at t.
    virtual void end_dropped_power(std::size_t e, double t) = 0;
    /// Junction j, if it reflected ahead of the event loop (an open contact, docs/physics.md
    /// §6.8), is brought back to where the loop would have left it at t (the current group).
    virtual void rewind(std::size_t j, double t) = 0;

protected:
    ~TrackerActions() = default;
};

}  // namespace rodcollide::exact
