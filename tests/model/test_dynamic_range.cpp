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
          "x.toml:9: rod[1].gap: the gaps (sum 1e+16, between rods and to walls) take 1e+16 to close at the "
          "velocity scale 1, more than 100000 times the shortest transit time L/c = 1 (rod[0]); double precision "
          "cannot resolve both");
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
              .starts_with("x.toml:7: rod[0].velocity: |velocity| 1e+06 is more than 100000 times the velocity scale"));
}

namespace {

// One unit rod at velocity -1 towards a wall on its left, at the gap given (line 3).
std::string rod_towards_wall(const std::string& gap) {
    return "[left]\nkind = \"wall\"\ngap = " + gap +
           "\n[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\nvelocity = -1.0\n";
}

// A unit rod whose second half is a segment of the given length (line 9), striking a unit rod.
std::string segmented_striker(const std::string& short_length) {
    return "[defaults]\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n[[rod]]\nvelocity = 1.0\n"
           "[[rod.segment]]\nlength = 1.0\n[[rod.segment]]\nlength = " + short_length + "\n[[rod]]\nlength = 1.0\n";
}

}  // namespace

TEST_CASE("the limits count segments and walls", "[dynamic_range]") {
    // A wall's gap closes like a gap between rods; a lone rod has no velocity difference, the
    // scale is its speed towards the wall.
    CHECK(error_of(rod_towards_wall("1e16")) ==
          "x.toml:3: left.gap: the gaps (sum 1e+16, between rods and to walls) take 1e+16 to close at the "
          "velocity scale 1, more than 100000 times the shortest transit time L/c = 1 (rod[0]); double precision "
          "cannot resolve both");
    CHECK(error_of(rod_towards_wall("1e-320")) ==
          "x.toml:3: left.gap: must be 0 or of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got 9.99989e-321");
    // A segment is an element with its own transit time, a millionth of its rod's.
    CHECK(error_of(segmented_striker("1e-6")) ==
          "x.toml:5: rod[0]: transit time L/c = 1 is more than 100000 times that of rod[0].segment[1] (1e-06); "
          "double precision cannot resolve both (length, density, youngs_modulus)");
}

namespace {

// A force history on the left end of a free unit bar at rest (the history on lines 4 and 5).
std::string pushed_bar(const std::string& time, const std::string& value) {
    return "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = " + time + "\nvalue = " + value +
           "\n[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n";
}

}  // namespace

TEST_CASE("the limits count loads", "[dynamic_range]") {
    // A force of 1e300 for 2e-12 was solved as no force at all (impulse 0, exit 0).
    CHECK(error_of(pushed_bar("[0.0, 1e-12, 2e-12]", "[0.0, -1e300, 0.0]")) ==
          "x.toml:5: load[0].value: must be of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got -1e+300");
    CHECK(error_of(pushed_bar("[0.0, 1e-320]", "[-1.0, 0.0]")) ==
          "x.toml:4: load[0].time: must be 0 or of magnitude in [1e-100, 1e100] (the dynamic range the solvers "
          "resolve), got 9.99989e-321");
    // A force of 1e90 on an impedance of 1e-20 drives 1e110.
    CHECK(error_of("[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0, 1.0]\nvalue = [-1e90, -1e90]\n"
                   "[[rod]]\nlength = 1.0\narea = 1e-20\ndensity = 1.0\nyoungs_modulus = 1.0\n") ==
          "x.toml:5: load[0].value: drives velocities up to 1e+110 into its rod (a force F as F/Z), beyond 1e100 (the "
          "dynamic range the solvers resolve)");
    // A load starting at t = 1e16 on a rod of transit time 1 (it ran to max_events, a minute).
    CHECK(error_of(pushed_bar("[1e16, 1.0000000000001e16]", "[-1.0, -1.0]")) ==
          "x.toml:4: load[0].time: the load acts until t = 1e+16, more than 100000 times the shortest transit time "
          "L/c = 1 (rod[0]); double precision cannot resolve both");
    // A pulse of 1e-12 on a rod of transit time 1 (the fuzzer's fuzz/regressions/load_short_force_pulse.toml
    // was refused by the self-check: momentum off by 2.8e-6).
    CHECK(error_of(pushed_bar("[0.0, 1e-12]", "[-1.0, -1.0]")) ==
          "x.toml:4: load[0].time: the load's points t = 0 and 1e-12 are 1e-12 apart, less than 1e-06 of the "
          "shortest transit time L/c = 1 (rod[0]); double precision cannot resolve both");
    // Just inside: a compressive pulse of 2e-5 gives the free bar its impulse / mass.
    const Outcome pulse = solve(parse_case(pushed_bar("[0.0, 2e-5]", "[-1.0, -1.0]"), "x.toml").chain, {});
    CHECK(pulse.rods[0].final_velocity == Approx(2e-5).epsilon(1e-9));
}

TEST_CASE("just inside the segment and wall limits a case is solved correctly", "[dynamic_range]") {
    // Rod on a wall 9e4 away (validation/cases/rod_on_wall.toml's closed form): it closes at t = 9e4,
    // stays 2L/c = 2 and rebounds at +1 with no vibration left.
    const Outcome wall = solve(parse_case(rod_towards_wall("9e4"), "x.toml").chain, {});
    CHECK(wall.rods[0].final_velocity == Approx(1.0).margin(1e-9));
    CHECK(wall.rods[0].vibration_energy == Approx(0).margin(1e-9));
    // A segment 1e-4 of its rod, all of one material: the striker is a uniform rod of length
    // 1.0001 hitting a unit rod at rest (Saint-Venant, docs/physics.md §1): the short target leaves
    // at the striker's speed, the striker keeps 1 - 1/1.0001 of its momentum.
    const Outcome seg = solve(parse_case(segmented_striker("1e-4"), "x.toml").chain, {});
    CHECK(seg.rods[1].final_velocity == Approx(1.0).margin(1e-9));
    CHECK(seg.rods[0].final_velocity * 1.0001 == Approx(1.0001 - 1.0).margin(1e-9));
}

TEST_CASE("just inside the load limits a case is solved correctly", "[dynamic_range]") {
    // A compressive force of 2 from t = 9e4 to 9e4 + 0.5 into a free unit bar at rest
    // (validation/cases/force_pulse_free_bar.toml, delayed): final velocity impulse / mass = 1.
    const Outcome late = solve(parse_case(pushed_bar("[9e4, 90000.5]", "[-2.0, -2.0]"), "x.toml").chain, {});
    CHECK(late.rods[0].final_velocity == Approx(1.0).margin(1e-9));
    // A force of 2e90 on an impedance of 1e-9 drives 2e99: the same pulse in other units, final
    // velocity impulse / mass = 1e90 / 1e-9.
    const Outcome strong = solve(parse_case("[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0, 0.5]\n"
                                            "value = [-2e90, -2e90]\n[[rod]]\nlength = 1.0\narea = 1e-9\n"
                                            "density = 1.0\nyoungs_modulus = 1.0\n", "x.toml").chain, {});
    CHECK(strong.rods[0].final_velocity == Approx(1e99).epsilon(1e-9));
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
