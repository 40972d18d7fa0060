// The exact solver for a chain of rigid bodies (rigid_bodies.hpp; docs/physics.md §9.9): one ODE
// system integrated by Boost.Odeint's Dormand-Prince 5(4) with error control and dense output. The
// right-hand side has kinks where a contact closes (δ crosses 0: the force k δ^p starts, and with a
// dashpot jumps to c δ') and opens (its force reaches 0); each is located on the dense output by
// bisection to rounding, the integration is redone from the step's start to that instant (so no
// accepted step spans a kink), the link is switched on or off there, and the integration restarts.
// Within a branch the law is the smooth continuation continued_force().
//
// Restitution e < 1 (docs/physics.md §9.7, the law in contact_law.cpp): each contact link carries a
// ContactMemory and is on one of three branches, open, loading (δ >= δ_m: k δ^p) or unloading (the
// memory's branch, continued past δ_r). The maximum compression (δ' crosses 0 while loading) is a
// kink too, located and restarted at like a closing: the memory takes δ_m = δ there and the link
// unloads; re-loading past δ_m goes back to loading; an open link that remembers re-closes at δ_r
// (on the unloading branch) and forgets once δ reaches 0. Each link thus has a second event
// function besides its force. The hysteresis loss (hysteresis_loss() of the memory, banked when
// the memory is cleared) is added to the dissipated energy.
//
// Accuracy: the run is made at the step tolerance τ = accuracy (relative to the scaled state) and
// again at τ/100; the difference of the final velocities plus rounding is the bound reported for the
// finer run (the finer run's own error is about 1/100 of it). If it misses the target, τ is divided by
// 100 again, down to smallest_tolerance.
#include "solvers/shared/contact_branches.hpp"
#include "solvers/shared/rigid_bodies.hpp"

#include <boost/numeric/odeint.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace rodcollide {

namespace {

namespace odeint = boost::numeric::odeint;
using State = std::vector<double>;
using Dopri = odeint::runge_kutta_dopri5<State>;

/// Below this step tolerance Dormand-Prince works at rounding and tightening shows nothing more.
constexpr double smallest_tolerance = 1e-14;
/// Dense-output samples per step at which every link's event function is looked at (a sign change
/// between two of them starts the bisection).
constexpr int samples_per_step = 4;

/// The scaled ODE: t = T t̂, δ = V T δ̂, v = V v̂, impulses M V Î, energy M V^2 D̂ (T the links'
/// shortest time scale, V the velocity scale, M the largest mass), so that one tolerance fits every
/// component. Layout: δ̂ (n + 1 links), v̂ (n bodies), Î (n + 1 links), D̂.
class BodyOde {
public:
    explicit BodyOde(const RigidBodies& b)
        : b_(b), n_(b.bodies()), T_(std::isfinite(b.time_scale) ? b.time_scale : 1.0),
          V_(b.velocity_scale > 0 ? b.velocity_scale : 1.0), M_(*std::max_element(b.mass.begin(), b.mass.end())),
          br_(n_ + 1) {}

    std::size_t size() const { return 3 * n_ + 3; }
    double T() const { return T_; }
    double V() const { return V_; }
    double M() const { return M_; }
    std::size_t v0() const { return n_ + 1; }             // index of v̂_0
    std::size_t i0() const { return 2 * n_ + 1; }         // index of Î_0
    std::size_t d0() const { return 3 * n_ + 2; }         // index of D̂

    /// Each link's branch (contact_branches.hpp): acting, and with restitution its memory.
    ContactBranches& branches() { return br_; }
    std::vector<char>& acting() { return br_.acting; }

    /// A contact with restitution e < 1: it has a memory and a second event function.
    bool hysteretic(std::size_t k) const {
        return b_.links[k].kind == BodyLink::Kind::contact && rodcollide::hysteretic(b_.links[k].law);
    }
    /// The memory that selects link k's branch in the right-hand side (the loading law while loading).
    const ContactMemory& branch_memory(std::size_t k) const { return br_.branch(k); }
    /// Link k's memory at state x: remembered up to δ while loading.
    ContactMemory memory_at(const State& x, std::size_t k) const {
        return hysteretic(k) ? br_.memory_at(b_.links[k].law, k, overlap(x, k)) : ContactMemory{};
    }
    /// The hysteresis loss of every link up to state x [J].
    double hysteresis(const State& x) const {
        double loss = 0;
        for (std::size_t k = 0; k <= n_; ++k)
            if (hysteretic(k)) loss += br_.hysteresis(b_.links[k].law, k, overlap(x, k));
        return loss;
    }

