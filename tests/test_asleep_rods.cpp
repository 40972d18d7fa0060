// Rods asleep in free flight (docs/physics.md §6.7): a rod whose two ends are free is not
// processed reflection by reflection while others still collide; its ends follow its periodic
// paths and its contacts wake it before they can close. Nothing is approximated: the outcome is
// that of processing every reflection, to rounding.
#include "chain_builders.hpp"
#include "conservation.hpp"
#include "rodcollide/characteristics.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <random>

using namespace rodcollide;

namespace {

SolverOptions outcome_only(bool skip, bool rebase = true) {
    SolverOptions o;
    o.keep_history = false;  // as solve() and `rodcollide run` have it
    o.skip_free_flight = skip;
    o.rebase_times = rebase;
    return o;
}

/// Largest difference of final velocities (relative to V) and impulses (to m V) [-].
double outcome_difference(const Chain& chain, const Outcome& a, const Outcome& b) {
    const double v = chain.velocity_scale();
    double d = 0;
    for (std::size_t i = 0; i < chain.size(); ++i) d = std::max(d, std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) / v);
    for (std::size_t k = 0; k + 1 < chain.size(); ++k)
        d = std::max(d, std::abs(a.contacts[k].impulse - b.contacts[k].impulse) / (v * chain[k].mass()));
    return d;
}

/// Asleep (b) against step by step (a), and the spread of two step-by-step computations that
/// differ in rounding only (absolute times, c): a chain with grazing re-contacts amplifies any
/// rounding, so two correct computations part by that spread; asleep must do no worse.
struct Comparison {
    double asleep = 0, spread = 0;
};

Comparison compare(const Chain& chain, const Outcome& a, const Outcome& b, const Outcome& c) {
    return {outcome_difference(chain, a, b), outcome_difference(chain, a, c)};
}

}  // namespace

TEST_CASE("rods asleep in free flight give the outcome of processing every reflection", "[free_flight][asleep]") {
    // Five to eight rods of random length, section and material, a few lengths apart, moving at
    // random speeds: while some pairs collide, the others fly free and vibrate, and each falls
    // asleep (stats.sleeps) until a neighbour may reach it.
    std::mt19937 rng(5);
    std::size_t sleeps = 0, well_conditioned = 0, too_long = 0;
    for (int trial = 0; trial < 30; ++trial) {
        const std::size_t n = 5 + trial % 4;
        const Chain chain = testing::far_apart_chain(rng, n, 1, 6);
        const Outcome b = solve_characteristics(chain, outcome_only(true)).outcome;
        testing::check_conservation(b, 1e-12);
        // Stepping through one of these chains takes 8e7 event groups (asleep: 400); it is not
        // compared (a unit test's time), nor are others beyond 5e6.
        SolverOptions step = outcome_only(false), absolute = outcome_only(false, false);
        step.max_events = absolute.max_events = 5'000'000;
        std::optional<Outcome> a, c;
        try {
            a = solve_characteristics(chain, step).outcome;
            c = solve_characteristics(chain, absolute).outcome;
        } catch (const SolverLimitExceeded&) {
            ++too_long;
            continue;
        }
        const Comparison d = compare(chain, *a, b, *c);
        INFO("trial " << trial << ": events " << a->stats.events << " stepping, " << b.stats.events << " asleep ("
                      << b.stats.sleeps << " sleeps); asleep differs by " << d.asleep << ", two stepping runs by " << d.spread);
        CHECK(a->stats.sleeps == 0);
        sleeps += b.stats.sleeps;
        CHECK(b.stats.events <= a->stats.events);
        // Where two stepping runs agree to 1e-13 the closings are well conditioned: asleep agrees
        // to 1e-12. Elsewhere it stays within 10 times their own spread.
        if (d.spread <= 1e-13) {
            ++well_conditioned;
            CHECK(d.asleep <= 1e-12);
            CHECK(std::abs(a->end_time - b.end_time) <= 1e-12 * a->end_time);
        } else {
            CHECK(d.asleep <= 10 * d.spread);
        }
    }
    CHECK(too_long <= 2);
    CHECK(well_conditioned >= 12);
    CHECK(sleeps > 100);  // the comparison exercised sleeping
}

TEST_CASE("the scaling benchmark's equal-impedance chains agree asleep and step by step", "[free_flight][asleep]") {
    // Ten steel rods with gaps (bench/scaling.py's equal-gaps family): re-collisions over
    // thousands of transit times, most rods free and vibrating most of the time.
    for (unsigned seed = 0; seed < 5; ++seed) {
        const Chain chain = testing::scaling_chain(testing::ScalingFamily::equal_gaps, 10, seed);
        const Outcome a = solve_characteristics(chain, outcome_only(false)).outcome;
        const Outcome b = solve_characteristics(chain, outcome_only(true)).outcome;
        const Outcome c = solve_characteristics(chain, outcome_only(false, false)).outcome;
        const Comparison d = compare(chain, a, b, c);
        INFO("seed " << seed << ": events " << a.stats.events << " stepping, " << b.stats.events << " asleep ("
                     << b.stats.sleeps << " sleeps); asleep differs by " << d.asleep << ", two stepping runs by " << d.spread);
        CHECK(b.stats.sleeps > 0);
        testing::check_conservation(b, 1e-12);
        CHECK(d.asleep <= std::max(1e-12, 10 * d.spread));
        CHECK(b.stats.events < a.stats.events);
    }
}
