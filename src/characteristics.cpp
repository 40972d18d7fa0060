// Exact front-tracking solver (physics.md §1-2, §5; seed 000 §4, Table 1).
// Junction j sits between rod j-1 and rod j (junction 0 and n are the chain's free ends). The
// field is stored as arrival histories (see wave_field.hpp): a junction reads the invariant that
// arrives at it, and every value it emits is appended to the neighbouring rod's history one
// transit time later. Events are arrivals (a history jumps) and gap closures; they are processed
// in groups of simultaneous times, and each junction's response comes from interface.hpp.
#include "rodcollide/characteristics.hpp"

#include "rodcollide/interface.hpp"
#include "rodcollide/settling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double time_tolerance = 1e-10;     // x shortest transit time: simultaneous arrivals
constexpr double time_rounding = 1e-14;      // x |t|: rounding of large times

/// One rod end or contact, with its contact state and bookkeeping.
struct Junction {
    std::ptrdiff_t left = -1;   // rod on the left, or -1 at the chain's left end
    std::ptrdiff_t right = -1;  // rod on the right, or -1 at the chain's right end
    std::size_t cursor_alpha = 0;  // current piece of the left rod's alpha history
    std::size_t cursor_beta = 0;   // current piece of the right rod's beta history

    bool closed = false;    // ends in contact (gap held at 0)
    double gap = 0;         // [m], valid at gap_time while open
    double gap_time = 0;    // [s]
    double gap_rate = 0;    // d(gap)/dt while open [m/s]

    double force = 0;       // current N [N]
    double force_since = 0; // [s]
    double impulse = 0;     // integral of -N up to force_since [N s]
    bool compressed = false;
    double compressed_since = 0;
    std::vector<Interval> intervals;

    // Emitted and ideal (undropped) outgoing invariants, for energy accounting of dropped jumps.
    double emitted_left = 0, ideal_left = 0;    // beta into the left rod
    double emitted_right = 0, ideal_right = 0;  // alpha into the right rod
    double accounted_until = 0;                 // [s]

    double next_time = inf;
    unsigned version = 0;

    bool is_contact() const { return left >= 0 && right >= 0; }
};

struct QueueEntry {
    double time;
    std::size_t junction;
    unsigned version;
    bool operator>(const QueueEntry& o) const { return time > o.time; }
};

class FrontTracker {
public:
    FrontTracker(const Chain& chain, const SolverOptions& options)
        : chain_(chain), options_(options), field_(chain) {
        const std::size_t n = chain.size();
        velocity_scale_ = chain.velocity_scale();
        tolerances_ = contact_tolerances(chain);
        velocity_tolerance_ = tolerances_.velocity;
        drop_threshold_ = options.drop_tolerance * velocity_scale_;
        time_tolerance_ = time_tolerance * chain.shortest_transit_time();
        junctions_.resize(n + 1);
        for (std::size_t j = 0; j <= n; ++j) {
            Junction& q = junctions_[j];
            if (j > 0) q.left = static_cast<std::ptrdiff_t>(j - 1);
            if (j < n) q.right = static_cast<std::ptrdiff_t>(j);
            if (q.left >= 0) q.emitted_left = q.ideal_left = chain[j - 1].velocity;
            if (q.right >= 0) q.emitted_right = q.ideal_right = chain[j].velocity;
            if (q.is_contact()) q.gap = chain[j].gap;
            q.next_time = 0;
            queue_.push({0.0, j, q.version});
        }
    }

    CharacteristicsSolution run() {
        const double horizon = options_.end_time.value_or(inf);
        const double record_until = options_.record_until.value_or(0);
        bool have_outcome = false;
        double t = 0, t_next = 0;
        while (true) {
            t_next = next_event_time();
            // Settled: no contact carries force and the bound holds before anything else happens.
            if (!have_outcome && settle_time_ <= std::min(t_next, horizon)) {
                outcome_ = snapshot(settle_time_, true);
                have_outcome = true;
            }
            if (t_next > horizon || t_next == inf) break;
            if (have_outcome && !std::isfinite(horizon) &&
                t_next > std::max(record_until, outcome_.end_time))
                break;
            t = t_next;
            process_group(t);
            if ((++groups_ & 0xffff) == 0 && options_.progress) options_.progress(t, groups_);
            if (groups_ > options_.max_events)
                throw SolverLimitExceeded(fmt::format(
                    "characteristics solver: reached max_events = {} event groups at t = {:g} "
                    "without settling; raise [solver] max_events or set [solver] end_time",
                    options_.max_events, t));
            // While every contact is free the rods' free motion is fixed, so one bound per
            // such epoch suffices (set_force() starts a new epoch).
            if (forced_contacts_ == 0 && !settle_checked_) {
                settle_time_ = settle_bound(t);
                settle_checked_ = true;
            }
        }
        if (std::isfinite(horizon)) {
            outcome_ = snapshot(horizon, have_outcome);
        } else if (!have_outcome) {
            // The event queue ran dry: nothing moves relative to anything any more.
            outcome_ = snapshot(t, true);
        }
        // Nothing changes between the last event group and the next event.
        field_.set_valid_until(t_next == inf ? std::max({t, outcome_.end_time, record_until}) : t_next);
        return CharacteristicsSolution{std::move(outcome_), std::move(field_), std::move(contact_events_)};
    }

private:
    double next_event_time() {
        while (!queue_.empty()) {
            const QueueEntry& e = queue_.top();
            if (e.version == junctions_[e.junction].version) return e.time;
            queue_.pop();
        }
        return inf;
    }

