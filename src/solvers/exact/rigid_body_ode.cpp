// The exact solver for a chain of rigid bodies (rigid_bodies.hpp; docs/physics.md §9.9): one ODE
// system (body_ode.hpp: scaled, and integrated on its active set only) integrated by Boost.Odeint's
// Dormand-Prince 5(4) with error control and dense output. The right-hand side has kinks where a
// contact closes (δ crosses 0: the force k δ^p starts, and with a dashpot jumps to c δ') and opens
// (its force reaches 0); each is located on the dense output by bisection to rounding, the
// integration is redone from the step's start to that instant (so no accepted step spans a kink),
// the link is switched on or off there, the active set is chosen again, and the integration
// restarts. Within a branch the law is the smooth continuation continued_force().
//
// Restitution e < 1 (docs/physics.md §9.7, the law in contact_law.cpp): each contact link carries a
// ContactMemory and is on one of three branches, open, loading (δ >= δ_m: k δ^p) or unloading (the
// memory's branch, continued past δ_r). The maximum compression (δ' crosses 0 while loading) is a
// kink too, located and restarted at like a closing: the memory takes δ_m = δ there and the link
// unloads; re-loading past δ_m goes back to loading; an open link that remembers re-closes at δ_r
// (on the unloading branch) and forgets once δ reaches 0. Each link thus has a second event
// function besides its force (a parked link's is its activation, body_ode.hpp). The hysteresis loss
// (hysteresis_loss() of the memory, banked when the memory is cleared) is added to the dissipated
// energy.
//
// Accuracy: the run is made at the step tolerance τ = accuracy (relative to the scaled state) and
// again at τ/100; the difference of the final velocities plus rounding is the bound reported for the
// finer run (the finer run's own error is about 1/100 of it). If it misses the target, τ is divided by
// 100 again, down to smallest_tolerance.
#include "solvers/exact/body_ode.hpp"
#include "solvers/shared/contact_branches.hpp"
#include "solvers/shared/rigid_bodies.hpp"
#include "solvers/shared/tolerance_refinement.hpp"

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
using State = BodyState;
using Dopri = odeint::runge_kutta_dopri5<State>;

/// Below this step tolerance Dormand-Prince works at rounding and tightening shows nothing more.
constexpr double smallest_tolerance = 1e-14;
/// Dense-output samples per step at which every link's event function is looked at (a sign change
/// between two of them starts the bisection).
constexpr int samples_per_step = 4;

struct RunResult {
    RigidBodiesRun run;
    std::size_t steps = 0, events = 0;
};

