// The finite-difference cross-check for a chain of rigid bodies (rigid_bodies.hpp; docs/physics.md
// §9.9): velocity Verlet at a fixed step h with the contact laws (contact_law.hpp), sharing nothing
// with the exact solver's integration but the law and the settling rule. Each contact's branch
// (compressed or open) is held within a step; a step inside which one would switch is cut at the
// crossing (linear interpolation) and taken again, so switches fall on step boundaries. A dashpot's
// force is implicit in the closing half kick (fixed-point iterations). While no link acts the bodies fly freely and the run jumps to
// the next closing exactly.
//
// Restitution e < 1 (docs/physics.md §9.7): each contact carries its ContactMemory as the grids'
// junctions do (contact_law.cpp's integrate_junction): held over a step, so the branch it selects
// acts there, and updated with remember() at the step's end, where the growth of hysteresis_loss()
// is added to the dissipated energy. The peak is then the largest overlap at a step's end: its error
// is second order in h, as the scheme's.
//
// Error estimate: runs at h, h/2 and h/4; the larger of the two pairs' differences carried to the
// finest run at order 1 (cautious: the scheme is second order once converging), times 2.5. h
// starts at T sqrt(accuracy) / 2 (T the links' shortest time scale, at most T/20) and halves until
// the estimate meets the target or the work limit (max_work steps per run, at most max_rigid_body_steps) is reached.
#include "solvers/shared/rigid_bodies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

struct VerletResult {
    RigidBodiesRun run;
    std::size_t steps = 0;
};

