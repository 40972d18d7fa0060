// What double precision cannot represent is refused up front, by Chain (so every entry point gets
// it), with a message naming the key and the limit (chain.hpp; docs/case_file.md "Limits"): the
// extreme cases that used to print a confident wrong answer, and the boundaries of each limit.
#include "rodcollide/case_file.hpp"
#include "rodcollide/chain.hpp"
#include "rodcollide/solve.hpp"

#include "chain_builders.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace rodcollide;
using rodcollide::testing::make_rod;

namespace {

const std::string unit_rods = "[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                              "[[rod]]\nvelocity = 1.0\n[[rod]]\n";  // the second [[rod]] is line 8

std::string error_of(const std::string& text) {
    try {
        parse_case(text, "x.toml");
    } catch (const CaseError& e) {
        return e.what();
    }
    FAIL("accepted");
    return {};
}

}  // namespace

TEST_CASE("the extreme cases are refused in one line naming the key and the limit", "[dynamic_range]") {
    CHECK(error_of(unit_rods + "gap = 1e16\n") ==
          "x.toml:9: rod[1].gap: the gaps (sum 1e+16) take 1e+16 to close at the largest velocity difference 1, "
          "more than 100000 times the shortest transit time L/c = 1 (rod[0]); double precision cannot resolve both");
    CHECK(error_of(unit_rods + "length = 1e-320\n") ==
          "x.toml:9: rod[1].length: must be of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got 9.99989e-321");
    CHECK(error_of(unit_rods + "length = 1e308\n") ==
          "x.toml:9: rod[1].length: must be of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got 1e+308");
    CHECK(error_of(unit_rods + "velocity = 1e200\n") ==
          "x.toml:9: rod[1].velocity: must be of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got 1e+200");
    CHECK(error_of(unit_rods + "velocity = 1e-200\n").starts_with("x.toml:9: rod[1].velocity: must be 0 or of magnitude in"));
    // Each quantity within range, but m v^2/2 beyond it.
    CHECK(error_of(unit_rods + "velocity = 1e60\ndensity = 1e90\n").starts_with(
        "x.toml:9: rod[1].velocity: kinetic energy m v^2/2 = 5e+209 exceeds 1e100"));
    // Lengths a million apart: transit times cannot both be resolved.
    CHECK(error_of(unit_rods + "length = 1e6\n") ==
          "x.toml:8: rod[1]: transit time L/c = 1e+06 is more than 100000 times that of rod[0] (1); double "
          "precision cannot resolve both (length, density, youngs_modulus)");
    // A tiny velocity difference on a huge common velocity.
    CHECK(error_of("[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                   "[[rod]]\nvelocity = 1e6\n[[rod]]\nvelocity = 999999.99\n")
              .starts_with("x.toml:7: rod[0].velocity: |velocity| 1e+06 is more than 100000 times the largest velocity difference"));
}

TEST_CASE("just inside each limit a case is solved correctly", "[dynamic_range]") {
    // Gaps closing within 1e5 transit times: the outcome is the touching one, shifted in time.
    const Chain touching({make_rod(1, 1), make_rod(1, 0)});
    const Chain apart({make_rod(1, 1), make_rod(1, 0, 9e4)});
    const Outcome a = solve(touching, {}), b = solve(apart, {});
    CHECK(b.rods[0].final_velocity == Approx(a.rods[0].final_velocity).margin(1e-9));
    CHECK(b.rods[1].final_velocity == Approx(a.rods[1].final_velocity).margin(1e-9));
    CHECK(b.rods[1].final_velocity == Approx(1.0).margin(1e-9));  // equal rods swap velocities
    // Transit times 1e4 apart: momentum and energy as the self-check demands, and Saint-Venant's
    // short striker hitting a long bar at rest ends at rest (docs/physics.md §1).
    const Outcome c = solve(Chain({make_rod(1, 1), make_rod(1e4, 0)}), {});
    CHECK(c.rods[0].final_velocity == Approx(0).margin(1e-9));
    // Tiny and huge units: the same dimensionless case scaled by 1e-40 in length is the same answer.
    const Outcome d = solve(Chain({make_rod(1e-40, 1), make_rod(1e-40, 0)}), {});
    CHECK(d.rods[1].final_velocity == Approx(1.0).margin(1e-9));
}
