// The comparison module: the worked example (three identical rods struck at (1, 0, 0)), the
// distance and restitution definitions against hand-derived values, the wave outcome as a law.
#include "rodcollide/compare.hpp"
#include "analysis/laws/kinematic.hpp"
#include "rodcollide/outcome_report.hpp"

#include "chain_builders.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace rodcollide;
using rodcollide::testing::identical_rods;
using rodcollide::testing::make_rod;

namespace {

const LawComparison& law(const Comparison& c, const std::string& name) {
    for (const LawComparison& l : c.laws)
        if (l.parameters.law == name) return l;
    throw std::logic_error("no such law in the comparison: " + name);
}

/// Largest |a_i - b_i|.
double gap(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("compare: three identical rods struck at (1,0,0), the README's worked example", "[compare]") {
    const Comparison c = compare("struck", identical_rods({1, 0, 0}), {});
    // The wave passes through identical rods unchanged: the last rod leaves with the striker's speed.
    CHECK(gap(c.wave.final_velocities(), Eigen::Vector3d(0, 0, 1)) <= 1e-12);
    // Newton, eps = 1: all contacts at once (docs/physics.md §3).
    const LawComparison& newton = law(c, "newton");
    CHECK(gap(newton.result.velocities_post, Eigen::Vector3d(-1.0 / 3, 2.0 / 3, 2.0 / 3)) <= 1e-12);
    // ||(-1/3, 2/3, -1/3)||_M / ||(2/3, -1/3, -1/3)||_M = sqrt(2/3) / sqrt(2/3).
    CHECK(newton.distance == Approx(1).epsilon(1e-12));
    // The sequential law: two two-ball exchanges, exactly the wave outcome.
    const LawComparison& sequential = law(c, "sequential");
    CHECK(gap(sequential.result.velocities_post, Eigen::Vector3d(0, 0, 1)) <= 1e-12);
    CHECK(sequential.distance <= 1e-12);
    REQUIRE(c.closest);
    CHECK(c.laws[*c.closest].parameters.law == "sequential");
    // gamma- = (-1, 0): on the boundary ray of IIb, taken by the cone with fewer impacts.
    REQUIRE(c.cone);
    CHECK(laws::cone_name(*c.cone) == "IIb");
    CHECK_FALSE(c.has_gaps);
}

TEST_CASE("compare: the implied first column of E_n for equal masses struck by rod 1", "[compare][restitution]") {
    // Derived by hand: gamma- = (-V, 0, ..., 0) and the wave gives u+ = (0, ..., 0, V), so
    // gamma+ = (0, ..., 0, V). Equal masses: D = sqrt(2/m) I, and the kinematic law
    // D^-1 gamma+ = -E_n D^-1 gamma- gives E_n[:, 0] = gamma+ / V = (0, ..., 0, 1)
    // (Brogliato, Zhang & Liu 2012 eq. 57, for four balls (59): q4+ = (1 + e1 + 2 e21 + 3 e31)/4 = 1
    // with e1 = e21 = 0 gives e31 = 1).
    for (std::size_t n : {2, 3, 4, 6}) {
        std::vector<double> u(n, 0.0);
        u[0] = 2.5;  // any V
        const Comparison c = compare("chain", identical_rods(u), {}, CompareOptions{{"kinematic"}, {}, false});
        REQUIRE(c.restitution_column);
        Eigen::VectorXd expected = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n - 1));
        expected[expected.size() - 1] = 1;
        INFO("rods: " << n);
        CHECK(gap(*c.restitution_column, expected) <= 1e-12);
    }
}

TEST_CASE("compare: the kinematic law with the implied column reproduces the wave outcome", "[compare][restitution]") {
    // Unequal rods (de Saint-Venant, lengths 1 and 2, then a third rod): only the first column acts,
    // whatever the others hold.
    const Chain chain({make_rod(1, 1), make_rod(2, 0), make_rod(0.5, 0, 0, 3)});
    const Comparison c = compare("unequal", chain, {}, CompareOptions{{"sequential"}, {}, false});
    REQUIRE(c.restitution_column);
    Eigen::MatrixXd E = Eigen::MatrixXd::Constant(2, 2, 0.37);  // arbitrary other column
    E.col(0) = *c.restitution_column;
    const laws::LawResult k = laws::kinematic_law(c.matrices, c.velocities_pre, E);
    CHECK(gap(k.velocities_post, c.wave.final_velocities()) <= 1e-12);
}

