// Exact solver timings (targets: docs/scaling.md, "Benchmarks"): the three-rod paper case
// (Winandy & Leine 2015 §4.2), a 10-rod chain with mixed materials and gaps, and the cost of an
// event group on chains of the scaling benchmark's families (BM_EventGroup_*). Run:
// build/rodcollide_bench --benchmark_filter=Characteristics
// --benchmark_repetitions=10 --benchmark_report_aggregates_only=true (main: bench/main.cpp)
#include "../tests/support/chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "rodcollide/solve.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>


using namespace rodcollide;

namespace {

Rod rod(double length, double velocity, double gap = 0, double area = 1, double density = 1, double e = 1) {
    return testing::make_rod(length, velocity, gap, area, density, e);
}

Chain paper_case() { return Chain({rod(1, 2), rod(1, 0), rod(1, -1)}); }

/// Ten rods of steel, aluminium and brass-like materials, mixed lengths and gaps, one striker
/// (a fixed draw, so every run times the same collision).
Chain mixed_chain() {
    const double steel_rho = 7850, steel_e = 210e9, al_rho = 2700, al_e = 70e9, brass_rho = 8500, brass_e = 100e9;
    return Chain({rod(0.30, 5.0, 0, 1e-4, steel_rho, steel_e), rod(0.10, 0, 1e-4, 1e-4, al_rho, al_e),
                  rod(0.25, 0, 0, 2e-4, brass_rho, brass_e), rod(0.05, 0, 2e-4, 1e-4, steel_rho, steel_e),
                  rod(0.40, 0, 0, 1e-4, al_rho, al_e), rod(0.12, 0, 5e-5, 3e-4, steel_rho, steel_e),
                  rod(0.20, 0, 0, 1e-4, brass_rho, brass_e), rod(0.08, 0, 1e-4, 1e-4, al_rho, al_e),
                  rod(0.33, 0, 0, 2e-4, steel_rho, steel_e), rod(0.15, 0, 3e-4, 1e-4, brass_rho, brass_e)});
}

void BM_Characteristics_PaperCase(benchmark::State& state) {
    const Chain chain = paper_case();
    for (auto _ : state) benchmark::DoNotOptimize(solve(chain, {}));
}
BENCHMARK(BM_Characteristics_PaperCase);

void BM_Characteristics_TenRodMixed(benchmark::State& state) {
    const Chain chain = mixed_chain();
    std::size_t events = 0;
    for (auto _ : state) {
        const Outcome o = solve(chain, {});
        // With the second run of an error estimate (merged or dropped fronts, solve_characteristics.cpp)
        // its groups count too: the cost per group processed, not per group of the answer.
        events = o.stats.events + o.stats.estimate_events;
        benchmark::DoNotOptimize(o);
    }
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_Characteristics_TenRodMixed)->Unit(benchmark::kMillisecond);

// ---- Cost of an event group -----------------------------------------------------------------
// The exact solver's time per event group (issue 10, "a faster event loop") on fixed chains of
// the scaling benchmark's three families (testing::scaling_chain, seeded). Each reports
// per_group: CPU time divided by the outcome's stats.events. Run (medians of repetitions):
//   build-bench/rodcollide_bench --benchmark_filter=EventGroup --benchmark_repetitions=10
//   --benchmark_report_aggregates_only=true

/// Solves `chain` (outcome only, as `rodcollide run` does) and reports the CPU time per event group.
/// Without the rounding check (its second run repeats the whole solve on rods 8 ulps apart: it
/// would double the time, not the groups); a merged run's coarser estimate run is counted.
void time_event_groups(benchmark::State& state, const Chain& chain, SolverOptions options) {
    options.rounding_check = false;
    std::size_t events = 0;
    for (auto _ : state) {
        const Outcome o = solve(chain, options);
        events = o.stats.events;
        benchmark::DoNotOptimize(o);
    }
    state.counters["events"] = static_cast<double>(events);
    // CPU time per iteration / events, in seconds (printed with an SI prefix: "105n" is 105 ns).
    state.counters["per_group"] = benchmark::Counter(
        static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Ten steel rods of random section, touching: fronts split at every contact.
void BM_EventGroup_MixedTouching(benchmark::State& state) {
    time_event_groups(state, testing::scaling_chain(testing::ScalingFamily::mixed_touching, 10, 2), {});
}
BENCHMARK(BM_EventGroup_MixedTouching)->Unit(benchmark::kMillisecond);

/// Thirty steel rods of one section with gaps: long separations, free flight.
void BM_EventGroup_EqualGaps(benchmark::State& state) {
    time_event_groups(state, testing::scaling_chain(testing::ScalingFamily::equal_gaps, 30, 1), {});
}
BENCHMARK(BM_EventGroup_EqualGaps)->Unit(benchmark::kMillisecond);

/// The ten-rod mixed chain with gaps above.
void BM_EventGroup_MixedGaps(benchmark::State& state) { time_event_groups(state, mixed_chain(), {}); }
BENCHMARK(BM_EventGroup_MixedGaps)->Unit(benchmark::kMillisecond);

/// Thirty rods of mixed materials with gaps, cut at an end_time before they settle: many fronts
/// in flight.
void BM_EventGroup_MixedGapsCut(benchmark::State& state) {
    SolverOptions o;
    o.end_time = 2e-3;
    time_event_groups(state, testing::scaling_chain(testing::ScalingFamily::mixed_gaps, 30, 1), o);
}
BENCHMARK(BM_EventGroup_MixedGapsCut)->Unit(benchmark::kMillisecond);


// ---- Cost of a contact closing (issue 25, item 5) ----------------------------------------------
// CPU time per contact closing on steel chains with gaps (the equal-gaps family, seeds 1-3 summed)
// as chains grow: the target is flat within 2x from 20 to 100 rods. Two horizons: an early one
// (end_time = 0.03 s, the chain's first collisions; 100 rods reach about 4e3 closings) and the
// run to settling or t = 1e4 s (the late phase, long free flights between closings; at 100 rods
// one of the three chains does not settle within the default max_events, 3e8 groups: 854k
// closings by t = 0.2 s, so 100 rods are left out). What grows is the event groups per closing
// (settling: 41 / 95 / 258 at 20 / 40 / 60 rods), not the cost of a group (0.44 / 0.31 / 0.24 us):
// the fronts a rod carries grow with the closings the chain has had (every closing and opening
// emits fronts, and exact tracking removes none), and a rod awake between closings reflects each
// of them every period (peak_fronts_per_rod: 88 / 174 / 727 to settling; 76 / 94 / 106 / 68 at
// 20 / 40 / 60 / 100 rods early). 61 % of those groups were reflections beside a sleeper and 37 %
// at open contacts between awake rods (60 rods); open contacts now reflect ahead of the event loop
// (docs/physics.md §6.8: groups_per_closing counts the loop's groups), which the LoopOnly variant
// turns off for the ratio in one run. Run (medians of repetitions):
//   build/rodcollide_bench --benchmark_filter=PerClosing --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true

void time_closings(benchmark::State& state, double end_time, bool reflect_ahead = true) {
    const auto rods = static_cast<std::size_t>(state.range(0));
    std::vector<Chain> chains;
    for (unsigned seed = 1; seed <= 3; ++seed) chains.push_back(testing::scaling_chain(testing::ScalingFamily::equal_gaps, rods, seed));
    SolverOptions options;
    options.rounding_check = false;  // its second run repeats the solve: the cost of the closings themselves
    options.end_time = end_time;
    options.reflect_ahead = reflect_ahead;
    std::size_t closings = 0, events = 0, peak_fronts = 0;
    for (auto _ : state) {
        closings = events = peak_fronts = 0;
        for (const Chain& chain : chains) {
            const Outcome o = solve(chain, options);
            closings += static_cast<std::size_t>(std::ranges::count_if(
                o.contact_events, [](const ContactEvent& e) { return e.kind == ContactEvent::Kind::closing; }));
            events += o.stats.events;
            peak_fronts += o.stats.peak_stored_fronts;
            benchmark::DoNotOptimize(o);
        }
    }
    state.counters["closings"] = static_cast<double>(closings);
    state.counters["groups_per_closing"] = static_cast<double>(events) / static_cast<double>(closings);
    // Most fronts stored at once, per rod (mean over the chains): what a rod awake reflects per period.
    state.counters["peak_fronts_per_rod"] = static_cast<double>(peak_fronts) / static_cast<double>(rods * chains.size());
    // CPU time per iteration / closings, in seconds ("25u" is 25 microseconds).
    state.counters["per_closing"] = benchmark::Counter(
        static_cast<double>(closings), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_PerClosing_EarlyEqualGaps(benchmark::State& state) { time_closings(state, 0.03); }
BENCHMARK(BM_PerClosing_EarlyEqualGaps)->Arg(20)->Arg(40)->Arg(60)->Arg(100)->Unit(benchmark::kMillisecond);

// At 100 rods the chains outgrow exact tracking within the work budget and are solved merged
// (docs/scaling.md): about 4 minutes per iteration; filter it out for a quick run.
void BM_PerClosing_SettlingEqualGaps(benchmark::State& state) { time_closings(state, 1e4); }
BENCHMARK(BM_PerClosing_SettlingEqualGaps)->Arg(20)->Arg(40)->Arg(60)->Arg(100)->Unit(benchmark::kMillisecond);

void BM_PerClosing_SettlingEqualGaps_LoopOnly(benchmark::State& state) { time_closings(state, 1e4, false); }
BENCHMARK(BM_PerClosing_SettlingEqualGaps_LoopOnly)->Arg(20)->Arg(60)->Unit(benchmark::kMillisecond);

}  // namespace