VerletResult verlet(const RigidBodies& bodies, const SolverOptions& options, double h,
                    const std::vector<double>& sample_times) {
    const std::size_t n = bodies.bodies();
    const std::vector<BodyLink>& links = bodies.links;
    std::vector<double> d(n + 1), v = bodies.velocity, f(n + 1, 0.0), vh(n), vn(n), dn(n + 1), fn(n + 1),
        impulse(n + 1, 0.0);
    for (std::size_t k = 0; k <= n; ++k) d[k] = links[k].initial_overlap;
    std::vector<char> acting(n + 1, 0);
    std::vector<ContactMemory> memory(n + 1);
    const bool damped = std::any_of(links.begin(), links.end(), [](const BodyLink& l) { return l.law.damping > 0; });
    std::vector<double> closed_since(n + 1, 0);
    double dissipated = 0, t = 0;
    VerletResult result;
    RigidBodiesRun& run = result.run;
    run.intervals.resize(n + 1);
    run.forces.resize(n + 1);
    std::size_t next_sample = 0;

    // The branch each contact is on is decided at step boundaries (acting): on the compressed branch
    // the law continued past δ = 0 and clamped at 0 (so a dashpot's force starts at c δ' right at a
    // closing), on the open one no force. An attached end: its law.
    auto forces = [&](const std::vector<double>& overlap, const std::vector<double>& vel, std::vector<double>& out) {
        for (std::size_t k = 0; k <= n; ++k) {
            const double r = bodies.overlap_rate(k, vel.data());
            switch (links[k].kind) {
                case BodyLink::Kind::free: out[k] = 0; break;
                case BodyLink::Kind::attached: out[k] = contact_force(links[k].law, overlap[k], r); break;
                case BodyLink::Kind::contact:
                    out[k] = acting[k] ? std::max(0.0, continued_force(links[k].law, overlap[k], r, memory[k])) : 0.0;
                    break;
            }
        }
    };
    // Which side of its switch contact k is on: acting, its continued force; open, δ (or, at δ > 0,
    // the force it would carry). crossed(): the state at the step's end is on the other branch.
    // With a memory (e < 1) an open contact re-closes at δ_r on its unloading branch.
    auto branch_value = [&](std::size_t k, double overlap, double r) {
        const double dr = residual_overlap(links[k].law, memory[k]);
        if (acting[k] || overlap > dr) return continued_force(links[k].law, overlap, r, memory[k]);
        return overlap - dr;
    };
    auto crossed = [&](std::size_t k, const std::vector<double>& overlap, const std::vector<double>& vel) {
        const double g = branch_value(k, overlap[k], bodies.overlap_rate(k, vel.data()));
        return acting[k] ? g < 0 : g > 0;
    };
    auto kick = [&](std::vector<double>& vel, const std::vector<double>& force, double dt) {
        for (std::size_t k = 0; k <= n; ++k) {
            if (force[k] == 0) continue;
            if (k > 0) vel[k - 1] -= dt * force[k] / bodies.mass[k - 1];
            if (k < n) vel[k] += dt * force[k] / bodies.mass[k];
        }
    };
    auto switch_link = [&](std::size_t k, double at) {
        if (acting[k]) run.intervals[k].push_back({closed_since[k], at});
        else closed_since[k] = at;
        acting[k] = !acting[k];
    };
    // Dashpot work while acting; while open at δ > 0, the elastic energy the contact releases.
    auto power = [&](const std::vector<double>& force, const std::vector<double>& overlap, const std::vector<double>& vel) {
        double p = 0;
        for (std::size_t k = 0; k <= n; ++k) {
            if (links[k].kind == BodyLink::Kind::free) continue;
            const double r = bodies.overlap_rate(k, vel.data());
            if (force[k] != 0) p += links[k].law.damping * r * r;
            else if (links[k].kind == BodyLink::Kind::contact) p += open_release_power(links[k].law, overlap[k], r, memory[k]);
        }
        return p;
    };
    auto sample = [&](double at, const std::vector<double>& force) {
        for (std::size_t k = 0; k <= n; ++k) {
            if (links[k].kind == BodyLink::Kind::free) continue;
            run.forces[k].time.push_back(at);
            run.forces[k].force.push_back(-force[k]);
        }
    };
    auto finish = [&](bool settled, bool at_horizon) {
        if (settled) {  // open contacts still at δ > 0 relax freely to 0
            const FreeRelease release = free_release(bodies, d, v.data(), &memory);
            for (std::size_t k = 0; k <= n; ++k) d[k] += release.delay * bodies.overlap_rate(k, v.data());
            for (std::size_t k = 0; k <= n; ++k)
                if (links[k].kind == BodyLink::Kind::contact) memory[k] = remember(links[k].law, memory[k], d[k]);
            dissipated += release.energy;
            t += release.delay;
        }
        run.end_time = t;
        run.settled = settled;
        run.at_horizon = at_horizon;
        run.velocity = v;
        run.overlap = d;
        run.impulse = impulse;
        run.dissipated = dissipated;
        run.memory = memory;
        run.acting = acting;
        for (std::size_t k = 0; k <= n; ++k)
            if (acting[k] && links[k].kind == BodyLink::Kind::contact) run.intervals[k].push_back({closed_since[k], t});
        for (; next_sample < sample_times.size() && sample_times[next_sample] <= t; ++next_sample) sample(sample_times[next_sample], f);
        return result;
    };

    // Touching and not separating at t = 0: the contact carries force from the first instant (as in
    // the exact solver).
    for (std::size_t k = 0; k <= n; ++k)
        acting[k] = links[k].kind == BodyLink::Kind::attached ||
                    (links[k].kind == BodyLink::Kind::contact && d[k] >= 0 && bodies.overlap_rate(k, v.data()) >= 0);
    forces(d, v, f);
    if (!sample_times.empty() && sample_times.front() == 0) ++next_sample;
    sample(0, f);
    const double horizon = options.end_time.value_or(inf);
    if (bodies.velocity_scale == 0) return finish(true, false);
    const std::size_t max_steps = rigid_body_step_cap(options);
    for (;;) {
        bool any = false;
        for (std::size_t k = 0; k <= n; ++k) any = any || (acting[k] && links[k].kind == BodyLink::Kind::contact);
        if (rigid_bodies_settled(bodies, d, acting, v.data(), t, &memory)) return finish(true, false);
        if (!any && !bodies.has_attached_end()) {
            // Free flight: every body moves at its velocity until the next closing, reached exactly.
            double jump = inf;
            std::size_t closing = 0;
            for (std::size_t k = 0; k <= n; ++k) {
                const double r = bodies.overlap_rate(k, v.data());
                if (links[k].kind != BodyLink::Kind::contact || r <= 0) continue;
                // (remembering, e < 1: it re-closes at δ_r)
                const double dr = residual_overlap(links[k].law, memory[k]);
                const double wait = d[k] >= dr ? 0.0 : (dr - d[k]) / r;
                if (wait < jump) jump = wait, closing = k;
            }
            jump = std::min(jump, horizon - t);
            for (; next_sample < sample_times.size() && sample_times[next_sample] <= t + jump; ++next_sample)
                sample(sample_times[next_sample], f);
            for (std::size_t k = 0; k <= n; ++k) d[k] += jump * bodies.overlap_rate(k, v.data());
            t += jump;
            if (t >= horizon) return finish(false, true);
            d[closing] = std::max(d[closing], residual_overlap(links[closing].law, memory[closing]));
            for (std::size_t k = 0; k <= n; ++k)  // a contact that separated in flight forgets
                if (links[k].kind == BodyLink::Kind::contact && d[k] <= 0) memory[k] = {};
        }
        if (t >= horizon) return finish(false, true);
        if (++result.steps > max_steps)
            throw SolverLimitExceeded(fmt::format("velocity Verlet took more than {} steps of {:g} s by t = {:g} s without "
                                                  "settling (bounded work): ask for less accuracy, raise [solver] max_work "
                                                  "or set [solver] end_time",
                                                  max_steps, h, t));
        if (options.progress && result.steps % 1000000 == 0) options.progress(t, result.steps);
        // A step with the branches held; if a contact changes branch inside it, the step is cut at
        // the crossing (linear interpolation of δ, or of the force continued past 0) and taken
        // again, so that every switch falls on a step boundary (second order kept at the kinks).
        double dt = std::min(h, horizon - t);
        std::ptrdiff_t target = -1;
        bool cut = false;
        for (int attempt = 0;; ++attempt) {
            vh = v;
            kick(vh, f, dt / 2);
            dn = d;
            for (std::size_t k = 0; k <= n; ++k) dn[k] += dt * bodies.overlap_rate(k, vh.data());
            // The closing half kick is implicit in a dashpot's force (it depends on the new
            // velocity): fixed-point iterations, each gaining a factor c dt / 2M, keep second order.
            vn = vh;
            for (int sweep = 0; sweep < (damped ? 3 : 1); ++sweep) {
                forces(dn, vn, fn);
                vn = vh;
                kick(vn, fn, dt / 2);
            }
            if (cut || attempt > static_cast<int>(n) + 2) break;
            double first = 1;
            std::ptrdiff_t k_first = -1;
            for (std::size_t k = 0; k <= n; ++k) {
                if (links[k].kind != BodyLink::Kind::contact || !crossed(k, dn, vn)) continue;
                // A closing from a gap is placed where δ reaches 0 (the branch value jumps there to
                // c δ' with a dashpot: interpolating across that jump would put it a step early).
                const double dr = residual_overlap(links[k].law, memory[k]);
                const bool from_gap = !acting[k] && d[k] <= dr;
                const double g0 = from_gap ? d[k] - dr : branch_value(k, d[k], bodies.overlap_rate(k, v.data()));
                const double g1 = from_gap ? dn[k] - dr : branch_value(k, dn[k], bodies.overlap_rate(k, vn.data()));
                const double a = g0 != g1 ? std::clamp(g0 / (g0 - g1), 0.0, 1.0) : 1.0;
                if (k_first < 0 || a < first) first = a, k_first = static_cast<std::ptrdiff_t>(k);
            }
            if (k_first < 0 || first >= 1) break;  // none, or at the step's end: switched after it
            if (first * dt <= 1e-9 * h) {  // at the step's start: switch now and take the step again
                switch_link(static_cast<std::size_t>(k_first), t);
                forces(d, v, f);
                continue;
            }
            dt *= first;
            target = k_first;
            cut = true;
        }
        const double p_old = power(f, d, v);
        dissipated += dt / 2 * (p_old + power(fn, dn, vn));
        for (std::size_t k = 0; k <= n; ++k) impulse[k] += dt / 2 * (f[k] + fn[k]);
        // Samples inside the step: the force interpolated linearly (second order, like the scheme).
        for (; next_sample < sample_times.size() && sample_times[next_sample] <= t + dt; ++next_sample) {
            const double a = (sample_times[next_sample] - t) / dt;
            std::vector<double> fs(n + 1);
            for (std::size_t k = 0; k <= n; ++k) fs[k] = (1 - a) * f[k] + a * fn[k];
            sample(sample_times[next_sample], fs);
        }
        t += dt;
        // The switches at the step's end: the link it was cut for, and any other that crossed.
        for (std::size_t k = 0; k <= n; ++k) {
            if (links[k].kind != BodyLink::Kind::contact) continue;
            if (static_cast<std::ptrdiff_t>(k) != target && !crossed(k, dn, vn)) continue;
            switch_link(k, t);
        }
        d = dn;
        v = vn;
        for (std::size_t k = 0; k <= n; ++k) {  // the memories (e < 1) at the step's end; the loss grows with δ_m
            if (links[k].kind != BodyLink::Kind::contact || links[k].law.restitution >= 1) continue;
            const ContactMemory after = remember(links[k].law, memory[k], d[k]);
            if (after.max_overlap > memory[k].max_overlap)
                dissipated += hysteresis_loss(links[k].law, after) - hysteresis_loss(links[k].law, memory[k]);
            memory[k] = after;
        }
        forces(d, v, f);  // the next step's leading force, at the full-step velocity
    }
}

}  // namespace

