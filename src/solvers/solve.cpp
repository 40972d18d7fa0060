// Method dispatch for solve(), solve_with_field() and solve_with_gauges(), the one entry points for
// field samples and gauge signals.
#include "rodcollide/solve.hpp"

#include "sampling/wave_field_samples.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/exact/delay_network.hpp"
#include "solvers/fd/finite_difference.hpp"
#include "solvers/shared/rigid_bodies.hpp"
#include "solvers/solve_with_wave_field.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace rodcollide {

namespace {

/// Issue 23: what a method cannot carry yet is refused up front, as UnsupportedMethod (the CLI's bad
/// input), never answered wrongly; the solvers refuse it too (InvalidInput) for callers that reach
/// them directly.
void refuse_unsupported(const Chain& chain, const SolverOptions& options, Method method) {
    // A chain of rigid bodies alone is an ODE system: solve() runs it (either method); it has no
    // rods, so no wave field, diagram or gauge signals.
    if (rigid_bodies_only(chain))
        throw UnsupportedMethod(rigid_bodies_field_refusal());
    if (method == Method::characteristics && chain.compliant())
        throw UnsupportedMethod("solver.method: " + compliant_field_refusal("the exact (characteristics) solver"));
    if (method == Method::finite_difference)
        if (const std::string why = finite_difference_refusal(chain, options); !why.empty()) throw UnsupportedMethod(why);
}

}  // namespace

Outcome solve(const Chain& chain, const SolverOptions& options) {
    validate(options);
    if (rigid_bodies_only(chain)) {  // docs/physics.md §9.9
        return options.method == Method::characteristics ? solve_rigid_bodies_exact(chain, options)
                                                          : solve_rigid_bodies_verlet(chain, options);
    }
    // Rods with compliant parts: the exact solver's delay network (docs/physics.md §9.10).
    if (options.method == Method::characteristics && delay_network_chain(chain)) return solve_delay_network(chain, options);
    refuse_unsupported(chain, options, options.method);
    switch (options.method) {
        case Method::characteristics: {
            SolverOptions o = options;
            o.keep_history = false;  // only the outcome is wanted
            return solve_characteristics(chain, o).outcome;
        }
        case Method::finite_difference:
            return solve_finite_difference(chain, options).outcome;
    }
    throw UnsupportedMethod("unknown method");
}

namespace {

/// Whether the exact solver's delay network runs the chain: it samples its field while it runs
/// (delay_network.hpp), rather than keeping a WaveField.
bool on_delay_network(const Chain& chain, const SolverOptions& options) {
    return options.method == Method::characteristics && delay_network_chain(chain);
}

/// The delay network's sample times: `count` over [0, t_end], or, without it, over the recorded
/// run (to its end time, plus record_after_settling once settled, or record_until if later), never
/// past the horizon.
std::function<std::vector<double>(double, bool)> network_times(const SolverOptions& options, std::size_t count,
                                                              std::optional<double> t_end) {
    return [=](double end_time, bool settled) {
        const double recorded = end_time + (settled ? options.record_after_settling : 0.0);
        double end = t_end.value_or(std::max(recorded, options.record_until.value_or(0.0)));
        if (options.end_time) end = std::min(end, *options.end_time);
        return sample_times(end, end > 0 ? count : 1);
    };
}

/// Keeps the rows at times <= t_end (a grid run ends on a step, possibly just past t_end).
FieldSamples until(FieldSamples f, double t_end) {
    const auto rows = static_cast<Eigen::Index>(
        std::upper_bound(f.t.begin(), f.t.end(), t_end * (1 + 1e-12)) - f.t.begin());
    f.t.resize(static_cast<std::size_t>(rows));
    f.velocity.conservativeResize(rows, Eigen::NoChange);
    f.force.conservativeResize(rows, Eigen::NoChange);
    return f;
}

}  // namespace