    double overlap(const State& x, std::size_t k) const { return x[k] * V_ * T_; }
    double rate(const State& x, std::size_t k) const { return b_.overlap_rate(k, &x[v0()]) * V_; }
    /// F_k >= 0 compressive [N] in the current branch.
    double force(const State& x, std::size_t k) const {
        if (!br_.acting[k]) return 0;
        if (br_.unloading[k]) return continued_force(b_.links[k].law, overlap(x, k), rate(x, k), br_.memory[k]);
        return continued_force(b_.links[k].law, overlap(x, k), rate(x, k));
    }
    /// Event function of link k: its sign says which branch the state is on (> 0: compressive).
    /// Acting: the force; not acting: the force it would carry if switched on where δ > 0, else δ.
    double event_value(const State& x, std::size_t k) const {
        const double d = overlap(x, k);
        if (br_.acting[k]) return force(x, k);
        if (br_.memory[k].max_overlap > 0) {  // remembers (e < 1): re-closes on the unloading branch at δ_r
            const double dr = residual_overlap(b_.links[k].law, br_.memory[k]);
            return d > dr ? continued_force(b_.links[k].law, d, rate(x, k), br_.memory[k]) : d - dr;
        }
        return d > 0 ? continued_force(b_.links[k].law, d, rate(x, k)) : d;
    }
    /// The second event of a hysteretic link k and its sense (+1: the event is where it rises past 0,
    /// -1: where it falls below 0, 0: none): loading, δ' (maximum compression); unloading, δ - δ_m
    /// (re-loading); open with a memory, δ (separated: the memory is cleared).
    int second_sense(std::size_t k) const {
        return hysteretic(k) ? br_.second_sense(k) : 0;
    }
    double second_value(const State& x, std::size_t k) const {
        switch (second_sense(k)) {
            case 0: return 0;
            case +1: return overlap(x, k) - br_.memory[k].max_overlap;
            default: return br_.acting[k] ? rate(x, k) + max_compression_rate_ * V_ : overlap(x, k);
        }
    }
    bool has_events(std::size_t k) const { return b_.links[k].kind == BodyLink::Kind::contact; }

