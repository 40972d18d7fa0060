// `rodcollide laws`: the JSON contract, the table, --check-properties, the cap, and every bad input
// (one line on stderr naming the option, exit status 2, nothing on stdout).
#include "run_cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;

namespace {

nlohmann::json run_json(const std::string& args) {
    const auto r = run_cli("laws " + args + " --json");
    INFO(r.err);
    REQUIRE(r.status == 0);
    REQUIRE(r.err.empty());
    return nlohmann::json::parse(r.out);  // throws unless stdout is exactly one JSON document
}

std::vector<double> doubles(const nlohmann::json& j) { return j.get<std::vector<double>>(); }

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).margin(1e-14));
}

}  // namespace

TEST_CASE("laws --json: the contract keys and the cradle values", "[laws][cli]") {
    const auto j = run_json("--law newton --masses 1,1,1 --velocities 1,0,0");
    for (const char* key : {"law", "final_velocities", "impulses", "contact_velocities_pre",
                            "contact_velocities_post", "energy_ratio", "consistency"})
        CHECK(j.contains(key));
    CHECK(j["law"] == "newton");
    check_close(doubles(j["final_velocities"]), {-1.0 / 3, 2.0 / 3, 2.0 / 3});
    check_close(doubles(j["impulses"]), {4.0 / 3, 2.0 / 3});
    check_close(doubles(j["contact_velocities_pre"]), {-1, 0});
    check_close(doubles(j["contact_velocities_post"]), {1, 0});
    CHECK(j["energy_ratio"].get<double>() == Approx(1));
    CHECK(j["consistency"] == nlohmann::json({{"kinematic", true}, {"kinetic", true}, {"energetic", true}}));
    CHECK_FALSE(j.contains("cone"));
    CHECK_FALSE(j.contains("properties"));

    check_close(doubles(run_json("--law newton --masses 1,1,1 --velocities 1,0,0 --restitution 0")["final_velocities"]),
                {1.0 / 3, 1.0 / 3, 1.0 / 3});
    // Poisson, compression (2/3, 1/3): expansion at least (0.6, 0.7/3) would leave contact 2
    // approaching, so the expansion LCP raises Lambda_e2 until gamma+_2 = 0.
    const auto p = run_json("--law poisson --masses 1,1,1 --velocities 1,0,0 --restitution 0.9,0.7");
    check_close(doubles(p["impulses"]), {1.9 * 2 / 3, 1.9 / 3});
    check_close(doubles(p["contact_velocities_post"]), {0.9, 0});
}

TEST_CASE("laws --json: sequential reports its cone and matrix for three equal masses", "[laws][cli]") {
    const auto j = run_json("--law sequential --masses 2,2,2 --velocities 2,0,-1");
    CHECK(j["cone"] == "III");
    CHECK(j["cone_matrix"] == nlohmann::json::parse("[[0.0,-1.0],[-1.0,0.0]]"));
    check_close(doubles(j["final_velocities"]), {-1, 0, 2});
    CHECK(j["order"] == "most-negative");
    CHECK(j["impacts"] == 3);
    CHECK(j["cap_hit"] == false);
    check_close(doubles(run_json("--law sequential --masses 1,1,1 --velocities 1,0,0")["final_velocities"]), {0, 0, 1});
    // Not three equal masses: no cone.
    const auto k = run_json("--law sequential --masses 1,2,1 --velocities 1,0,0 --order left-to-right");
    CHECK_FALSE(k.contains("cone"));
    CHECK(k["order"] == "left-to-right");
}

TEST_CASE("laws --json: the errata counterexample is flagged, not refused", "[laws][cli]") {
    const auto j = run_json("--law kinematic --masses 1,1,1,1 --velocities 1,0,0,0 "
                            "--restitution-matrix \"0,1,0;1,0,0;0,0,0\"");
    CHECK(j["energy_ratio"].get<double>() == Approx(1.25));
    CHECK(j["consistency"]["energetic"] == false);
    CHECK(j["consistency"]["kinematic"] == true);
    CHECK(j["consistency"]["kinetic"] == true);
    check_close(doubles(j["final_velocities"]), {-0.25, -0.25, 0.75, 0.75});
}

TEST_CASE("laws --check-properties adds a properties object", "[laws][cli]") {
    const auto j = run_json("--law sequential --masses 1,1,1 --velocities 1,0,0 --check-properties");
    REQUIRE(j.contains("properties"));
    const auto& p = j["properties"];
    CHECK(p["non_expansive"]["holds"] == true);
    CHECK(p["cyclically_monotone"]["holds"] == false);
    CHECK(p["cyclically_monotone"]["cycle"].size() == 3);
    CHECK(p["continuous"]["holds"] == true);
    CHECK(p["positively_homogeneous"]["holds"] == true);
    CHECK(p["evaluations"].get<long long>() <= 13245);
    const auto t = run_cli("laws --law newton --masses 1,2,3 --velocities 1,0,-1 --check-properties");
    CHECK(t.status == 0);
    CHECK(t.out.find("non-expansive") != std::string::npos);
    CHECK(t.out.find("cyclically monotone") != std::string::npos);
}

