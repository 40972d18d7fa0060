// Exact solver timings (targets: README, "Benchmarks"): the three-rod paper case
// (Winandy & Leine 2015 §4.2) and a 10-rod chain with mixed materials and gaps. Run:
// build/rodcollide_bench --benchmark_filter=Characteristics
// --benchmark_repetitions=10 --benchmark_report_aggregates_only=true (main: bench/main.cpp)
#include "../tests/chain_builders.hpp"
#include "rodcollide/characteristics.hpp"
#include "rodcollide/solve.hpp"

#include <benchmark/benchmark.h>

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
        events = o.stats.events;
        benchmark::DoNotOptimize(o);
    }
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_Characteristics_TenRodMixed)->Unit(benchmark::kMillisecond);

}  // namespace
