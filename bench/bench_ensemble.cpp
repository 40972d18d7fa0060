// Ensemble throughput (docs/ensemble.md "Speed"): members per second on the 30-rod steel chain with
// gaps of bench/study/chain_30_gaps.toml (bench/scaling.py's equal-gaps chain, seed 0), every
// length drawn within 1e-6 relative, on one thread and on every hardware thread. Wall-clock time,
// since the ensemble runs its own threads. Run:
// build/rodcollide_bench --benchmark_filter=Ensemble --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "rodcollide/case_file.hpp"
#include "rodcollide/ensemble.hpp"

#include <benchmark/benchmark.h>

#include <string>

using namespace rodcollide;

namespace {

void BM_Ensemble_Chain30(benchmark::State& state) {
    static const Case c = load_case(std::string(RODCOLLIDE_SOURCE_DIR) + "/bench/study/chain_30_gaps.toml");
    EnsembleOptions o;
    o.spec = *c.ensemble;
    o.spec.members = 32;
    o.threads = static_cast<unsigned>(state.range(0));
    o.solver = c.solver;
    std::size_t closings = 0;
    for (auto _ : state) {
        const EnsembleResult r = ensemble(c.title, c.chain, o);
        closings = 0;
        for (const EnsembleMember& m : r.members) closings += m.closings;
        benchmark::DoNotOptimize(r);
    }
    state.counters["closings/member"] = static_cast<double>(closings) / 32.0;
    state.counters["members/s"] = benchmark::Counter(32.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Ensemble_Chain30)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
