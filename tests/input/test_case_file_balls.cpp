// Issue 24's case-file keys (docs/case_file.md, docs/physics.md §9.8): balls, rounded rod ends,
// Poisson ratios and restitution. What is accepted builds the model it says (Hertz's law derived
// by Chain where a side is curved); every bad input of the list gets one line naming the
// file, the line and the key.
#include "case_errors.hpp"
#include "rodcollide/case_file.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::BadCase;
using rodcollide::testing::check_refusals;

namespace {

const std::string rod = "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n";
const std::string ball = "kind = \"ball\"\nradius = 0.01\ndensity = 7850.0\nyoungs_modulus = 2.1e11\npoisson_ratio = 0.3\n";

/// (4/3) E* sqrt(R*) from the formulas, written out here (no model code).
double hertz(double r1, double e1, double nu1, double r2, double e2, double nu2) {
    const double curvature = (r1 > 0 ? 1 / r1 : 0) + (r2 > 0 ? 1 / r2 : 0);
    const double compliance = (e1 > 0 ? (1 - nu1 * nu1) / e1 : 0) + (e2 > 0 ? (1 - nu2 * nu2) / e2 : 0);
    return 4.0 / 3.0 / compliance / std::sqrt(curvature);
}

}  // namespace

TEST_CASE("ball input: balls, rounded ends and walls get Hertz's law; keys override it", "[case_file][balls]") {
    // A rod with a rounded right end (R 0.5, nu 0.25), a ball, a ball through a given linear
    // cushion, a mass, a rod with flat ends, a rigid wall at the left met by the flat rod end.
    const Case c = parse_case("[defaults]\ndensity = 2.0\nyoungs_modulus = 3.0\n"
                              "[[rod]]\nlength = 1.0\narea = 1.0\npoisson_ratio = 0.25\nright_end_radius = 0.5\n"
                              "[[rod]]\nkind = \"ball\"\nradius = 0.2\npoisson_ratio = 0.3\nrestitution = 0.8\n"
                              "[[rod]]\nkind = \"ball\"\nradius = 0.1\npoisson_ratio = 0.2\ncontact_stiffness = 7.0\n"
                              "[[rod]]\nkind = \"mass\"\nmass = 1.5\n"
                              "[[rod]]\nlength = 2.0\narea = 1.0\nend_radius = 4.0\nleft_end_radius = 1.0\n"
                              "[right]\nkind = \"wall\"\nrestitution = 0.9\n",
                              "ok.toml");
    const Chain& chain = c.chain;
    REQUIRE(chain.size() == 5);
    CHECK(chain[1].is_ball());
    CHECK(chain[1].is_mass());  // a rigid body: every path that carries masses carries balls
    CHECK(chain[1].density == 2.0);  // [defaults] fills a ball's material
    CHECK(chain[1].mass() == Approx(2.0 * 4 * std::numbers::pi * 0.008 / 3).epsilon(1e-15));
    CHECK(chain[1].rigid_mass == chain[1].mass());
    // Rod (0.5, 3, 0.25) on ball (0.2, 3, 0.3).
    CHECK(chain[1].hertz_contact);
    CHECK(chain[1].contact_law().stiffness == Approx(hertz(0.5, 3, 0.25, 0.2, 3, 0.3)).epsilon(1e-14));
    CHECK(chain[1].contact_law().exponent == 1.5);
    CHECK(chain[1].restitution == 0.8);
    // Given keys win over Hertz (the whole law: p is the key's default, 1).
    CHECK(!chain[2].hertz_contact);
    CHECK(chain[2].contact_law().stiffness == 7.0);
    CHECK(chain[2].contact_law().exponent == 1);
    // Ball (0.1, 3, 0.2) on a mass: the mass is flat and rigid.
    CHECK(chain[3].contact_law().stiffness == Approx(hertz(0.1, 3, 0.2, 0, 0, 0)).epsilon(1e-14));
    // Mass on the rod's left end (left_end_radius 1 over end_radius 4; nu the default 0.3).
    CHECK(chain[4].curvature_radius(ChainSide::left) == 1.0);
    CHECK(chain[4].curvature_radius(ChainSide::right) == 4.0);
    CHECK(chain[4].contact_law().stiffness == Approx(hertz(1.0, 3, 0.3, 0, 0, 0)).epsilon(1e-14));
    // The rod's right end (R 4) on the rigid flat wall.
    CHECK(chain.ends().right.hertz_contact);
    CHECK(chain.ends().right.law().stiffness == Approx(hertz(4.0, 3, 0.3, 0, 0, 0)).epsilon(1e-14));
    CHECK(chain.ends().right.law().exponent == 1.5);
    CHECK(chain.ends().right.restitution == 0.9);
    CHECK(chain.compliant());
    // Built again from its own rods, a chain derives the same laws; a changed radius is followed.
    const Chain again(chain.rods(), chain.ends());
    CHECK(again[1].contact_law().stiffness == chain[1].contact_law().stiffness);
    CHECK(again.ends().right.law().stiffness == chain.ends().right.law().stiffness);
    std::vector<Rod> rods = chain.rods();
    rods[1].radius = 0.4;
    rods[1].rigid_mass = 0;
    const Chain bigger(rods, chain.ends());
    CHECK(bigger[1].contact_law().stiffness == Approx(hertz(0.5, 3, 0.25, 0.4, 3, 0.3)).epsilon(1e-14));
    // Flat ends stay rigid: an existing file means what it meant.
    const Case old = parse_case("[[rod]]\n" + rod + "velocity = 1.0\n[[rod]]\n" + rod + "[right]\nkind = \"wall\"\n", "old.toml");
    CHECK(!old.chain.compliant());
    CHECK(old.chain[1].contact_law().rigid());
    CHECK(old.chain.ends().right.law().rigid());
}