SolutionWithField solve_with_field(const Chain& chain, const SolverOptions& options, std::size_t times,
                                   std::size_t positions, std::optional<double> t_end) {
    validate(options);
    validate(FieldResolution{times, positions});
    SolverOptions o = options;
    if (t_end) o.record_until = *t_end;
    if (on_delay_network(chain, options)) {  // the exact smooth field, sampled while the network runs
        FieldSamples field = field_positions(chain, times, positions);
        NetworkFieldSamples samples;
        for (const double x : field.x) {
            const auto [e, local] = element_point(chain, x);
            samples.points.push_back({e, local});
        }
        samples.times_for = network_times(o, times, t_end);
        Outcome outcome = solve_delay_network(chain, o, &samples);
        field.t = std::move(samples.times);
        field.velocity = std::move(samples.velocity);
        field.force = std::move(samples.force);
        return {std::move(outcome), std::move(field)};
    }
    refuse_unsupported(chain, options, options.method);
    if (options.method == Method::finite_difference) {
        FiniteDifferenceSolution s = solve_finite_difference(chain, o, FieldResolution{times, positions});
        return {std::move(s.outcome), t_end ? until(std::move(*s.field), *t_end) : std::move(*s.field)};
    }
    o.keep_history = true;
    CharacteristicsSolution s = solve_characteristics(chain, o);
    const double recorded = s.outcome.end_time + (s.outcome.settled ? options.record_after_settling : 0.0);
    const double end = t_end.value_or(
        std::min(std::max(recorded, options.record_until.value_or(0.0)), s.field.valid_until()));
    FieldSamples field = sample_field(s.field, end, end > 0 ? times : 1, positions);
    return {std::move(s.outcome), std::move(field)};
}

SolutionWithWaveField solve_with_wave_field(const Chain& chain, const SolverOptions& options,
                                            const std::vector<std::size_t>& rods) {
    validate(options);
    refuse_unsupported(chain, options, options.method);
    if (options.method == Method::finite_difference) {
        FiniteDifferenceSolution s = solve_finite_difference(chain, options, std::nullopt, rods);
        return {std::move(s.outcome), s.wave_field ? std::move(*s.wave_field) : WaveField(chain)};
    }
    SolverOptions o = options;
    o.keep_history = true;
    CharacteristicsSolution s = solve_characteristics(chain, o);
    return {std::move(s.outcome), std::move(s.field)};
}

SolutionWithGauges solve_with_gauges(const Chain& chain, const SolverOptions& options, const std::vector<Gauge>& gauges,
                                     std::size_t samples, std::optional<double> t_end) {
    validate(options);
    input::require("samples", input::integer_within(samples, 2, largest_samples));
    SolverOptions o = options;
    double transits = 0;
    for (const Rod& r : chain.rods()) transits += r.transit_time();
    o.record_after_settling = 2 * transits;  // the vibration left after the last contact
    if (on_delay_network(chain, options)) {  // sampled while the network runs
        NetworkFieldSamples at;
        for (const Gauge& g : gauges) {
            const auto [e, local] = rod_point(chain, g.rod, g.x);
            at.points.push_back({e, local});
        }
        const std::optional<double> end = t_end ? t_end : options.end_time;
        at.times_for = network_times(o, samples, end);
        Outcome outcome = solve_delay_network(chain, o, &at);
        std::vector<GaugeSignal> signals;
        for (std::size_t k = 0; k < gauges.size(); ++k) {
            GaugeSignal g;
            g.gauge = gauges[k];
            g.time = at.times;
            const auto column = [&](const Eigen::MatrixXd& m) {
                const Eigen::VectorXd c = m.col(static_cast<Eigen::Index>(k));
                return std::vector<double>(c.data(), c.data() + c.size());
            };
            g.velocity = column(at.velocity);
            g.force = column(at.force);
            g.strain = column(at.strain);
            signals.push_back(std::move(g));
        }
        return {std::move(outcome), std::move(signals)};
    }
    std::vector<std::size_t> rods;
    for (const Gauge& g : gauges) rods.push_back(g.rod);
    SolutionWithWaveField s = solve_with_wave_field(chain, o, rods);
    const double recorded = s.outcome.end_time + (s.outcome.settled ? o.record_after_settling : 0.0);
    const double end = std::min(t_end.value_or(o.end_time.value_or(recorded)), s.field.valid_until());
    return {std::move(s.outcome), sample_gauges(s.field, gauges, end, samples)};
}