    double group_tolerance(double t) const { return time_tolerance_ + time_rounding * std::abs(t); }

    void process_group(double t) {
        const double tol = group_tolerance(t);
        group_.clear();
        while (!queue_.empty() && queue_.top().time <= t + tol) {
            const QueueEntry e = queue_.top();
            queue_.pop();
            if (e.version != junctions_[e.junction].version) continue;
            Junction& q = junctions_[e.junction];
            ++q.version;  // consumed: reschedule() pushes its next event
            q.next_time = inf;
            group_.push_back(e.junction);
        }
        touched_.clear();
        for (std::size_t j : group_) process_junction(j, t, tol);
        for (std::size_t j : group_) reschedule(j);
        for (std::size_t j : touched_) reschedule(j);
    }

    void process_junction(std::size_t j, double t, double tol) {
        Junction& q = junctions_[j];
        double alpha_in = 0, beta_in = 0;
        if (q.left >= 0) alpha_in = arrived(field_.alpha_arrivals(q.left), q.cursor_alpha, t + tol);
        if (q.right >= 0) beta_in = arrived(field_.beta_arrivals(q.right), q.cursor_beta, t + tol);
        account_energy(q, t);
        if (q.left < 0) {
            emit_right(j, free_end_reflection(beta_in), free_end_reflection(beta_in), t);
            return;
        }
        if (q.right < 0) {
            emit_left(j, free_end_reflection(alpha_in), free_end_reflection(alpha_in), t);
            return;
        }
        if (!q.closed) {
            const double closing = q.gap_rate < 0 ? q.gap_time + q.gap / -q.gap_rate : inf;
            q.gap = closing <= t + tol ? 0.0 : std::max(0.0, q.gap + q.gap_rate * (t - q.gap_time));
        }
        q.gap_time = t;  // also while closed: a contact that opens now has its gap grow from now
        const bool in_contact = (q.closed || q.gap == 0) && stays_in_contact(alpha_in, beta_in, velocity_tolerance_);
        if (in_contact != q.closed)
            contact_events_.push_back({j - 1, t, in_contact ? ContactEvent::Kind::closing : ContactEvent::Kind::opening});
        q.closed = in_contact;
        q.gap_rate = in_contact ? 0 : free_separation_velocity(alpha_in, beta_in);
        const double z_left = chain_[q.left].impedance(), z_right = chain_[q.right].impedance();
        const JunctionResponse ideal = in_contact ? touching_junction(z_left, alpha_in, z_right, beta_in)
                                                  : open_junction(alpha_in, beta_in);
        const JunctionResponse r = ideal.force < 0 ? without_small_jump(q, ideal, alpha_in, beta_in, z_left, z_right)
                                                   : ideal;
        set_force(q, r.force, t);
        emit_left(j, r.beta_to_left, ideal.beta_to_left, t);
        emit_right(j, r.alpha_to_right, ideal.alpha_to_right, t);
    }

    /// Front-count control at a force-carrying contact, where every arriving front splits in two.
    /// If one of the two outgoing jumps is below the drop threshold it is not emitted, and the
    /// force is taken from that side so that it stays equal on both sides: momentum stays exact
    /// (M(u+ - u-) = W Lambda holds to rounding) and only energy is affected, which
    /// account_energy() integrates. Free ends and open contacts never split fronts: left exact.
    JunctionResponse without_small_jump(const Junction& q, JunctionResponse r, double alpha_in,
                                        double beta_in, double z_left, double z_right) {
        const double jump_left = std::abs(r.beta_to_left - q.emitted_left);
        const double jump_right = std::abs(r.alpha_to_right - q.emitted_right);
        const double smaller = std::min(jump_left, jump_right);
        if (smaller == 0 || smaller >= drop_threshold_) return r;
        JunctionResponse d = r;
        if (jump_left <= jump_right) {
            d.force = force_of(z_left, alpha_in, q.emitted_left);
            d.beta_to_left = q.emitted_left;
            d.alpha_to_right = beta_in - 2 * d.force / z_right;  // N = Z_R (beta_in - alpha_R)/2
        } else {
            d.force = force_of(z_right, q.emitted_right, beta_in);
            d.alpha_to_right = q.emitted_right;
            d.beta_to_left = alpha_in + 2 * d.force / z_left;  // N = Z_L (beta_L - alpha_in)/2
        }
        if (d.force > 0) return r;  // never let the approximation pull on the contact
        ++dropped_fronts_;
        return d;
    }