Outcome solve_rigid_bodies_verlet(const Chain& chain, const SolverOptions& options) {
    check_rigid_bodies_options(chain, options);
    const RigidBodies bodies(chain);
    const double V = bodies.velocity_scale;
    const double target = accuracy_target(options);
    const double T = std::isfinite(bodies.time_scale) ? bodies.time_scale : 1.0;
    double h = std::min(T * std::sqrt(target) / 2, T / 20);
    auto difference = [&](const RigidBodiesRun& a, const RigidBodiesRun& b) {
        double d = 0;
        for (std::size_t i = 0; i < a.velocity.size(); ++i) d = std::max(d, std::abs(a.velocity[i] - b.velocity[i]));
        return d;
    };
    // Three runs at h, h/2, h/4; each pair's difference carried to the finest at order 1, the
    // larger, times `safety`. Grazing re-contacts and contacts switching at different phases in
    // their steps make the convergence erratic before it is second order: two runs can agree by
    // chance (as on the grids, solve_finite_difference.cpp), three rarely do.
    constexpr double safety = 2.5;
    std::vector<VerletResult> runs;
    runs.push_back(verlet(bodies, options, h, {}));
    runs.push_back(verlet(bodies, options, h / 2, {}));
    double estimate = inf;
    for (;;) {
        try {
            runs.push_back(verlet(bodies, options, h / 4, {}));
        } catch (const SolverLimitExceeded&) {
            if (!std::isfinite(estimate)) throw;  // not even one estimate: nothing to report
            break;
        }
        h /= 2;  // runs.end()[-2] is at h, the last at h/2
        const std::size_t last = runs.size() - 1;
        const double rounding = 10 * std::numeric_limits<double>::epsilon() * V * std::sqrt(static_cast<double>(runs[last].steps + 1));
        estimate = safety * std::max(difference(runs[last - 1].run, runs[last].run),
                                     difference(runs[last - 2].run, runs[last - 1].run) / 2) + rounding;
        if (runs[last].run.settled != runs[last - 1].run.settled) estimate = inf;
        if (estimate <= target * V) break;
    }
    h = h / 2;  // the finest run's step
    VerletResult fine = std::move(runs.back());
    if (options.force_samples) fine = verlet(bodies, options, h, force_sample_times(fine.run.end_time, options.force_samples));
    RigidBodiesRun& run = fine.run;
    estimate = std::max(estimate, energy_defect_error(bodies, run));
    run.method = Method::finite_difference;
    run.velocity_error_bound = estimate;
    run.error_kind = Outcome::ErrorKind::estimate;
    run.stats.events = fine.steps;
    run.stats.steps = fine.steps;
    run.stats.time_step = h;
    run.stats.velocity_error_target = target * V;
    run.stats.velocity_error_target_met = estimate <= target * V;
    AccuracyReport& r = run.accuracy_report;
    r.target = target;
    if (estimate <= target * V) {
        r.status = AccuracyStatus::met;
        r.statement = fmt::format("{:.2g} V reached (estimate, velocity Verlet at step {:.3g} s against 2 and 4 times "
                                  "the step), within the {:.2g} V asked for",
                                  V > 0 ? estimate / V : 0.0, h, target);
    } else {
        r.status = AccuracyStatus::work_budget;
        r.statement = fmt::format("work limit: {:.2g} V reached at step {:.3g} s; {:.2g} V asked for",
                                  V > 0 ? estimate / V : 0.0, h, target);
        run.warnings.push_back(fmt::format("velocity Verlet: estimated velocity error {:.3g} m/s ({:.3g} of the "
                                           "velocity scale) misses the target {:.0e} within the work limit",
                                           estimate, V > 0 ? estimate / V : 0.0, target));
    }
    return rigid_bodies_outcome(chain, bodies, std::move(run), options.force_samples);
}

}  // namespace rodcollide
