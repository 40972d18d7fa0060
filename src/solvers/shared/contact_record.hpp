// The history of a unilateral contact, kept the same way by both solvers (docs/physics.md §1-2):
// the gap while open, g(t) = g0 + integral of (v_right end - v_left end) dt, and when it closes;
// the closings and openings; the impulse Lambda = integral of -N dt (so M(u+ - u-) = W Lambda); and
// the intervals during which the contact was compressed.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "solvers/shared/time_shift.hpp"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

namespace rodcollide {

// ---- Gap arithmetic -------------------------------------------------------------------------------

/// Gap [m] after `elapsed` [s] from `gap` [m] at a constant `rate` [m/s], not clamped at 0.
inline double gap_after(double gap, double rate, double elapsed) { return gap + rate * elapsed; }

/// Time [s] an open gap takes to close at a constant rate: gap / -rate if closing, else +inf.
inline double closing_delay(double gap, double rate) {
    return rate < 0 ? gap / -rate : std::numeric_limits<double>::infinity();
}

// ---- One contact ----------------------------------------------------------------------------------

/// Gap, force and compression history of one contact. The force is piecewise constant: an
/// event-driven solver sets it when it changes (set_force), a stepping solver adds it step by step
/// (add_step); either way the impulse is summed with compensation (Neumaier), so that millions of
/// steps cost no more than rounding.
class ContactRecord {
public:
    explicit ContactRecord(double initial_gap) : gap_(initial_gap) {}

    // Gap. While open it changes at a constant rate from the time it was last set.
    bool closed() const { return closed_; }
    /// The ends touch: closed, or open with no gap left (they may close now, or separate).
    bool touching() const { return closed_ || gap_ == 0; }
    /// Gap at t >= the last update [m]: 0 while closed, never negative.
    double gap_at(double t) const { return closed_ ? 0.0 : std::max(0.0, gap_after(gap_, gap_rate_, t - gap_time_)); }
    /// When the open gap reaches 0 at its current rate [s]; +inf if closed or not closing.
    double closing_time() const {
        return closed_ ? std::numeric_limits<double>::infinity() : gap_time_ + closing_delay(gap_, gap_rate_);
    }
    /// Event-driven: brings the gap to t, a closing due within `tolerance` [s] of t counted as
    /// reached (simultaneous events are resolved together).
    void advance_gap(double t, double tolerance) {
        if (!closed_) gap_ = closing_time() <= t + tolerance ? 0.0 : gap_at(t);
        gap_time_ = t;  // also while closed: a contact that opens now has its gap grow from now
    }
    /// Event-driven: the open gap changes at `rate` [m/s] from the last advance_gap() on.
    void set_gap_rate(double rate) { gap_rate_ = rate; }
    /// Stepping: the gap is `gap` [m] at time t [s] and holds until set again.
    void set_gap(double gap, double t);
    /// The open gap's state (value, time, rate), saved and restored by the exact solver when it
    /// takes back reflections it made ahead of its event loop (front_tracker.cpp).
    struct GapState {
        double gap = 0, time = 0, rate = 0;  // [m], [s], [m/s]
    };
    GapState gap_state() const { return {gap_, gap_time_, gap_rate_}; }
    void restore_gap_state(const GapState& g) {
        gap_ = g.gap;
        gap_time_ = g.time;
        gap_rate_ = g.rate;
    }
    /// Whether the ends are in contact from now on; returns true if that changed.
    bool set_closed(bool closed) {
        const bool changed = closed != closed_;
        closed_ = closed;
        return changed;
    }

    // Force and impulse.
    /// Event-driven: the contact carries `force` [N] from time t on (the previous force is
    /// integrated up to t).
    void set_force(double force, double t);
    /// Stepping: the contact carried `force` [N] over [t, t + dt]; compressed from
    /// `compressed_from` in [t, t + dt] when a gap closed inside the step.
    void add_step(double force, double t, double dt, double compressed_from);
    double force() const { return force_; }
    /// Lambda = integral of -N over [0, t] [N s], t >= the last force change.
    double impulse(double t) const;
    /// Intervals of compression up to t [s], one still going on closed at t.
    std::vector<Interval> intervals(double t) const;