    /// Advances a junction's cursor over the arrivals up to t and returns the arrived value.
    /// Without history, pieces long passed are forgotten (each history has a single reader).
    double arrived(StepFunction& history, std::size_t& cursor, double t) {
        while (cursor + 1 < history.size() && history.time(cursor + 1) <= t) ++cursor;
        if (!options_.keep_history && cursor - history.first() > 64 &&
            2 * (cursor - history.first()) > history.size() - history.first())
            stored_fronts_ -= history.discard_before(cursor - 1);  // keep one piece of margin
        return history.value(cursor);
    }

    void set_force(Junction& q, double force, double t) {
        q.impulse += -q.force * (t - q.force_since);
        q.force_since = t;
        const bool was_forced = q.force != 0;
        q.force = force;
        const bool compressed = force < 0;
        if (compressed && !q.compressed) q.compressed_since = t;
        if (!compressed && q.compressed) q.intervals.push_back({q.compressed_since, t});
        q.compressed = compressed;
        if (was_forced != (force != 0)) forced_contacts_ += (force != 0) ? 1 : -1;
        if (force != 0) {
            settle_time_ = inf;
            settle_checked_ = false;
        }
    }

    void account_energy(Junction& q, double t) {
        energy_created_ += energy_created_since_accounted(q, t);
        q.accounted_until = t;
    }

    /// Energy the junction's dropped jumps have added since it was last accounted for, up to t:
    /// the emitted invariants carry Z/4 (emitted^2 - ideal^2) more energy per unit time into
    /// the rods than the exact response would.
    double energy_created_since_accounted(const Junction& q, double t) const {
        const double dt = t - q.accounted_until;
        double rate = 0;
        if (q.left >= 0)
            rate += 0.25 * chain_[q.left].impedance() * (q.emitted_left * q.emitted_left - q.ideal_left * q.ideal_left);
        if (q.right >= 0)
            rate += 0.25 * chain_[q.right].impedance() *
                    (q.emitted_right * q.emitted_right - q.ideal_right * q.ideal_right);
        return rate * dt;
    }

    /// Sends beta into the left rod; `ideal` is the exact response, for energy accounting.
    void emit_left(std::size_t j, double value, double ideal, double t) {
        Junction& q = junctions_[j];
        emit(q.emitted_left, q.ideal_left, value, ideal, static_cast<std::size_t>(q.left),
             field_.beta_arrivals(q.left), t, j - 1);
    }

    /// Sends alpha into the right rod.
    void emit_right(std::size_t j, double value, double ideal, double t) {
        Junction& q = junctions_[j];
        emit(q.emitted_right, q.ideal_right, value, ideal, static_cast<std::size_t>(q.right),
             field_.alpha_arrivals(q.right), t, j + 1);
    }

    /// A new front, unless the value is unchanged; it reaches junction `far_end` one transit later.
    void emit(double& emitted, double& ideal_now, double value, double ideal, std::size_t rod, StepFunction& history,
              double t, std::size_t far_end) {
        ideal_now = ideal;
        if (value == emitted) return;
        emitted = value;
        add_front(history, t + chain_[rod].transit_time(), value);
        touched_.push_back(far_end);
    }

    void add_front(StepFunction& history, double arrival, double value) {
        ++fronts_;
        if (++stored_fronts_ > options_.max_fronts)
            throw SolverLimitExceeded(fmt::format(
                "characteristics solver: reached max_fronts = {} stored fronts ({} MB) at t = {:g}; "
                "raise [solver] max_fronts or [solver] drop_tolerance (now {:g}), or set [solver] "
                "end_time", options_.max_fronts, options_.max_fronts * 16 / 1000000, arrival,
                options_.drop_tolerance));
        history.push(arrival, value);
    }

