// Cone sweep timings (issue 26; target: 10^5 directions of four identical rods in under 10 s on
// two cores, and the cone identification under 20 % on top of the solves). BM_ConeSweep4Rods runs
// the whole sweep without the sampled property checks; BM_ConeIdentification4Rods runs only the
// identification (identify_cones) on the same sweep's samples, so its time over the sweep's is the
// identification's share. Wall-clock time, since the sweep runs its own threads. Run:
// build/rodcollide_bench --benchmark_filter=Cone --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "../tests/support/chain_builders.hpp"
#include "rodcollide/cone_sweep.hpp"
#include "rodcollide/impact_matrices.hpp"

#include <benchmark/benchmark.h>

using namespace rodcollide;

namespace {

ConeSweepOptions bench_options(std::size_t directions) {
    ConeSweepOptions o;
    o.directions = directions;
    o.properties = false;
    o.threads = 0;
    return o;
}

void BM_ConeSweep4Rods(benchmark::State& state) {
    const Chain rods = testing::identical_rods({0, 0, 0, 0});
    const auto directions = static_cast<std::size_t>(state.range(0));
    for (auto _ : state) {
        const ConeSweepResult r = cone_sweep("bench", rods, bench_options(directions));
        benchmark::DoNotOptimize(r);
    }
    state.counters["directions/s"] =
        benchmark::Counter(static_cast<double>(directions) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ConeSweep4Rods)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConeIdentification4Rods(benchmark::State& state) {
    const Chain rods = testing::identical_rods({0, 0, 0, 0});
    const auto directions = static_cast<std::size_t>(state.range(0));
    const ConeSweepResult r = cone_sweep("bench", rods, bench_options(directions));
    std::vector<Eigen::VectorXd> pre, post;
    std::vector<std::string> signatures;
    for (const ConeSweepPoint& p : r.points) {
        pre.push_back(p.gamma_pre);
        post.push_back(p.gamma_post);
        signatures.push_back(p.signature);
    }
    const Eigen::MatrixXd G = impact_matrices(rods.masses()).G;
    for (auto _ : state) {
        std::vector<std::ptrdiff_t> assignment;
        std::vector<char> boundary;
        std::size_t merged = 0;
        benchmark::DoNotOptimize(identify_cones(pre, post, signatures, G, cone_verification_tolerance, assignment, boundary, merged));
    }
}
BENCHMARK(BM_ConeIdentification4Rods)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