/// One integration at step tolerance `tol`, sampling the link forces at `sample_times` [s] and, with
/// `event_forces`, at every closing and opening. `x` is the full state (body_ode.hpp), `y` the
/// compact one the integrator carries (the active set's).
RunResult integrate(const RigidBodies& bodies, const SolverOptions& options, double tol,
                    const std::vector<double>& sample_times, bool event_forces = false) {
    BodyOde ode(bodies, tol);
    const std::size_t n = bodies.bodies();
    const double T = ode.T(), V = ode.V();
    State x(ode.full_size(), 0.0);
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
    State y = ode.plan(x, 0);
    // The horizon in the ODE's time unit; +inf without end_time (a plain double: g++ 12 warned
    // that the optional's value may be read uninitialized).
    const double horizon = options.end_time ? *options.end_time / T : std::numeric_limits<double>::infinity();
    std::size_t next_sample = 0;
    auto record_forces = [&](const State& full, double t_hat) {
        for (std::size_t k = 0; k <= n; ++k) {
            if (bodies.links[k].kind == BodyLink::Kind::free) continue;
            run.forces[k].time.push_back(t_hat * T);
            // A contact never pulls: the continued law's rounding-sized tension at a switch reads 0.
            const double f = ode.force(k, ode.full_overlap(full, k), ode.full_rate(full, k));
            run.forces[k].force.push_back(bodies.links[k].kind == BodyLink::Kind::contact ? -std::max(0.0, f) : -f);
        }
    };
    // state_at(t̂, full): the full state at t̂.
    auto record_samples_until = [&](auto&& state_at, double t_hat) {
        State full;  // (allocated only when a sample is due: this runs at every step)
        for (; next_sample < sample_times.size() && sample_times[next_sample] <= t_hat * T; ++next_sample) {
            full.resize(x.size());
            state_at(sample_times[next_sample] / T, full);
            record_forces(full, sample_times[next_sample] / T);
        }
    };
    if (!sample_times.empty() && sample_times.front() == 0) ++next_sample;
    record_forces(x, 0);

    // The full state's overlaps [m] and velocities [m/s], as the shared settling rules take them.
    auto physical = [&](std::vector<double>& overlap, std::vector<double>& v) {
        overlap.resize(n + 1);
        v.resize(n);
        for (std::size_t k = 0; k <= n; ++k) overlap[k] = ode.full_overlap(x, k);
        for (std::size_t i = 0; i < n; ++i) v[i] = x[ode.v0() + i] * V;
    };
    auto finish = [&](double t_hat, bool settled, bool at_horizon) {
        std::vector<ContactMemory> memory(n + 1);
        for (std::size_t k = 0; k <= n; ++k) memory[k] = ode.memory_at(k, ode.full_overlap(x, k));
        if (settled) {
            // Open contacts still at δ > 0 relax freely to 0 (no force acts: the bodies fly on).
            std::vector<double> overlap, v;
            physical(overlap, v);
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
            if (ode.hysteretic(k)) memory[k] = remember(bodies.links[k].law, memory[k], ode.full_overlap(x, k));
        run.memory = memory;
        run.end_time = t_hat * T;
        run.settled = settled;
        run.at_horizon = at_horizon;
        for (std::size_t i = 0; i < n; ++i) run.velocity.push_back(x[ode.v0() + i] * V);
        for (std::size_t k = 0; k <= n; ++k) {
            run.overlap.push_back(ode.full_overlap(x, k));
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
    // Settled (rigid_bodies_settled()): first the ODE's links, cheaply at every step, and then, for
    // the answer, every link of the full state x (a quiet link between bodies outside the ODE may
    // have crept since the plan: then a new plan takes it in and the run goes on).
    auto settled_now = [&](const State& at, double t_hat) {
        for (std::size_t k : ode.links())
            if (!rigid_body_link_settled(bodies, k, ode.overlap(at, k), acting[k], ode.rate(at, k), t_hat * T,
                                         ode.branch_memory(k)))
                return false;
        return true;
    };
    auto settled_everywhere = [&](double t_hat) {
        std::vector<double> overlap, v;
        physical(overlap, v);
        std::vector<ContactMemory> memory(n + 1);
        for (std::size_t k = 0; k <= n; ++k) memory[k] = ode.branch_memory(k);
        return rigid_bodies_settled(bodies, overlap, acting, v.data(), t_hat * T, &memory);
    };

    double t = 0;
    // Nothing moves relative to anything (springs unstretched, at rest), or nothing can meet: done.
    if (bodies.velocity_scale == 0 || (settled_now(y, 0) && settled_everywhere(0))) return finish(0, true, false);

    // A new stepper at each plan: the compact state's size changes (odeint resizes only once).
    auto dense = odeint::make_dense_output(tol, tol, Dopri());
    dense.initialize(y, t, 1e-2);
    const auto system = [&ode](const State& s, State& dsdt, double tt) { ode(s, dsdt, tt); };
    const std::size_t max_events = options.max_events, max_steps = rigid_body_step_cap(options);
    State s;
    std::vector<double> g_prev(n + 1), g(n + 1), second_prev(n + 1), second_now(n + 1);
    const auto too_many_steps = [&](double at) {
        return SolverLimitExceeded(fmt::format("the rigid-body chain took more than {} integration steps by t = {:g} s "
                                               "without settling (bounded work): raise [solver] max_work or set [solver] "
                                               "end_time",
                                               max_steps, at * T));
    };
    // (branch_crossed(), contact_branches.hpp)
    auto crossed = [&](std::size_t k, double before, double now) { return branch_crossed(acting[k] ? -1 : +1, before, now); };
    auto second_crossed = [&](std::size_t k, double before, double now) {
        const int sense = ode.second_sense(k);
        return sense != 0 && branch_crossed(sense, before, now);
    };
    auto first_at = [&](const State& at, std::size_t k) {
        return ode.has_events(k) ? ode.event_value(k, ode.overlap(at, k), ode.rate(at, k)) : 0.0;
    };
    auto second_at = [&](const State& at, std::size_t k) { return ode.second_value(k, ode.overlap(at, k), ode.rate(at, k)); };
    auto any_crossed = [&](const State& at) {
        for (std::size_t k : ode.links()) {
            if (ode.has_events(k) && crossed(k, g_prev[k], first_at(at, k))) return true;
            if (second_crossed(k, second_prev[k], second_at(at, k))) return true;
        }
        return false;
    };
    auto keep_values = [&](const State& at) {
        for (std::size_t k : ode.links()) {
            g_prev[k] = first_at(at, k);
            second_prev[k] = second_at(at, k);
        }
    };
    bool values_at_start = false;
    auto full_at = [&](double tt, State& out) {
        dense.calc_state(tt, s);
        ode.expand(s, tt, out);
    };
    for (;;) {
        if (result.steps >= max_steps) throw too_many_steps(t);
        const auto [t_old, t_step] = dense.do_step(system);
        ++result.steps;
        if (options.progress && result.steps % 100000 == 0) options.progress(t_step * T, result.steps);
        const double t_new = std::min(t_step, horizon);
        // Where does a link first change branch in (t_old, t_new]? Look at samples, then bisect.
        const State& y_old = dense.previous_state();
        // The values at the step's start: those the previous step ended with (its last sample is its
        // end state itself), else computed.
        if (!values_at_start) keep_values(y_old);
        values_at_start = false;
        s.resize(y.size());
        double a = t_old, b = t_new;
        bool event = false;
        for (int j = 1; j <= samples_per_step && !event; ++j) {
            const double tj = j == samples_per_step ? t_new : t_old + (t_new - t_old) * j / samples_per_step;
            if (tj == t_step) s = dense.current_state();
            else dense.calc_state(tj, s);
            if (any_crossed(s)) {
                event = true;
                b = tj;
            } else {
                a = tj;
                keep_values(s);
            }
        }
        if (!event && t_new == t_step && t_new < horizon) {
            record_samples_until(full_at, t_new);
            y = dense.current_state();
            t = t_new;
            values_at_start = true;  // kept at the last sample, the state the next step starts from
            if (!std::isfinite(t))
                throw SolverLimitExceeded("the rigid-body chain's integration ran to infinite time without settling");
            // A contact left at rounding-sized force between bodies moving as one settles between events.
            if (settled_now(y, t)) {
                ode.expand(y, t, x);
                if (settled_everywhere(t)) return finish(t, true, false);
                const double step = dense.current_time_step();
                y = ode.plan(x, t);
                dense = odeint::make_dense_output(tol, tol, Dopri());
                dense.initialize(y, t, step);
                values_at_start = false;  // a new plan: new links
            }
            continue;
        }
        if (event) {
            // Bisection to rounding on the dense output: b stays past the first branch change.
            while (b - a > 4 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(b))) {
                const double mid = 0.5 * (a + b);
                dense.calc_state(mid, s);
                if (any_crossed(s)) {
                    b = mid;
                } else {
                    a = mid;
                    keep_values(s);
                }
            }
            dense.calc_state(b, s);
            for (std::size_t k : ode.links()) {
                g[k] = first_at(s, k);
                second_now[k] = second_at(s, k);
            }
        }
        record_samples_until(full_at, b);
        // Redo the integration from the step's start to b: no accepted step spans the kink.
        y = y_old;
        double h = std::max(b - t_old, 1e-300) / 4;
        // The redo counts against the same cap: on a stiff link (a dashpot of 2e11 N s/m on a ball of
        // 4e-71 kg, fuzz/regressions/ode_stiff_dashpot_redo.toml) the controlled stepper took
        // unbounded steps over an interval the dense stepper had crossed in one.
        bool started = false;  // the observer sees the start, then each step
        const auto count_step = [&](const State&, double at) {
            if (std::exchange(started, true) && ++result.steps > max_steps) throw too_many_steps(at);
        };
        if (b > t_old) odeint::integrate_adaptive(odeint::make_controlled(tol, tol, Dopri()), system, y, t_old, b, h, count_step);
        t = b;
        ode.expand(y, t, x);
        if (!event) return finish(t, false, true);  // the horizon
        if (++result.events > max_events)
            throw SolverLimitExceeded(fmt::format("the rigid-body chain needed more than max_events = {} contact events "
                                                  "by t = {:g} s (bounded work): raise [solver] max_events or set end_time",
                                                  max_events, t * T));
        ContactBranches& branches = ode.branches();
        for (std::size_t k : ode.links()) {
            if (!ode.has_events(k)) continue;
            const ContactLaw& law = bodies.links[k].law;
            const double d = ode.overlap(y, k);
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
            } else if (second_crossed(k, second_prev[k], second_now[k]) && !ode.parked(k)) {
                // (A parked link's second event is its activation: the new plan takes its bodies in.)
                branches.second_event(law, k, d);
            }
        }
        if (event_forces) record_forces(x, t);
        const double step = std::max(dense.current_time_step(), 1e-12);
        y = ode.plan(x, t);
        if (settled_now(y, t) && settled_everywhere(t)) return finish(t, true, false);
        dense = odeint::make_dense_output(tol, tol, Dopri());
        dense.initialize(y, t, step);
    }
}

}  // namespace

