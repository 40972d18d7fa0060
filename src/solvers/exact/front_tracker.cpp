// Exact front-tracking solver (docs/physics.md §1-2, §5; Winandy & Leine 2015 §4, Table 1).
// It runs on the chain's elements and junctions (elements.hpp): junction j sits at the left end
// of element j and the right end of element j-1. The field is stored as arrival histories (see
// wave_field.hpp): a junction reads the invariant that arrives at it, and every value it emits is
// appended to the neighbouring element's history one transit time later. Events are arrivals (a
// history jumps) and gap closures; they are processed in groups of simultaneous times. Each
// junction's response comes from junction.hpp, a contact's history goes to its ContactRecord,
// and the Outcome comes from outcome_builder.hpp: what is left here is transport.
#include "solvers/exact/characteristics.hpp"

#include "solvers/shared/chain_end_state.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/exact/event_queue.hpp"
#include "solvers/shared/free_rod_motion.hpp"
#include "solvers/exact/free_flight.hpp"
#include "solvers/shared/junction.hpp"
#include "solvers/shared/invariant_energy.hpp"
#include "solvers/shared/outcome_builder.hpp"
#include "solvers/shared/settling.hpp"
#include "solvers/shared/time_shift.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double time_tolerance = 1e-10;     // x shortest transit time: simultaneous arrivals
constexpr double time_rounding = 1e-14;      // x |t|: rounding of large times
constexpr std::size_t path_budget = 1 << 16; // breakpoints of free-flight paths kept at once
constexpr std::size_t wake_budget = 1 << 12; // windows per closing bound of an asleep rod

/// A rod asleep in free flight (docs/physics.md §6.7): its reflections are not processed; its two
/// ends follow the periodic paths it had when it fell asleep.
struct Sleep {
    bool asleep = false;
    double since = 0;     // [s]: when it fell asleep (the paths' start)
    double momentum = 0;  // [N s]: constant while free
    double next_try = 0;  // [s]: falling asleep is tried at most once per period
    std::optional<std::pair<PeriodicPath, PeriodicPath>> paths;  // right end, left end, from `since`
};

/// Transport state of one junction: where it reads its arrivals and what it last emitted (its next
/// event time is in the EventQueue). Its physics is the model's (Junction, junction.hpp), its contact
/// history the ContactRecord's.
struct JunctionState {
    std::size_t cursor_alpha = 0;  // current piece of the left element's alpha history
    std::size_t cursor_beta = 0;   // current piece of the right element's beta history

    // Emitted and ideal (undropped) outgoing invariants, for energy accounting of dropped jumps.
    double emitted_left = 0, ideal_left = 0;    // beta into the left element
    double emitted_right = 0, ideal_right = 0;  // alpha into the right element
    double accounted_until = 0;                 // [s]
};

class FrontTracker {
public:
    FrontTracker(const Chain& chain, const SolverOptions& options)
        : chain_(chain), elements_(chain.elements()), junctions_(chain.junctions()), options_(options),
          field_(chain), contacts_(chain), chain_ends_(chain), queue_(junctions_.size()) {
        velocity_scale_ = chain.velocity_scale();
        tolerances_ = contact_tolerances(chain);
        velocity_tolerance_ = tolerances_.velocity;
        drop_threshold_ = options.drop_tolerance * velocity_scale_;
        time_tolerance_ = time_tolerance * chain.shortest_transit_time();
        merge_below_ = options.time_resolution * chain.shortest_transit_time();
        state_.resize(junctions_.size());
        last_junction_ = junctions_.size() - 1;
        if (options.force_samples)
            for (std::size_t k = 0; k < contacts_.size(); ++k) contacts_[k].record_forces();
        // Rods of one element between free ends and unilateral contacts are free-free whenever no
        // contact carries force (other kinds act on a rod without a contact force).
        only_free_rods_ = elements_.size() == chain.size() && std::ranges::all_of(junctions_, [](const Junction& q) {
                              return q.kind == JunctionKind::free_end || q.kind == JunctionKind::contact;
                          });
        free_flight_ = options.skip_free_flight && !options.keep_history && only_free_rods_;
        rebasing_ = options.rebase_times && !options.keep_history && !chain.ends().any();
        sleeping_ = free_flight_ && !chain.ends().any();
        if (sleeping_) {
            sleep_.resize(elements_.size());
            wake_.assign(junctions_.size(), inf);
            synced_.assign(junctions_.size(), 0);
        }
        if (rebasing_) rebase_after_ = 2 * chain.longest_transit_time();
        for (std::size_t j = 0; j < junctions_.size(); ++j) {
            const Junction& q = junctions_[j];
            JunctionState& s = state_[j];
            if (q.left >= 0) s.emitted_left = s.ideal_left = element(q.left).initial_velocity;
            if (q.right >= 0) s.emitted_right = s.ideal_right = element(q.right).initial_velocity;
            queue_.set(j, 0);
        }
    }

