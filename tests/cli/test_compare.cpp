// `rodcollide compare`: the table, the JSON contract, and one-line errors with exit status 2.
#include "cli_checks.hpp"
#include "run_cli.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using rodcollide::testing::check_bad_input;
using rodcollide::testing::run_cli;
using rodcollide::testing::TempDir;

namespace {

/// The momentum of equal bodies of mass m [kg] at the velocities of a JSON array.
double momentum(const nlohmann::json& velocities, double m) {
    double p = 0;
    for (const auto& x : velocities) p += m * x.get<double>();
    return p;
}

}  // namespace

TEST_CASE("compare prints the laws, the closest one, and the implied restitution", "[cli][compare]") {
    const auto r = run_cli("compare validation/cases/three_identical_rods_struck.toml");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("closest law: sequential (distance 0)"));
    CHECK_THAT(r.out, Catch::Contains("(-0.333333, 0.666667, 0.666667)"));
    CHECK_THAT(r.out, Catch::Contains("first column of E_n"));
    CHECK_THAT(r.out, Catch::Contains("(0, 1)"));
    CHECK_THAT(r.out, Catch::Contains("non-expansive"));
}

TEST_CASE("compare --json prints one document: the run JSON under wave, the laws with distances", "[cli][compare][json]") {
    const auto r = run_cli("compare cases/seed000_three_rods.toml --json --laws sequential,newton --restitution 1");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    const auto run = nlohmann::json::parse(run_cli("run cases/seed000_three_rods.toml --json").out);
    CHECK(j["wave"] == run);
    REQUIRE(j["laws"].size() == 2);
    CHECK(j["laws"][0]["law"] == "sequential");
    CHECK(j["laws"][1]["law"] == "newton");
    for (const auto& l : j["laws"])
        for (const char* key : {"final_velocities", "distance", "energy_ratio", "consistency"}) CHECK(l.contains(key));
    CHECK(j["laws"][1]["distance"].get<double>() == Approx(1 / std::sqrt(7.0)).epsilon(1e-12));
    CHECK(j["closest_law"] == "sequential");
    CHECK(j["gaps_ignored_by_laws"] == false);
}

TEST_CASE("compare says when the case has gaps", "[cli][compare][gaps]") {
    const auto r = run_cli("compare cases/chain_with_gaps.toml --no-properties");
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("the case has gaps; the rigid laws ignore them"));
    CHECK_THAT(r.out, Catch::Contains("not applicable (the case has gaps)"));
}

TEST_CASE("compare: bad input gives one line on stderr, nothing on stdout, exit status 2", "[cli][compare][errors]") {
    TempDir dir("compare_cli");
    const auto bad_case = dir.write("bad.toml", "[[rod]]\nlength = -1\n");
    struct Bad {
        std::string args, message;
    };
    const Bad cases[] = {
        {"compare cases/seed000_two_rods.toml --laws sequential,newtn", "--laws: unknown law \"newtn\"; valid: sequential, newton, poisson, kinematic"},
        {"compare cases/seed000_two_rods.toml --restitution 1.5", "--restitution: must be in [0, 1]"},
        {"compare cases/seed000_two_rods.toml --restitution x", "restitution"},
        {"compare", "missing CASE"},
        {"compare cases/none.toml", "cases/none.toml:0: (file): no such file"},
        {"compare " + bad_case.string(), "bad.toml:1: rod: a chain needs at least 2 rods"},
        {"compare cases/seed000_two_rods.toml --method rk4", "--method: unknown method \"rk4\"; valid: characteristics, finite-difference"},
    };
    for (const Bad& b : cases) check_bad_input(b.args, b.message);
}