TEST_CASE("compare: the implied column is not defined unless rod 1 alone strikes touching rods", "[compare][restitution]") {
    CHECK_FALSE(compare("", identical_rods({2, 0, -1}), {}, CompareOptions{{"sequential"}, {}, false}).restitution_column);
    CHECK_FALSE(compare("", identical_rods({0, 1, 0}), {}, CompareOptions{{"sequential"}, {}, false}).restitution_column);
    // Gaps: not the configuration of Brogliato, Zhang & Liu 2012 §7.1 (balls 2-4 in contact).
    const Chain gapped({make_rod(1, 1), make_rod(1, 0, 0.1), make_rod(1, 0)});
    const Comparison g = compare("", gapped, {}, CompareOptions{{"sequential"}, {}, false});
    CHECK(g.has_gaps);
    CHECK_FALSE(g.restitution_column);
    // The rest of the chain moving together is rod 1 striking in their frame (Galilean).
    const Comparison moving = compare("", identical_rods({3, 1, 1}), {}, CompareOptions{{"sequential"}, {}, false});
    REQUIRE(moving.restitution_column);
    CHECK(gap(*moving.restitution_column, Eigen::Vector2d(0, 1)) <= 1e-12);
}

TEST_CASE("compare: effective restitution and rigid energy share against de Saint-Venant", "[compare][saint-venant]") {
    // Striker L1 = 1 on target L2 = 2: u+ = (0, 1/2), masses (1, 2), u_cm = 1/3:
    // T-_rel = (4/9 + 2/9)/2 = 1/3, T+_rel = (1/9 + 2/36)/2 = 1/12, e_eff = sqrt(1/4) = 1/2.
    const Chain chain({make_rod(1, 1), make_rod(2, 0)});
    const Comparison c = compare("sv", chain, {}, CompareOptions{{"newton"}, {}, false});
    REQUIRE(c.effective_restitution);
    CHECK(*c.effective_restitution == Approx(0.5).epsilon(1e-12));
    CHECK(c.rigid_energy_share == Approx(0.5).epsilon(1e-12));  // L1/L2
    // Two bodies: the implied E_n is Newton's coefficient gamma+/|gamma-| = 1/2, and Newton with
    // that eps is the wave outcome exactly.
    REQUIRE(c.restitution_column);
    CHECK((*c.restitution_column)[0] == Approx(0.5).epsilon(1e-12));
    const Comparison at_half = compare("sv", chain, {}, CompareOptions{{"newton"}, 0.5, false});
    CHECK(at_half.laws[0].distance <= 1e-12);
    CHECK(c.laws[0].distance > 0.1);  // elastic Newton is not
}

TEST_CASE("relative_distance and effective_restitution: definitions and the degenerate case", "[compare]") {
    const Eigen::Vector3d m(1, 2, 3);
    const Eigen::Vector3d u(1, 0, -1), a(0.5, 0.2, -0.3), b(0.1, 0.1, 0.1);
    // Momentum-conserving outcomes: the same as ||gamma+_a - gamma+_b||_{G^-1} / ||gamma-||_{G^-1}.
    const Eigen::Vector3d shift = Eigen::Vector3d::Constant(m.dot(u - a) / m.sum());
    const Eigen::Vector3d a_c = a + shift;  // conserves momentum
    const Eigen::Vector3d b_c = b + Eigen::Vector3d::Constant(m.dot(u - b) / m.sum());
    const ImpactMatrices im = impact_matrices(m);
    const Eigen::MatrixXd Ginv = im.G.inverse();
    const Eigen::VectorXd dg = contact_velocities(a_c) - contact_velocities(b_c), g = contact_velocities(u);
    CHECK(relative_distance(m, u, a_c, b_c) == Approx(std::sqrt(dg.dot(Ginv * dg) / g.dot(Ginv * g))).epsilon(1e-12));
    // No relative motion: nothing can happen; 0 if the outcomes agree, undefined otherwise.
    const Eigen::Vector3d rest = Eigen::Vector3d::Constant(0.7);
    CHECK(relative_distance(m, rest, rest, rest) == 0);
    CHECK(std::isinf(relative_distance(m, rest, rest, rest + Eigen::Vector3d(0.1, 0, 0))));
    CHECK_FALSE(effective_restitution(m, rest, rest));
    CHECK(*effective_restitution(m, u, u) == Approx(1));
}

