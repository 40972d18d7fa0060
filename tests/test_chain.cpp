// Rod and Chain: derived quantities (physics.md §1) and the invariants every Chain satisfies.
#include "chain_builders.hpp"
#include "rodcollide/chain.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace rodcollide;
using rodcollide::testing::make_rod;

TEST_CASE("steel rod: c, m, Z, L/c", "[chain]") {
    const Rod r = make_rod(0.05, 1.0, 0, 3.141592653589793e-4, 7850, 210e9);
    CHECK(r.wave_speed() == Approx(5172.19).epsilon(1e-6));
    CHECK(r.mass() == Approx(0.123308).epsilon(1e-5));
    CHECK(r.impedance() == Approx(r.density * r.area * r.wave_speed()));
    CHECK(r.impedance() == Approx(r.area * std::sqrt(r.youngs_modulus * r.density)));
    CHECK(r.transit_time() == Approx(9.66708e-6).epsilon(1e-5));
}

TEST_CASE("chain offsets, scales and energy", "[chain]") {
    const Chain c({make_rod(1, 2), make_rod(0.5, -1, 0.1), make_rod(2, 0, 0, 1, 4, 1)});
    CHECK(c.material_offset(1) == 1.0);
    CHECK(c.material_offset(2) == 1.5);
    CHECK(c.total_length() == 3.5);
    CHECK(c.velocity_scale() == 3.0);
    CHECK(c.shortest_transit_time() == 0.5);
    CHECK(c.longest_transit_time() == 4.0);  // L/c = 2 / sqrt(1/4)
    CHECK(c.initial_kinetic_energy() == Approx(0.5 * 1 * 4 + 0.5 * 0.5 * 1));
}

TEST_CASE("a Chain refuses invalid rods with a message naming the rod and key", "[chain]") {
    CHECK_THROWS_WITH(Chain({make_rod(1, 0)}), Catch::Contains("at least 2"));
    CHECK_THROWS_WITH(Chain({make_rod(1, 0), make_rod(-1, 0)}), Catch::Contains("rod[1].length"));
    CHECK_THROWS_WITH(Chain({make_rod(1, 0), make_rod(1, 0, -0.1)}), Catch::Contains("rod[1].gap"));
    CHECK_THROWS_WITH(Chain({make_rod(1, 0, 0.1), make_rod(1, 0)}), Catch::Contains("rod[0].gap"));
    CHECK_THROWS_WITH(Chain({make_rod(1, NAN), make_rod(1, 0)}), Catch::Contains("rod[0].velocity"));
    CHECK_THROWS_WITH(Chain({make_rod(1, 0), make_rod(1, 0, 0, 1, 1e-300, 1e300)}), Catch::Contains("overflow"));
}
