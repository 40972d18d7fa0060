// The calibration of the exact solver's estimate beyond its memory budget
// (tests/support/exact_calibration.hpp; docs/physics.md §5.1, "Accuracy by default"): the small
// version of bench/study/exact_calibration.cpp. Chains of the three scaling families and 30-rod
// equal-gaps chains at default options but a small max_memory, against the unmerged run: the
// reported bound covers the difference on >= 95 % of the chains that merged and is within 2x on
// all; the chains that merged nothing are the unmerged run, bit for bit.
#include "exact_calibration.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace rodcollide;
using namespace rodcollide::testing;

TEST_CASE("calibration: the bound covers the difference from the unmerged run on 95 % of chains, within 2x on all",
          "[characteristics][accuracy][calibration]") {
    struct Chain_ {
        ScalingFamily family;
        std::size_t rods;
        unsigned seed;
        std::size_t mb;  // 1 MB: merged at once, at the finest resolution that fits; 16 MB: refined
    };
    std::vector<Chain_> chains;
    for (unsigned seed = 1; seed <= 2; ++seed)
        for (ScalingFamily f : {ScalingFamily::equal_gaps, ScalingFamily::mixed_touching, ScalingFamily::mixed_gaps})
            chains.push_back({f, 10, seed, 1});
    for (unsigned seed = 1; seed <= 4; ++seed)
        for (ScalingFamily f : {ScalingFamily::mixed_touching, ScalingFamily::mixed_gaps}) chains.push_back({f, 15, seed, 1});
    // Chains that merge beyond 16 MB, refined from 0.02 down to the finest resolution that fits.
    chains.push_back({ScalingFamily::mixed_touching, 15, 4, 16});
    chains.push_back({ScalingFamily::mixed_gaps, 15, 4, 16});
    chains.push_back({ScalingFamily::mixed_touching, 20, 2, 16});
    for (unsigned seed = 1; seed <= 2; ++seed) chains.push_back({ScalingFamily::equal_gaps, 30, seed, 1});
    std::size_t merged = 0, covered = 0, refined = 0;
    for (const Chain_& c : chains) {
        const ExactCalibrationRow r = calibrate_exact(c.family, c.rods, c.seed, c.mb);
        INFO(r.label << ", " << c.mb << " MB: error " << r.error / r.scale << " V, reported " << r.bound / r.scale
                     << " V at time_resolution " << r.time_resolution << " (" << to_string(r.status) << "), "
                     << r.peak_fronts << " fronts stored of " << r.budget_fronts << "; " << r.failure);
        REQUIRE(r.finished);
        CHECK(r.peak_fronts <= r.budget_fronts);  // the budget holds
        if (!r.merged) {
            CHECK(r.error == 0);  // the unmerged run itself
            continue;
        }
        ++merged;
        refined += r.time_resolution < default_time_resolution;
        covered += r.error <= r.bound;
        CHECK(r.error <= 2 * r.bound);
    }
    INFO(covered << " of " << merged << " merged chains covered, " << refined << " refined below 0.02");
    CHECK(merged >= 8);  // the estimate was exercised
    CHECK(refined >= 3);  // and so was refinement
    CHECK(static_cast<double>(covered) >= 0.95 * static_cast<double>(merged));
}
