// Runs to a horizon on long chains (issue 25, item 6; docs/scaling.md, "Runs to a horizon"):
// 10,000 rods of each family of the scaling benchmark (tests/support/chain_builders.hpp,
// scaling_chain(): the families of bench/scaling.py, drawn from std::mt19937) solved at default
// options to 50 transits of the chain's longest rod, as `bench/scaling.py --end-time 50` runs them.
// Their fronts outgrow the memory budget's share of exact fronts, so the work budget (max_work,
// front_budget.hpp) sizes the run: what is timed is the whole solve (the attempt without merging
// that is abandoned, the merged run and its estimate's run). The chain is built once, outside the
// timing. Run (medians of repetitions; each iteration is one solve of about a second):
//   build-dev/bench/rodcollide_bench --benchmark_filter=Horizon --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// The counters say what was reached: `events` (the reported run), `abandoned_events`,
// `estimate_events`, `reached` (the estimate relative to the velocity scale) and `work_budget`
// (1 when the accuracy report's status is "work_budget").
#include "../tests/support/chain_builders.hpp"
#include "rodcollide/solve.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>

using namespace rodcollide;

namespace {

void time_horizon(benchmark::State& state, testing::ScalingFamily family) {
    const auto rods = static_cast<std::size_t>(state.range(0));
    const Chain chain = testing::scaling_chain(family, rods, 1);
    SolverOptions options;
    options.keep_history = false;  // the CLI's `run` without a diagram, field or gauges
    options.end_time = 50 * chain.longest_transit_time();
    Outcome last;
    for (auto _ : state) {
        last = solve(chain, options);
        benchmark::DoNotOptimize(last);
    }
    state.counters["events"] = static_cast<double>(last.stats.events);
    state.counters["abandoned_events"] = static_cast<double>(last.stats.abandoned_events);
    state.counters["estimate_events"] = static_cast<double>(last.stats.estimate_events);
    state.counters["reached"] = last.velocity_error_bound / chain.velocity_scale();
    state.counters["work_budget"] = last.accuracy_report.status == AccuracyStatus::work_budget ? 1 : 0;
}

void BM_Horizon_EqualGaps(benchmark::State& state) { time_horizon(state, testing::ScalingFamily::equal_gaps); }
BENCHMARK(BM_Horizon_EqualGaps)->Arg(10'000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Horizon_MixedTouching(benchmark::State& state) { time_horizon(state, testing::ScalingFamily::mixed_touching); }
BENCHMARK(BM_Horizon_MixedTouching)->Arg(10'000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Horizon_MixedGaps(benchmark::State& state) { time_horizon(state, testing::ScalingFamily::mixed_gaps); }
BENCHMARK(BM_Horizon_MixedGaps)->Arg(10'000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