    CharacteristicsSolution run() {
        // Times below are relative to origin_ (0 unless rebasing moves it, move_time_origin()).
        const double record_until = options_.record_until.value_or(0);
        const auto recorded_until = [&] {
            return std::max(record_until, outcome_.end_time + options_.record_after_settling) - origin_;
        };
        bool have_outcome = false;
        double t = 0, t_next = 0;
        while (true) {
            t_next = next_event_time();
            // Settled: no contact carries force and the bound holds before anything else happens.
            if (!have_outcome && std::isfinite(settling_.settle_time()) &&
                settling_.settle_time() <= std::min(t_next, horizon())) {
                outcome_ = snapshot(settling_.settle_time(), true, only_free_rods_ ? &free_rods_ : nullptr);
                have_outcome = true;
            }
            if (t_next > horizon() || t_next == inf) break;
            if (have_outcome && !options_.end_time && t_next > recorded_until()) break;
            // The origin moves before a group far from it is processed, so that the times the
            // group computes (arrivals t + T) carry the rounding of a few transit times: with rods
            // asleep, the next event can lie any number of periods ahead.
            // After settling the outcome is read again at the horizon, if there is one (run()'s
            // end): the origin keeps moving until then.
            if (rebasing_ && (!have_outcome || options_.end_time) && t_next > rebase_after_)
                t_next = move_time_origin(t_next)(t_next);
            t = t_next;
            process_group(t);
            if ((++groups_ & 0xffff) == 0 && options_.progress) options_.progress(origin_ + t, groups_);
            if (groups_ > options_.max_events)
                throw SolverLimitExceeded(fmt::format(
                    "characteristics solver: reached max_events = {} event groups at t = {:g} "
                    "without settling ({} contact closings so far; long chains with gaps can keep "
                    "colliding for 1e9 s and more, docs/physics.md §5.4); raise [solver] max_events "
                    "(--max-events) or set [solver] end_time",
                    options_.max_events, origin_ + t, closings()));
            if (forced_contacts_ == 0) settling_.force_free([&] {
                if (only_free_rods_ && approaching_neighbours(t)) return inf;  // cheap, and no rod woken
                wake_all(t);  // the bound reads every rod's arrivals
                const double bound = settle_bound(t);
                // Free rods keep their momentum and energy: read them now, before times grow
                // large against the transit times (their rounding is that of t, not of the
                // settling time). Only an epoch with a finite bound can end the run.
                if (only_free_rods_ && std::isfinite(bound)) free_rods_ = rod_states(t);
                return bound;
            });
            // With rods asleep each contact has its own wake-up time and no whole-chain flight is
            // needed (it would rebuild every rod for the one contact that limits it).
            if (forced_contacts_ == 0 && free_flight_ && !sleeping_ && t >= next_free_flight_) skip_free_flight(t);
        }
        if (options_.end_time) {
            // The origin moves to the horizon first: the rods woken and read there would otherwise
            // be rebuilt at a time as far from the origin as the horizon is from the last event
            // (1e9 s on a long run), their fronts' times rounded by eps x that, and momentum lost
            // (24% on a 70-rod chain at end_time = 1e10, fuzz/regressions/long_horizon_*.toml).
            if (rebasing_ && horizon() > rebase_after_) {
                const TimeShift shift = move_time_origin(horizon());
                t = shift(t);
                t_next = shift(t_next);
            }
            wake_all(horizon());  // no event of an awake rod lies between t and the horizon
            outcome_ = snapshot(horizon(), have_outcome, nullptr, *options_.end_time);
        } else if (!have_outcome) {
            // The event queue ran dry: nothing moves relative to anything any more.
            wake_all(t);
            outcome_ = snapshot(t, true);
        }
        // Nothing changes between the last event group and the next event.
        field_.set_valid_until(t_next == inf ? std::max(t, recorded_until()) : t_next);
        for (std::size_t e = 0; e < elements_.size(); ++e) field_.thaw(e);  // every time relative to the last origin
        return CharacteristicsSolution{std::move(outcome_), std::move(field_), contacts_.events()};
    }

private:
    const Element& element(std::ptrdiff_t e) const { return elements_[static_cast<std::size_t>(e)]; }
    /// The end time relative to origin_ (+inf without one).
    double horizon() const { return options_.end_time.value_or(inf) - origin_; }

    /// Moves the time origin forward to time t, so that the times the solver computes from then
    /// on are small again (time_shift.hpp, docs/physics.md §6.6); returns the shift (t becomes
    /// about 0). Every stored time moves with it; what is reported stays absolute.
    TimeShift move_time_origin(double t) {
        const double origin = origin_ + t;
        const TimeShift shift = TimeShift::between(origin_, origin);
        field_.move_time_origin(shift, origin);
        contacts_.move_time_origin(shift, origin);
        settling_.shift_times(shift);
        for (JunctionState& s : state_) s.accounted_until = shift(s.accounted_until);
        for (std::size_t j = 0; j < junctions_.size(); ++j) queue_.set(j, shift(queue_.time(j)));
        next_free_flight_ = shift(next_free_flight_);
        for (std::size_t e = 0; e < sleep_.size(); ++e) {
            Sleep& z = sleep_[e];
            z.next_try = shift(z.next_try);
            if (!z.asleep) continue;
            // Only the phase matters (the paths are periodic): the start moves by whole periods to
            // within one before the new origin, so that t - since stays small. The shift is reduced
            // modulo the period first (fmod is exact): shifted whole, the start took the rounding
            // of the shift's size, and a far wake-up or horizon moves the origin by up to 1e9
            // periods at once (the phase was off by eps x the shift).
            const double period = 2 * elements_[e].transit_time;
            z.since = -periodic_phase(std::fmod(shift.hi, period) + shift.lo - z.since, period);
        }
        for (double& w : wake_) w = shift(w);
        for (double& w : synced_) w = shift(w);
        origin_ = origin;
        return shift;
    }
    /// Contact closings so far (for the message of a run that reaches max_events).
    std::size_t closings() const {
        return static_cast<std::size_t>(std::ranges::count_if(
            contacts_.events(), [](const ContactEvent& e) { return e.kind == ContactEvent::Kind::closing; }));
    }

    /// Junctions 0 and n are the chain's ends, the only ones ChainEndState acts on.
    bool is_chain_end(std::size_t j) const { return j == 0 || j == last_junction_; }

    double next_event_time() const { return queue_.top_time(); }

    double group_tolerance(double t) const { return time_tolerance_ + time_rounding * std::abs(t); }

    void process_group(double t) {
        const double read_until = t + group_tolerance(t);
        group_.clear();
        group_times_.clear();
        while (queue_.top_time() <= read_until) {
            const std::size_t j = queue_.top();
            group_times_.push_back(queue_.time(j));
            queue_.set(j, inf);  // consumed: reschedule() sets its next event
            group_.push_back(j);
        }
        touched_.clear();
        // Each junction responds at its own event time, with every arrival of the group: a front
        // that arrives within the group's tolerance after t (1e-10 of the shortest transit time)
        // is reflected when it arrives, not at t, so no piece changes its duration and momentum
        // stays exact (responding at t moved it by the jump times that delay: 9e-12 of the
        // momentum of fuzz/regressions/long_horizon_momentum_70_rods.toml in one group). Only
        // arrivals on both sides of one junction within the tolerance are taken together.
        for (std::size_t g = 0; g < group_.size(); ++g) process_junction(group_[g], group_times_[g], read_until);
        for (std::size_t j : group_) reschedule(j);
        for (std::size_t j : touched_) reschedule(j);
        if (sleeping_)
            for (std::size_t j : group_) {
                if (junctions_[j].left >= 0) try_sleep(static_cast<std::size_t>(junctions_[j].left), t);
                if (junctions_[j].right >= 0) try_sleep(static_cast<std::size_t>(junctions_[j].right), t);
            }
    }

