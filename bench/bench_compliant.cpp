// Compliant junctions, masses and chains of rigid bodies (issue 23; figures: docs/scaling.md,
// "Compliant junctions"):
//  - BM_Compliant_HammerCushionPile: cases/compliant/hammer_cushion_pile.toml over 20 transit times
//    of the whole chain (hammer + pile, 3.02 ms each: end_time 60.4 ms), finite differences at the
//    default accuracy (cells = 0: the solver's own choice and its two-grid estimate), and as the
//    case file has it (cells = 200 in the hammer) for comparison, and by the exact solver's delay
//    network at its default accuracy (1e-9 of V; docs/physics.md §9.10): the exact/FD time ratio;
//  - BM_Compliant_ThirtyRodCushions: 30 rods with a linear cushion at every contact, one striker,
//    to settling at default options, by finite differences and by the exact solver's delay network;
//  - BM_RigidBodies_HertzChain/{10,100,1000}: n Hertz balls settled by the exact solver at 1e-9
//    (issue 24's speed targets; scipy's DOP853 beside it: bench/ball_chain_dop853.py);
//  - BM_RigidBodies_HertzBalls_{Exact,Verlet}: 10 masses through Hertz contacts (a struck cradle),
//    Boost.Odeint against velocity Verlet at one `accuracy` (1e-6 of V); each reports its measured
//    error against a Dormand-Prince run at 1e-10 (`error_of_V`), so "equal accuracy" is checked, not
//    assumed. The time ratio is the ratio of the two medians.
// Run (default build; every solve is one iteration, so repetitions give the medians):
//   build-dev/rodcollide_bench --benchmark_filter='Compliant|RigidBodies' --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include "../tests/support/chain_builders.hpp"
#include "rodcollide/case_file.hpp"
#include "rodcollide/solve.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

using namespace rodcollide;

