// Exact front-tracking solver (docs/physics.md §1-2, §5; Winandy & Leine 2015 §4, Table 1).
// It runs on the chain's elements and junctions (elements.hpp): junction j sits at the left end
// of element j and the right end of element j-1. The field is stored as arrival histories (see
// wave_field.hpp): a junction reads the invariant that arrives at it, and every value it emits is
// appended to the neighbouring element's history one transit time later. Events are arrivals (a
// history jumps) and gap closures; they are processed in groups of simultaneous times. Each
// junction's response comes from junction.hpp, a contact's history goes to its ContactRecord,
// and the Outcome comes from outcome_builder.hpp: what is left here is transport. Two helpers
// skip work without changing the result: rods asleep in free flight (asleep_rods.hpp) and
// whole-chain free flight (whole_chain_flight.hpp); the moving time origin is time_origin.hpp.
#include "solvers/exact/characteristics.hpp"

#include "solvers/exact/asleep_rods.hpp"
#include "solvers/exact/event_queue.hpp"
#include "solvers/exact/time_origin.hpp"
#include "solvers/exact/tracked_chain.hpp"
#include "solvers/exact/whole_chain_flight.hpp"
#include "solvers/shared/chain_end_state.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/free_rod_motion.hpp"
#include "solvers/shared/invariant_energy.hpp"
#include "solvers/shared/junction.hpp"
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

using exact::AsleepRods;
using exact::JunctionState;
using exact::TimeOrigin;
using exact::TrackedChain;
using exact::WholeChainFlight;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double time_tolerance = 1e-10;     // x shortest transit time: simultaneous arrivals

class FrontTracker final : private exact::TrackerActions {
public:
    FrontTracker(const Chain& chain, const SolverOptions& options)
        : chain_(chain), elements_(chain.elements()), junctions_(chain.junctions()), options_(options),
          field_(chain), contacts_(chain), chain_ends_(chain), queue_(junctions_.size()),
          only_free_rods_(only_free_rods(chain)),
          tracked_{elements_, junctions_, field_, contacts_, state_},
          asleep_(tracked_, *this, free_flight(options, only_free_rods_) && !chain.ends().any()),
          flight_(tracked_, *this, chain_ends_, free_flight(options, only_free_rods_) && !asleep_.on()),
          time_origin_(options.rebase_times && !options.keep_history && !chain.ends().any(),
                       2 * chain.longest_transit_time()) {
        velocity_scale_ = chain.velocity_scale();
        tolerances_ = contact_tolerances(chain);
        velocity_tolerance_ = tolerances_.velocity;
        drop_threshold_ = options.drop_tolerance * velocity_scale_;
        time_tolerance_ = time_tolerance * chain.shortest_transit_time();
        merge_below_ = options.time_resolution.value_or(0) * chain.shortest_transit_time();
        tracked_.velocity_scale = velocity_scale_;
        tracked_.velocity_tolerance = velocity_tolerance_;
        tracked_.time_tolerance = time_tolerance_;
        state_.resize(junctions_.size());
        ahead_.resize(junctions_.size());
        last_junction_ = junctions_.size() - 1;
        if (options.force_samples)
            for (std::size_t k = 0; k < contacts_.size(); ++k) contacts_[k].record_forces();
        for (std::size_t j = 0; j < junctions_.size(); ++j) {
            const Junction& q = junctions_[j];
            JunctionState& s = state_[j];
            if (q.left >= 0) s.emitted_left = s.ideal_left = element(q.left).initial_velocity;
            if (q.right >= 0) s.emitted_right = s.ideal_right = element(q.right).initial_velocity;
            queue_.set(j, 0);
        }
    }

