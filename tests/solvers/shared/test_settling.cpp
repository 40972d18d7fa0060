// The no-further-contact bound (settling.hpp): end excursions of a free-free rod against a hand
// computation, and the release time of a contact.
#include "chain_builders.hpp"
#include "solvers/shared/settling.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace rodcollide;

TEST_CASE("a rod without vibration has no end excursion", "[settling]") {
    const EndExcursions e = free_rod_end_excursions({{1.0, 0.3}}, {{1.0, 0.3}}, 0.3);
    CHECK(e.right_advance == 0.0);
    CHECK(e.left_retreat == 0.0);
}

TEST_CASE("end excursions of a vibrating free-free rod, by hand", "[settling]") {
    // T = 1. Alpha arriving at the right end: 1 for 0.5, then 0; beta arriving at the left end:
    // 0 for 1. Mean velocity = (mean alpha + mean beta)/2 = 0.25.
    const ArrivalWindow alpha = {{0.5, 1.0}, {0.5, 0.0}};
    const ArrivalWindow beta = {{1.0, 0.0}};
    const EndExcursions e = free_rod_end_excursions(alpha, beta, 0.25);
    // Right end velocity over a period: 1 (0.5), 0 (0.5), 0 (1): running integral of v - 0.25
    // peaks at 0.5 * 0.75 = 0.375 and returns to 0 at t = 2.
    CHECK(e.right_advance == Approx(0.375));
    // Left end: 0 (1), then the alpha history: 1 (0.5), 0 (0.5): it falls to -0.25 at t = 1.
    CHECK(e.left_retreat == Approx(0.25));
}

TEST_CASE("release time: now, later, or never", "[settling]") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(contact_release_time(2.0, 0.5, 0.1, 0.3, 1e-12, 1e-12) == 2.0);    // gap covers excursions
    CHECK(contact_release_time(2.0, 0.1, 0.1, 0.3, 1e-12, 1e-12) == Approx(4.0));  // 0.2 short at 0.1/s
    CHECK(contact_release_time(2.0, 0.1, 0.0, 0.3, 1e-12, 1e-12) == inf);    // cannot be proven
    CHECK(contact_release_time(2.0, 0.5, -0.1, 0.3, 1e-12, 1e-12) == inf);   // approaching: will meet
    CHECK(contact_release_time(2.0, 0.0, 0.0, 0.0, 1e-12, 1e-12) == 2.0);    // touching, at rest
}

TEST_CASE("settling watch: one bound per force-free epoch, void while a contact carries force", "[settling]") {
    const double inf = std::numeric_limits<double>::infinity();
    SettlingWatch w;
    int bounds = 0;
    CHECK(w.settle_time() == inf);
    w.force_free([&] { ++bounds; return 5.0; });
    w.force_free([&] { ++bounds; return 7.0; });  // same epoch: the free motion has not changed
    CHECK(bounds == 1);
    CHECK(w.settle_time() == 5.0);
    w.force_carried();
    CHECK(w.settle_time() == inf);
    w.force_carried();
    w.force_free([&] { ++bounds; return 9.0; });  // a new epoch
    CHECK(bounds == 2);
    CHECK(w.settle_time() == 9.0);
}

TEST_CASE("common period: equal, whole ratios, incommensurate, beyond the multiple", "[settling]") {
    CHECK(common_period({2.0, 2.0, 2.0}) == 2.0);
    CHECK(common_period({2.0, 3.0, 1.0}) == 6.0);   // transit times 1, 1.5 and 0.5
    CHECK(common_period({4.0, 2.0}) == 4.0);        // a rod held at one end beside a free one
    CHECK(common_period({0.1 * 3, 0.3}).value() == Approx(0.3).epsilon(1e-15));  // 0.1 * 3 != 0.3: rounding is whole
    CHECK_FALSE(common_period({2.0, 2.0 * std::sqrt(2.0)}));
    CHECK_FALSE(common_period({2.0, 2.0 * (1 + 1e-9)}));  // a mismatch beyond rounding
    CHECK(common_period({1.0, 17.0 / 16.0}) == 17.0);      // 16 times the longest
    CHECK_FALSE(common_period({1.0, 18.0 / 17.0}));        // 17 times the longest: past the default 16
    CHECK(common_period({1.0, 18.0 / 17.0}, 17).value() == Approx(18.0).epsilon(1e-15));
    CHECK_FALSE(common_period({}));
}

TEST_CASE("free motion period: 2T, 4T held at a fixed end, none for segments, masses and anechoic ends",
          "[settling]") {
    // Rods of length 1 and 2 with c = 1 (transit 1 and 2), a mass between them.
    Rod a = testing::make_rod(1, 1), b = testing::make_rod(2, 0), m = testing::make_mass(1, 0);
    m.contact_stiffness = b.contact_stiffness = 10;
    const Chain free_chain({a, m, b});
    CHECK(free_motion_period(free_chain, 0) == Approx(2.0));
    CHECK_FALSE(free_motion_period(free_chain, 1));
    CHECK(free_motion_period(free_chain, 2) == Approx(4.0));
    ChainEnds held;
    held.right.kind = EndKind::fixed;
    CHECK(free_motion_period(Chain({a, m, b}, held), 2) == Approx(8.0));
    ChainEnds anechoic;
    anechoic.left.kind = EndKind::anechoic;
    CHECK_FALSE(free_motion_period(Chain({a, m, b}, anechoic), 0));
    Rod stepped = b;
    stepped.segments = {{1, 1, 1, 1}, {1, 2, 1, 1}};
    CHECK_FALSE(free_motion_period(Chain({a, m, stepped}), 2));
}
