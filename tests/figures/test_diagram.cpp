// Diagram data against Winandy & Leine 2015 §4: the fronts of Fig. 6(a)/(b) (segments at 45 degrees
// for l = c = 1), the contact openings A, B and C, and every region of tables (33) and (35)
// labelled with its state at the right place. Also the label texts, the visual threshold, and
// the exact displacement against closed forms.
#include "chain_builders.hpp"
#include "figures/diagram.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::identical_rods;
using rodcollide::testing::make_rod;

namespace {

/// Solves a chain, recording the field up to t_end, and builds its characteristics diagram.
CharacteristicsDiagram diagram_of(const Chain& chain, double t_end, DiagramOptions o = {}) {
    SolverOptions s;
    s.record_until = t_end;
    o.t_end = t_end;
    return characteristics_diagram(solve_characteristics(chain, s), o);
}

struct Segment {
    double x0, t0, x1, t1, jump;
};

/// Every expected segment is drawn exactly once, and nothing else.
void check_fronts(const CharacteristicsDiagram& d, const std::vector<Segment>& expected) {
    CHECK(d.fronts.size() == expected.size());
    CHECK(d.omitted_fronts == 0);
    for (const Segment& e : expected) {
        INFO("front (" << e.x0 << ", " << e.t0 << ") -> (" << e.x1 << ", " << e.t1 << "), jump " << e.jump);
        const auto matches = std::count_if(d.fronts.begin(), d.fronts.end(), [&](const FrontSegment& f) {
            return std::abs(f.x0 - e.x0) < 1e-12 && std::abs(f.t0 - e.t0) < 1e-12 && std::abs(f.x1 - e.x1) < 1e-12 &&
                   std::abs(f.t1 - e.t1) < 1e-12 && std::abs(f.jump - e.jump) < 1e-12;
        });
        CHECK(matches == 1);
    }
}

/// A region of the paper's table: points inside it, its strain u_x and velocity u_t (in units of
/// v/c and v, with v = c = 1) and how the label must read.
struct TableRegion {
    int number;
    std::vector<std::pair<double, double>> points;
    double strain, velocity;
    std::string velocity_line, strain_line;
};

/// The points of each table region lie in one diagram region, labelled inside itself with the
/// table's state; distinct table regions are distinct diagram regions; no other region exists.
void check_regions(const CharacteristicsDiagram& d, const std::vector<TableRegion>& table) {
    CHECK(d.units.symbolic);
    CHECK(d.regions.size() == table.size());
    std::vector<int> seen;
    for (const TableRegion& t : table) {
        INFO("region " << t.number << " of the table");
        const int r = d.map.region_at(t.points[0].first, t.points[0].second);
        REQUIRE(r >= 0);
        for (const auto& [x, time] : t.points) CHECK(d.map.region_at(x, time) == r);
        CHECK(std::find(seen.begin(), seen.end(), r) == seen.end());
        seen.push_back(r);
        const Region& g = d.regions[static_cast<std::size_t>(r)];
        REQUIRE(g.labelled);
        CHECK(d.map.region_at(g.x, g.t) == r);  // the label sits inside its region
        CHECK(g.velocity == Approx(t.velocity).margin(1e-14));
        CHECK(g.strain == Approx(t.strain).margin(1e-14));
        CHECK(g.lines[0] == t.velocity_line);
        CHECK(g.lines[1] == t.strain_line);
    }
}

}  // namespace