std::size_t reported_force_samples(const Chain& chain, bool has_gauges, std::optional<std::size_t> samples) {
    if (samples) return *samples;
    return has_gauges || chain.ends().any() ? default_samples : 0;
}

namespace {

/// exact_field_at() on the delay network, which keeps no whole field: it samples the grid of the
/// distinct times and positions asked for while it runs (at most max_field_samples of them), and
/// runs on past settling to the latest time.
FieldAtPoints delay_network_field_at(const Chain& chain, const SolverOptions& options, std::span<const double> x,
                                     std::span<const double> t, double t_max) {
    const auto distinct = [](std::span<const double> v) {
        std::vector<double> d(v.begin(), v.end());
        std::ranges::sort(d);
        d.erase(std::unique(d.begin(), d.end()), d.end());
        return d;
    };
    FieldAtPoints f;
    if (options.end_time && t_max > *options.end_time) {  // the network stops at its horizon: nothing past it
        f.valid_until = *options.end_time;
        return f;
    }
    const std::vector<double> times = distinct(t), positions = distinct(x);
    if (times.size() * positions.size() > max_field_samples)
        throw std::invalid_argument(fmt::format(
            "field: {} distinct times x {} distinct positions exceed the {} samples the exact solver takes of a "
            "chain with compliant junctions (its delay network samples the grid they span while it runs, "
            "docs/physics.md §9.10): ask for fewer, or on a grid",
            times.size(), positions.size(), max_field_samples));
    NetworkFieldSamples samples;
    for (const double xk : positions) {
        const auto [e, local] = element_point(chain, xk);
        samples.points.push_back({e, local});
    }
    samples.times_for = [&](double, bool) { return times; };
    (void)solve_delay_network(chain, options, &samples);
    f.valid_until = t_max;  // it sampled through t_max
    const auto index = [](const std::vector<double>& v, double value) {
        return static_cast<Eigen::Index>(std::ranges::lower_bound(v, value) - v.begin());
    };
    for (std::size_t k = 0; k < x.size(); ++k) {
        const Eigen::Index i = index(times, t[k]), j = index(positions, x[k]);
        f.velocity.push_back(samples.velocity(i, j));
        f.strain.push_back(samples.strain(i, j));
        f.force.push_back(samples.force(i, j));
        f.rod.push_back(chain.elements()[samples.points[static_cast<std::size_t>(j)].element].rod);
    }
    return f;
}

}  // namespace

FieldAtPoints exact_field_at(const Chain& chain, const SolverOptions& options, std::span<const double> x,
                             std::span<const double> t) {
    if (x.size() != t.size()) throw std::invalid_argument("exact_field_at: x and t differ in length");
    double t_max = 0;
    for (double tk : t) t_max = std::max(t_max, tk);
    SolverOptions o = options;
    o.method = Method::characteristics;
    if (on_delay_network(chain, o)) return delay_network_field_at(chain, o, x, t, t_max);
    refuse_unsupported(chain, o, o.method);
    o.keep_history = true;
    if (t_max > o.record_until.value_or(0)) o.record_until = t_max;
    const CharacteristicsSolution s = solve_characteristics(chain, o);
    FieldAtPoints f;
    f.valid_until = s.field.valid_until();
    if (t_max > f.valid_until) return f;
    const std::size_t n = x.size();
    f.velocity.resize(n);
    f.strain.resize(n);
    f.force.resize(n);
    f.rod.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const PointState p = s.field.state_at(x[k], t[k]);
        f.velocity[k] = p.velocity;
        f.strain[k] = p.strain;
        f.force[k] = p.force;
        f.rod[k] = s.field.rod_at(x[k]);
    }
    return f;
}

}  // namespace rodcollide
