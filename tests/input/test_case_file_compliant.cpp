// Issue 23's case-file keys (docs/case_file.md): rigid masses, compliant contacts and walls,
// spring/dashpot ends. What is accepted builds the model it says; every bad input of the issue's
// list gets one line naming the file, the line and the key.
#include "case_errors.hpp"
#include "rodcollide/case_file.hpp"
#include "rodcollide/solve.hpp"
#include "solvers/solve_with_wave_field.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::BadCase;
using rodcollide::testing::check_refusals;

namespace {

const std::string rod = "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n";

}  // namespace

TEST_CASE("compliant input: masses, contact keys and attached ends build the model they say", "[case_file][compliant]") {
    const Case c = parse_case("[[rod]]\nkind = \"mass\"\nmass = 3.0\nvelocity = 2.0\n"
                              "[[rod]]\n" + rod + "gap = 0.1\ncontact_stiffness = 50.0\ncontact_exponent = 1.5\n"
                              "contact_damping = 0.2\n"
                              "[[rod]]\n" + rod + "contact_stiffness = 7.0\n"
                              "[right]\nkind = \"spring-dashpot\"\nstiffness = 4.0\ndamping = 0.5\n",
                              "ok.toml");
    const Chain& chain = c.chain;
    REQUIRE(chain.size() == 3);
    CHECK(chain[0].is_mass());
    CHECK(chain[0].mass() == 3.0);
    CHECK(chain[0].velocity == 2.0);
    CHECK(chain[1].contact_law().stiffness == 50.0);
    CHECK(chain[1].contact_law().exponent == 1.5);
    CHECK(chain[1].contact_law().damping == 0.2);
    CHECK(chain[2].contact_law().exponent == 1);  // the defaults
    CHECK(chain[2].contact_law().damping == 0);
    CHECK(chain.ends().right.kind == EndKind::spring_dashpot);
    CHECK(chain.ends().right.law().bilateral);
    CHECK(chain.ends().right.law().stiffness == 4.0);
    CHECK(chain.ends().right.law().damping == 0.5);
    CHECK(chain.compliant());
    CHECK(chain.has_masses());
    // The mass is no element: the rods' elements only.
    CHECK(chain.elements().size() == 2);
    // [defaults] gives material to rods and contact keys to every element but the first.
    const Case d = parse_case("[defaults]\n" + rod + "contact_stiffness = 9.0\n[[rod]]\n[[rod]]\n[[rod]]\nkind = \"mass\"\nmass = 1.0\n",
                              "defaults.toml");
    CHECK(d.chain[0].contact_law().rigid());
    CHECK(d.chain[1].contact_stiffness == 9.0);
    CHECK(d.chain[2].is_mass());
    CHECK(d.chain[2].contact_stiffness == 9.0);
    // An existing file means what it meant: rigid rods, rigid contacts.
    const Case old = parse_case("[[rod]]\n" + rod + "velocity = 1.0\n[[rod]]\n" + rod, "old.toml");
    CHECK(!old.chain.compliant());
}