TEST_CASE("compare: the wave outcome as an impact law, with the sampled wave map", "[compare][properties]") {
    const Comparison c = compare("paper", identical_rods({2, 0, -1}), {});
    CHECK(c.wave_as_law.consistency.kinematic);
    CHECK(c.wave_as_law.consistency.kinetic);
    CHECK(c.wave_as_law.consistency.energetic);
    CHECK(c.wave_as_law.energy_ratio == Approx(1).epsilon(1e-12));
    CHECK(c.rigid_energy_share == Approx(1).epsilon(1e-12));
    REQUIRE(c.wave_map_properties);
    const laws::PropertyReport& p = *c.wave_map_properties;
    // For identical rods the wave map is the sequential law: non-expansive with ratio 1
    // (Winandy & Leine 2015 Thm 1), not cyclically monotone (eq. 49), positively homogeneous, continuous.
    CHECK(p.non_expansive.holds);
    CHECK(p.non_expansive.max_ratio == Approx(1).epsilon(1e-9));
    CHECK(p.monotone.holds);
    CHECK_FALSE(p.cyclically_monotone.holds);
    CHECK(p.positively_homogeneous.holds);
    CHECK(p.continuous.holds);
    CHECK(p.evaluations <= laws::evaluation_bound(wave_map_property_options()));
    // Five rods: not sampled, with the reason.
    const Comparison five = compare("five", identical_rods({1, 0, 0, 0, 0}), {});
    CHECK_FALSE(five.wave_map_properties);
    CHECK_THAT(five.wave_map_note, Catch::Contains("5 rods"));
}

TEST_CASE("compare: lengths (1,2,1), rod 1 on rod 2 alone, is de Saint-Venant", "[compare][saint-venant]") {
    // u- = (0, -1, 1): rod 2 (length 2) moves left onto rod 1 (length 1); rod 3 moves away. In rod
    // 2's frame a striker of length L1 = 1 hits a target of length 2 at speed 1: the striker stops
    // and the target takes 1/2 (de Saint-Venant), so u+ = (-1, -1/2, 1); rod 2's far end moves at
    // most 1 relative to it, less than rod 3's 2, so rod 3 never joins. T- = 3/2, T+ = 5/4.
    const Chain chain({make_rod(1, 0), make_rod(2, -1), make_rod(1, 1)});
    const Comparison c = compare("121", chain, {});
    CHECK(gap(c.wave.final_velocities(), Eigen::Vector3d(-1, -0.5, 1)) <= 1e-12);
    CHECK(c.wave_as_law.energy_ratio == Approx(5.0 / 6).epsilon(1e-12));
    CHECK(c.wave_as_law.consistency.energetic);
    REQUIRE(c.wave_map_properties);
    CHECK(c.wave_map_properties->positively_homogeneous.holds);
    CHECK(c.wave_map_properties->continuous.holds);
}

TEST_CASE("compare: restitution reaches newton, poisson and kinematic, not sequential", "[compare]") {
    const Comparison c = compare("", identical_rods({1, 0, 0}), {}, CompareOptions{laws::law_names(), 0.0, false});
    CHECK(gap(law(c, "newton").result.velocities_post, Eigen::Vector3d::Constant(1.0 / 3)) <= 1e-12);
    CHECK(gap(law(c, "poisson").result.velocities_post, Eigen::Vector3d::Constant(1.0 / 3)) <= 1e-12);
    CHECK(gap(law(c, "kinematic").result.velocities_post, Eigen::Vector3d::Constant(1.0 / 3)) <= 1e-12);
    CHECK(gap(law(c, "sequential").result.velocities_post, Eigen::Vector3d(0, 0, 1)) <= 1e-12);
}

