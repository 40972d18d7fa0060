// Sweep timings (target: 3600 directions in under 1 s for three rods with the exact
// solver): identical rods (the paper's), and lengths (1, 2, 1), on every hardware thread and on
// one. Wall-clock time, since the sweep runs its own threads. Run:
// build/rodcollide_bench --benchmark_filter=Sweep --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include "../tests/support/chain_builders.hpp"
#include "rodcollide/sweep.hpp"

#include <benchmark/benchmark.h>

using namespace rodcollide;

namespace {

void run_sweep(benchmark::State& state, const Chain& rods, unsigned threads) {
    SweepOptions o;
    o.directions = 3600;
    o.threads = threads;
    std::size_t events = 0;
    for (auto _ : state) {
        const SweepResult r = sweep("bench", rods, o);
        events = 0;
        for (const SweepPoint& p : r.points) events += p.events;
        benchmark::DoNotOptimize(r);
    }
    state.counters["events"] = static_cast<double>(events);
    state.counters["directions/s"] = benchmark::Counter(3600.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Sweep3600_IdenticalRods(benchmark::State& state) {
    run_sweep(state, testing::identical_rods({0, 0, 0}), static_cast<unsigned>(state.range(0)));
}
BENCHMARK(BM_Sweep3600_IdenticalRods)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Sweep3600_Lengths121(benchmark::State& state) {
    const Chain rods({testing::make_rod(1, 0), testing::make_rod(2, 0), testing::make_rod(1, 0)});
    run_sweep(state, rods, static_cast<unsigned>(state.range(0)));
}
BENCHMARK(BM_Sweep3600_Lengths121)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