TEST_CASE("compliant input: the issue's bad input, one line naming file, line and key", "[case_file][compliant][errors]") {
    const std::vector<BadCase> bad = {
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_stiffness = 0.0\n", "rod[1].contact_stiffness", 11, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_stiffness = -5.0\n", "rod[1].contact_stiffness", 11, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\nmass = 0.0\n", "rod[1].mass", 8, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\nmass = -1.0\n", "rod[1].mass", 8, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_stiffness = 1.0\ncontact_exponent = 0.0\n",
         "rod[1].contact_exponent", 12, "must be > 0"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_stiffness = 1.0\ncontact_damping = -0.5\n",
         "rod[1].contact_damping", 12, "must be >= 0"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\nmass = 1.0\nlength = 1.0\n", "rod[1].length", 9,
         "has no length"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\nmass = 1.0\narea = 1.0\n", "rod[1].area", 9, "has no length, area"},
        {"[right]\nstiffness = 3.0\n[[rod]]\n" + rod + "velocity = 1.0\n[[rod]]\n" + rod, "right.stiffness", 2,
         "only a \"spring\" or \"spring-dashpot\" end has a stiffness; this end is \"free\""},
        {"[left]\nkind = \"free\"\ndamping = 3.0\n[[rod]]\n" + rod + "velocity = 1.0\n[[rod]]\n" + rod, "left.damping", 3,
         "only a \"dashpot\" or \"spring-dashpot\" end has a damping"},
        {"[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"spring\"\n", "right.stiffness", 7, "missing"},
        {"[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"spring\"\nstiffness = -1.0\n", "right.stiffness", 9,
         "must be > 0"},
        {"[[rod]]\nkind = \"mass\"\nmass = 1.0\nvelocity = 1.0\n[[rod]]\nkind = \"mass\"\nmass = 2.0\n", "rod[1].kind", 6,
         "a compliant contact is needed between two rigid bodies"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\nmass = 2.0\nvelocity = 1.0\n[right]\nkind = \"wall\"\n", "rod[1].kind",
         7, "a compliant contact is needed between two rigid bodies"},
        {"[[rod]]\n" + rod + "contact_stiffness = 1.0\n[[rod]]\n" + rod, "rod[0].contact_stiffness", 6, "no left neighbour"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_damping = 1.0\n", "rod[1].contact_stiffness", 6, "must be > 0"},
        {"[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"fixed\"\ncontact_stiffness = 1.0\n",
         "right.contact_stiffness", 9, "only a \"wall\" end has contact keys"},
        {"[[rod]]\n" + rod + "[[rod]]\nmass = 1.0\n" + rod, "rod[1].mass", 7, "only kind = \"mass\" takes a mass"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"blob\"\n", "rod[1].kind", 7, "unknown element kind"},
        {"[[rod]]\n" + rod + "[[rod]]\nkind = \"mass\"\n", "rod[1].mass", 6, "missing"},
        {"[[rod]]\n" + rod + "[[rod]]\n" + rod + "contact_stiffness = 1.0\ncontact_exponent = 11.0\n",
         "rod[1].contact_exponent", 12, "must be at most 10"},
    };
    check_refusals(bad);
}

TEST_CASE("compliant input: the exact solver's field and the rigid-law analyses refuse compliant chains", "[compliant][errors]") {
    const Case c = parse_case("[[rod]]\n" + rod + "velocity = 1.0\n[[rod]]\n" + rod + "contact_stiffness = 10.0\n", "c.toml");
    SolverOptions o;
    o.method = Method::characteristics;
    // The exact solver carries the outcome of such a chain and samples its field and gauges (its
    // delay network, docs/physics.md §9.10), and Python's field() at points, but keeps no whole
    // wave field (the characteristics and displacement diagrams draw one), and refuses it.
    CHECK(solve(c.chain, o).settled);
    CHECK(solve_with_field(c.chain, o, 10, 10).field.t.size() == 10);
    const std::vector<double> x{0.5, 1.5}, t{0.25, 0.0};
    const FieldAtPoints at = exact_field_at(c.chain, o, x, t);
    REQUIRE(at.velocity.size() == 2);
    CHECK(at.velocity[0] == Approx(1.0));  // the striker before anything reaches its middle
    CHECK(at.velocity[1] == 0.0);
    CHECK(at.rod == std::vector<std::size_t>{0, 1});
    try {
        (void)solve_with_wave_field(c.chain, o, {0});
        FAIL("the exact solver kept a whole wave field of a compliant chain");
    } catch (const UnsupportedMethod& e) {
        CHECK_THAT(std::string(e.what()),
                   Catch::Contains("does not draw the characteristics or displacement diagram, nor keep the whole "
                                   "wave field") &&
                       Catch::Contains("its delay network gives the outcome, field samples") &&
                       Catch::Contains("--method finite-difference"));
    }
    // Finite differences carry it and masses; an attached end
    // needs a horizon.
    o.method = Method::finite_difference;
    o.cells = 50;
    CHECK_NOTHROW(solve(c.chain, o));
    const Case m = parse_case("[[rod]]\nkind = \"mass\"\nmass = 1.0\nvelocity = 1.0\n[[rod]]\n" + rod, "m.toml");
    const Outcome struck = solve(m.chain, o);
    REQUIRE(struck.rods.size() == 2);
    CHECK(struck.rods[0].mass == 1.0);
    CHECK(struck.rods[0].vibration_energy == 0);
    CHECK(struck.compliant);
    const Case alone = parse_case("[[rod]]\nkind = \"mass\"\nmass = 1.0\nvelocity = 1.0\n[right]\nkind = \"spring\"\n"
                                  "stiffness = 1.0\n", "alone.toml");
    o.end_time = 1.0;
    // A chain of masses alone is an ODE system (issue 24; docs/physics.md §9.9): velocity Verlet
    // here, v = V cos(t sqrt(k/M)) on the spring.
    const Outcome on_spring = solve(alone.chain, o);
    CHECK(std::abs(on_spring.rods[0].final_velocity - std::cos(1.0)) <= on_spring.velocity_error_bound);
    CHECK_THROWS_WITH(solve_with_field(alone.chain, o, 10, 10), Catch::Contains("has no wave field"));
    o.end_time.reset();
    const Case s = parse_case("[[rod]]\n" + rod + "velocity = 1.0\n[right]\nkind = \"spring\"\nstiffness = 1.0\n", "s.toml");
    CHECK_THROWS_WITH(solve(s.chain, o), Catch::Contains("set [solver] end_time"));
    o.end_time = 3.0;
    CHECK_NOTHROW(solve(s.chain, o));
}
