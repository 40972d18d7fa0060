// Rods asleep in free flight (asleep_rods.hpp, docs/physics.md §6.7).
#include "solvers/exact/asleep_rods.hpp"

#include "solvers/shared/junction.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rodcollide::exact {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::size_t wake_budget = 1 << 12;  // windows per closing bound of an asleep rod

}  // namespace

AsleepRods::AsleepRods(TrackedChain& chain, TrackerActions& tracker, bool on)
    : chain_(chain), tracker_(tracker), on_(on) {
    if (!on_) return;
    sleep_.resize(chain.elements.size());
    wake_.assign(chain.junctions.size(), inf);
    synced_.assign(chain.junctions.size(), 0);
}

bool AsleepRods::beside_sleeper(std::size_t j, double t, double read_until) {
    const Junction& q = chain_.junctions[j];
    sync_gap(j, t);
    if (read_until >= wake_[j]) {
        if (!arm_wake(j, t) && wake_[j] - t < 0.125 * shortest_sleeper_period(j)) {
            if (asleep(q.left)) wake(static_cast<std::size_t>(q.left), t);
            if (asleep(q.right)) wake(static_cast<std::size_t>(q.right), t);
        }
    }
    return has_sleeper(j);
}

void AsleepRods::shift_times(const TimeShift& shift) {
    for (std::size_t e = 0; e < sleep_.size(); ++e) {
        Sleep& z = sleep_[e];
        z.next_try = shift(z.next_try);
        if (!z.asleep) continue;
        // Only the phase matters (the paths are periodic): the start moves by whole periods to
        // within one before the new origin, so that t - since stays small. The shift is reduced
        // modulo the period first (fmod is exact): shifted whole, the start took the rounding
        // of the shift's size, and a far wake-up or horizon moves the origin by up to 1e9
        // periods at once (the phase was off by eps x the shift).
        const double period = 2 * chain_.elements[e].transit_time;
        z.since = -periodic_phase(std::fmod(shift.hi, period) + shift.lo - z.since, period);
    }
    for (double& w : wake_) w = shift(w);
    for (double& w : synced_) w = shift(w);
}

double AsleepRods::shortest_sleeper_period(std::size_t j) const {
    double p = inf;
    for (std::ptrdiff_t e : {chain_.junctions[j].left, chain_.junctions[j].right})
        if (asleep(e)) p = std::min(p, 2 * element(e).transit_time);
    return p;
}

/// How the end of element e at junction j (its right end if `right_end`) moves from t on:
/// asleep, along its path; awake, at the velocity of what last arrived there (free end).
EndView AsleepRods::end_view(std::size_t e, bool right_end, double t) const {
    const Sleep& z = sleep_[e];
    if (z.asleep) return EndView::periodic(right_end ? z.paths->first : z.paths->second, t - z.since);
    return EndView::steady(right_end ? chain_.field.alpha_arrivals(e).value(chain_.state[e + 1].cursor_alpha)
                                     : chain_.field.beta_arrivals(e).value(chain_.state[e].cursor_beta));
}

/// Brings the gap of the contact at junction j (a rod asleep on a side) exactly to t: since it
/// was last synced, an awake end moved at one velocity (it had no arrival: an arrival there is
/// processed, and syncs first), an asleep one along its path. The record keeps it, rate 0.
void AsleepRods::sync_gap(std::size_t j, double t) {
    const std::ptrdiff_t k = chain_.contacts.contact_at(j);
    if (k < 0) return;
    ContactRecord& c = chain_.contacts[static_cast<std::size_t>(k)];
    const double since = std::exchange(synced_[j], t), u = t - since;
    if (c.closed()) return;  // inert touching ends: no gap while they stay so
    const auto l = static_cast<std::size_t>(chain_.junctions[j].left);
    const auto r = static_cast<std::size_t>(chain_.junctions[j].right);
    const double gap = c.gap_at(since) + end_view(r, false, since).position(u) - end_view(l, true, since).position(u);
    c.set_gap(std::max(0.0, gap), t);
}

