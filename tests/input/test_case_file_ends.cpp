// Case-file keys for ends, loads, segments and gauges (docs/case_file.md): what they build, and
// one line "FILE:LINE: KEY: message" for each kind of mistake.
#include "rodcollide/case_file.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

using namespace rodcollide;

namespace {

/// One rod, lines 1-5; anything appended starts at line 6.
const std::string one_rod =
    "[[rod]]\n"               // 1
    "length = 1.0\n"          // 2
    "area = 1.0\n"            // 3
    "density = 1.0\n"         // 4
    "youngs_modulus = 1.0\n"; // 5

std::string error_of(const std::string& text) {
    try {
        parse_case(text, "bad.toml");
    } catch (const CaseError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("ends, loads, segments and gauges build the chain they describe", "[case-file][chain-ends]") {
    const Case c = parse_case(
        "[left]\nkind = \"wall\"\ngap = 0.002\n[right]\nkind = \"anechoic\"\n"
        "[defaults]\ndensity = 2.0\nyoungs_modulus = 8.0\n"
        "[[rod]]\nlength = 1.0\narea = 1.0\nvelocity = -1.0\n"
        "[[rod]]\narea = 3.0\n[[rod.segment]]\nlength = 0.5\n[[rod.segment]]\nlength = 1.5\narea = 1.0\n"
        "[[gauge]]\nrod = 1\nx = 0.25\nname = \"bar\"\n",
        "ok.toml");
    const Chain& chain = c.chain;
    CHECK(chain.ends().left.kind == EndKind::wall);
    CHECK(chain.ends().left.gap == 0.002);
    CHECK(chain.ends().right.kind == EndKind::anechoic);
    REQUIRE(chain[1].segments.size() == 2);
    CHECK(chain[1].length == 2.0);
    CHECK(chain[1].segments[0].area == 3.0);  // from the rod
    CHECK(chain[1].segments[1].area == 1.0);  // its own
    CHECK(chain[1].segments[1].density == 2.0);  // from [defaults]
    CHECK(chain[1].mass() == Approx(2 * (3 * 0.5 + 1 * 1.5)));
    CHECK(chain.elements().size() == 3);
    CHECK(chain.junctions()[2].kind == JunctionKind::welded);
    CHECK(chain.junctions()[1].kind == JunctionKind::contact);
    CHECK(chain.junctions()[0].kind == JunctionKind::wall);
    CHECK(chain.junctions()[3].kind == JunctionKind::anechoic_end);
    REQUIRE(c.gauges.size() == 1);
    CHECK(c.gauges[0].name == "bar");
    CHECK(c.gauges[0].rod == 1);
}

TEST_CASE("loads by points, by shape and from a CSV file", "[case-file][chain-ends]") {
    const Case points = parse_case(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\n"
                                             "time = [0.0, 1e-5, 5e-5, 6e-5]\nvalue = [0.0, -2e4, -2e4, 0.0]\n",
                                   "ok.toml");
    REQUIRE(points.chain.ends().loads.size() == 1);
    CHECK(points.chain.ends().loads[0].at(3e-5) == -2e4);
    const Case trapezoid = parse_case(one_rod + "[[load]]\nend = \"right\"\nquantity = \"velocity\"\n"
                                                "shape = \"trapezoid\"\namplitude = 2.0\nduration = 4.0\nrise = 1.0\nfall = 1.0\n",
                                      "ok.toml");
    const Load& l = trapezoid.chain.ends().loads[0];
    CHECK(l.time == std::vector<double>{0, 1, 3, 4});
    CHECK(l.value == std::vector<double>{0, 2, 2, 0});
    CHECK(l.at(0.5) == 1.0);
    const Case sine = parse_case(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\nshape = \"half-sine\"\n"
                                           "amplitude = -1.0\nduration = 2.0\n",
                                 "ok.toml");
    CHECK(sine.chain.ends().loads[0].at(1.0) == Approx(-1.0));

    rodcollide::testing::TempDir dir("case_file_ends");
    std::ofstream(dir.path() / "pulse.csv") << "time,force\n0,0\n1e-5,-5\n# a comment\n2e-5,0\n";
    std::ofstream(dir.path() / "case.toml") << one_rod << "[[load]]\nend = \"left\"\nquantity = \"force\"\nfile = \"pulse.csv\"\n";
    const Case csv = load_case(dir.path() / "case.toml");
    CHECK(csv.chain.ends().loads[0].time == std::vector<double>{0, 1e-5, 2e-5});
    CHECK(csv.chain.ends().loads[0].value == std::vector<double>{0, -5, 0});
    std::ofstream(dir.path() / "bad.csv") << "0,0\n1,x\n";
    std::ofstream(dir.path() / "bad.toml") << one_rod << "[[load]]\nend = \"left\"\nquantity = \"force\"\nfile = \"bad.csv\"\n";
    try {
        load_case(dir.path() / "bad.toml");
        FAIL("no error");
    } catch (const CaseError& e) {
        CHECK(e.line() == 9);
        CHECK(e.key() == "load[0].file");
        CHECK(e.message().find("line 2: expected two numbers \"time,value\", got \"1,x\"") != std::string::npos);
    }
}

TEST_CASE("a single rod needs an end that is not free, or a load", "[case-file][chain-ends]") {
    CHECK(error_of(one_rod) == "bad.toml:1: rod: a chain needs at least 2 rods, got 1");
    CHECK(error_of(one_rod + "[left]\nkind = \"fixed\"\n") == "(no error)");
}

TEST_CASE("bad ends, loads, segments and gauges: one line each", "[case-file][chain-ends]") {
    CHECK(error_of(one_rod + "[left]\nkind = \"free\"\ngap = 0.1\n") ==
          "bad.toml:8: left.gap: only a \"wall\" end has a gap; this end is \"free\"");
    CHECK(error_of(one_rod + "[right]\ngap = 0.1\nkind = \"wall\"\n") == "(no error)");  // order within a table is free
    CHECK(error_of(one_rod + "[right]\nkind = \"wall\"\ngap = -1\n") == "bad.toml:8: right.gap: must be >= 0, got -1");
    CHECK(error_of(one_rod + "[left]\nkind = \"sticky\"\n") ==
          "bad.toml:7: left.kind: unknown end kind \"sticky\"; valid: free, fixed, wall, anechoic, spring, dashpot, spring-dashpot");
    CHECK(error_of(one_rod + "[left]\nkid = \"fixed\"\n") == "bad.toml:7: left.kid: unknown key; did you mean \"kind\"?");
    CHECK(error_of(one_rod + "[left]\nkind = \"fixed\"\n[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0]\nvalue = [1.0]\n") ==
          "bad.toml:9: load[0].end: a load acts on a free end only; the left end is \"fixed\"");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0, 2.0, 1.0]\nvalue = [1.0, 1.0, 1.0]\n") ==
          "bad.toml:9: load[0].time: must be increasing, got 1 after 2 (point 3)");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0, 2.0]\nvalue = [1.0]\n") ==
          "bad.toml:10: load[0].value: must have 2 values (one per time), got 1");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [-1.0, 2.0]\nvalue = [1.0, 1.0]\n") ==
          "bad.toml:9: load[0].time: must be >= 0, got -1");
    CHECK(error_of(one_rod + "[[load]]\nend = \"top\"\nquantity = \"force\"\n") ==
          "bad.toml:7: load[0].end: unknown end \"top\"; valid: left, right");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"stress\"\n") ==
          "bad.toml:8: load[0].quantity: unknown quantity \"stress\"; valid: force, velocity");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\nshape = \"square\"\namplitude = 1.0\nduration = 1.0\n") ==
          "bad.toml:9: load[0].shape: unknown shape \"square\"; valid: rectangle, trapezoid, half-sine");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\nshape = \"rectangle\"\namplitude = 1.0\nduration = 0.0\n") ==
          "bad.toml:11: load[0].duration: must be > 0, got 0");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\n") ==
          "bad.toml:6: load[0]: give the history one way: time and value, or shape (with amplitude, duration, rise, fall), or file");
    CHECK(error_of(one_rod + "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0]\nvalue = [1.0]\n"
                             "[[load]]\nend = \"left\"\nquantity = \"force\"\ntime = [0.0]\nvalue = [1.0]\n") ==
          "bad.toml:12: load[1].end: the left end already has a load; one load per end");
    CHECK(error_of("[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n[[rod.segment]]\nlength = 1.0\n[[rod]]\n"
                   "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n") ==
          "bad.toml:2: rod[0].length: a rod made of segments is as long as their sum; give length in each [[rod.segment]] only");
    CHECK(error_of("[[rod]]\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n[[rod.segment]]\nlength = -1.0\n[[rod]]\n"
                   "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n") ==
          "bad.toml:6: rod[0].segment[0].length: must be > 0, got -1");
    CHECK(error_of("[[rod]]\narea = 1.0\ndensity = 1.0\n[[rod.segment]]\nlength = 1.0\n[[rod]]\n"
                   "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n") ==
          "bad.toml:4: rod[0].segment[0].youngs_modulus: missing; give it in this [[rod.segment]], its [[rod]] or [defaults]");
    CHECK(error_of("[[rod]]\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n[[rod.segment]]\nlenght = 1.0\n[[rod]]\n"
                   "length = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n") ==
          "bad.toml:6: rod[0].segment[0].lenght: unknown key; did you mean \"length\"?");
    CHECK(error_of(one_rod + "[left]\nkind = \"fixed\"\n[[gauge]]\nrod = 0\nx = 1.5\n") ==
          "bad.toml:10: gauge[0].x: must be in [0, 1], got 1.5");
    CHECK(error_of(one_rod + "[left]\nkind = \"fixed\"\n[[gauge]]\nrod = 1\nx = 0.5\n") ==
          "bad.toml:9: gauge[0].rod: must be in [0, 0], got 1");
    CHECK(error_of(one_rod + "[left]\nkind = \"fixed\"\n[[gauge]]\nrod = 0\n") ==
          "bad.toml:8: gauge[0].x: missing; give the distance from the rod's left end");
}