    void reschedule(std::size_t j) {
        Junction& q = junctions_[j];
        double t = inf;
        if (q.left >= 0) {
            const StepFunction& a = field_.alpha_arrivals(q.left);
            if (q.cursor_alpha + 1 < a.size()) t = std::min(t, a.time(q.cursor_alpha + 1));
        }
        if (q.right >= 0) {
            const StepFunction& b = field_.beta_arrivals(q.right);
            if (q.cursor_beta + 1 < b.size()) t = std::min(t, b.time(q.cursor_beta + 1));
        }
        if (q.is_contact() && !q.closed && q.gap_rate < 0) t = std::min(t, q.gap_time + q.gap / -q.gap_rate);
        if (t == q.next_time && t != inf) return;
        q.next_time = t;
        ++q.version;
        if (t != inf) queue_.push({t, j, q.version});
    }

    /// The invariants arriving at one end over [t, t + T), as pieces.
    static ArrivalWindow window(const StepFunction& f, double t, double T) {
        ArrivalWindow w;
        for (std::size_t k = f.index_at(t); k < f.size() && f.time(k) < t + T; ++k) {
            const double lo = std::max(t, f.time(k));
            const double hi = k + 1 < f.size() ? std::min(t + T, f.time(k + 1)) : t + T;
            if (hi > lo) w.push_back({hi - lo, f.value(k)});
        }
        return w;
    }

    /// With no contact carrying force at t, the earliest time from which no contact can happen.
    double settle_bound(double t) const {
        const std::size_t n = chain_.size();
        std::vector<FreeRodMotion> rods(n);
        for (std::size_t i = 0; i < n; ++i) {
            const double T = chain_[i].transit_time();
            rods[i].mean_velocity = field_.momentum(i, t) / chain_[i].mass();
            rods[i].alpha_at_right = window(field_.alpha_arrivals(i), t, T);
            rods[i].beta_at_left = window(field_.beta_arrivals(i), t, T);
        }
        std::vector<double> gaps(n - 1);
        for (std::size_t k = 0; k + 1 < n; ++k) {
            const Junction& q = junctions_[k + 1];
            gaps[k] = q.closed ? 0.0 : std::max(0.0, q.gap + q.gap_rate * (t - q.gap_time));
        }
        return chain_release_time(t, rods, gaps, tolerances_);
    }

    Outcome snapshot(double t, bool settled) const {
        Outcome o;
        o.method = Method::characteristics;
        o.end_time = t;
        o.settled = settled;
        double created = energy_created_;
        for (const Junction& q : junctions_) created += energy_created_since_accounted(q, t);
        for (std::size_t i = 0; i < chain_.size(); ++i) {
            const Rod& r = chain_[i];
            RodOutcome ro;
            ro.mass = r.mass();
            ro.initial_velocity = r.velocity;
            ro.final_velocity = field_.momentum(i, t) / ro.mass;
            const double rigid = 0.5 * ro.mass * ro.final_velocity * ro.final_velocity;
            ro.vibration_energy = std::max(0.0, field_.energy(i, t) - rigid);
            o.rods.push_back(ro);
            o.energy.final_rigid += rigid;
            o.energy.final_vibration += ro.vibration_energy;
        }
        o.energy.initial = chain_.initial_kinetic_energy();
        o.energy.dropped = 0.0 - created;  // +0 when nothing was dropped
        for (std::size_t k = 0; k + 1 < chain_.size(); ++k) {
            const Junction& q = junctions_[k + 1];
            ContactOutcome c;
            c.left_rod = k;
            c.impulse = q.impulse - q.force * (t - q.force_since);
            c.intervals = q.intervals;
            if (q.compressed) c.intervals.push_back({q.compressed_since, t});
            for (const Interval& iv : c.intervals) o.last_contact_time = std::max(o.last_contact_time, iv.end);
            o.contacts.push_back(std::move(c));
        }
        o.stats.events = groups_;
        o.stats.fronts = fronts_;
        o.stats.dropped_fronts = dropped_fronts_;
        if (!settled)
            o.warnings.push_back(fmt::format(
                "not settled at t = {:g}: contacts may still happen; final velocities are the "
                "momenta / masses at that time", t));
        return o;
    }

    const Chain& chain_;
    SolverOptions options_;
    WaveField field_;
    std::vector<Junction> junctions_;
    std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue_;
    std::vector<std::size_t> group_, touched_;
    std::vector<ContactEvent> contact_events_;
    Outcome outcome_;

    double velocity_scale_ = 0, velocity_tolerance_ = 0, drop_threshold_ = 0;
    double time_tolerance_ = 0;
    ContactTolerances tolerances_;
    double energy_created_ = 0;
    double settle_time_ = inf;
    bool settle_checked_ = false;
    std::size_t forced_contacts_ = 0, groups_ = 0, fronts_ = 0, dropped_fronts_ = 0;
    std::size_t stored_fronts_ = 0;
};

}  // namespace

CharacteristicsSolution solve_characteristics(const Chain& chain, const SolverOptions& options) {
    return FrontTracker(chain, options).run();
}

}  // namespace rodcollide