Outcome solve_rigid_bodies_exact(const Chain& chain, const SolverOptions& options) {
    check_rigid_bodies_options(chain, options);
    const RigidBodies bodies(chain);
    const double V = bodies.velocity_scale;
    const double target = options.accuracy.value_or(default_rigid_body_accuracy);
    const auto bound_of = [&](const RunResult& a, const RunResult& b) {
        return pair_bound(a.run.velocity, b.run.velocity, a.run.settled, b.run.settled, b.steps, V);
    };
    RefinedRuns<RunResult> runs = refine_tolerance<RunResult>(
        target, V, smallest_tolerance, [&](double tol) { return integrate(bodies, options, tol, {}); }, bound_of);
    RunResult& fine = runs.fine;
    if (options.force_samples) {
        // The same run again, now sampling its forces (deterministic: the same numbers): every
        // closing and opening, and equally spaced times for the rest of the `force_samples` points
        // a history may have (only the grid when the events alone would fill it).
        const std::size_t events = fine.events;
        const bool with_events = events + 2 <= options.force_samples;
        const std::size_t grid = with_events ? options.force_samples - events : options.force_samples;
        fine = integrate(bodies, options, runs.tol, force_sample_times(fine.run.end_time, grid), with_events);
    }
    RigidBodiesRun& run = fine.run;
    const double bound = std::max(runs.bound, energy_defect_error(bodies, run));
    run.method = Method::characteristics;
    run.velocity_error_bound = bound;
    run.stats.events = fine.events;
    run.stats.steps = fine.steps;
    run.stats.estimate_events = runs.coarse.events;
    run.accuracy_report =
        refined_accuracy_report("ODE", "rigid bodies", bound, V, target, runs.tol, runs.stopped, run.warnings);
    return rigid_bodies_outcome(chain, bodies, std::move(run), options.force_samples);
}

}  // namespace rodcollide