namespace {

Case hammer_cushion_pile() { return load_case(RODCOLLIDE_SOURCE_DIR "/cases/compliant/hammer_cushion_pile.toml"); }

/// The hammer and the pile's transit times summed [s] (1 m of steel, 10 m of concrete).
double chain_transit(const Chain& chain) {
    double t = 0;
    for (const Rod& r : chain.rods()) t += r.length / std::sqrt(r.youngs_modulus / r.density);
    return t;
}

void run_pile(benchmark::State& state, std::size_t cells, Method method = Method::finite_difference) {
    const Case c = hammer_cushion_pile();
    SolverOptions o = c.solver;
    o.method = method;
    o.cells = cells;
    o.end_time = 20 * chain_transit(c.chain);
    Outcome out;
    for (auto _ : state) {
        out = solve(c.chain, o);
        benchmark::DoNotOptimize(out);
    }
    state.counters["end_time_ms"] = *o.end_time * 1e3;
    state.counters["steps"] = static_cast<double>(out.stats.steps);
    state.counters["cells"] = static_cast<double>(out.stats.cells);
    state.counters["error_of_V"] = out.velocity_error_bound / c.chain.velocity_scale();
}

void BM_Compliant_HammerCushionPile(benchmark::State& state) { run_pile(state, 0); }
BENCHMARK(BM_Compliant_HammerCushionPile)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Compliant_HammerCushionPile_Cells200(benchmark::State& state) { run_pile(state, 200); }
BENCHMARK(BM_Compliant_HammerCushionPile_Cells200)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Compliant_HammerCushionPile_Exact(benchmark::State& state) { run_pile(state, 0, Method::characteristics); }
BENCHMARK(BM_Compliant_HammerCushionPile_Exact)->Unit(benchmark::kMillisecond);

/// 30 identical rods (L = Z = c = 1), touching, the first striking the rest at V = 1 through a linear
/// cushion k = 50 at every contact (its time Z/(2k) = 0.01 of a transit).
Chain thirty_rods_with_cushions() {
    std::vector<Rod> rods;
    for (int i = 0; i < 30; ++i) {
        Rod r = testing::make_rod(1.0, i == 0 ? 1.0 : 0.0);
        if (i > 0) r.contact_stiffness = 50;
        rods.push_back(r);
    }
    return Chain(rods);
}

/// Both methods at default options, to settling. The pulse has passed by t = 30.3 (every contact
/// open, the velocities in increasing order), but the rods left behind separate at ~1e-5 V while
/// their ends vibrate by more, so a proof by the ends' excursions waits for gaps that grow past
/// them (the grid's did not by its work limit, t = 313). The rods, all alike, share one period, and
/// one period watched without a closing proves it (docs/physics.md §6.9): the exact solver settles
/// at t = 33, finite differences (on their exact grid) at 32.3.
void run_thirty(benchmark::State& state, Method method) {
    const Chain chain = thirty_rods_with_cushions();
    SolverOptions o;
    o.method = method;
    Outcome out;
    for (auto _ : state) {
        out = solve(chain, o);
        benchmark::DoNotOptimize(out);
    }
    state.counters["last_contact"] = out.last_contact_time;
    state.counters["settled"] = out.settled ? 1 : 0;
    state.counters["steps"] = static_cast<double>(out.stats.steps);
    state.counters["cells"] = static_cast<double>(out.stats.cells);
    state.counters["error_of_V"] = out.velocity_error_bound / chain.velocity_scale();
}

void BM_Compliant_ThirtyRodCushions(benchmark::State& state) { run_thirty(state, Method::finite_difference); }
BENCHMARK(BM_Compliant_ThirtyRodCushions)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Compliant_ThirtyRodCushions_Exact(benchmark::State& state) { run_thirty(state, Method::characteristics); }
BENCHMARK(BM_Compliant_ThirtyRodCushions_Exact)->Unit(benchmark::kMillisecond)->Iterations(1);

/// `n` steel balls of radius 10 mm as masses with Hertz's law written out (as
/// cases/compliant/hertz_cradle_3.toml: m = 0.032882 kg, k = 1.0878e10 N/m^1.5), touching, the first
/// striking at 1 m/s.
Chain hertz_balls(int n = 10) {
    std::vector<Rod> bodies;
    for (int i = 0; i < n; ++i) {
        Rod b;
        b.kind = RodKind::mass;
        b.rigid_mass = 0.032882;
        b.velocity = i == 0 ? 1.0 : 0.0;
        if (i > 0) {
            b.contact_stiffness = 1.0878e10;
            b.contact_exponent = 1.5;
        }
        bodies.push_back(b);
    }
    return Chain(bodies);
}

constexpr double balls_accuracy = 1e-6;

/// The reference: the exact solver at 1e-10 of V, the tightest it accepts (it reports its own bound).
const Outcome& balls_reference() {
    static const Outcome reference = [] {
        SolverOptions o;
        o.accuracy = 1e-10;  // the smallest accuracy accepted (smallest_accuracy)
        return solve(hertz_balls(), o);
    }();
    return reference;
}

void run_balls(benchmark::State& state, Method method) {
    const Chain chain = hertz_balls();
    SolverOptions o;
    o.method = method;
    o.accuracy = balls_accuracy;
    Outcome out;
    for (auto _ : state) {
        out = solve(chain, o);
        benchmark::DoNotOptimize(out);
    }
    const Outcome& ref = balls_reference();
    double error = 0;
    for (std::size_t i = 0; i < out.rods.size(); ++i)
        error = std::max(error, std::abs(out.rods[i].final_velocity - ref.rods[i].final_velocity));
    state.counters["error_of_V"] = error / chain.velocity_scale();
    state.counters["bound_of_V"] = out.velocity_error_bound / chain.velocity_scale();
    state.counters["steps"] = static_cast<double>(out.stats.steps ? out.stats.steps : out.stats.events);
}

void BM_RigidBodies_HertzBalls_Exact(benchmark::State& state) { run_balls(state, Method::characteristics); }
BENCHMARK(BM_RigidBodies_HertzBalls_Exact)->Unit(benchmark::kMillisecond);

void BM_RigidBodies_HertzBalls_Verlet(benchmark::State& state) { run_balls(state, Method::finite_difference); }
BENCHMARK(BM_RigidBodies_HertzBalls_Verlet)->Unit(benchmark::kMillisecond);

/// Issue 24's targets: 10 balls settled to 1e-9 (of V) in under 5 ms, 1000 balls in under 2 s. The
/// exact solver at accuracy 1e-9, to settling (its bound comes from a second run at 1e-11, included).
/// bench/ball_chain_dop853.py puts scipy's DOP853 beside it. 1000 balls take about a second (the
/// active set, docs/physics.md §9.9): one iteration each, repetitions for the median.
void BM_RigidBodies_HertzChain(benchmark::State& state) {
    const Chain chain = hertz_balls(static_cast<int>(state.range(0)));
    SolverOptions o;
    o.method = Method::characteristics;
    o.accuracy = 1e-9;
    Outcome out;
    for (auto _ : state) {
        out = solve(chain, o);
        benchmark::DoNotOptimize(out);
    }
    state.counters["settled"] = out.settled ? 1 : 0;
    state.counters["bound_of_V"] = out.velocity_error_bound / chain.velocity_scale();
    state.counters["steps"] = static_cast<double>(out.stats.steps);
}
BENCHMARK(BM_RigidBodies_HertzChain)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RigidBodies_HertzChain)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
