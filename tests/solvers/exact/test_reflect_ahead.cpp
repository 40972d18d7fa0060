// Open contacts reflecting ahead of the event loop (docs/physics.md §6.8): what arrives at an open
// contact up to a transit after the current group is in the histories already, so the contact
// makes its reflections and moves its gap at once instead of one event group each, and takes
// back what it made after a time where something else reads it (a rod falling asleep, the
// settling bound, the outcome). Nothing is approximated: the outcome is the event loop's, to
// rounding.
#include "chain_builders.hpp"
#include "conservation.hpp"
#include "outcome_difference.hpp"
#include "solvers/exact/characteristics.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

using namespace rodcollide;
using rodcollide::testing::outcome_difference;

namespace {

SolverOptions outcome_only(bool ahead, bool rebase = true) {
    SolverOptions o;
    o.keep_history = false;  // as solve() and `rodcollide run` have it: rods sleep
    o.reflect_ahead = ahead;
    o.rebase_times = rebase;
    return o;
}

}  // namespace

TEST_CASE("reflecting ahead gives the event loop's outcome, in fewer event groups", "[free_flight][reflect_ahead]") {
    // The scaling benchmark's steel chains with gaps (re-collisions over thousands of transits,
    // most contacts open most of the time) and random chains of mixed rods far apart. Two loop
    // runs that differ in rounding only (absolute times) part by a spread on chains whose grazing
    // re-contacts amplify rounding: reflecting ahead stays within 10 times that spread, or 1e-12.
    std::mt19937 rng(11);
    std::size_t reflected = 0, well_conditioned = 0;
    for (int trial = 0; trial < 16; ++trial) {
        const Chain chain = trial < 8 ? testing::scaling_chain(testing::ScalingFamily::equal_gaps, 10 + trial, trial)
                                      : testing::far_apart_chain(rng, 5 + trial % 4, 1, 6);
        const Outcome loop = solve_characteristics(chain, outcome_only(false)).outcome;
        const Outcome ahead = solve_characteristics(chain, outcome_only(true)).outcome;
        const Outcome spread_run = solve_characteristics(chain, outcome_only(false, false)).outcome;
        const double d = outcome_difference(chain, loop, ahead), spread = outcome_difference(chain, loop, spread_run);
        INFO("trial " << trial << ": " << loop.stats.events << " groups in the loop, " << ahead.stats.events << " + "
                      << ahead.stats.reflected_ahead << " reflected ahead; differs by " << d << ", two loop runs by " << spread);
        REQUIRE(loop.settled);
        REQUIRE(ahead.settled);
        CHECK(loop.stats.reflected_ahead == 0);
        CHECK(ahead.stats.events <= loop.stats.events);
        reflected += ahead.stats.reflected_ahead;
        testing::check_conservation(ahead, 1e-12);
        if (spread <= 1e-13) {
            ++well_conditioned;
            CHECK(d <= 1e-12);
        } else {
            CHECK(d <= 10 * spread);
        }
    }
    CHECK(well_conditioned >= 4);
    CHECK(reflected > 10000);  // the comparison exercised reflecting ahead
}

TEST_CASE("reflecting ahead stops at the first merged front and keeps the merged run's balances", "[reflect_ahead]") {
    // Merging needs the pieces in flight unread (merge_short_piece()): from the first merge on the
    // loop reflects alone, so a merged run is the loop's beyond that, and momentum and energy hold.
    const Chain chain = testing::scaling_chain(testing::ScalingFamily::mixed_gaps, 10, 7);
    SolverOptions o = outcome_only(true);
    o.time_resolution = 0.02;
    o.exact_fronts = 2000;  // merges early in the run
    const Outcome out = solve_characteristics(chain, o).outcome;
    INFO(out.stats.merged_fronts << " merged, " << out.stats.reflected_ahead << " reflected ahead");
    CHECK(out.stats.merged_fronts > 0);
    CHECK(out.stats.reflected_ahead > 0);
    testing::check_conservation(out, 1e-12);
}