TEST_CASE("Winandy & Leine 2015 Fig. 6(a): fronts, contact A and the regions of eq. (33)", "[diagram][seed000]") {
    const CharacteristicsDiagram d = diagram_of(identical_rods({1, 0}), 3);
    // Compression fronts leave the contact at t = 0, reflect at the free ends as unloading
    // fronts and meet at the contact at t = 2 (point A), where it opens.
    check_fronts(d, {{1, 0, 0, 1, -1}, {1, 0, 2, 1, 1}, {0, 1, 1, 2, -1}, {2, 1, 1, 2, 1}});
    CHECK(d.rod_ends == std::vector<double>{0, 1, 2});
    REQUIRE(d.compressed.size() == 1);
    CHECK(d.compressed[0].x == 1);
    CHECK(d.compressed[0].start == 0);
    CHECK(d.compressed[0].end == Approx(2).epsilon(1e-15));
    REQUIRE(d.events.size() == 2);
    CHECK(d.events[0].kind == ContactEvent::Kind::closing);
    CHECK(d.events[0].t == 0);
    CHECK(d.events[1].kind == ContactEvent::Kind::opening);
    CHECK(d.events[1].x == 1);
    CHECK(d.events[1].t == Approx(2).epsilon(1e-15));
    check_regions(d, {
        {1, {{0.2, 0.1}, {0.5, 0.4}}, 0, 1, "u_t = v", "u_x = 0"},
        {2, {{1.8, 0.1}, {1.5, 0.4}}, 0, 0, "u_t = 0", "u_x = 0"},
        {3, {{0.9, 0.5}, {1.1, 0.5}, {0.8, 1.5}, {1.0, 1.0}}, -0.5, 0.5, "u_t = v/2", "u_x = -v/(2c)"},
        {4, {{0.2, 1.5}, {0.5, 2.8}}, 0, 0, "u_t = 0", "u_x = 0"},
        {5, {{1.8, 1.5}, {1.5, 2.8}}, 0, 1, "u_t = v", "u_x = 0"},
    });
    CHECK(d.axes.normalised);
    CHECK(d.axes.x_label == "x/l");
}

TEST_CASE("Winandy & Leine 2015 Fig. 6(b): fronts, contacts B and C and the regions of eq. (35)", "[diagram][seed000]") {
    const CharacteristicsDiagram d = diagram_of(identical_rods({2, 0, -1}), 4);
    // Jumps of the invariants between the regions of table (35): alpha = v - c u_x fronts run
    // right, beta = v + c u_x fronts run left.
    check_fronts(d, {
        {1, 0, 0, 1, -2}, {1, 0, 2, 1, 2}, {2, 0, 1, 1, -1}, {2, 0, 3, 1, 1},   // from both contacts
        {0, 1, 1, 2, -2}, {3, 1, 2, 2, 1},                                       // free-end reflections
        {1, 1, 0, 2, -1}, {2, 1, 3, 2, 2},                                       // transmitted at t = 1
        {0, 2, 1, 3, -1}, {3, 2, 2, 3, 2},                                       // reflections at t = 2
        {1, 2, 2, 3, -2}, {2, 2, 1, 3, 1},                                       // crossing the middle rod
    });
    // B and C: both contacts compressed on [0, 3] and opening together at t = 3.
    REQUIRE(d.compressed.size() == 2);
    for (const ContactSpan& c : d.compressed) {
        CHECK(c.start == 0);
        CHECK(c.end == Approx(3).epsilon(1e-15));
    }
    std::vector<std::pair<double, double>> openings;
    for (const ContactMark& e : d.events)
        if (e.kind == ContactEvent::Kind::opening) openings.emplace_back(e.x, e.t);
    std::sort(openings.begin(), openings.end());
    REQUIRE(openings.size() == 2);
    CHECK(openings[0].first == 1);
    CHECK(openings[1].first == 2);
    CHECK(openings[0].second == Approx(3).epsilon(1e-15));
    CHECK(openings[1].second == openings[0].second);
    check_regions(d, {
        {1, {{0.2, 0.1}}, 0, 2, "u_t = 2v", "u_x = 0"},
        {2, {{1.5, 0.1}}, 0, 0, "u_t = 0", "u_x = 0"},
        {3, {{2.8, 0.1}}, 0, -1, "u_t = -v", "u_x = 0"},
        {4, {{0.9, 0.5}, {1.1, 0.2}}, -1, 1, "u_t = v", "u_x = -v/c"},
        {5, {{1.9, 0.2}, {2.1, 0.2}}, -0.5, -0.5, "u_t = -v/2", "u_x = -v/(2c)"},
        {6, {{1.5, 0.8}, {0.8, 1.5}}, -1.5, 0.5, "u_t = v/2", "u_x = -3v/(2c)"},
        {7, {{0.2, 1.5}}, 0, 0, "u_t = 0", "u_x = 0"},
        {8, {{2.8, 1.5}}, 0, 0, "u_t = 0", "u_x = 0"},
        {9, {{0.8, 2.5}, {1.2, 2.5}}, -0.5, -0.5, "u_t = -v/2", "u_x = -v/(2c)"},
        {10, {{1.8, 2.5}, {2.2, 2.5}}, -1, 1, "u_t = v", "u_x = -v/c"},
        {11, {{1.5, 3.5}}, 0, 0, "u_t = 0", "u_x = 0"},
        {12, {{0.2, 2.5}, {0.5, 3.5}}, 0, -1, "u_t = -v", "u_x = 0"},
        {13, {{2.8, 2.5}, {2.5, 3.5}}, 0, 2, "u_t = 2v", "u_x = 0"},
    });
}

