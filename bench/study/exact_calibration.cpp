// The calibration table of the exact solver's error estimate when fronts outgrow the memory
// budget (docs/physics.md §5.1, "Accuracy by default"): seeded chains of the three scaling
// families at 10-20 rods and 30-rod equal-gaps chains (tests/support/exact_calibration.hpp), each
// solved at default options but a small max_memory, against the unmerged run (or a run at 100x
// finer resolution where that does not fit). Prints one line per chain and the summary: the share
// of merged chains whose reported bound covers the difference, and the largest actual / reported.
// A study; the test is tests/solvers/exact/test_accuracy_calibration.cpp.
//   build/rodcollide_exact_calibration [--seeds 5] [--memory 1] [--sizes 10,15,20]
#include "../../tests/support/exact_calibration.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace rodcollide;
using namespace rodcollide::testing;

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line at a time: the study runs for minutes
    unsigned seeds = 5;
    std::size_t memory = 1;
    std::vector<std::size_t> sizes{10, 15, 20};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--seeds")) seeds = static_cast<unsigned>(std::stoul(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--memory")) memory = std::stoul(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--sizes")) {
            sizes.clear();
            for (std::string s = argv[i + 1]; !s.empty();) {
                const std::size_t comma = s.find(',');
                sizes.push_back(std::stoul(s.substr(0, comma)));
                s = comma == std::string::npos ? "" : s.substr(comma + 1);
            }
        } else {
            fmt::print(stderr, "usage: rodcollide_exact_calibration [--seeds N] [--memory MB] [--sizes 10,15,20]\n");
            return 2;
        }
    }
    struct Job {
        ScalingFamily family;
        std::size_t rods;
    };
    std::vector<Job> jobs;
    for (std::size_t n : sizes)
        for (ScalingFamily f : {ScalingFamily::equal_gaps, ScalingFamily::mixed_touching, ScalingFamily::mixed_gaps})
            jobs.push_back({f, n});
    jobs.push_back({ScalingFamily::equal_gaps, 30});
    std::size_t merged = 0, covered = 0, within_2x = 0, exact_rows = 0, left_out = 0, chaotic_references = 0;
    double worst = 0;
    fmt::print("{:<34} {:>8} {:>10} {:>10} {:>9} {:>8} {:>20} {:>7}\n", "chain", "merged", "error/V", "bound/V",
               "ratio", "delta", "status", "cpu s");
    for (const Job& job : jobs)
        for (unsigned seed = 1; seed <= seeds; ++seed) {
            const ExactCalibrationRow r = calibrate_exact(job.family, job.rods, seed, memory);
            if (!r.finished) {
                ++left_out;
                fmt::print("{:<34} did not finish: {}\n", r.label, r.failure.substr(0, 100));
                continue;
            }
            fmt::print("{:<34} {:>8} {:>10.2e} {:>10.2e} {:>9.3f} {:>8.3g} {:>20} {:>7.2f}{}\n", r.label, r.merged,
                       r.error / r.scale, r.bound / r.scale, r.ratio(), r.time_resolution, to_string(r.status), r.seconds,
                       r.reference_unmerged ? "" : " (reference 100x finer)");
            if (!r.merged) {
                ++exact_rows;
                continue;
            }
            chaotic_references += !r.reference_exact();  // counted all the same: the criterion
            ++merged;
            covered += r.error <= r.bound;
            within_2x += r.error <= 2 * r.bound;
            worst = std::max(worst, r.ratio());
        }
    fmt::print("\nmax_memory {} MB: {} merged chains, bound covers the difference on {} ({:.1f} %), within 2x on {}; "
               "largest actual / reported {:.3f}; {} of them with a reference that rounding moves by more than a "
               "tenth of the difference (chaotic); {} exact (nothing merged), {} did not finish\n",
               memory, merged, covered, merged ? 100.0 * static_cast<double>(covered) / static_cast<double>(merged) : 0.0,
               within_2x, worst, chaotic_references, exact_rows, left_out);
}
