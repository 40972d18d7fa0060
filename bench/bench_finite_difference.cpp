// Finite-difference throughput (targets: docs/scaling.md, "Benchmarks"): cell-updates per second on one core
// for a three-rod chain with ~1e4 cells (v and N, 160 kB, stay in L2) and ~1e7 cells (160 MB,
// streamed from memory every step), and a STREAM triad a = b + s c on arrays of 2^24 doubles
// (128 MB each, 4x the 32 MB L3) as the streaming reference.
// Streaming bound. One core streaming from memory is limited by the cache lines it can bring
// in (outstanding misses), not by write-backs. A triad element brings in 24 bytes (b, c, and the
// line of `a`, read before it is written: write-allocate), which is also what STREAM counts. A
// cell-update brings in 16 (v and N; they are written back in place, which needs no further
// fill). So the bound is triad bandwidth / 16 B cell-updates per second; bench/main.cpp prints
// the share reached (and, for comparison, the share of total traffic, 32 B against 32 B).
// Run (Release, -march=native, in build-bench):
//   cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DRODCOLLIDE_NATIVE=ON
//   cmake --build build-bench -j2 --target rodcollide_bench
//   build-bench/rodcollide_bench --benchmark_filter='FiniteDifference|StreamTriad'
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "solvers/fd/finite_difference.hpp"

#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

using namespace rodcollide;

namespace {


/// Three rods of one material, lengths 1 : 1.3 : 0.8 (commensurate: Courant 1), the first
/// striking the second while the third moves in: the contacts close, open and carry force.
Chain three_rods() {
    auto rod = [](double length, double velocity) {
        Rod r;
        r.length = length;
        r.area = 1e-4;
        r.density = 7850;
        r.youngs_modulus = 210e9;
        r.velocity = velocity;
        return r;
    };
    return Chain({rod(1.0, 1.0), rod(1.3, 0.0), rod(0.8, -0.5)});
}

/// A grid of about `total` cells in all, built once per size (1e7 cells take a second to set up).
StaggeredGrid& grid_with(std::size_t total) {
    static std::vector<std::pair<std::size_t, std::unique_ptr<StaggeredGrid>>> grids;
    for (auto& [n, g] : grids)
        if (n == total) return *g;
    const Chain chain = three_rods();
    // 0.8 + 1.0 + 1.3 = 3.1 transit times of the shortest rod (0.8).
    const auto shortest = static_cast<std::size_t>(static_cast<double>(total) * 0.8 / 3.1);
    grids.emplace_back(total, std::make_unique<StaggeredGrid>(chain, choose_grid(chain, shortest)));
    return *grids.back().second;
}

void run_steps(benchmark::State& state, std::size_t total) {
    StaggeredGrid& grid = grid_with(total);
    const auto cells = static_cast<double>(grid.layout().total_cells());
    for (auto _ : state) {
        grid.step();
        benchmark::DoNotOptimize(grid.velocity(0).data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cells));
    state.counters["cells"] = cells;
}

void BM_FiniteDifference_InCache(benchmark::State& state) { run_steps(state, 10'000); }
BENCHMARK(BM_FiniteDifference_InCache)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_FiniteDifference_OutOfCache(benchmark::State& state) { run_steps(state, 10'000'000); }
BENCHMARK(BM_FiniteDifference_OutOfCache)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_StreamTriad(benchmark::State& state) {
    constexpr std::size_t n = std::size_t{1} << 24;
    static std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
    const double s = 3.0;
    double* __restrict pa = a.data();
    const double* __restrict pb = b.data();
    const double* __restrict pc = c.data();
    for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i] + s * pc[i];
        benchmark::DoNotOptimize(pa);
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(3 * sizeof(double) * n));  // STREAM counting
}
BENCHMARK(BM_StreamTriad)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