TEST_CASE("laws: the default output is a table; --help explains", "[laws][cli]") {
    const auto r = run_cli("laws --law newton --masses 1,1,1 --velocities 1,0,0");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    for (const char* text : {"newton law", "u+ [m/s]", "impulse [N s]", "T+/T- = 1", "consistency", "-0.333333"})
        CHECK(r.out.find(text) != std::string::npos);
    const auto h = run_cli("laws --help");
    CHECK(h.status == 0);
    for (const char* text : {"sequential", "newton", "poisson", "kinematic", "--masses", "--velocities",
                             "--restitution-matrix", "--order", "most-negative", "left-to-right", "right-to-left",
                             "--check-properties", "--json", "example", "default"})
        CHECK(h.out.find(text) != std::string::npos);
    CHECK(run_cli("laws -h").status == 0);
    CHECK(run_cli("--help").out.find("laws") != std::string::npos);
}

TEST_CASE("laws: hitting the sequential impact cap prints the result and exits 1", "[laws][cli]") {
    const auto r = run_cli("laws --law sequential --masses 1,2,1 --velocities 1,0,-1 --max-impacts 1 --json");
    CHECK(r.status == 1);
    CHECK(line_count(r.err) == 1);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["cap_hit"] == true);
    CHECK(j["impacts"] == 1);
}

TEST_CASE("laws: every bad input gives one line naming the option, exit 2, empty stdout", "[laws][cli]") {
    const std::string ok3 = "--masses 1,1,1 --velocities 1,0,0";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--law newton --masses 1,1,1 --velocities 1,0", "--velocities"},          // lengths disagree
        {"--law newton --masses 1,1 --velocities 1,0,0", "--velocities"},
        {"--law newton --masses 1,0,1 --velocities 1,0,0", "--masses"},            // mass <= 0
        {"--law newton --masses 1,-2,1 --velocities 1,0,0", "--masses"},
        {"--law newton " + ok3 + " --restitution 1.2", "--restitution"},          // eps outside [0,1]
        {"--law newton " + ok3 + " --restitution 0.5,-0.1", "--restitution"},
        {"--law poisson " + ok3 + " --restitution -0.5", "--restitution"},
        {"--law poisson " + ok3 + " --restitution 0.5,1.01", "--restitution"},
        {"--law newton --masses 1,nan,1 --velocities 1,0,0", "--masses"},          // NaN, inf
        {"--law newton --masses 1,1,1 --velocities NaN,0,0", "--velocities"},
        {"--law newton " + ok3 + " --restitution nan", "--restitution"},
        {"--law kinematic " + ok3 + " --restitution-matrix \"1,nan;0,1\"", "--restitution-matrix"},
        {"--law newton --masses 1,inf,1 --velocities 1,0,0", "--masses"},
        {"--law newton --masses 1,1,1 --velocities 1,-inf,0", "--velocities"},
        {"--law kinematic " + ok3 + " --restitution-matrix \"1,0,0;0,1,0;0,0,1\"", "--restitution-matrix"},  // size
        {"--law kinematic " + ok3 + " --restitution-matrix \"1,0\"", "--restitution-matrix"},
        {"--law kinematic " + ok3 + " --restitution-matrix \"1,0;0\"", "--restitution-matrix"},
        {"--law newton --masses 1 --velocities 1", "--masses"},                    // fewer than two balls
        {"--law newton --masses \"\" --velocities \"\"", "--masses"},
        {"--law elastic " + ok3, "--law"},                                         // unknown law
        {"--law newton --masses 1,1e-320,1 --velocities 1,0,0", "--masses"},       // 1/m overflows
        {"--law newton --masses 1,1,1 --velocities 1e200,0,0", "--velocities"},    // T overflows
        {"--law newton --masses 1,x,1 --velocities 1,0,0", "--masses"},            // malformed numbers
        {"--law newton --masses 1,,1 --velocities 1,0,0", "--masses"},
        {"--law newton --masses 1,1,1 --velocities 1,0,0e", "--velocities"},
        {"--law newton " + ok3 + " --restitution 0.5x", "--restitution"},
        {"--law newton " + ok3 + " --restitution 0.5,0.5,0.5", "--restitution"},  // wrong count
        {ok3, "--law"},                                                            // missing options
        {"--law newton --velocities 1,0,0", "--masses"},
        {"--law newton --masses 1,1,1", "--velocities"},
        {"--law sequential " + ok3 + " --restitution 0.5", "--restitution"},      // option not for this law
        {"--law newton " + ok3 + " --order left-to-right", "--order"},
        {"--law newton " + ok3 + " --restitution-matrix \"1,0;0,1\"", "--restitution-matrix"},
        {"--law kinematic " + ok3 + " --restitution 1 --restitution-matrix \"1,0;0,1\"", "--restitution"},
        {"--law sequential " + ok3 + " --order fastest", "--order"},
        {"--law sequential " + ok3 + " --max-impacts 0", "--max-impacts"},
        {"--law newton " + ok3 + " --bogus", "--bogus"},                          // unknown option
        {"--law newton " + ok3 + " --law poisson", "--law"},                      // repeated option
        {"--law newton " + ok3 + " stray", "positional"},                         // stray word
    };
    for (const auto& [args, option] : cases) {
        const auto r = run_cli("laws " + args);
        INFO("laws " << args << "\nstderr: " << r.err);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(line_count(r.err) == 1);
        CHECK(r.err.find(option) != std::string::npos);
    }
    // Too large for --check-properties.
    std::string masses = "1", velocities = "1";
    for (int i = 1; i < 33; ++i) {
        masses += ",1";
        velocities += ",0";
    }
    const auto r = run_cli("laws --law newton --masses " + masses + " --velocities " + velocities + " --check-properties");
    CHECK(r.status == 2);
    CHECK(r.err.find("--check-properties") != std::string::npos);
}
