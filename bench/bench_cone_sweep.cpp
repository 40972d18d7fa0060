// Cone sweep timings (issue 26; target: 10^5 directions of four identical rods in under 10 s on
// two cores, and the cone identification under 20 % on top of the solves). BM_ConeSweep4Rods runs
// the whole sweep without the sampled property checks; BM_ConeIdentification4Rods runs only the
// identification (identify_cones) on the same sweep's samples, so its time over the sweep's is the
// identification's share. For MPI (docs/ensemble.md "MPI"), the two halves of a sweep of the four
// unequal rods (1, 2, 2, 1) as the CLI runs it (property checks on): BM_ConeSweepSolves4Rods, the
// directions' solves the ranks share out, and BM_ConeSweepJoin4Rods, the cones, facets, law and
// properties rank 0 finds alone from them; BM_ConeSweepBytes4Rods, the solves to bytes and back
// (what a rank sends). Wall-clock time, since the sweep runs its own threads. Run:
// build/rodcollide_bench --benchmark_filter=Cone --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "../tests/support/chain_builders.hpp"
#include "rodcollide/cone_sweep.hpp"
#include "rodcollide/impact_matrices.hpp"

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

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

Chain rods_1_2_2_1() {
    std::vector<Rod> rods;
    for (double L : {1.0, 2.0, 2.0, 1.0}) rods.push_back(testing::make_rod(L, 0));
    return Chain(std::move(rods));
}

ConeSweepOptions cli_options(std::size_t directions) {
    ConeSweepOptions o;
    o.directions = directions;
    o.threads = 0;
    return o;
}

void BM_ConeSweepSolves4Rods(benchmark::State& state) {
    const Chain rods = rods_1_2_2_1();
    const ConeSweepOptions o = cli_options(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(solve_cone_sweep_shard(rods, o));
}
BENCHMARK(BM_ConeSweepSolves4Rods)->Arg(10'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConeSweepJoin4Rods(benchmark::State& state) {
    const Chain rods = rods_1_2_2_1();
    const ConeSweepOptions o = cli_options(static_cast<std::size_t>(state.range(0)));
    const ConeSweepSolves solves = solve_cone_sweep_shard(rods, o);
    for (auto _ : state) benchmark::DoNotOptimize(join_cone_sweep("bench", rods, o, {solves}));
}
BENCHMARK(BM_ConeSweepJoin4Rods)->Arg(10'000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ConeSweepBytes4Rods(benchmark::State& state) {
    const Chain rods = rods_1_2_2_1();
    const ConeSweepOptions o = cli_options(static_cast<std::size_t>(state.range(0)));
    const ConeSweepSolves solves = solve_cone_sweep_shard(rods, o);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string b = cone_sweep_solves_bytes(solves);
        bytes = b.size();
        benchmark::DoNotOptimize(cone_sweep_solves_from_bytes(b, rods.size(), o.laws.size()));
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ConeSweepBytes4Rods)->Arg(10'000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