    /// Keep every force change from now on (event-driven) or every step's force (stepping), for
    /// force_history(); off by default (memory grows with the events).
    void record_forces() { recording_ = true; }
    /// The recorded force as steps: force[k] holds from time[k] on (empty unless recorded).
    const ForceHistory& recorded_forces() const { return history_; }

    // Time origin. The times passed to the methods above are relative to an origin (0 unless
    // moved); what the record reports (intervals, recorded forces) is absolute: origin + time.
    /// Moves the origin to `origin` [s] (absolute), shifting the stored times by `shift`.
    void move_time_origin(const TimeShift& shift, double origin);

private:
    void set_compressed(bool compressed, double start, double end);

    bool closed_ = false;
    double gap_ = 0;        // [m] at gap_time_, while open
    double gap_time_ = 0;   // [s]
    double gap_rate_ = 0;   // [m/s]

    double force_ = 0;         // current N [N] (event-driven)
    double force_since_ = 0;   // [s]
    double impulse_ = 0;       // integral of -N up to force_since_ [N s] ...
    double impulse_carry_ = 0; // ... plus this compensation of its rounding
    bool compressed_ = false;
    double compressed_since_ = 0;
    std::vector<Interval> intervals_;
    bool recording_ = false;
    ForceHistory history_;
    double origin_ = 0;  // [s], absolute
};

// ---- The contacts of a chain ----------------------------------------------------------------------

/// One ContactRecord per junction with a gap (has_gap): first the contacts between rods, left to
/// right as in Outcome::contacts (contact k joins rods k and k + 1), then the walls at the chain's
/// ends (is_wall), and their closings and openings in the order the solver decided them.
class ContactHistory {
public:
    explicit ContactHistory(const Chain& chain);

    std::size_t size() const { return records_.size(); }
    ContactRecord& operator[](std::size_t k) { return records_[k]; }
    const ContactRecord& operator[](std::size_t k) const { return records_[k]; }
    /// Junction of contact k (Chain::junctions()).
    std::size_t junction(std::size_t k) const { return junctions_[k]; }
    /// The rod on the left of contact k (a contact between rods: it joins left_rod and left_rod + 1).
    std::size_t left_rod(std::size_t k) const { return left_rods_[k]; }
    /// Issue 23: a junction with rigid masses in it (Junction::lumped) holds the contacts of rods
    /// first_lumped_contact(j) .. + count - 1 (their records are in rod order like the others';
    /// contact_at(j) is then the end's wall, if any). -1 for other junctions.
    std::ptrdiff_t first_lumped_contact(std::size_t j) const { return first_lumped_[j]; }
    /// Whether record k is a wall at an end of the chain (after the contacts between rods).
    bool is_wall(std::size_t k) const { return k >= rod_contacts_; }
    /// Contact at junction j, or -1 if its kind has no gap.
    std::ptrdiff_t contact_at(std::size_t j) const { return contact_at_[j]; }

    /// Contact k is closed (or open) from time t on; a change is logged as a closing (opening).
    void set_closed(std::size_t k, bool closed, double t) {
        if (records_[k].set_closed(closed))
            events_.push_back({k, origin_ + t, closed ? ContactEvent::Kind::closing : ContactEvent::Kind::opening});
    }
    const std::vector<ContactEvent>& events() const { return events_; }
    /// Moves every record's time origin (ContactRecord::move_time_origin); events are logged at
    /// absolute times.
    void move_time_origin(const TimeShift& shift, double origin);

    /// Gap of every contact at t [m] (0 while touching), as settling.hpp wants them.
    std::vector<double> gaps(double t) const;

private:
    std::vector<ContactRecord> records_;
    std::size_t rod_contacts_ = 0;
    std::vector<std::size_t> junctions_;
    std::vector<std::size_t> left_rods_;
    std::vector<std::ptrdiff_t> contact_at_;
    std::vector<std::ptrdiff_t> first_lumped_;
    std::vector<ContactEvent> events_;
    double origin_ = 0;  // [s], absolute
};

}  // namespace rodcollide