/// The wake-up time of the contact at junction j, synced at t: a lower bound of its closing,
/// while its awake end (if any) keeps its velocity, i.e. until its next arrival there. Returns
/// whether the gap was proven open up to that arrival or the renewal time (not a closing).
bool AsleepRods::arm_wake(std::size_t j, double t) {
    const std::ptrdiff_t k = chain_.contacts.contact_at(j);
    if (k < 0) return true;
    if (chain_.contacts[static_cast<std::size_t>(k)].closed()) {
        wake_[j] = inert_until(j, t);
        return wake_[j] > t;
    }
    const Junction& q = chain_.junctions[j];
    const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
    const JunctionState& s = chain_.state[j];
    double limit = inf;
    if (!asleep(q.left)) {
        const StepFunction& a = chain_.field.alpha_arrivals(l);
        limit = s.cursor_alpha + 1 < a.size() ? a.time(s.cursor_alpha + 1) - t : inf;
    }
    if (!asleep(q.right)) {
        const StepFunction& b = chain_.field.beta_arrivals(r);
        limit = std::min(limit, s.cursor_beta + 1 < b.size() ? b.time(s.cursor_beta + 1) - t : inf);
    }
    // Two sleepers (or an awake end with nothing in flight): no limit, the walk's budget ends
    // it, and the walk goes on from there at the wake-up time. (Not capped at the horizon:
    // the run stops there whatever is scheduled after it.)
    const double margin = 4 * chain_.velocity_scale * chain_.group_tolerance(t);
    const double gap = chain_.contacts[static_cast<std::size_t>(k)].gap_at(t);
    const EndView left = end_view(l, true, t), right = end_view(r, false, t);
    // Ends drifting apart with a gap wider than their excursions never meet while they move
    // so (§6.3): nothing to renew (an awake end's next arrival is processed and arms again).
    if (gap + right.lowest_excursion() - left.highest_excursion() > margin && right.mean_velocity() >= left.mean_velocity()) {
        wake_[j] = inf;
        return true;
    }
    const double bound = closing_lower_bound(gap, left, right, limit, margin, wake_budget);
    wake_[j] = t + std::max(0.0, bound);
    return bound >= limit;
}

std::pair<EndView, EndView> AsleepRods::ends_along(std::size_t j, double t, const PeriodicPath& awake) const {
    const Junction& q = chain_.junctions[j];
    const EndView ahead = EndView::periodic(awake, 0);
    return {asleep(q.left) ? end_view(static_cast<std::size_t>(q.left), true, t) : ahead,
            asleep(q.right) ? end_view(static_cast<std::size_t>(q.right), false, t) : ahead};
}

double AsleepRods::open_for(std::size_t j, double t, const PeriodicPath& awake, double limit) const {
    const auto [left, right] = ends_along(j, t, awake);
    const double gap = chain_.contacts[static_cast<std::size_t>(chain_.contacts.contact_at(j))].gap_at(t);
    const double margin = 4 * chain_.velocity_scale * chain_.group_tolerance(t);
    return closing_lower_bound(gap, left, right, limit, margin, wake_budget);
}

void AsleepRods::sync_gap_along(std::size_t j, double t, const PeriodicPath& awake, double u) {
    ContactRecord& c = chain_.contacts[static_cast<std::size_t>(chain_.contacts.contact_at(j))];
    synced_[j] = t + u;
    if (c.closed()) return;
    const auto [left, right] = ends_along(j, t, awake);
    c.set_gap(std::max(0.0, c.gap_at(t) + right.position(u) - left.position(u)), t + u);
}

/// Closed ends without force next to a sleeper (docs/physics.md §6.7): they give the open
/// response, and stay closed, while the free separation velocity s stays within the opening
/// tolerance (|s| <= it: touching_junction(), stays_in_contact()), so each rod reflects at its
/// own end as if free. Returns until when that provably holds: +inf between two sleepers (s is
/// bounded by their paths' velocity ranges), an awake end's next arrival after the group at t
/// (its velocity is read as of the group, arrivals due within its tolerance included, so that
/// one that ends the band wakes the sleeper before its junction responds), or t when the band
/// may be left now. Rods at rest against each other with rounding-level vibrations (velocities
/// of 1e-16 m/s after a last-digit change of the data) then sleep instead of reflecting every
/// front for as long as the rest of the chain collides (fuzz/regressions/never_settles_*.toml).
double AsleepRods::inert_until(std::size_t j, double t) const {
    const Junction& q = chain_.junctions[j];
    const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
    const double read_until = t + chain_.group_tolerance(t);
    double until = inf;
    const auto awake_end = [&](const StepFunction& history, std::size_t cursor) {
        while (cursor + 1 < history.size() && history.time(cursor + 1) <= read_until) ++cursor;
        if (cursor + 1 < history.size()) until = std::min(until, history.time(cursor + 1));
        return std::pair{history.value(cursor), history.value(cursor)};
    };
    const auto [left_lo, left_hi] = asleep(q.left) ? sleep_[l].paths->first.velocity_range()
                                                   : awake_end(chain_.field.alpha_arrivals(l), chain_.state[j].cursor_alpha);
    const auto [right_lo, right_hi] = asleep(q.right) ? sleep_[r].paths->second.velocity_range()
                                                      : awake_end(chain_.field.beta_arrivals(r), chain_.state[j].cursor_beta);
    const bool inert = right_lo - left_hi >= -chain_.velocity_tolerance && right_hi - left_lo <= chain_.velocity_tolerance;
    return inert ? until : t;
}

