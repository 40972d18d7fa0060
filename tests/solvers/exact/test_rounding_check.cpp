// The exact solver's rounding check (solve_characteristics.cpp, docs/physics.md §5.4): a run in
// which some contact closed more than once is repeated on rods 8 ulps longer or shorter, and
// where the two disagree beyond the stated rounding, 3x their difference is the error estimate.
// These tests hold it to what it claims: the estimate is of the size of the differences between
// computations that differ in rounding only, runs that are well conditioned keep their bound of
// 0, and nearly commensurate chains (the twin's fronts ulps apart) keep momentum and energy.
#include "chain_builders.hpp"
#include "conservation.hpp"
#include "solvers/exact/characteristics.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace rodcollide;
using rodcollide::testing::ScalingFamily;

namespace {

double largest_velocity_difference(const Outcome& a, const Outcome& b) {
    double d = 0;
    for (std::size_t i = 0; i < a.rods.size(); ++i) d = std::max(d, std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity));
    return d;
}

/// The chain with even rods `ulps` units in the last place shorter and odd ones longer: the
/// opposite of the check's own perturbation.
Chain stretched_the_other_way(const Chain& chain, double ulps) {
    std::vector<Rod> rods = chain.rods();
    const double s = ulps * std::numeric_limits<double>::epsilon();
    for (std::size_t i = 0; i < rods.size(); ++i) rods[i].length *= i % 2 == 0 ? 1 - s : 1 + s;
    return Chain(rods);
}

SolverOptions outcome_only() {
    SolverOptions o;
    o.keep_history = false;  // as solve() and `rodcollide run` have it
    return o;
}

std::size_t closings(const Outcome& o) {
    std::size_t n = 0;
    for (const ContactOutcome& c : o.contacts) n += c.intervals.size();
    return n;
}

}  // namespace

TEST_CASE("a run in which no contact closes twice is not repeated", "[rounding_check]") {
    // Two rods, one closing: nothing can amplify rounding from closing to closing.
    const Chain chain({rodcollide::testing::make_rod(1, 1), rodcollide::testing::make_rod(0.7, 0, 0.1, 2)});
    const Outcome o = solve_characteristics(chain, outcome_only()).outcome;
    CHECK(closings(o) == 1);
    CHECK(o.stats.estimate_events == 0);
    CHECK(o.velocity_error_bound == 0);
    CHECK(o.velocity_error_kind == Outcome::ErrorKind::bound);
}

TEST_CASE("well-conditioned runs with re-contacts keep their bound of 0", "[rounding_check]") {
    // Ten steel rods with gaps (seed 0 of the scaling benchmark's equal-impedance family): 36
    // closings on 9 contacts, none grazing enough to matter: 8 ulps of length move the final
    // velocities by 6e-12 m/s (of 5 m/s).
    const Chain chain = rodcollide::testing::scaling_chain(ScalingFamily::equal_gaps, 10, 0);
    const Outcome o = solve_characteristics(chain, outcome_only()).outcome;
    REQUIRE(closings(o) > chain.contact_count());
    CHECK(o.stats.estimate_events > 0);  // the twin ran ...
    CHECK(o.velocity_error_bound == 0);  // ... and agreed within the stated rounding
    CHECK(o.velocity_error_kind == Outcome::ErrorKind::bound);
    CHECK(o.warnings.empty());
    SolverOptions off = outcome_only();
    off.rounding_check = false;
    CHECK(solve_characteristics(chain, off).outcome.stats.estimate_events == 0);
}

TEST_CASE("the rounding estimate covers what other roundings of the same run give", "[rounding_check]") {
    // Seeded chains of the scaling benchmark's equal-impedance family (10 and 20 rods with gaps):
    // some are well conditioned, some chaotic (outcomes that move by 1e-2 V under 8 ulps). Two
    // other computations of each differ from the run in rounding only: step by step with
    // absolute times, and rods changed by 8 ulps the other way. The estimate (or the stated
    // rounding, where the run keeps its bound) must cover what they give within a factor of 2
    // (measured: 1 of the 20 chains needs more than 1x, 1.24x), and the chaotic ones must be
    // reported as such.
    std::size_t chaotic = 0, covered = 0;
    for (std::size_t n : {10, 20}) {
        for (unsigned seed = 0; seed < (n == 10 ? 8u : 12u); ++seed) {
            const Chain chain = rodcollide::testing::scaling_chain(ScalingFamily::equal_gaps, n, seed);
            const Outcome o = solve_characteristics(chain, outcome_only()).outcome;
            REQUIRE(o.stats.merged_fronts == 0);  // exact runs: rounding is all that differs
            SolverOptions step = outcome_only();
            step.rounding_check = false;
            step.skip_free_flight = false;
            step.rebase_times = false;
            SolverOptions plain = outcome_only();
            plain.rounding_check = false;
            const double other = std::max(largest_velocity_difference(o, solve_characteristics(chain, step).outcome),
                                          largest_velocity_difference(o, solve_characteristics(stretched_the_other_way(chain, 8), plain).outcome));
            const double v = chain.velocity_scale();
            const double claimed = std::max(o.velocity_error_bound, characteristics_rounding * v);
            INFO(n << " rods, seed " << seed << ": estimate " << o.velocity_error_bound << " ("
                   << (o.velocity_error_kind == Outcome::ErrorKind::estimate ? "estimate" : "bound") << "), other roundings "
                   << other);
            CHECK(other <= 2 * claimed);
            covered += other <= claimed;
            if (other > 1e-3 * v) {
                ++chaotic;
                CHECK(o.velocity_error_kind == Outcome::ErrorKind::estimate);
                CHECK(o.velocity_error_bound > 1e-3 * v);
                CHECK_FALSE(o.warnings.empty());
            }
            rodcollide::testing::check_conservation(o);
        }
    }
    CHECK(chaotic >= 4);   // the set has chaotic chains (measured: 6)
    CHECK(covered >= 18);  // and the estimate covers most without the factor (measured: 19 of 20)
}

TEST_CASE("nearly commensurate chains keep momentum and energy with rods asleep", "[rounding_check][asleep]") {
    // Integer transit times changed by a few ulps: fronts that coincided now arrive ulps apart, and
    // a rod's periodic paths have breakpoints ulps from a transit time. Rebuilding a woken rod's
    // arrivals left out a piece rounding started at to + T and compared the reflection with it:
    // that reflection was lost (0.07% and 1.6% of the momentum on trials 22 and 38 at 2 ulps).
    const double ulp = std::numeric_limits<double>::epsilon();
    for (double stretch : {0.0, 2 * ulp, -2 * ulp, 8 * ulp, -8 * ulp}) {
        std::mt19937 rng(12);
        for (int trial = 0; trial < 40; ++trial) {
            const std::size_t n = 3 + static_cast<std::size_t>(trial % 8);
            const Chain chain = rodcollide::testing::commensurate_chain(rng, n, trial % 2 == 1, stretch);
            SolverOptions o = outcome_only();
            o.rounding_check = false;
            INFO("trial " << trial << ", lengths stretched by " << stretch);
            const Outcome out = solve_characteristics(chain, o).outcome;
            rodcollide::testing::check_conservation(out);
        }
    }
}