    void operator()(const State& x, State& dxdt, double /*t*/) const {
        for (std::size_t k = 0; k <= n_; ++k) dxdt[k] = b_.overlap_rate(k, &x[v0()]);
        double power = 0;
        for (std::size_t i = 0; i < n_; ++i) dxdt[v0() + i] = 0;
        for (std::size_t k = 0; k <= n_; ++k) {
            const double f = force(x, k);
            dxdt[i0() + k] = T_ * f / (M_ * V_);
            if (!br_.acting[k]) {  // an open contact still compressed releases its elastic energy
                if (b_.links[k].kind == BodyLink::Kind::contact)
                    power += open_release_power(b_.links[k].law, overlap(x, k), rate(x, k), br_.memory[k]);
                continue;
            }
            if (k > 0) dxdt[v0() + k - 1] -= T_ * f / (b_.mass[k - 1] * V_);
            if (k < n_) dxdt[v0() + k] += T_ * f / (b_.mass[k] * V_);
            const double c = b_.links[k].law.damping;
            if (c > 0) {
                const double r = rate(x, k);
                power += c * r * r;
            }
        }
        dxdt[d0()] = T_ * power / (M_ * V_ * V_);
    }

private:
    const RigidBodies& b_;
    std::size_t n_;
    double T_, V_, M_;
    /// The maximum compression is taken where δ' falls below -1e-12 V, not at 0: touching bodies
    /// that move as one (behind the wave in a chain, or not yet reached by it) have a δ' of
    /// rounding size whose sign means nothing, and would switch loading <-> unloading at every
    /// step. The price is nil: δ_m is then short of the peak by (1e-12 V)^2 / (2 |δ''|).
    static constexpr double max_compression_rate_ = 1e-12;
    ContactBranches br_;
};

struct RunResult {
    RigidBodiesRun run;
    std::size_t steps = 0, events = 0;
};

/// One integration at step tolerance `tol`, sampling the link forces at `sample_times` [s] and, with
/// `event_forces`, at every closing and opening.
RunResult integrate(const RigidBodies& bodies, const SolverOptions& options, double tol,
                    const std::vector<double>& sample_times, bool event_forces = false) {
    BodyOde ode(bodies);
    const std::size_t n = bodies.bodies();
    const double T = ode.T(), V = ode.V();
    State x(ode.size(), 0.0);
    for (std::size_t k = 0; k <= n; ++k) x[k] = bodies.links[k].initial_overlap / (V * T);
    for (std::size_t i = 0; i < n; ++i) x[ode.v0() + i] = bodies.velocity[i] / V;

    RunResult result;
    RigidBodiesRun& run = result.run;
    run.intervals.resize(n + 1);
    run.forces.resize(n + 1);
    std::vector<double> closed_since(n + 1, 0);
    std::vector<char>& acting = ode.acting();
    for (std::size_t k = 0; k <= n; ++k) {
        const BodyLink& l = bodies.links[k];
        if (l.kind == BodyLink::Kind::attached) acting[k] = 1;
        // Touching and not separating at t = 0: the contact carries force from the first instant.
        if (l.kind == BodyLink::Kind::contact && l.initial_overlap == 0 && bodies.overlap_rate(k, bodies.velocity.data()) >= 0)
            acting[k] = 1;
    }
    // The horizon in the ODE's time unit; +inf without end_time (a plain double: g++ 12 warned
    // that the optional's value may be read uninitialized).
    const double horizon = options.end_time ? *options.end_time / T : std::numeric_limits<double>::infinity();
    std::size_t next_sample = 0;
    auto record_forces = [&](const State& s, double t_hat) {
        for (std::size_t k = 0; k <= n; ++k) {
            if (bodies.links[k].kind == BodyLink::Kind::free) continue;
            run.forces[k].time.push_back(t_hat * T);
            // A contact never pulls: the continued law's rounding-sized tension at a switch reads 0.
            const double f = ode.force(s, k);
            run.forces[k].force.push_back(bodies.links[k].kind == BodyLink::Kind::contact ? -std::max(0.0, f) : -f);
        }
    };
    auto record_samples_until = [&](auto&& state_at, double t_hat) {
        State s(x.size());
        for (; next_sample < sample_times.size() && sample_times[next_sample] <= t_hat * T; ++next_sample) {
            state_at(sample_times[next_sample] / T, s);
            record_forces(s, sample_times[next_sample] / T);
        }
    };
    if (!sample_times.empty() && sample_times.front() == 0) ++next_sample;
    record_forces(x, 0);
    for (std::size_t k = 0; k <= n; ++k)
        if (acting[k] && bodies.links[k].kind == BodyLink::Kind::contact) closed_since[k] = 0;

    auto finish = [&](double t_hat, bool settled, bool at_horizon) {
        std::vector<ContactMemory> memory(n + 1);
        for (std::size_t k = 0; k <= n; ++k) memory[k] = ode.memory_at(x, k);
        if (settled) {
            // Open contacts still at δ > 0 relax freely to 0 (no force acts: the bodies fly on).
            std::vector<double> overlap(n + 1), v(n);
            for (std::size_t k = 0; k <= n; ++k) overlap[k] = ode.overlap(x, k);
            for (std::size_t i = 0; i < n; ++i) v[i] = x[ode.v0() + i] * V;
            const FreeRelease release = free_release(bodies, overlap, v.data(), &memory);
            if (release.delay > 0) {
                const double delay = release.delay / T;
                for (std::size_t k = 0; k <= n; ++k) {
                    // A compressed contact has reached δ = 0 by the delay (its time to it is at most
                    // that): not a rounding-sized δ > 0, which would leave contact energy behind.
                    const bool compressed = x[k] > 0 && bodies.links[k].kind == BodyLink::Kind::contact;
                    x[k] += delay * bodies.overlap_rate(k, &x[ode.v0()]);
                    if (compressed) x[k] = std::min(x[k], 0.0);
                }
                x[ode.d0()] += release.energy / (ode.M() * V * V);
                t_hat += delay;
            }
        }
        // The hysteresis loss so far (memories as reached); then each memory as the final overlap
        // leaves it (cleared once separated: its loss stays counted).
        const double hysteresis = ode.hysteresis(x);
        for (std::size_t k = 0; k <= n; ++k)
            if (ode.hysteretic(k)) memory[k] = remember(bodies.links[k].law, memory[k], ode.overlap(x, k));
        run.memory = memory;
        run.end_time = t_hat * T;
        run.settled = settled;
        run.at_horizon = at_horizon;
        for (std::size_t i = 0; i < n; ++i) run.velocity.push_back(x[ode.v0() + i] * V);
        for (std::size_t k = 0; k <= n; ++k) {
            run.overlap.push_back(ode.overlap(x, k));
            run.impulse.push_back(x[ode.i0() + k] * ode.M() * V);
            if (acting[k] && bodies.links[k].kind == BodyLink::Kind::contact)
                run.intervals[k].push_back({closed_since[k], run.end_time});
        }
        run.acting = acting;
        // (a quadrature of a power >= 0; Dormand-Prince's one negative weight can leave -1e-45)
        run.dissipated = std::max(0.0, x[ode.d0()] * ode.M() * V * V) + hysteresis;
        record_samples_until([&](double, State& s) { s = x; }, t_hat);
        return result;
    };
    auto settled_now = [&](double t_hat) {
        std::vector<double> overlap(n + 1);
        for (std::size_t k = 0; k <= n; ++k) overlap[k] = ode.overlap(x, k);
        std::vector<double> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = x[ode.v0() + i] * V;
        std::vector<ContactMemory> memory(n + 1);
        for (std::size_t k = 0; k <= n; ++k) memory[k] = ode.branch_memory(k);
        return rigid_bodies_settled(bodies, overlap, acting, v.data(), t_hat * T, &memory);
    };

    double t = 0;
    // Nothing moves relative to anything (springs unstretched, at rest), or nothing can meet: done.
    if (bodies.velocity_scale == 0 || settled_now(0)) return finish(0, true, false);

    auto dense = odeint::make_dense_output(tol, tol, Dopri());
    auto controlled = odeint::make_controlled(tol, tol, Dopri());
    double dt = 1e-2;
    dense.initialize(x, t, dt);
    const auto system = [&ode](const State& y, State& dydt, double tt) { ode(y, dydt, tt); };
    const std::size_t max_events = options.max_events, max_steps = rigid_body_step_cap(options);
    State s(x.size());
    std::vector<double> g_prev(n + 1), g(n + 1), second_prev(n + 1), second_now(n + 1);
    const auto too_many_steps = [&](double at) {
        return SolverLimitExceeded(fmt::format("the rigid-body chain took more than {} integration steps by t = {:g} s "
                                               "without settling (bounded work): raise [solver] max_work or set [solver] "
                                               "end_time",
                                               max_steps, at * T));
    };
    for (;;) {
        if (result.steps >= max_steps) throw too_many_steps(t);
        const auto [t_old, t_step] = dense.do_step(system);
        ++result.steps;
        if (options.progress && result.steps % 100000 == 0) options.progress(t_step * T, result.steps);
        const double t_new = std::min(t_step, horizon);
        // Where does a link first change branch in (t_old, t_new]? Look at samples, then bisect.
        const State& x_old = dense.previous_state();
        for (std::size_t k = 0; k <= n; ++k) g_prev[k] = ode.has_events(k) ? ode.event_value(x_old, k) : 0;
        for (std::size_t k = 0; k <= n; ++k) second_prev[k] = ode.second_value(x_old, k);
        // On the other branch now, and either it was not before or it is moving further in (a
        // switch restarted a rounding-sized distance on the wrong side must still be caught).
        auto crosses = [](int sense, double before, double now) {
            return sense < 0 ? now < 0 && (before >= 0 || now < before) : now > 0 && (before <= 0 || now > before);
        };
        auto crossed = [&](std::size_t k, double before, double now) { return crosses(acting[k] ? -1 : +1, before, now); };
        auto second_crossed = [&](std::size_t k, double before, double now) {
            const int sense = ode.second_sense(k);
            return sense != 0 && crosses(sense, before, now);
        };
        auto any_crossed = [&](const State& at) {
            for (std::size_t k = 0; k <= n; ++k) {
                if (ode.has_events(k) && crossed(k, g_prev[k], ode.event_value(at, k))) return true;
                if (second_crossed(k, second_prev[k], ode.second_value(at, k))) return true;
            }
            return false;
        };
        auto keep_values = [&](const State& at) {
            for (std::size_t k = 0; k <= n; ++k) {
                if (ode.has_events(k)) g_prev[k] = ode.event_value(at, k);
                second_prev[k] = ode.second_value(at, k);
            }
        };
        double a = t_old, b = t_new;
        bool event = false;
        for (int j = 1; j <= samples_per_step && !event; ++j) {
            const double tj = t_old + (t_new - t_old) * j / samples_per_step;
            dense.calc_state(tj, s);
            if (any_crossed(s)) {
                event = true;
                b = tj;
            } else {
                a = tj;
                keep_values(s);
            }
        }
        if (!event && t_new == t_step && t_new < horizon) {
            record_samples_until([&](double tt, State& out) { dense.calc_state(tt, out); }, t_new);
            x = dense.current_state();
            t = t_new;
            if (!std::isfinite(t))
                throw SolverLimitExceeded("the rigid-body chain's integration ran to infinite time without settling");
            // A contact left at rounding-sized force between bodies moving as one settles between events.
            if (settled_now(t)) return finish(t, true, false);
            continue;
        }
        if (event) {
            // Bisection to rounding on the dense output: b stays past the first branch change.
            while (b - a > 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(b))) {
                const double m = 0.5 * (a + b);
                dense.calc_state(m, s);
                if (any_crossed(s)) {
                    b = m;
                } else {
                    a = m;
                    keep_values(s);
                }
            }
            dense.calc_state(b, s);
            for (std::size_t k = 0; k <= n; ++k) g[k] = ode.has_events(k) ? ode.event_value(s, k) : 0;
            for (std::size_t k = 0; k <= n; ++k) second_now[k] = ode.second_value(s, k);
        }
        record_samples_until([&](double tt, State& out) { dense.calc_state(tt, out); }, b);
        // Redo the integration from the step's start to b: no accepted step spans the kink.
        State y = x_old;
        double h = std::max(b - t_old, 1e-300) / 4;
        // The redo counts against the same cap: on a stiff link (a dashpot of 2e11 N s/m on a ball of
        // 4e-71 kg, fuzz/regressions/ode_stiff_dashpot_redo.toml) the controlled stepper took
        // unbounded steps over an interval the dense stepper had crossed in one.
        bool started = false;  // the observer sees the start, then each step
        const auto count_step = [&](const State&, double at) {
            if (std::exchange(started, true) && ++result.steps > max_steps) throw too_many_steps(at);
        };
        if (b > t_old) odeint::integrate_adaptive(controlled, system, y, t_old, b, h, count_step);
        x = y;
        t = b;
        if (!event) return finish(t, false, true);  // the horizon
        if (++result.events > max_events)
            throw SolverLimitExceeded(fmt::format("the rigid-body chain needed more than max_events = {} contact events "
                                                  "by t = {:g} s (bounded work): raise [solver] max_events or set end_time",
                                                  max_events, t * T));
        ContactBranches& branches = ode.branches();
        for (std::size_t k = 0; k <= n; ++k) {
            if (!ode.has_events(k)) continue;
            const ContactLaw& law = bodies.links[k].law;
            const double d = ode.overlap(x, k);
            if (crossed(k, g_prev[k], g[k])) {
                if (acting[k]) run.intervals[k].push_back({closed_since[k], t * T});
                else if (!run.intervals[k].empty() && t * T - run.intervals[k].back().end <= 1e-12 * T)
                    // Re-closed a rounding-sized time (1e-12 of the links' time scale) after it opened:
                    // a touching contact at a rounding-sized force (at rest ahead of the wave) flickers
                    // there. One interval, not two end to end.
                    closed_since[k] = run.intervals[k].back().start, run.intervals[k].pop_back();
                else
                    closed_since[k] = t * T;
                // With a memory: opening keeps the peak reached; closing below δ_m re-loads on the
                // unloading branch (contact_branches.hpp).
                branches.switch_acting(law, k, d);
            } else if (second_crossed(k, second_prev[k], second_now[k])) {
                branches.second_event(law, k, d);
            }
        }
        if (event_forces) record_forces(x, t);
        if (settled_now(t)) return finish(t, true, false);
        dense.initialize(x, t, std::max(dense.current_time_step(), 1e-12));
    }
}

}  // namespace