TEST_CASE("compare: gaps are flagged, ignored by the laws", "[compare][gaps]") {
    const Chain chain({make_rod(1, 1), make_rod(1, 0, 0.5), make_rod(1, 0, 0.5)});
    const Comparison c = compare("gaps", chain, {}, CompareOptions{{"sequential"}, {}, false});
    CHECK(c.has_gaps);
    CHECK_THAT(comparison_table(c), Catch::Contains("gaps"));
    CHECK(comparison_json(c)["gaps_ignored_by_laws"] == true);
    // Identical rods with gaps: still successive exchanges, the sequential result.
    CHECK(c.laws[0].distance <= 1e-12);
}

TEST_CASE("compare: options are validated with the option's name", "[compare][errors]") {
    CHECK_THROWS_WITH(validate(CompareOptions{{"sequential", "newtn"}, {}, true}), Catch::StartsWith("laws: unknown law \"newtn\"; valid: sequential, newton, poisson, kinematic"));
    CHECK_THROWS_WITH(validate(CompareOptions{{}, {}, true}), Catch::StartsWith("laws:"));
    CHECK_THROWS_WITH(validate(CompareOptions{{"newton"}, 1.5, true}), Catch::StartsWith("restitution:"));
    CHECK_THROWS_WITH(validate(CompareOptions{{"newton"}, std::numeric_limits<double>::quiet_NaN(), true}),
                      Catch::StartsWith("restitution:"));
    CHECK_NOTHROW(validate(CompareOptions{}));
    CHECK_THROWS_WITH(check_compare_chain(identical_rods(std::vector<double>(max_compare_rods + 1, 0.0))),
                      Catch::StartsWith("rods: compare takes at most 1000 rods"));
    CHECK_NOTHROW(check_compare_chain(identical_rods(std::vector<double>(max_compare_rods, 0.0))));
}

TEST_CASE("compare: the JSON contract", "[compare][json]") {
    const Comparison c = compare("paper", identical_rods({2, 0, -1}), {}, CompareOptions{laws::law_names(), {}, false});
    const nlohmann::ordered_json j = comparison_json(c);
    CHECK(j["wave"] == outcome_json("paper", c.wave));  // exactly the run JSON
    REQUIRE(j["laws"].size() == 4);
    for (const auto& l : j["laws"])
        for (const char* key : {"law", "final_velocities", "distance", "energy_ratio", "consistency"}) CHECK(l.contains(key));
    CHECK(j["laws"][0]["law"] == "sequential");
    CHECK(j["laws"][0]["distance"].get<double>() <= 1e-12);
    CHECK(j["closest_law"] == "sequential");
    CHECK(j["cone"] == "III");
    CHECK(j["implied_restitution"]["first_column"].is_null());
    CHECK(j["implied_restitution"]["effective_coefficient"].get<double>() == Approx(1));
}

TEST_CASE("compare: the offending option is data, for the CLI's flags and validation files", "[compare][errors]") {
    try {
        validate(CompareOptions{{"newton"}, 2.0, true});
        FAIL("accepted restitution 2");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "restitution");
        CHECK(e.message() == "must be in [0, 1], got 2");
    }
    try {
        check_compare_chain(identical_rods(std::vector<double>(max_compare_rods + 1, 0.0)));
        FAIL("accepted too many rods");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "rods");
    }
}

TEST_CASE("compare: the consistency slack is the wave outcome's own accuracy", "[compare][accuracy]") {
    CompareOptions quick;
    quick.wave_map_properties = false;
    const Chain chain = identical_rods({1, 0, 0});
    SolverOptions solver;
    CHECK(compare("exact", chain, solver, quick).wave_tolerance == 1e-10);
    solver.drop_tolerance = 1e-6;
    CHECK(compare("dropping", chain, solver, quick).wave_tolerance == Approx(1e-4));
    solver = {};
    solver.method = Method::finite_difference;
    solver.cells = 20;
    const Comparison fd = compare("grid", chain, solver, quick);
    CHECK(fd.wave_tolerance == 1e-10);  // identical rods at Courant 1: exact, so the estimate is rounding
    CHECK(fd.wave_tolerance == fd.wave.accuracy);
}