TEST_CASE("ball input: the issue's bad input, one line naming file, line and key", "[case_file][balls][errors]") {
    const std::string two = "[[rod]]\n" + rod + "[[rod]]\n";  // lines 1-6: a rod, then the second table
    const std::vector<BadCase> bad = {
        {two + "kind = \"ball\"\nradius = 0.0\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = 0.3\n",
         "rod[1].radius", 8, "must be > 0"},
        {two + "kind = \"ball\"\nradius = -1.0\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = 0.3\n",
         "rod[1].radius", 8, "must be > 0"},
        {two + "kind = \"ball\"\nradius = 0.01\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = 0.5\n",
         "rod[1].poisson_ratio", 11, "must be in (-1, 0.5)"},
        {two + "kind = \"ball\"\nradius = 0.01\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = -1.0\n",
         "rod[1].poisson_ratio", 11, "must be in (-1, 0.5)"},
        {"[[rod]]\n" + rod + "poisson_ratio = 0.7\n[[rod]]\n" + rod, "rod[0].poisson_ratio", 6, "must be in (-1, 0.5)"},
        {two + ball + "restitution = 0.0\n", "rod[1].restitution", 12, "must be in (0, 1]"},
        {two + ball + "restitution = 1.5\n", "rod[1].restitution", 12, "must be in (0, 1]"},
        {two + ball + "length = 1.0\n", "rod[1].length", 12, "a ball (kind = \"ball\") has no length"},
        {two + ball + "area = 1.0\n", "rod[1].area", 12, "has no length, area"},
        {two + ball + "mass = 1.0\n", "rod[1].mass", 12, "takes no mass"},
        {two + ball + "end_radius = 1.0\n", "rod[1].end_radius", 12, "no length, area or end radius"},
        {"[[rod]]\n" + rod + "end_radius = 0.0\n[[rod]]\n" + rod, "rod[0].end_radius", 6, "must be > 0"},
        {"[[rod]]\n" + rod + "left_end_radius = -2.0\n[[rod]]\n" + rod, "rod[0].left_end_radius", 6, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "right_end_radius = -2.0\n", "rod[1].right_end_radius", 11, "must be > 0"},
        {two + "kind = \"ball\"\nradius = 0.01\ndensity = 1.0\nyoungs_modulus = 1.0\n", "rod[1].poisson_ratio", 6,
         "missing; a ball (kind = \"ball\") needs its poisson_ratio"},
        {two + "kind = \"ball\"\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = 0.3\n", "rod[1].radius", 6,
         "missing"},
        {two + "kind = \"ball\"\nradius = 0.01\nyoungs_modulus = 1.0\npoisson_ratio = 0.3\n", "rod[1].density", 6,
         "missing"},
        {two + "kind = \"mass\"\nmass = 1.0\nradius = 1.0\n", "rod[1].radius", 9, "has no length, area, density"},
        {two + "kind = \"mass\"\nmass = 1.0\npoisson_ratio = 0.2\n", "rod[1].poisson_ratio", 9, "no elastic constants"},
        {"[[rod]]\n" + rod + "radius = 1.0\n[[rod]]\n" + rod, "rod[0].radius", 6, "only kind = \"ball\" takes a radius"},
        {two + rod + "restitution = 0.5\n", "rod[1].restitution", 11, "restitution applies to a compliant contact"},
        {"[[rod]]\n" + rod + "restitution = 0.5\n[[rod]]\n" + rod, "rod[0].restitution", 6, "no left neighbour"},
        {"[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"fixed\"\nrestitution = 0.5\n", "right.restitution", 9,
         "restitution applies to a compliant contact"},
        {"[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"wall\"\nrestitution = 0.5\n", "right.restitution", 9,
         "restitution applies to a compliant contact"},
        {"[[rod]]\n" + rod + "end_radius = 1.0\n[right]\nkind = \"wall\"\nrestitution = 2.0\n", "right.restitution", 9,
         "must be in (0, 1]"},
        {two + ball + "[right]\nkind = \"fixed\"\n", "rod[1].kind", 7, "cannot end the chain at a \"fixed\" end"},
        // A key another kind takes, given at its default value (which Chain cannot tell from none).
        {two + "kind = \"mass\"\nmass = 1.0\npoisson_ratio = 0.3\n", "rod[1].poisson_ratio", 9,
         "a rigid mass (kind = \"mass\") does not take poisson_ratio"},
    };
    check_refusals(bad);
}