TEST_CASE("the visual threshold omits weak fronts and counts them", "[diagram]") {
    const Chain chain = identical_rods({2, 0, -1});  // velocity scale 3; jumps of 1 and of 2
    DiagramOptions o;
    o.min_jump = 0.4;  // 1.2 m/s: the six fronts of jump 1 go
    CharacteristicsDiagram d = diagram_of(chain, 4, o);
    CHECK(d.fronts.size() == 6);
    CHECK(d.omitted_fronts == 6);
    CHECK(d.min_jump == Approx(1.2));
    for (const FrontSegment& f : d.fronts) CHECK(std::abs(f.jump) == Approx(2));
    // Omitted fronts do not split regions: fewer, larger regions than the 13 of eq. (35).
    CHECK(d.regions.size() < 13);

    o.min_jump = 0;
    o.max_fronts = 4;  // only the four strongest are drawn
    d = diagram_of(chain, 4, o);
    CHECK(d.fronts.size() == 4);
    CHECK(d.omitted_fronts == 8);
    CHECK(d.min_jump == Approx(2));
    CHECK(d.largest_jump == Approx(2));
}

TEST_CASE("diagram end time and range checks", "[diagram]") {
    SolverOptions s;
    const auto solution = solve_characteristics(identical_rods({1, 0}), s);
    CHECK(default_diagram_end_time(solution.outcome, solution.field.chain()) == Approx(3));  // settled at 2, + l/c
    Outcome unsettled = solution.outcome;
    unsettled.settled = false;
    CHECK(default_diagram_end_time(unsettled, solution.field.chain()) == unsettled.end_time);
    DiagramOptions o;
    o.t_end = solution.field.valid_until() * 2;  // beyond the solved time
    CHECK_THROWS_AS(characteristics_diagram(solution, o), std::invalid_argument);
    o.t_end = 0;
    CHECK_THROWS_AS(characteristics_diagram(solution, o), std::invalid_argument);
}

TEST_CASE("labels read like the paper when exact, as numbers otherwise", "[diagram][labels]") {
    const StateUnits paper{true, 1.0, 1.0};
    CHECK(format_velocity(2, paper) == "2v");
    CHECK(format_velocity(-1, paper) == "-v");
    CHECK(format_velocity(0.5, paper) == "v/2");
    CHECK(format_velocity(-1.5, paper) == "-3v/2");
    CHECK(format_velocity(0, paper) == "0");
    CHECK(format_strain(-0.5, paper) == "-v/(2c)");
    CHECK(format_strain(-1.5, paper) == "-3v/(2c)");
    CHECK(format_strain(-1, paper) == "-v/c");
    CHECK(format_strain(2, paper) == "2v/c");
    const StateUnits si{true, 2.0, 5000.0};  // v = 2 m/s, c = 5000 m/s
    CHECK(format_velocity(1, si) == "v/2");
    CHECK(format_strain(-1.0 / 5000, si) == "-v/(2c)");
    CHECK(format_velocity(16.0 / 27, StateUnits{true, 1, 1}) == "16v/27");
    CHECK(format_velocity(std::sqrt(2.0), paper) == "1.41");  // not a simple fraction: a number
    CHECK(format_velocity(0.4, StateUnits{}) == "0.4");
    CHECK(format_strain(-7.7e-5, StateUnits{}) == "-7.7e-05");

    // Rods with different wave speeds have no common v/c: labels are numbers.
    const Chain mixed({make_rod(1, 1), make_rod(1, 0, 0, 1, 1, 4)});
    const CharacteristicsDiagram d = diagram_of(mixed, 2);
    CHECK_FALSE(d.units.symbolic);
    CHECK_FALSE(d.axes.normalised);
    CHECK(d.axes.x_label == "x [m]");
    CHECK(d.axes.t_label == "t [s]");
}