    /// Junction j's response at its event time t, with what arrives there up to `read_until` (the
    /// group's simultaneity window).
    void process_junction(std::size_t j, double t, double read_until) {
        const double tol = read_until - t;
        const Junction& q = junctions_[j];
        JunctionState& s = state_[j];
        if (has_sleeper(j)) {
            // A rod asleep on either side: the gap's exact value now; at the wake-up time, a new
            // bound from here, and the sleepers woken if the contact may close soon.
            sync_gap(j, t);
            if (read_until >= wake_[j]) {
                if (!arm_wake(j, t) && wake_[j] - t < 0.125 * shortest_sleeper_period(j)) {
                    if (asleep(q.left)) wake(static_cast<std::size_t>(q.left), t);
                    if (asleep(q.right)) wake(static_cast<std::size_t>(q.right), t);
                }
            }
        }
        const bool left_asleep = asleep(q.left), right_asleep = asleep(q.right);
        JunctionArrivals in;
        if (q.left >= 0 && !left_asleep) {
            in.z_left = element(q.left).impedance;
            in.alpha_in = arrived(field_.alpha_arrivals(q.left), s.cursor_alpha, read_until);
        }
        if (left_asleep || right_asleep) {
            // The contact is open (the wake-up bound keeps it so): each awake end reflects its own
            // arrivals, and the gap moves on with the asleep end's path (sync_gap()).
            if (q.right >= 0 && !right_asleep) in.beta_in = arrived(field_.beta_arrivals(q.right), s.cursor_beta, read_until);
            account_energy(j, t);
            const JunctionResponse r = open_junction(in.alpha_in, in.beta_in);
            if (q.left >= 0 && !left_asleep) emit_left(j, r.beta_to_left, r.beta_to_left, t, false);
            if (q.right >= 0 && !right_asleep) emit_right(j, r.alpha_to_right, r.alpha_to_right, t, false);
            arm_wake(j, t);
            return;
        }
        if (q.right >= 0) {
            in.z_right = element(q.right).impedance;
            in.beta_in = arrived(field_.beta_arrivals(q.right), s.cursor_beta, read_until);
        }
        in.outside = q.outside_velocity;
        account_energy(j, t);
        const std::ptrdiff_t k = contacts_.contact_at(j);
        bool touching = false;
        if (k >= 0) {
            ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
            c.advance_gap(t, tol);
            touching = c.touching() && stays_touching(q.kind, in, velocity_tolerance_);
            contacts_.set_closed(static_cast<std::size_t>(k), touching, t);
            c.set_gap_rate(touching ? 0 : free_separation_velocity(in.alpha_in, in.beta_in));
        }
        const std::optional<JunctionResponse> loaded =
            is_chain_end(j) ? chain_ends_.loaded_response(j, in, t, tol) : std::nullopt;
        const JunctionResponse ideal = loaded ? *loaded : junction_response(q.kind, touching, in);
        // Only a junction with elements on both sides splits fronts; a welded one carries tension.
        const bool splits = q.left >= 0 && q.right >= 0 && (ideal.force < 0 || q.kind == JunctionKind::welded);
        const JunctionResponse r = splits ? without_small_jump(s, ideal, in, q.kind) : ideal;
        if (k >= 0) set_force(contacts_[static_cast<std::size_t>(k)], r.force, t);
        if (is_chain_end(j) && chain_ends_.update(j, r, t)) settling_.force_carried();
        if (q.left >= 0) emit_left(j, r.beta_to_left, ideal.beta_to_left, t, splits);
        if (q.right >= 0) emit_right(j, r.alpha_to_right, ideal.alpha_to_right, t, splits);
    }

    /// Front-count control at a force-carrying junction, where every arriving front splits in two.
    /// If one of the two outgoing jumps is below the drop threshold it is not emitted, and the
    /// force is taken from that side so that it stays equal on both sides: momentum stays exact
    /// (M(u+ - u-) = W Lambda holds to rounding) and only energy is affected, which
    /// account_energy() integrates. Free ends and open contacts never split fronts: left exact.
    /// Taking the force from the dropped side moves the other side's outgoing invariant by the
    /// dropped jump times Z_dropped / Z_kept, so a jump that is small only because its side is
    /// stiff can carry the whole force (a soft rod striking a stiff one: dropping it would let the
    /// rods pass through each other with no impulse). A jump is therefore dropped only if both
    /// outgoing invariants stay within the drop threshold of the exact ones and the contact stays
    /// compressed.
    JunctionResponse without_small_jump(const JunctionState& s, JunctionResponse r, const JunctionArrivals& in,
                                        JunctionKind kind) {
        const double jump_left = std::abs(r.beta_to_left - s.emitted_left);
        const double jump_right = std::abs(r.alpha_to_right - s.emitted_right);
        const double smaller = std::min(jump_left, jump_right);
        if (smaller == 0 || smaller >= drop_threshold_) return r;
        JunctionResponse d = r;
        if (jump_left <= jump_right) {
            d.force = force_of(in.z_left, in.alpha_in, s.emitted_left);
            d.beta_to_left = s.emitted_left;
            d.alpha_to_right = in.beta_in - 2 * d.force / in.z_right;  // N = Z_R (beta_in - alpha_R)/2
        } else {
            d.force = force_of(in.z_right, s.emitted_right, in.beta_in);
            d.alpha_to_right = s.emitted_right;
            d.beta_to_left = in.alpha_in + 2 * d.force / in.z_left;  // N = Z_L (beta_L - alpha_in)/2
        }
        // Never let the approximation pull on a contact (a welded joint carries tension). It may
        // release one whose force is within the threshold of 0 (the test below): a geometrically
        // decaying force, as against an anechoic bar, would otherwise run on to underflow.
        if (d.force > 0 && kind != JunctionKind::welded) return r;
        if (std::abs(d.beta_to_left - r.beta_to_left) >= drop_threshold_ ||
            std::abs(d.alpha_to_right - r.alpha_to_right) >= drop_threshold_)
            return r;
        ++dropped_fronts_;
        return d;
    }