    CharacteristicsSolution run() {
        // Times below are relative to the origin (0 unless rebasing moves it, move_time_origin()).
        const double record_until = options_.record_until.value_or(0);
        const auto recorded_until = [&] {
            return time_origin_.relative(std::max(record_until, outcome_.end_time + options_.record_after_settling));
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
            if ((!have_outcome || options_.end_time) && time_origin_.due(t_next)) t_next = move_time_origin(t_next)(t_next);
            t = t_next;
            process_group(t);
            if ((++groups_ & 0xffff) == 0 && options_.progress) options_.progress(time_origin_.origin() + t, groups_);
            if (groups_ > options_.max_events)
                throw SolverLimitExceeded(fmt::format(
                    "characteristics solver: reached max_events = {} event groups at t = {:g} "
                    "without settling ({} contact closings so far; long chains with gaps can keep "
                    "colliding for 1e9 s and more, docs/physics.md §5.4); raise [solver] max_events "
                    "(--max-events) or set [solver] end_time",
                    options_.max_events, time_origin_.origin() + t, closings()));
            if (forced_contacts_ == 0) settling_.force_free([&] {
                if (only_free_rods_ && approaching_neighbours(t)) return inf;  // cheap, and no rod woken
                asleep_.wake_all(t);  // the bound reads every rod's arrivals
                rewind_all(t);        // and every gap
                const double bound = settle_bound(t);
                // Free rods keep their momentum and energy: read them now, before times grow
                // large against the transit times (their rounding is that of t, not of the
                // settling time). Only an epoch with a finite bound can end the run.
                if (only_free_rods_ && std::isfinite(bound)) free_rods_ = rod_states(t);
                return bound;
            });
            // With rods asleep each contact has its own wake-up time and no whole-chain flight is
            // needed (it would rebuild every rod for the one contact that limits it).
            if (forced_contacts_ == 0 && flight_.due(t)) flight_.fly(t, std::min(settling_.settle_time(), horizon()));
        }
        if (options_.end_time) {
            // The origin moves to the horizon first: the rods woken and read there would otherwise
            // be rebuilt at a time as far from the origin as the horizon is from the last event
            // (1e9 s on a long run), their fronts' times rounded by eps x that, and momentum lost
            // (24% on a 70-rod chain at end_time = 1e10, fuzz/regressions/long_horizon_*.toml).
            if (time_origin_.due(horizon())) {
                const TimeShift shift = move_time_origin(horizon());
                t = shift(t);
                t_next = shift(t_next);
            }
            asleep_.wake_all(horizon());  // no event of an awake rod lies between t and the horizon
            rewind_all(horizon());
            outcome_ = snapshot(horizon(), have_outcome, nullptr, *options_.end_time);
        } else {
            rewind_all(t);
            if (!have_outcome) {
                // The event queue ran dry: nothing moves relative to anything any more.
                asleep_.wake_all(t);
                outcome_ = snapshot(t, true);
            }
        }
        // Nothing changes between the last event group and the next event.
        field_.set_valid_until(t_next == inf ? std::max(t, recorded_until()) : t_next);
        for (std::size_t e = 0; e < elements_.size(); ++e) field_.thaw(e);  // every time relative to the last origin
        outcome_.contact_events = contacts_.events();
        return CharacteristicsSolution{std::move(outcome_), std::move(field_), contacts_.events()};
    }

private:
    const Element& element(std::ptrdiff_t e) const { return elements_[static_cast<std::size_t>(e)]; }
    /// The end time relative to the time origin (+inf without one).
    double horizon() const { return time_origin_.relative(options_.end_time.value_or(inf)); }