void AsleepRods::try_sleep(std::size_t e, double t) {
    Sleep& z = sleep_[e];
    const double period = 2 * chain_.elements[e].transit_time;
    if (z.asleep || t < z.next_try) return;
    z.next_try = t + period;
    for (std::size_t j : {e, e + 1}) {
        const std::ptrdiff_t k = chain_.contacts.contact_at(j);
        if (k < 0 && chain_.junctions[j].kind != JunctionKind::free_end) return;
        if (k < 0) continue;
        // A contact carrying force, or open with no gap yet (it is closed or opened at its next
        // arrival), is refused before the paths are built. Closed ends without force may
        // sleep while they stay inert (inert_until()).
        const ContactRecord& c = chain_.contacts[static_cast<std::size_t>(k)];
        if (c.force() != 0 || (c.touching() && !c.closed())) return;
    }
    // Its contacts as the event loop has them now, not as they reflected ahead (§6.8).
    tracker_.rewind(e, t);
    tracker_.rewind(e + 1, t);
    if (arrivals_pending(e, t)) return;
    z.paths = chain_.end_paths_of(e, t);
    if (z.paths->first.steady() && z.paths->second.steady()) {
        z.paths.reset();  // nothing in flight: no reflection to save, only a wake-up to pay
        return;
    }
    // Each contact's gap exactly at t, under the modes so far: synced next to a sleeper,
    // otherwise from its rate.
    for (std::size_t j : {e, e + 1}) {
        const std::ptrdiff_t k = chain_.contacts.contact_at(j);
        if (k < 0) continue;
        if (has_sleeper(j)) {
            sync_gap(j, t);
        } else {
            ContactRecord& c = chain_.contacts[static_cast<std::size_t>(k)];
            c.set_gap(c.gap_at(t), t);
            synced_[j] = t;
        }
    }
    z.since = t;
    z.asleep = true;
    for (std::size_t j : {e, e + 1}) {
        if (arm_wake(j, t) || wake_[j] - t >= period) continue;
        // A closing may come within a period: stay awake (the paths are dropped).
        z.asleep = false;
        z.paths.reset();
        for (std::size_t i : {e, e + 1}) {
            restore_rate(i, t);
            tracker_.reschedule(i);
        }
        return;
    }
    z.momentum = chain_.field.momentum(e, t);
    tracker_.end_dropped_power(e, t);
    chain_.field.freeze(e);  // its arrivals are not read until it wakes
    ++sleeps_;
    tracker_.reschedule(e);
    tracker_.reschedule(e + 1);
}

/// Whether element e has arrivals pending within the group tolerance of t (read by a
/// junction of a later group): it is not free of them yet.
bool AsleepRods::arrivals_pending(std::size_t e, double t) const {
    const double until = t + chain_.group_tolerance(t);
    const StepFunction &a = chain_.field.alpha_arrivals(e), &b = chain_.field.beta_arrivals(e);
    const std::size_t ca = chain_.state[e + 1].cursor_alpha, cb = chain_.state[e].cursor_beta;
    return (ca + 1 < a.size() && a.time(ca + 1) <= until) || (cb + 1 < b.size() && b.time(cb + 1) <= until);
}

/// After a change of mode at t, the contact at junction j (synced at t) is tracked as before:
/// by its rate if both ends are awake, by syncing otherwise.
void AsleepRods::restore_rate(std::size_t j, double t) {
    const std::ptrdiff_t k = chain_.contacts.contact_at(j);
    if (k < 0) return;
    ContactRecord& c = chain_.contacts[static_cast<std::size_t>(k)];
    if (has_sleeper(j)) {
        arm_wake(j, t);
        return;
    }
    const Junction& q = chain_.junctions[j];
    c.set_gap_rate(free_separation_velocity(chain_.field.alpha_arrivals(q.left).value(chain_.state[j].cursor_alpha),
                                            chain_.field.beta_arrivals(q.right).value(chain_.state[j].cursor_beta)));
    wake_[j] = inf;
}

/// Wakes element e at t: its arrivals from t on rebuilt from its paths (the tracker's
/// restart_element()), its contacts' gaps synced to t and tracked as before.
void AsleepRods::wake(std::size_t e, double t) {
    Sleep& z = sleep_[e];
    if (!z.asleep) return;
    tracker_.rewind(e, t);  // its contacts as the event loop has them at t (§6.8)
    tracker_.rewind(e + 1, t);
    chain_.field.thaw(e);
    for (std::size_t j : {e, e + 1}) sync_gap(j, t);
    const double T = chain_.elements[e].transit_time, u = periodic_phase(t - z.since, 2 * T);
    tracker_.restart_element(e, z.paths->first.pieces(u, T), z.paths->second.pieces(u, T), t);
    z.asleep = false;
    z.paths.reset();
    z.next_try = t + 2 * T;
    for (std::size_t j : {e, e + 1}) {
        restore_rate(j, t);
        tracker_.touch(j);  // rescheduled with the group
        tracker_.reschedule(j);
    }
}

void AsleepRods::wake_all(double t) {
    if (!on_) return;
    for (std::size_t e = 0; e < chain_.elements.size(); ++e) wake(e, t);
}

}  // namespace rodcollide::exact