    /// Advances a junction's cursor over the arrivals up to t and returns the arrived value.
    /// Without history, pieces passed are forgotten, 64 at a time (each history has a single
    /// reader), so the stored fronts are those in flight plus at most 64 per history.
    double arrived(StepFunction& history, std::size_t& cursor, double t) {
        while (cursor + 1 < history.size() && history.time(cursor + 1) <= t) ++cursor;
        if (!options_.keep_history && cursor - history.first() > 64)
            stored_fronts_ -= history.discard_before(cursor - 1);  // keep one piece of margin
        return history.value(cursor);
    }

    void set_force(ContactRecord& c, double force, double t) {
        if (force == 0 && c.force() == 0) return;  // an open contact stays so: nothing to record
        const bool was_forced = c.force() != 0;
        c.set_force(force, t);
        if (was_forced != (force != 0)) forced_contacts_ += (force != 0) ? 1 : -1;
        if (force != 0) settling_.force_carried();
    }

    void account_energy(std::size_t j, double t) {
        JunctionState& s = state_[j];
        // Nothing to add while the junction emits the exact invariants (the rate is exactly 0).
        if (s.emitted_left != s.ideal_left || s.emitted_right != s.ideal_right)
            energy_created_ += energy_created_since_accounted(j, t);
        s.accounted_until = t;
    }

    /// Energy the junction's dropped jumps have added since it was last accounted for, up to t:
    /// the emitted invariants carry more (or less) energy into the elements than the exact ones.
    double energy_created_since_accounted(std::size_t j, double t) const {
        const Junction& q = junctions_[j];
        const JunctionState& s = state_[j];
        const double dt = t - s.accounted_until;
        double rate = 0;
        if (q.left >= 0) rate += emitted_energy_excess(element(q.left).impedance, s.emitted_left, s.ideal_left);
        if (q.right >= 0) rate += emitted_energy_excess(element(q.right).impedance, s.emitted_right, s.ideal_right);
        return rate * dt;
    }

    /// Sends beta into the left element; `ideal` is the exact response, for energy accounting. It
    /// reaches the junction at that element's left end, which has the element's index. `splits`:
    /// the junction splits fronts, so short pieces may be merged (merge_short_piece()).
    void emit_left(std::size_t j, double value, double ideal, double t, bool splits) {
        JunctionState& s = state_[j];
        const auto e = static_cast<std::size_t>(junctions_[j].left);
        emit(s.emitted_left, s.ideal_left, value, ideal, e, field_.beta_arrivals(e), t, e, splits ? &state_[e].cursor_beta : nullptr);
    }

    /// Sends alpha into the right element; it reaches the junction at that element's right end.
    void emit_right(std::size_t j, double value, double ideal, double t, bool splits) {
        JunctionState& s = state_[j];
        const auto e = static_cast<std::size_t>(junctions_[j].right);
        emit(s.emitted_right, s.ideal_right, value, ideal, e, field_.alpha_arrivals(e), t, e + 1,
             splits ? &state_[e + 1].cursor_alpha : nullptr);
    }

    /// A new front, unless the value is unchanged; it reaches junction `far_end` one transit later.
    /// `merge_reader`: the far end's cursor in `history` when short pieces may be merged.
    void emit(double& emitted, double& ideal_now, double value, double ideal, std::size_t e, StepFunction& history,
              double t, std::size_t far_end, const std::size_t* merge_reader) {
        ideal_now = ideal;
        if (value == emitted) return;
        emitted = value;
        const double arrival = t + elements_[e].transit_time;
        if (merge_reader) merge_short_piece(history, e, arrival, t + group_tolerance(t), *merge_reader);
        add_front(history, arrival, value);
        touched_.push_back(far_end);
    }

    /// Front merging (docs/physics.md §5.1): the history's last piece, which the new front arriving
    /// at `arrival` ends, is merged into the one before it if it is shorter than the time
    /// resolution and both are still wholly in flight (start after `read_until`, up to which the
    /// far end may have read). Momentum is kept exactly; the energy the element loses,
    /// (Z/4) d1 d2 (v1 - v2)^2 / (d1 + d2), is accounted as dropped. Only junctions that split
    /// fronts merge: free ends and open contacts pass pieces on unchanged (they do not multiply
    /// them), so a force-free stretch changes no energy and the rod states read at its start hold.
    void merge_short_piece(StepFunction& history, std::size_t e, double arrival, double read_until, std::size_t reader) {
        const std::size_t n = history.size();
        if (stored_fronts_ <= options_.exact_fronts || n - history.first() < 3 || arrival - history.time(n - 1) >= merge_below_ ||
            history.time(n - 2) <= read_until || static_cast<double>(n - reader) * merge_below_ < elements_[e].transit_time)
            return;
        energy_created_ -= 0.25 * elements_[e].impedance * history.merge_last(arrival);
        --stored_fronts_;
        ++merged_fronts_;
    }

    void add_front(StepFunction& history, double arrival, double value) {
        ++fronts_;
        if (++stored_fronts_ > options_.max_fronts)
            throw SolverLimitExceeded(fmt::format(
                "characteristics solver: reached max_fronts = {} stored fronts ({} MB) at t = {:g}; "
                "raise [solver] max_fronts (--max-fronts) or [solver] time_resolution (--time-resolution, now {:g}), "
                "or set [solver] end_time", options_.max_fronts, options_.max_fronts * 16 / 1000000, origin_ + arrival,
                options_.time_resolution));
        peak_stored_fronts_ = std::max(peak_stored_fronts_, stored_fronts_);
        history.push(arrival, value);
    }