Outcome solve_rigid_bodies_exact(const Chain& chain, const SolverOptions& options) {
    check_rigid_bodies_options(chain, options);
    const RigidBodies bodies(chain);
    const double V = bodies.velocity_scale;
    const double target = options.accuracy.value_or(default_rigid_body_accuracy);
    auto difference = [&](const RigidBodiesRun& a, const RigidBodiesRun& b) {
        double d = 0;
        for (std::size_t i = 0; i < a.velocity.size(); ++i) d = std::max(d, std::abs(a.velocity[i] - b.velocity[i]));
        return d;
    };
    double tol = std::max(target, smallest_tolerance);
    RunResult coarse = integrate(bodies, options, tol, {});
    RunResult fine;
    double bound = std::numeric_limits<double>::infinity();
    for (;;) {
        const double finer = tol / 100;
        fine = integrate(bodies, options, std::max(finer, smallest_tolerance), {});
        // Rounding: each step rounds the velocities by a few ulps of V, at random.
        const double rounding = 10 * std::numeric_limits<double>::epsilon() * V * std::sqrt(static_cast<double>(fine.steps + 1));
        bound = difference(coarse.run, fine.run) + rounding;
        if (coarse.run.settled != fine.run.settled) bound = std::numeric_limits<double>::infinity();
        tol = finer;
        if (bound <= target * V || tol <= smallest_tolerance) break;
        coarse = std::move(fine);
    }
    if (options.force_samples) {
        // The same run again, now sampling its forces (deterministic: the same numbers): every
        // closing and opening, and equally spaced times for the rest of the `force_samples` points
        // a history may have (only the grid when the events alone would fill it).
        const std::size_t events = fine.events;
        const bool with_events = events + 2 <= options.force_samples;
        const std::size_t grid = with_events ? options.force_samples - events : options.force_samples;
        fine = integrate(bodies, options, std::max(tol, smallest_tolerance), force_sample_times(fine.run.end_time, grid),
                         with_events);
    }
    RigidBodiesRun& run = fine.run;
    bound = std::max(bound, energy_defect_error(bodies, run));
    run.method = Method::characteristics;
    run.velocity_error_bound = bound;
    run.stats.events = fine.events;
    run.stats.steps = fine.steps;
    run.stats.estimate_events = coarse.events;
    AccuracyReport& r = run.accuracy_report;
    r.target = target;
    if (bound <= target * V) {
        r.status = AccuracyStatus::met;
        r.statement = fmt::format("{:.2g} V reached (ODE at step tolerance {:.0e}, bound from the run at 100x the "
                                  "tolerance), within the {:.2g} V asked for",
                                  V > 0 ? bound / V : 0.0, std::max(tol, smallest_tolerance), target);
    } else {
        r.status = AccuracyStatus::work_budget;
        r.statement = fmt::format("{:.2g} V reached at the smallest step tolerance {:.0e}; {:.2g} V asked for",
                                  V > 0 ? bound / V : 0.0, smallest_tolerance, target);
        run.warnings.push_back(fmt::format("rigid bodies: velocity error bound {:.3g} m/s ({:.3g} of the velocity "
                                           "scale) misses the target {:.0e}",
                                           bound, V > 0 ? bound / V : 0.0, target));
    }
    return rigid_bodies_outcome(chain, bodies, std::move(run), options.force_samples);
}

}  // namespace rodcollide
