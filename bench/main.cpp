// The benchmark binary's main: runs the selected benchmarks as Google Benchmark does, then
// prints figures derived from several of them. Here: the finite-difference solver out of cache
// against the streaming bound (bench_finite_difference.cpp), from medians when repeated.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>

namespace {

/// The console output, plus each benchmark's median (or only) counters.
class CollectingReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& r : runs) {
            if (r.error_occurred) continue;
            const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
            const bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
            if (median || single) counters_[r.run_name.function_name] = r.counters;
        }
    }

    double counter(const std::string& benchmark, const std::string& name) const {
        const auto b = counters_.find(benchmark);
        if (b == counters_.end()) return 0;
        const auto c = b->second.find(name);
        return c == b->second.end() ? 0 : c->second.value;
    }

private:
    std::map<std::string, benchmark::UserCounters> counters_;
};

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    const double in_cache = reporter.counter("BM_FiniteDifference_InCache", "items_per_second");
    const double out_of_cache = reporter.counter("BM_FiniteDifference_OutOfCache", "items_per_second");
    const double triad = reporter.counter("BM_StreamTriad", "bytes_per_second");  // STREAM's 24 B/element
    if (in_cache > 0) std::printf("\nfinite differences in cache: %.3g cell-updates/s\n", in_cache);
    if (out_of_cache > 0 && triad > 0) {
        // Bytes brought in: 24 per triad element, 16 per cell-update (bench_finite_difference.cpp).
        const double bound = triad / 16;
        std::printf("finite differences out of cache: %.3g cell-updates/s\n"
                    "STREAM triad: %.3g GB/s (%.3g elements/s)\n"
                    "streaming bound (16 B brought in per cell-update): %.3g cell-updates/s; share reached: %.0f%%\n"
                    "(total traffic, 32 B per cell-update against 32 B per triad element with write-allocate: %.0f%%)\n",
                    out_of_cache, triad / 1e9, triad / 24, bound, 100 * out_of_cache / bound,
                    100 * out_of_cache / (triad / 24));
    }
    benchmark::Shutdown();
    return 0;
}