    /// Moves the time origin forward to time t, so that the times the solver computes from then
    /// on are small again (time_shift.hpp, docs/physics.md §6.6); returns the shift (t becomes
    /// about 0). Every stored time moves with it; what is reported stays absolute.
    TimeShift move_time_origin(double t) {
        const TimeShift shift = time_origin_.move_to(t);
        field_.move_time_origin(shift, time_origin_.origin());
        contacts_.move_time_origin(shift, time_origin_.origin());
        settling_.shift_times(shift);
        for (JunctionState& s : state_) s.accounted_until = shift(s.accounted_until);
        for (Ahead& a : ahead_) {
            a.time = shift(a.time);
            a.start.accounted_until = shift(a.start.accounted_until);
            a.gap.time = shift(a.gap.time);
            if (a.beside_sleeper) *a.beside_sleeper = {shift(a.beside_sleeper->synced), shift(a.beside_sleeper->wake)};
        }
        for (std::size_t j = 0; j < junctions_.size(); ++j) queue_.set(j, shift(queue_.time(j)));
        flight_.shift_times(shift);
        asleep_.shift_times(shift);
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

    double group_tolerance(double t) const { return tracked_.group_tolerance(t); }

    void process_group(double t) {
        const double read_until = t + group_tolerance(t);
        group_time_ = t;
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
        if (asleep_.on())
            for (std::size_t j : group_) {
                if (junctions_[j].left >= 0) asleep_.try_sleep(static_cast<std::size_t>(junctions_[j].left), t);
                if (junctions_[j].right >= 0) asleep_.try_sleep(static_cast<std::size_t>(junctions_[j].right), t);
            }
    }

    /// Junction j's response at its event time t, with what arrives there up to `read_until` (the
    /// group's simultaneity window).
    void process_junction(std::size_t j, double t, double read_until) {
        end_ahead(j);  // it reflected ahead up to its next event, which this is
        if (asleep_.has_sleeper(j) && asleep_.beside_sleeper(j, t, read_until)) {
            reflect_beside_sleeper(j, t, read_until);
            if (may_reflect_ahead()) reflect_ahead_beside_sleeper(j, t);
            return;
        }
        const double tol = read_until - t;
        const Junction& q = junctions_[j];
        JunctionState& s = state_[j];
        JunctionArrivals in;
        const std::size_t from_alpha = s.cursor_alpha, from_beta = s.cursor_beta;
        if (q.left >= 0) {
            in.z_left = element(q.left).impedance;
            in.alpha_in = arrived(field_.alpha_arrivals(q.left), s.cursor_alpha, read_until);
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
        // An open contact reflects each arrival at its own time (reflect_each()). Once fronts are
        // merged the run is an estimate, and keeps the responses its calibration was measured
        // with (docs/physics.md §5.1): all at t.
        const bool open = merged_fronts_ == 0 && k >= 0 && q.kind == JunctionKind::contact && !touching && r.force == 0 &&
                          !loaded && !splits;
        if (open) {
            reflect_each(j, true, from_alpha, t);
            reflect_each(j, false, from_beta, t);
        } else {
            if (q.left >= 0) emit_left(j, r.beta_to_left, ideal.beta_to_left, t, splits);
            if (q.right >= 0) emit_right(j, r.alpha_to_right, ideal.alpha_to_right, t, splits);
        }
        if (k >= 0 && may_reflect_ahead() && q.kind == JunctionKind::contact && !touching && r.force == 0 &&
            !asleep_.has_sleeper(j))
            reflect_ahead(j);
    }

    // ---- Reflections ahead of the event loop at open contacts (docs/physics.md §6.8) ----------
    // What arrives at the two ends of a contact up to one transit time after the current group was
    // emitted at least a transit earlier: it is in the histories already. While the contact stays
    // open each end reflects its own arrivals, so its reflections and its gap up to then are
    // decided now, and the junction makes them at once, at their own arrival times and with the
    // event loop's own steps (reflect_open()), instead of one event group each. What else reads
    // the junction's state (a rod falling asleep beside it, the settling bound, the outcome)
    // first takes back what it made after that time (rewind()).

    /// Reflecting ahead is on where rods may sleep, until a first front is merged: a piece read
    /// ahead may not be merged (merge_short_piece()). That does not depend on time_resolution or
    /// max_memory, so a run that merges nothing is the run without merging, bit for bit.
    bool may_reflect_ahead() const { return reflects_ahead_ && merged_fronts_ == 0; }

    /// Junction j's reflections ahead are the event loop's from now on (its next event, or rewind()).
    void end_ahead(std::size_t j) {
        if (!ahead_[j].on) return;
        ahead_[j].on = false;
        ahead_fronts_ -= ahead_[j].fronts;
    }

    /// Junction j's state when it began reflecting ahead, to take back what it made after a time.
    struct Ahead {
        bool on = false;
        double time = 0;  // when it began [s]
        JunctionState start;
        ContactRecord::GapState gap;
        std::size_t left_size = 0, right_size = 0;  // of the histories it emits into
        std::optional<AsleepRods::Sync> beside_sleeper;  // its sync state, next to a sleeper
        std::size_t fronts = 0;  // it emitted ahead
    };

    Ahead ahead_from(std::size_t j, double t) const {
        const Junction& q = junctions_[j];
        Ahead a;
        a.on = true;
        a.time = t;
        a.start = state_[j];
        a.gap = contacts_[static_cast<std::size_t>(contacts_.contact_at(j))].gap_state();
        if (q.left >= 0) a.left_size = field_.beta_arrivals(static_cast<std::size_t>(q.left)).size();
        if (q.right >= 0) a.right_size = field_.alpha_arrivals(static_cast<std::size_t>(q.right)).size();
        return a;
    }

    /// Junction j (an open contact between awake rods, just processed) reflects what arrives up to
    /// the shorter transit time after the group, or up to where its gap may close.
    void reflect_ahead(std::size_t j) {
        const Junction& q = junctions_[j];
        const double known_until = group_time_ + std::min(element(q.left).transit_time, element(q.right).transit_time) -
                                   group_tolerance(group_time_);
        ahead_[j] = ahead_from(j, group_time_);
        const std::size_t fronts = fronts_;
        if (reflect_open(j, known_until, inf) == 0) ahead_[j].on = false;
        else count_ahead(j, fronts_ - fronts);
    }

    void count_ahead(std::size_t j, std::size_t fronts) {
        ahead_[j].fronts = fronts;
        ahead_fronts_ += fronts;
    }

    /// Junction j, an open contact, processes its arrivals in time order as the event loop would
    /// (process_junction()), while everything it reads arrives before `known_until`, its gap
    /// provably stays open, and each arrival's time is at most `until`. Returns how many it made.
    std::size_t reflect_open(std::size_t j, double known_until, double until) {
        const Junction& q = junctions_[j];
        JunctionState& s = state_[j];
        ContactRecord& c = contacts_[static_cast<std::size_t>(contacts_.contact_at(j))];
        const StepFunction& alphas = field_.alpha_arrivals(static_cast<std::size_t>(q.left));
        const StepFunction& betas = field_.beta_arrivals(static_cast<std::size_t>(q.right));
        std::size_t made = 0;
        while (true) {
            double t = inf;
            if (s.cursor_alpha + 1 < alphas.size()) t = alphas.time(s.cursor_alpha + 1);
            if (s.cursor_beta + 1 < betas.size()) t = std::min(t, betas.time(s.cursor_beta + 1));
            const double read_until = t + group_tolerance(t);
            if (t > until || read_until >= known_until || c.closing_time() <= read_until) return made;
            const std::size_t from_alpha = s.cursor_alpha, from_beta = s.cursor_beta;
            const double alpha_in = read(alphas, s.cursor_alpha, read_until);
            const double beta_in = read(betas, s.cursor_beta, read_until);
            account_energy(j, t);
            c.advance_gap(t, read_until - t);
            c.set_gap_rate(free_separation_velocity(alpha_in, beta_in));
            reflect_each(j, true, from_alpha, t);
            reflect_each(j, false, from_beta, t);
            ++made;
            if (!replaying_) ++made_ahead_;
        }
    }

    /// Junction j, if it reflected ahead, is brought back to where the event loop would have left
    /// it at t: its state at the start restored, what it emitted since taken back, and its
    /// arrivals up to t reflected again. Its neighbours' next arrivals move with what it emitted.
    void rewind(std::size_t j, double t) override {
        Ahead& a = ahead_[j];
        if (!a.on) return;
        end_ahead(j);
        const Junction& q = junctions_[j];
        const auto left = static_cast<std::size_t>(q.left), right = static_cast<std::size_t>(q.right);
        state_[j] = a.start;
        contacts_[static_cast<std::size_t>(contacts_.contact_at(j))].restore_gap_state(a.gap);
        // Made again up to t, the same steps emit the same fronts, which are kept (the far ends
        // may have read them); only those made after t are taken back.
        replayed_ = {0, 0};
        replaying_ = true;
        double last = -inf;
        if (a.beside_sleeper) last = reflect_awake(j, inf, t);
        else reflect_open(j, inf, t);
        replaying_ = false;
        if (q.left >= 0) take_back(field_.beta_arrivals(left), a.left_size + replayed_.first);
        if (q.right >= 0) take_back(field_.alpha_arrivals(right), a.right_size + replayed_.second);
        if (a.beside_sleeper) {
            asleep_.restore_sync_state(j, *a.beside_sleeper);
            if (last > a.time) asleep_.sync_gap_along(j, a.time, awake_path(j, a.time), last - a.time);
            asleep_.sync(j, t);  // steady since its last arrival
            asleep_.rearm(j, t);
        }
        reschedule(j);
        if (q.left >= 0) reschedule(left);        // the junction at the left element's left end
        if (q.right >= 0) reschedule(right + 1);  // and at the right element's right end
    }

    void take_back(StepFunction& history, std::size_t size) {
        const std::size_t dropped = history.truncate(size);
        stored_fronts_ -= dropped;
        fronts_ -= dropped;
    }

    /// Junction j beside a sleeper (one end awake, the contact open), just processed at t: its awake
    /// end reflects what arrives up to its transit time after the group, or up to where the gap may
    /// close (against the sleeper's path, AsleepRods::open_for()); the gap is then synced at the last
    /// arrival and the wake-up time taken from there.
    void reflect_ahead_beside_sleeper(std::size_t j, double t) {
        const Junction& q = junctions_[j];
        const bool left_awake = q.left >= 0 && !asleep_.asleep(q.left);
        const bool right_awake = q.right >= 0 && !asleep_.asleep(q.right);
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (left_awake == right_awake || k < 0) return;  // two sleepers: nothing arrives
        const ContactRecord& c = contacts_[static_cast<std::size_t>(k)];
        if (c.closed() || c.gap_at(t) <= 0) return;
        const double transit = element(left_awake ? q.left : q.right).transit_time;
        const double known_until = group_time_ + transit - group_tolerance(group_time_);
        if (known_until <= t) return;
        const PeriodicPath awake = awake_path(j, t);
        const double open_until = t + asleep_.open_for(j, t, awake, known_until - t);
        Ahead a = ahead_from(j, t);
        a.beside_sleeper = asleep_.sync_state(j);
        ahead_[j] = std::move(a);
        const std::size_t fronts = fronts_;
        const double last = reflect_awake(j, std::min(known_until, open_until), inf);
        if (last <= t) {
            ahead_[j].on = false;
            return;
        }
        count_ahead(j, fronts_ - fronts);
        asleep_.sync_gap_along(j, t, awake, last - t);
        asleep_.rearm(j, last);
    }

    /// The awake end's motion at junction j from t, as a path over one transit of its arrivals
    /// (exact over that transit; its velocity is what arrives there, an open end's).
    PeriodicPath awake_path(std::size_t j, double t) const {
        const Junction& q = junctions_[j];
        const bool left_awake = q.left >= 0 && !asleep_.asleep(q.left);
        const auto e = static_cast<std::size_t>(left_awake ? q.left : q.right);
        const ArrivalWindow window = left_awake ? field_.alpha_window(e, t) : field_.beta_window(e, t);
        return PeriodicPath(window, {}, element(static_cast<std::ptrdiff_t>(e)).transit_time);
    }

    /// The awake end of junction j (beside a sleeper) reflects its arrivals in time order, while
    /// what each reads arrives before `read_limit` and it arrives at most at `until`, as
    /// reflect_beside_sleeper() does. Returns the last one's time (-inf if none).
    double reflect_awake(std::size_t j, double read_limit, double until) {
        const Junction& q = junctions_[j];
        JunctionState& s = state_[j];
        const bool left_awake = q.left >= 0 && !asleep_.asleep(q.left);
        const StepFunction& history = left_awake ? field_.alpha_arrivals(static_cast<std::size_t>(q.left))
                                                 : field_.beta_arrivals(static_cast<std::size_t>(q.right));
        std::size_t& cursor = left_awake ? s.cursor_alpha : s.cursor_beta;
        double last = -inf;
        while (cursor + 1 < history.size()) {
            const double t = history.time(cursor + 1), read_until = t + group_tolerance(t);
            if (t > until || read_until >= read_limit) break;
            const std::size_t from = cursor;
            read(history, cursor, read_until);
            account_energy(j, t);
            reflect_each(j, left_awake, from, t);
            last = cursor == from ? last : history.time(cursor);
            if (!replaying_) ++made_ahead_;
        }
        return last;
    }

    void rewind_all(double t) {
        for (std::size_t j = 0; j < ahead_.size(); ++j) rewind(j, t);
    }

    /// Junction j beside a rod asleep (asleep_rods.hpp): the contact is open (the wake-up bound
    /// keeps it so), each awake end reflects its own arrivals, and the gap moves on with the
    /// asleep end's path.
    void reflect_beside_sleeper(std::size_t j, double t, double read_until) {
        const Junction& q = junctions_[j];
        JunctionState& s = state_[j];
        const bool left_awake = q.left >= 0 && !asleep_.asleep(q.left);
        const bool right_awake = q.right >= 0 && !asleep_.asleep(q.right);
        const std::size_t from_alpha = s.cursor_alpha, from_beta = s.cursor_beta;
        if (left_awake) arrived(field_.alpha_arrivals(q.left), s.cursor_alpha, read_until);
        if (right_awake) arrived(field_.beta_arrivals(q.right), s.cursor_beta, read_until);
        account_energy(j, t);
        if (left_awake) reflect_each(j, true, from_alpha, t);
        if (right_awake) reflect_each(j, false, from_beta, t);
        asleep_.rearm(j, t);
    }

    /// An open end reflects each arrival it read (the pieces after `from` up to its cursor) when
    /// it arrives, not all at t: two arrivals a sliver apart, taken together, moved the sliver's
    /// momentum (jump x sliver x Z / 2, 3e-11 of a 70-rod chain's; docs/physics.md §6.8). First,
    /// at t, the reflection of what it had (a contact that opens at t).
    void reflect_each(std::size_t j, bool left_end, std::size_t from, double t) {
        const Junction& q = junctions_[j];
        const JunctionState& s = state_[j];
        const StepFunction& history = left_end ? field_.alpha_arrivals(static_cast<std::size_t>(q.left))
                                               : field_.beta_arrivals(static_cast<std::size_t>(q.right));
        const std::size_t cursor = left_end ? s.cursor_alpha : s.cursor_beta;
        const auto reflect = [&](std::size_t k, double at) {
            const double v = free_end_reflection(history.value(k));
            if (left_end) emit_left(j, v, v, at, false);
            else emit_right(j, v, v, at, false);
        };
        if (from == cursor || history.time(from + 1) > t) reflect(from, t);
        for (std::size_t k = from + 1; k <= cursor; ++k) reflect(k, std::max(t, history.time(k)));
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
        const std::size_t from = cursor;  // reflect_each() reads from there
        read(history, cursor, t);
        if (!options_.keep_history && cursor - history.first() > 64)
            stored_fronts_ -= history.discard_before(std::min(from, cursor - 1));  // keep one piece of margin
        return history.value(cursor);
    }

    /// Advances a cursor over the arrivals up to t and returns the arrived value (nothing forgotten).
    static double read(const StepFunction& history, std::size_t& cursor, double t) {
        while (cursor + 1 < history.size() && history.time(cursor + 1) <= t) ++cursor;
        return history.value(cursor);
    }

    void set_force(ContactRecord& c, double force, double t) {
        if (force == 0 && c.force() == 0) return;  // an open contact stays so: nothing to record
        const bool was_forced = c.force() != 0;
        c.set_force(force, t);
        if (was_forced != (force != 0)) forced_contacts_ += (force != 0) ? 1 : -1;
        if (force != 0) settling_.force_carried();
    }

    void account_energy(std::size_t j, double t) override {
        JunctionState& s = state_[j];
        // Nothing to add while the junction emits the exact invariants (the rate is exactly 0).
        if (s.emitted_left != s.ideal_left || s.emitted_right != s.ideal_right)
            energy_created_ += energy_created_since_accounted(j, t);
        s.accounted_until = t;
    }

    /// A junction keeps emitting what it last emitted until its next event, and a jump it dropped
    /// with it (§5.1). Beside a rod falling asleep at t it is free ends from then on: no more
    /// into the sleeper, whose ends follow their free paths, and on the awake side the free
    /// reflection it emits already (a contact sleeps only open, or touching inert, its force
    /// released to 0). What it dropped adds power up to t and none after. Integrated on, the stale
    /// difference of a released contact beside a sleeper added 6e-10 J over a 1.9 s sleep, 2.5e-10
    /// of a 100-rod chain's energy, and the energy self-check refused the run (§6.7).
    void end_dropped_power(std::size_t e, double t) override {
        for (std::size_t j : {e, e + 1}) {
            account_energy(j, t);
            JunctionState& s = state_[j];
            s.ideal_left = s.emitted_left;
            s.ideal_right = s.emitted_right;
        }
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
        if (replaying_) return replay_emit(s.emitted_left, s.ideal_left, value, ideal, replayed_.first);
        const auto e = static_cast<std::size_t>(junctions_[j].left);
        emit(s.emitted_left, s.ideal_left, value, ideal, e, field_.beta_arrivals(e), t, e, splits ? &state_[e].cursor_beta : nullptr);
    }

    /// Sends alpha into the right element; it reaches the junction at that element's right end.
    void emit_right(std::size_t j, double value, double ideal, double t, bool splits) {
        JunctionState& s = state_[j];
        if (replaying_) return replay_emit(s.emitted_right, s.ideal_right, value, ideal, replayed_.second);
        const auto e = static_cast<std::size_t>(junctions_[j].right);
        emit(s.emitted_right, s.ideal_right, value, ideal, e, field_.alpha_arrivals(e), t, e + 1,
             splits ? &state_[e + 1].cursor_alpha : nullptr);
    }

    /// As emit(), for a front already in the history (rewind()): counted, not added.
    static void replay_emit(double& emitted, double& ideal_now, double value, double ideal, std::size_t& count) {
        ideal_now = ideal;
        if (value == emitted) return;
        emitted = value;
        ++count;
    }

    /// A new front, unless the value is unchanged; it reaches junction `far_end` one transit later.
    /// `merge_reader`: the far end's cursor in `history` when short pieces may be merged.
    void emit(double& emitted, double& ideal_now, double value, double ideal, std::size_t e, StepFunction& history,
              double t, std::size_t far_end, const std::size_t* merge_reader) {
        ideal_now = ideal;
        if (value == emitted) return;
        emitted = value;
        // Not before the last front: the groups of a cluster of events (a contact chattering
        // within rounding of one time) may overlap by a rounding, and a junction then responds a
        // hair (6e-17 s) before a front it emitted within the previous group's window (a 16-rod
        // chain at drop_tolerance = 1e-3 stopped on "jumps out of order"). It is emitted with that
        // front, which then lasts no time.
        const double arrival = std::max(t + elements_[e].transit_time, history.time(history.size() - 1));
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
        // Fronts emitted ahead of the loop (§6.8) are not counted yet, and a reader that reflected
        // ahead has read up to its cursor.
        if (stored_fronts_ - ahead_fronts_ <= options_.exact_fronts || n - history.first() < 3 || arrival - history.time(n - 1) >= merge_below_ ||
            history.time(n - 2) <= read_until || n - 2 <= reader || static_cast<double>(n - reader) * merge_below_ < elements_[e].transit_time)
            return;
        energy_created_ -= 0.25 * elements_[e].impedance * history.merge_last(arrival);
        --stored_fronts_;
        ++merged_fronts_;
    }

    void add_front(StepFunction& history, double arrival, double value) {
        ++fronts_;
        if (++stored_fronts_ > options_.max_fronts)
            throw FrontLimitExceeded(fmt::format(
                "characteristics solver: reached max_fronts = {} stored fronts ({} MB) at t = {:g}; "
                "raise [solver] max_fronts (--max-fronts) or [solver] time_resolution (--time-resolution, now {:g}), "
                "or set [solver] end_time", options_.max_fronts, options_.max_fronts * 16 / 1000000, time_origin_.origin() + arrival,
                options_.time_resolution.value_or(0)), time_origin_.origin() + arrival, groups_);
        peak_stored_fronts_ = std::max(peak_stored_fronts_, stored_fronts_);
        history.push(arrival, value);
    }

    void reschedule(std::size_t j) override {
        const Junction& q = junctions_[j];
        const JunctionState& s = state_[j];
        double t = inf;
        if (q.left >= 0 && !asleep_.asleep(q.left)) {
            const StepFunction& a = field_.alpha_arrivals(q.left);
            if (s.cursor_alpha + 1 < a.size()) t = std::min(t, a.time(s.cursor_alpha + 1));
        }
        if (q.right >= 0 && !asleep_.asleep(q.right)) {
            const StepFunction& b = field_.beta_arrivals(q.right);
            if (s.cursor_beta + 1 < b.size()) t = std::min(t, b.time(s.cursor_beta + 1));
        }
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k >= 0) t = std::min(t, asleep_.has_sleeper(j) ? asleep_.wake_time(j) : contacts_[static_cast<std::size_t>(k)].closing_time());
        if (is_chain_end(j)) t = std::min(t, chain_ends_.next_load_time(j));
        if (t != queue_.time(j)) queue_.set(j, t);
    }

    void touch(std::size_t j) override { touched_.push_back(j); }

    /// Element e's arrivals from `to` on: `alpha` and `beta` over [to, to + T), as its free ends
    /// have emitted them; each junction has read what arrived up to `to` and reflected it.
    void restart_element(std::size_t e, const ArrivalWindow& alpha, const ArrivalWindow& beta, double to) override {
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
            const double v = asleep_.momentum(i, t) / chain_[i].mass();  // as free_rod_motion() has it
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
        report.end_time = absolute.value_or(time_origin_.origin() + t);
        if (time_origin_.origin() != 0) report.records_time = t;
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
            time_origin_.on() ? 0.0
                              : 16 * std::numeric_limits<double>::epsilon() * (time_origin_.origin() + t) /
                                    chain_.shortest_transit_time();
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
        report.stats.free_flights = flight_.flights();
        report.stats.sleeps = asleep_.sleeps();
        report.stats.reflected_ahead = made_ahead_;
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
    std::vector<Ahead> ahead_;          // per junction
    bool replaying_ = false;                            // rewind(): fronts are in the histories already
    std::pair<std::size_t, std::size_t> replayed_;      // fronts it met, into the left and right elements
    double group_time_ = 0;             // of the event group being processed [s]
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
    std::size_t made_ahead_ = 0;    // junction events processed ahead of the loop (§6.8)
    std::size_t ahead_fronts_ = 0;  // fronts they emitted that the loop would not have yet
    std::vector<RodState> free_rods_;  // at the start of the current force-free epoch
    // Rods of one element between free ends and unilateral contacts are free-free whenever no
    // contact carries force (other kinds act on a rod without a contact force).
    bool only_free_rods_ = false;
    // What skips work without changing the result, lent the chain's state (tracked_): rods asleep
    // in free flight, on with free-flight skipping on a chain without loads or walls; whole-chain
    // flights, on with free-flight skipping where rods do not sleep; and the moving time origin,
    // on when only the outcome is wanted and the chain's ends are free.
    TrackedChain tracked_;
    AsleepRods asleep_;
    WholeChainFlight flight_;
    TimeOrigin time_origin_;
    // Open contacts reflect ahead where rods may sleep (free rods, no history kept, §6.8).
    bool reflects_ahead_ = options_.reflect_ahead && asleep_.on();

    static bool only_free_rods(const Chain& chain) {
        return chain.elements().size() == chain.size() && std::ranges::all_of(chain.junctions(), [](const Junction& q) {
                   return q.kind == JunctionKind::free_end || q.kind == JunctionKind::contact;
               });
    }
    /// Free-flight skipping (docs/physics.md §6.6-6.7): asked for, no history kept, free rods only.
    static bool free_flight(const SolverOptions& options, bool only_free_rods) {
        return options.skip_free_flight && !options.keep_history && only_free_rods;
    }
};

}  // namespace

double characteristics_accuracy(const SolverOptions& options) {
    return std::max(characteristics_rounding, 100 * options.drop_tolerance);
}

CharacteristicsSolution track_fronts(const Chain& chain, const SolverOptions& options) {
    return FrontTracker(chain, options).run();
}

}  // namespace rodcollide