TEST_CASE("axes use SI prefixes for short times", "[diagram]") {
    const Chain steel({make_rod(0.5, 1, 0, 1e-4, 7850, 210e9), make_rod(0.2, 0, 0, 1e-4, 7850, 210e9)});
    const DiagramAxes a = diagram_axes(steel, 3e-4);
    CHECK_FALSE(a.normalised);
    CHECK(a.t_label == "t [µs]");
    CHECK(a.t_scale == 1e6);
    CHECK(a.x_label == "x [m]");
    const DiagramAxes n = diagram_axes(identical_rods({1, 0}), 3);
    CHECK(n.normalised);
    CHECK(n.t_label == "t c/l");
}

TEST_CASE("exact displacement: closed forms for two identical rods", "[diagram][displacement]") {
    // u- = (1, 0), l = c = 1. Left end of rod 0: moves at 1 until the unloading front arrives
    // at t = 1. Right end of rod 1: at rest until t = 1, then 1. Contact ends: 1/2 until t = 2,
    // then rod 0 stops and rod 1 moves at 1.
    SolverOptions s;
    s.record_until = 3;
    const WaveField f = solve_characteristics(identical_rods({1, 0}), s).field;
    for (double t : {0.0, 0.3, 0.999, 1.0, 1.7, 2.0, 2.4, 3.0}) {
        INFO("t = " << t);
        CHECK(f.displacement(0, 0, t) == Approx(std::min(t, 1.0)).margin(1e-14));
        CHECK(f.displacement(1, 1, t) == Approx(std::max(0.0, t - 1)).margin(1e-14));
        CHECK(f.displacement(0, 1, t) == Approx(std::min(t, 2.0) / 2).margin(1e-14));
        CHECK(f.displacement(1, 0, t) == Approx(t <= 2 ? t / 2 : 1 + (t - 2)).margin(1e-14));
        // A material point in the middle of rod 0: v = 1 until 0.5, v/2 until 1.5, then 0.
        CHECK(f.displacement(0, 0.5, t) == Approx(std::min(t, 0.5) + 0.5 * std::clamp(t - 0.5, 0.0, 1.0)).margin(1e-14));
    }
    CHECK(f.front_passages(0, 0.5, 3) == std::vector<double>{0.5, 1.5});
    CHECK(f.front_passages(0, 0, 3) == std::vector<double>{1});
    CHECK(f.front_passages(1, 0, 3) == std::vector<double>{2});  // the front at t = 0 is not "in" (0, 3)
}

TEST_CASE("displacement diagram: exact paths, gaps, and scaling", "[diagram][displacement]") {
    SolverOptions s;
    s.record_until = 3;
    const WaveField f = solve_characteristics(identical_rods({1, 0}), s).field;
    const DisplacementDiagram d = displacement_diagram(f, 3);
    REQUIRE(d.rods.size() == 2);
    // Largest displacement 2 (rod 1 after t = 3) > one rod length: scaled to about 0.4 l.
    CHECK(d.magnification == 0.2);
    const RodPaths& r0 = d.rods[0];
    CHECK(r0.x == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
    // Every front passage of a material point is a path vertex: exact polylines.
    CHECK(r0.t == std::vector<double>{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 3});
    for (std::size_t a = 0; a < r0.t.size(); ++a)
        for (std::size_t b = 0; b < r0.x.size(); ++b)
            CHECK(r0.position(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) ==
                  Approx(r0.x[b] + 0.2 * f.displacement(0, r0.x[b], r0.t[a])).margin(1e-14));
    // While in contact the touching ends coincide.
    const RodPaths& r1 = d.rods[1];
    CHECK(r0.position(8, 4) == Approx(r1.position(static_cast<Eigen::Index>(
                                                       std::find(r1.t.begin(), r1.t.end(), 2.0) - r1.t.begin()),
                                                   0)));

    // A gap shows between the rods, scaled like the displacements.
    SolverOptions g;
    g.record_until = 1;
    const WaveField gapped = solve_characteristics(Chain({make_rod(1, 1), make_rod(1, 0, 0.5)}), g).field;
    const DisplacementDiagram dg = displacement_diagram(gapped, 0.25);
    CHECK(dg.magnification == 1);  // largest |gap + u| = 0.5: shown as is
    CHECK(dg.rods[1].position(0, 0) - dg.rods[0].position(0, 4) == Approx(0.5));
    CHECK_THROWS_AS(displacement_diagram(f, 10), std::invalid_argument);
}
