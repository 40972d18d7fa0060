// Rod and Chain: derived quantities (docs/physics.md §1) and the invariants every Chain satisfies.
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
    CHECK_THROWS_WITH(Chain({make_rod(1, 0), make_rod(1e-60, 0, 0, 1e-60, 1e-60, 1)}), Catch::Contains("rod[1]: mass m"));
}

TEST_CASE("InvalidModel says which rod and which quantity as data", "[chain][errors]") {
    auto refusal = [](std::vector<Rod> rods) -> InvalidModel {
        try {
            Chain c(std::move(rods));
        } catch (const InvalidModel& e) {
            return e;
        }
        FAIL("accepted an invalid chain");
        return InvalidModel({}, {}, {});
    };
    const InvalidModel length = refusal({make_rod(1, 0), make_rod(-1, 0)});
    CHECK(length.rod() == 1u);
    CHECK(length.quantity() == "length");
    CHECK(length.key() == "rod[1].length");
    CHECK(length.message() == "must be > 0, got -1");
    CHECK(std::string(length.what()) == "rod[1].length: must be > 0, got -1");

    const InvalidModel velocity = refusal({make_rod(1, NAN), make_rod(1, 0)});
    CHECK(velocity.rod() == 0u);
    CHECK(velocity.quantity() == "velocity");
    CHECK(velocity.message() == "must be finite, got nan");

    const InvalidModel gap = refusal({make_rod(1, 0), make_rod(1, 0, -0.5)});
    CHECK(gap.quantity() == "gap");
    CHECK(gap.message() == "must be >= 0, got -0.5");

    const InvalidModel overflow = refusal({make_rod(1, 0), make_rod(1e-60, 0, 0, 1e-60, 1e-60, 1)});
    CHECK(overflow.rod() == 1u);
    CHECK(overflow.quantity().empty());  // the rod as a whole
    CHECK(overflow.key() == "rod[1]");

    const InvalidModel count = refusal({make_rod(1, 0)});
    CHECK_FALSE(count.rod());
    CHECK(count.key() == "rod");
    CHECK(count.message() == "a chain needs at least 2 rods, got 1");
}

TEST_CASE("check_rod_quantity and check_rod_count are Chain's own checks", "[chain][errors]") {
    CHECK_NOTHROW(check_rod_quantity(std::nullopt, "velocity", -3));
    CHECK_NOTHROW(check_rod_quantity(2, "gap", 0));
    CHECK_THROWS_WITH(check_rod_quantity(2, "area", 0), "rod[2].area: must be > 0, got 0");
    CHECK_THROWS_WITH(check_rod_quantity(std::nullopt, "density", -1), "density: must be > 0, got -1");
    CHECK_THROWS_WITH(check_rod_quantity(0, "youngs_modulus", INFINITY), "rod[0].youngs_modulus: must be finite, got inf");
    CHECK_NOTHROW(check_rod_count(2));
    CHECK_NOTHROW(check_rod_count(max_rods));
    CHECK_THROWS_WITH(check_rod_count(max_rods + 1), "rod: at most 100000 rods are supported, got 100001");
}