    void reschedule(std::size_t j) {
        const Junction& q = junctions_[j];
        const JunctionState& s = state_[j];
        double t = inf;
        if (q.left >= 0 && !asleep(q.left)) {
            const StepFunction& a = field_.alpha_arrivals(q.left);
            if (s.cursor_alpha + 1 < a.size()) t = std::min(t, a.time(s.cursor_alpha + 1));
        }
        if (q.right >= 0 && !asleep(q.right)) {
            const StepFunction& b = field_.beta_arrivals(q.right);
            if (s.cursor_beta + 1 < b.size()) t = std::min(t, b.time(s.cursor_beta + 1));
        }
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k >= 0) t = std::min(t, has_sleeper(j) ? wake_[j] : contacts_[static_cast<std::size_t>(k)].closing_time());
        if (is_chain_end(j)) t = std::min(t, chain_ends_.next_load_time(j));
        if (t != queue_.time(j)) queue_.set(j, t);
    }


    // ---- Rods asleep in free flight (docs/physics.md §6.7) ------------------------------------------
    // A rod whose two ends are free (open contacts, free chain ends) moves periodically about its
    // drift for as long as they stay free. Asleep, its reflections are not processed: its ends
    // follow the periodic paths it had when it fell asleep, its neighbours reflect at their own
    // ends as before, and each of its contacts has a wake-up time before which the gap provably
    // stays open (closing_lower_bound() against the neighbour's path, or against the neighbour's
    // end moving steadily until its next arrival there). At the wake-up time the rod's arrivals
    // are rebuilt from its paths (as after a global free flight) and it is processed as before.

    bool asleep(std::ptrdiff_t e) const { return sleeping_ && e >= 0 && sleep_[static_cast<std::size_t>(e)].asleep; }
    bool has_sleeper(std::size_t j) const { return asleep(junctions_[j].left) || asleep(junctions_[j].right); }

    double shortest_sleeper_period(std::size_t j) const {
        double p = inf;
        for (std::ptrdiff_t e : {junctions_[j].left, junctions_[j].right})
            if (asleep(e)) p = std::min(p, 2 * element(e).transit_time);
        return p;
    }

    /// How the end of element e at junction j (its right end if `right_end`) moves from t on:
    /// asleep, along its path; awake, at the velocity of what last arrived there (free end).
    EndView end_view(std::size_t e, bool right_end, double t) const {
        const Sleep& z = sleep_[e];
        if (z.asleep) return EndView::periodic(right_end ? z.paths->first : z.paths->second, t - z.since);
        return EndView::steady(right_end ? field_.alpha_arrivals(e).value(state_[e + 1].cursor_alpha)
                                         : field_.beta_arrivals(e).value(state_[e].cursor_beta));
    }

    /// Brings the gap of the contact at junction j (a rod asleep on a side) exactly to t: since it
    /// was last synced, an awake end moved at one velocity (it had no arrival: an arrival there is
    /// processed, and syncs first), an asleep one along its path. The record keeps it, rate 0.
    void sync_gap(std::size_t j, double t) {
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k < 0) return;
        ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
        const double since = std::exchange(synced_[j], t), u = t - since;
        if (c.closed()) return;  // inert touching ends: no gap while they stay so
        const auto l = static_cast<std::size_t>(junctions_[j].left), r = static_cast<std::size_t>(junctions_[j].right);
        const double gap = c.gap_at(since) + end_view(r, false, since).position(u) - end_view(l, true, since).position(u);
        c.set_gap(std::max(0.0, gap), t);
    }

    /// The wake-up time of the contact at junction j, synced at t: a lower bound of its closing,
    /// while its awake end (if any) keeps its velocity, i.e. until its next arrival there. Returns
    /// whether the gap was proven open up to that arrival or the renewal time (not a closing).
    bool arm_wake(std::size_t j, double t) {
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k < 0) return true;
        if (contacts_[static_cast<std::size_t>(k)].closed()) {
            wake_[j] = inert_until(j, t);
            return wake_[j] > t;
        }
        const Junction& q = junctions_[j];
        const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
        const JunctionState& s = state_[j];
        double limit = inf;
        if (!asleep(q.left)) {
            const StepFunction& a = field_.alpha_arrivals(l);
            limit = s.cursor_alpha + 1 < a.size() ? a.time(s.cursor_alpha + 1) - t : inf;
        }
        if (!asleep(q.right)) {
            const StepFunction& b = field_.beta_arrivals(r);
            limit = std::min(limit, s.cursor_beta + 1 < b.size() ? b.time(s.cursor_beta + 1) - t : inf);
        }
        // Two sleepers (or an awake end with nothing in flight): no limit, the walk's budget ends
        // it, and the walk goes on from there at the wake-up time. (Not capped at the horizon:
        // the run stops there whatever is scheduled after it.)
        const double margin = 4 * velocity_scale_ * group_tolerance(t);
        const double gap = contacts_[static_cast<std::size_t>(k)].gap_at(t);
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
    double inert_until(std::size_t j, double t) const {
        const Junction& q = junctions_[j];
        const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
        const double read_until = t + group_tolerance(t);
        double until = inf;
        const auto awake_end = [&](const StepFunction& history, std::size_t cursor) {
            while (cursor + 1 < history.size() && history.time(cursor + 1) <= read_until) ++cursor;
            if (cursor + 1 < history.size()) until = std::min(until, history.time(cursor + 1));
            return std::pair{history.value(cursor), history.value(cursor)};
        };
        const auto [left_lo, left_hi] = asleep(q.left) ? sleep_[l].paths->first.velocity_range()
                                                       : awake_end(field_.alpha_arrivals(l), state_[j].cursor_alpha);
        const auto [right_lo, right_hi] = asleep(q.right) ? sleep_[r].paths->second.velocity_range()
                                                          : awake_end(field_.beta_arrivals(r), state_[j].cursor_beta);
        const bool inert = right_lo - left_hi >= -velocity_tolerance_ && right_hi - left_lo <= velocity_tolerance_;
        return inert ? until : t;
    }

    /// Puts element e (a rod) to sleep at t if both its ends are free and neither contact can close
    /// within a period (or before the neighbour's next arrival), at most once per period.
    void try_sleep(std::size_t e, double t) {
        Sleep& z = sleep_[e];
        const double period = 2 * elements_[e].transit_time;
        if (z.asleep || t < z.next_try) return;
        z.next_try = t + period;
        for (std::size_t j : {e, e + 1}) {
            const std::ptrdiff_t k = contacts_.contact_at(j);
            if (k < 0 && junctions_[j].kind != JunctionKind::free_end) return;
            if (k < 0) continue;
            // A contact carrying force, or open with no gap yet (it is closed or opened at its next
            // arrival), is refused before the paths are built. Closed ends without force may
            // sleep while they stay inert (inert_until()).
            const ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
            if (c.force() != 0 || (c.touching() && !c.closed())) return;
        }
        if (arrivals_pending(e, t)) return;
        z.paths = end_paths_of(e, t);
        if (z.paths->first.steady() && z.paths->second.steady()) {
            z.paths.reset();  // nothing in flight: no reflection to save, only a wake-up to pay
            return;
        }
        // Each contact's gap exactly at t, under the modes so far: synced next to a sleeper,
        // otherwise from its rate.
        for (std::size_t j : {e, e + 1}) {
            const std::ptrdiff_t k = contacts_.contact_at(j);
            if (k < 0) continue;
            if (has_sleeper(j)) {
                sync_gap(j, t);
            } else {
                ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
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
                reschedule(i);
            }
            return;
        }
        z.momentum = field_.momentum(e, t);
        field_.freeze(e);  // its arrivals are not read until it wakes
        ++sleeps_;
        reschedule(e);
        reschedule(e + 1);
    }

    /// Whether element e has arrivals pending within the group tolerance of t (read by a
    /// junction of a later group): it is not free of them yet.
    bool arrivals_pending(std::size_t e, double t) const {
        const double until = t + group_tolerance(t);
        const StepFunction &a = field_.alpha_arrivals(e), &b = field_.beta_arrivals(e);
        const std::size_t ca = state_[e + 1].cursor_alpha, cb = state_[e].cursor_beta;
        return (ca + 1 < a.size() && a.time(ca + 1) <= until) || (cb + 1 < b.size() && b.time(cb + 1) <= until);
    }

    /// After a change of mode at t, the contact at junction j (synced at t) is tracked as before:
    /// by its rate if both ends are awake, by syncing otherwise.
    void restore_rate(std::size_t j, double t) {
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k < 0) return;
        ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
        if (has_sleeper(j)) {
            arm_wake(j, t);
            return;
        }
        const Junction& q = junctions_[j];
        c.set_gap_rate(free_separation_velocity(field_.alpha_arrivals(q.left).value(state_[j].cursor_alpha),
                                                field_.beta_arrivals(q.right).value(state_[j].cursor_beta)));
        wake_[j] = inf;
    }

    /// Wakes element e at t: its arrivals from t on rebuilt from its paths (restart_element()),
    /// its contacts' gaps synced to t and tracked as before.
    void wake(std::size_t e, double t) {
        Sleep& z = sleep_[e];
        if (!z.asleep) return;
        field_.thaw(e);
        for (std::size_t j : {e, e + 1}) sync_gap(j, t);
        const double T = elements_[e].transit_time, u = periodic_phase(t - z.since, 2 * T);
        restart_element(e, z.paths->first.pieces(u, T), z.paths->second.pieces(u, T), t);
        z.asleep = false;
        z.paths.reset();
        z.next_try = t + 2 * T;
        for (std::size_t j : {e, e + 1}) {
            restore_rate(j, t);
            touched_.push_back(j);  // rescheduled with the group
            reschedule(j);
        }
    }

    void wake_all(double t) {
        if (!sleeping_) return;
        for (std::size_t e = 0; e < elements_.size(); ++e) wake(e, t);
    }

    /// A rod's momentum at t; asleep, the one it fell asleep with.
    double rod_momentum(std::size_t i, double t) const {
        return asleep(static_cast<std::ptrdiff_t>(i)) ? sleep_[i].momentum : field_.momentum(i, t);
    }

    /// With no contact carrying force at t, every rod is free-free: advances them all to just before
    /// the next possible closing (free_flight.hpp), or to the settling time or the horizon, by
    /// rebuilding each rod's arrivals there from its periodic motion (docs/physics.md §6.6).
    /// Only chains whose rods do not sleep take such flights (a load on a free end: sleeping
    /// rods make them unnecessary), so every rod is awake here and the times are absolute.
    void skip_free_flight(double t) {
        if (chain_ends_.load_acting(t)) return;  // its steps still drive an end (found by the fuzzer)
        double longest = 0;
        for (const Element& e : elements_) longest = std::max(longest, 2 * e.transit_time);
        next_free_flight_ = t + longest;  // a failed attempt is retried one period later
        const double until = std::min(settling_.settle_time(), horizon());
        double limit = until - t;
        // Each element's two end paths, built when a contact first needs them. They copy every
        // front in flight (about 80 bytes each), so beyond a budget (2.5 MB) they are dropped
        // once the contacts on both sides are done and rebuilt for the restart: memory stays
        // that of the fronts themselves.
        std::vector<std::optional<std::pair<PeriodicPath, PeriodicPath>>> paths(elements_.size());
        std::size_t kept = 0;
        const auto end_paths = [&](std::size_t e) -> const std::pair<PeriodicPath, PeriodicPath>& {
            if (!paths[e]) {
                paths[e] = end_paths_of(e, t);
                kept += paths[e]->first.breakpoints() + paths[e]->second.breakpoints();
            }
            return *paths[e];
        };
        const double margin = 4 * velocity_scale_ * group_tolerance(t);
        for (std::size_t k = 0; k < contacts_.size() && limit > longest; ++k) {
            const Junction& q = junctions_[contacts_.junction(k)];
            const auto left = static_cast<std::size_t>(q.left), right = static_cast<std::size_t>(q.right);
            const PeriodicPath& l = end_paths(left).first;    // the right end of the left element
            const PeriodicPath& r = end_paths(right).second;  // the left end of the right element
            if (contacts_[k].closed()) {
                // Ends touching without force stay so, inert, while neither vibrates and their
                // velocities agree within the opening tolerance (stays_touching(), §1.4).
                if (!l.steady() || !r.steady() ||
                    std::abs(free_separation_velocity(l.velocity(0), r.velocity(0))) > velocity_tolerance_)
                    return;
            } else {
                limit = closing_lower_bound(contacts_[k].gap_at(t), l, r, limit, margin, 1 << 16);
            }
            if (kept > path_budget) paths[left].reset();  // both its contacts are done
        }
        if (!(limit > longest) || !std::isfinite(limit)) return;
        const double to = std::min(t + limit, until);
        const double u = to - t;
        for (std::size_t j = 0; j < junctions_.size(); ++j) account_energy(j, to);
        struct EndMotion {
            double position, velocity;  // displacement over [t, to] and velocity at `to`
        };
        std::vector<EndMotion> right_end(elements_.size()), left_end(elements_.size());
        for (std::size_t e = 0; e < elements_.size(); ++e) {
            const auto& [right, left] = end_paths(e);
            right_end[e] = {right.position(u), right.velocity(u)};
            left_end[e] = {left.position(u), left.velocity(u)};
            restart_element(e, right.pieces(u, elements_[e].transit_time), left.pieces(u, elements_[e].transit_time), to);
            paths[e].reset();
        }
        for (std::size_t k = 0; k < contacts_.size(); ++k) {
            const Junction& q = junctions_[contacts_.junction(k)];
            const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
            ContactRecord& c = contacts_[k];
            if (c.closed()) continue;
            c.set_gap(std::max(0.0, c.gap_at(t) + left_end[r].position - right_end[l].position), to);
            c.set_gap_rate(free_separation_velocity(right_end[l].velocity, left_end[r].velocity));
        }
        for (std::size_t j = 0; j < junctions_.size(); ++j) reschedule(j);
        ++free_flights_;
        next_free_flight_ = to + longest;
    }

    /// The periodic paths of element e's right and left ends from t (free_flight.hpp).
    std::pair<PeriodicPath, PeriodicPath> end_paths_of(std::size_t e, double t) const {
        const ArrivalWindow alpha = field_.alpha_window(e, t), beta = field_.beta_window(e, t);
        const double period = 2 * elements_[e].transit_time;
        return {PeriodicPath(alpha, beta, period), PeriodicPath(beta, alpha, period)};
    }

    /// Element e's arrivals from `to` on: `alpha` and `beta` over [to, to + T), as its free ends
    /// have emitted them; each junction has read what arrived up to `to` and reflected it.
    void restart_element(std::size_t e, const ArrivalWindow& alpha, const ArrivalWindow& beta, double to) {
        JunctionState& left = state_[e];       // reads beta, emits alpha
        JunctionState& right = state_[e + 1];  // reads alpha, emits beta
        const double T = elements_[e].transit_time;
        restart_history(field_.alpha_arrivals(e), right.cursor_alpha, alpha, to, T);
        restart_history(field_.beta_arrivals(e), left.cursor_beta, beta, to, T);
        // A jump arriving exactly at `to` was read there: its reflection arrives at the far end T
        // later, unless the history already ends with that value. Compared with what the history
        // holds, not with the window's last piece: restart_history() leaves out a piece that
        // rounding starts at to + T, and on a nearly commensurate chain that piece is this very
        // reflection (found by the rounding check: a 2-ulp change of lengths lost it, and with it
        // 0.07% of a rod's momentum).
        StepFunction &alphas = field_.alpha_arrivals(e), &betas = field_.beta_arrivals(e);
        right.emitted_left = right.ideal_left = alpha.front().value;
        if (betas.value(betas.size() - 1) != right.emitted_left) add_front(betas, to + T, right.emitted_left);
        left.emitted_right = left.ideal_right = beta.front().value;
        if (alphas.value(alphas.size() - 1) != left.emitted_right) add_front(alphas, to + T, left.emitted_right);
    }

    /// `pieces` cover [to, to + T): a piece that rounding would start at or after to + T (where the
    /// reflection of what arrives at `to` begins) lasts no time and is left out.
    /// The junction may have read pieces that start within its group tolerance after `to` (when
    /// `to` is the time its rod fell asleep, or soon after): they are in `pieces` too and go.
    void restart_history(StepFunction& history, std::size_t& cursor, const ArrivalWindow& pieces, double to, double T) {
        while (cursor > history.first() && history.time(cursor) > to) --cursor;
        stored_fronts_ -= history.truncate(cursor + 1);
        cursor = history.size();
        double s = to;
        for (const ArrivalPiece& p : pieces) {
            if (s > to && s >= to + T) break;
            add_front(history, s, p.value);
            s += p.duration;
        }
    }

    /// With no contact carrying force at t, the earliest time from which no contact can happen.
    double settle_bound(double t) const {
        if (chain_ends_.load_acting(t)) return inf;
        if (only_free_rods_ && approaching_neighbours(t)) return inf;
        const std::size_t n = chain_.size();
        std::vector<FreeRodMotion> rods(n);
        for (std::size_t i = 0; i < n; ++i) {
            rods[i] = free_rod_motion(field_, i, t, velocity_tolerance_);
            // Reduce the windows to their excursions at once: they copy every front in flight.
            FreeRodMotion& m = rods[i];
            if (!m.excursions) {
                m.excursions = free_rod_end_excursions(m.alpha_at_right, m.beta_at_left, m.mean_velocity);
                m.alpha_at_right = m.beta_at_left = {};
            }
        }
        return chain_release_time(t, rods, contacts_.gaps(t), chain_ends_.wall_gaps(contacts_, t), tolerances_);
    }

    /// Whether two neighbouring free rods approach on average at t (faster than the velocity
    /// tolerance): then chain_release_time() is +inf whatever the gaps and excursions, and this
    /// check, from the rods' momenta alone, spares reading every rod's arrival windows.
    bool approaching_neighbours(double t) const {
        double left = 0;
        for (std::size_t i = 0; i < chain_.size(); ++i) {
            const double v = rod_momentum(i, t) / chain_[i].mass();  // as free_rod_motion() has it
            if (i > 0 && v - left < -velocity_tolerance_) return true;
            left = v;
        }
        return false;
    }

    std::vector<RodState> rod_states(double t) const {
        std::vector<RodState> rods;
        for (std::size_t i = 0; i < chain_.size(); ++i) {
            RodState rod;
            rod.momentum = field_.momentum(i, t);
            const double rigid = rigid_energy(chain_[i].mass(), rod.momentum / chain_[i].mass());
            rod.vibration_energy = std::max(0.0, field_.energy(i, t) - rigid);
            rods.push_back(rod);
        }
        return rods;
    }

    /// The outcome at t; `free_rods`, if given, are the rods' states read earlier in the same
    /// force-free epoch (equal to those at t).
    /// `t` is in the solver's times; `absolute`, if given, is the same time as the user gave it
    /// (the run stopped at the horizon).
    Outcome snapshot(double t, bool settled, const std::vector<RodState>* free_rods = nullptr,
                     std::optional<double> absolute = std::nullopt) const {
        SolverReport report;
        report.method = Method::characteristics;
        report.end_time = absolute.value_or(origin_ + t);
        if (origin_ != 0) report.records_time = t;
        report.settled = settled;
        report.at_horizon = absolute.has_value();
        report.rods = free_rods ? *free_rods : rod_states(t);
        double created = energy_created_;
        for (std::size_t j = 0; j < junctions_.size(); ++j) created += energy_created_since_accounted(j, t);
        report.energy_created = created;
        // With absolute times each front's time carries a rounding of eps x t, which moves momentum
        // by (jump / V) x eps x t / T_min of the scale m V; summed over the fronts (their total
        // variation is a few V), the rounding grows like eps t / T_min on long runs: stated with a
        // factor 16 of margin (docs/physics.md §6.6). The moving origin keeps every time the
        // solver computes within a few periods of it, and a sleeper's phase exact to the rounding
        // of its period, so only the rounding of each event group's arithmetic adds up (like a
        // random walk: 1e-12 after 1e7 groups); conservation_rounding holds it at every horizon.
        const double rounding_growth =
            rebasing_ ? 0.0 : 16 * std::numeric_limits<double>::epsilon() * (origin_ + t) / chain_.shortest_transit_time();
        report.accuracy = std::max(characteristics_accuracy(options_), rounding_growth);
        report.balance_accuracy = std::max(conservation_rounding, rounding_growth);
        // Free-flight skipping is exact; a dropped or merged front moves later contact events by
        // amounts no bound is derived for: +infinity here, estimated by solve_characteristics()
        // from a second run (solve_characteristics.cpp, docs/physics.md §5.1).
        report.velocity_error_bound = dropped_fronts_ == 0 && merged_fronts_ == 0 ? 0.0 : inf;
        report.stats.events = groups_;
        report.stats.fronts = fronts_;
        report.stats.dropped_fronts = dropped_fronts_;
        report.stats.merged_fronts = merged_fronts_;
        report.stats.peak_stored_fronts = peak_stored_fronts_;
        report.left_end = chain_ends_.report(ChainSide::left, t);
        report.right_end = chain_ends_.report(ChainSide::right, t);
        report.force_samples = options_.force_samples;
        report.stats.free_flights = free_flights_;
        report.stats.sleeps = sleeps_;
        return build_outcome(chain_, contacts_, std::move(report));
    }

    const Chain& chain_;
    const std::vector<Element>& elements_;
    const std::vector<Junction>& junctions_;
    SolverOptions options_;
    WaveField field_;
    ContactHistory contacts_;
    ChainEndState chain_ends_;
    std::vector<JunctionState> state_;  // per junction
    std::size_t last_junction_ = 0;
    EventQueue queue_;
    std::vector<std::size_t> group_, touched_;
    std::vector<double> group_times_;  // the event time of each junction of group_ [s]
    Outcome outcome_;

    double velocity_scale_ = 0, velocity_tolerance_ = 0, drop_threshold_ = 0;
    double time_tolerance_ = 0;
    double merge_below_ = 0;  // [s]: time_resolution x the shortest transit time
    ContactTolerances tolerances_;
    double energy_created_ = 0;
    SettlingWatch settling_;
    std::size_t forced_contacts_ = 0, groups_ = 0, fronts_ = 0, dropped_fronts_ = 0, merged_fronts_ = 0;
    std::size_t stored_fronts_ = 0, peak_stored_fronts_ = 0;
    std::vector<RodState> free_rods_;  // at the start of the current force-free epoch
    bool only_free_rods_ = false, free_flight_ = false;
    double next_free_flight_ = 0;
    std::size_t free_flights_ = 0;
    // Rebasing (move_time_origin()): on when only the outcome is wanted and the chain's ends are
    // free (loads and walls keep absolute times), to the next group's time whenever that lies
    // more than rebase_after_ (a longest period) past the origin.
    bool rebasing_ = false;
    double rebase_after_ = inf;
    double origin_ = 0;        // absolute time of the solver's time 0 [s]
    // Rods asleep in free flight (try_sleep()): on with free-flight skipping on a chain without
    // loads or walls.
    bool sleeping_ = false;
    std::vector<Sleep> sleep_;    // per element
    std::vector<double> wake_;    // per junction: wake-up time of a contact with a sleeper [s]
    std::vector<double> synced_;  // per junction: when that contact's gap was last synced [s]
    std::size_t sleeps_ = 0;
};

}  // namespace

double characteristics_accuracy(const SolverOptions& options) {
    return std::max(characteristics_rounding, 100 * options.drop_tolerance);
}

CharacteristicsSolution track_fronts(const Chain& chain, const SolverOptions& options) {
    return FrontTracker(chain, options).run();
}

}  // namespace rodcollide