TEST_CASE("compare on a 3-ball Hertz cradle: the compliant outcome beside the laws", "[cli][compare][balls]") {
    const std::string cradle = "cases/compliant/hertz_cradle_3.toml";
    const auto r = run_cli("compare " + cradle + " --no-properties");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("[compliant contacts: characteristics]"));
    CHECK_THAT(r.out, Catch::Contains("rigid model: 3 bodies"));
    CHECK_THAT(r.out, Catch::Contains("compliant outcome as an impact law"));
    const auto j = nlohmann::json::parse(run_cli("compare " + cradle + " --no-properties --json").out);
    CHECK(j["outcome_model"] == "compliant contacts");
    CHECK(j["wave"] == nlohmann::json::parse(run_cli("run " + cradle + " --json").out));
    REQUIRE(j["laws"].size() == 4);
    // Momentum: every law's u+ and the compliant outcome's carry the striker's m V.
    const double m = 0.032882, V = 1.0;
    for (const auto& l : j["laws"]) CHECK(momentum(l["final_velocities"], m) == Approx(m * V).epsilon(1e-12));
    double p_compliant = 0;
    for (const auto& rod : j["wave"]["rods"]) p_compliant += m * rod["final_velocity"].get<double>();
    CHECK(p_compliant == Approx(m * V).epsilon(1e-12));
    // The Hertz cradle is not the rigid one: the last ball leaves with less than V.
    CHECK(j["wave"]["rods"][2]["final_velocity"].get<double>() < 0.999 * V);
    // A chain of rods keeps its key's other value.
    CHECK(nlohmann::json::parse(run_cli("compare cases/seed000_two_rods.toml --no-properties --json").out)["outcome_model"] ==
          "waves");
}

TEST_CASE("compare refuses rods with balls or compliant contacts: one line, exit 2", "[cli][compare][balls][errors]") {
    check_bad_input("compare cases/balls/steel_ball_on_rod.toml",
                    "rod: compare compares the rigid impact laws with rods whose contacts are rigid, or with chains of "
                    "balls and masses alone");
    check_bad_input("compare cases/balls/rounded_rods.toml", "chains of balls and masses alone");
}

TEST_CASE("compare on the 5-ball steel cradle with restitution 0.9 (cases/balls/): the lossy compliant outcome "
          "beside the laws at the same e", "[cli][compare][balls][restitution]") {
    const std::string cradle = "cases/balls/steel_cradle_5_restitution.toml";
    const auto j = nlohmann::json::parse(run_cli("compare " + cradle + " --restitution 0.9 --no-properties --json").out);
    CHECK(j["outcome_model"] == "compliant contacts");
    CHECK(j["restitution"] == 0.9);
    // The compliant outcome is the run's, byte for byte (one solve, the case's method).
    CHECK(j["wave"] == nlohmann::json::parse(run_cli("run " + cradle + " --json").out));
    // Five balls of m = rho 4 pi R^3 / 3, the striker at 1 m/s: momentum by every law and the outcome.
    const double m = 7850 * 4 * 3.14159265358979323846 * 1e-6 / 3, V = 1.0;
    for (const auto& l : j["laws"]) CHECK(momentum(l["final_velocities"], m) == Approx(m * V).epsilon(1e-12));
    double p_compliant = 0;
    for (const auto& rod : j["wave"]["rods"]) p_compliant += m * rod["final_velocity"].get<double>();
    CHECK(p_compliant == Approx(m * V).epsilon(1e-12));
    // The hysteresis loss is the effective restitution's deficit: e_eff^2 = 1 - D / T-_rel, with
    // T-_rel = (1/2) m V^2 (1 - 1/5) (the centre of mass moves at V/5).
    const double T_rel = 0.5 * m * V * V * (1 - 1.0 / 5);
    const double D = j["wave"]["energy"]["dissipated"].get<double>();
    CHECK(D > 0.1 * T_rel);
    const double e_eff = j["implied_restitution"]["effective_coefficient"].get<double>();
    CHECK(e_eff * e_eff == Approx(1 - D / T_rel).epsilon(1e-8));
    const auto t = run_cli("compare " + cradle + " --restitution 0.9 --no-properties");
    REQUIRE(t.status == 0);
    CHECK_THAT(t.out, Catch::Contains("rigid model: 5 bodies"));
    CHECK_THAT(t.out, Catch::Contains("newton e=0.9"));
}
