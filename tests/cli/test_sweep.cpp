// `rodcollide sweep`: the report, CSV shards that concatenate, the plot files, and one-line errors
// with exit status 2.
#include "cli_checks.hpp"
#include "file_text.hpp"
#include "run_cli.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using rodcollide::testing::check_bad_input;
using rodcollide::testing::file_text;
using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;
using rodcollide::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("sweep prints the errors per cone and the empirical cone map", "[cli][sweep]") {
    const auto r = run_cli("sweep cases/seed000_three_rods.toml --directions 720 --laws sequential,newton");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("largest error per cone"));
    CHECK_THAT(r.out, Catch::Contains("[135, 180]"));
    CHECK_THAT(r.out, Catch::Contains("IIb (same range)"));
    CHECK_THAT(r.out, Catch::Contains("[0, -1; -1, 0]"));  // Q_III
}

TEST_CASE("sweep --json summarises the cones", "[cli][sweep][json]") {
    const auto r = run_cli("sweep cases/seed000_three_rods.toml --directions 360 --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["cone_map"].size() == 6);
    REQUIRE(j["laws"][0]["cones"].size() == 6);
    for (const auto& c : j["laws"][0]["cones"]) CHECK(c["max_error"].get<double>() <= 1e-12);
}

TEST_CASE("sweep --shard: the shard CSVs concatenate into the full CSV", "[cli][sweep][shard]") {
    TempDir dir("sweep_cli_shards");
    const std::string base = "sweep validation/cases/saint_venant_half.toml";
    const auto rods = dir.write("rods.toml", "[defaults]\narea = 1\ndensity = 1\nyoungs_modulus = 1\n"
                                             "[[rod]]\nlength = 1\n[[rod]]\nlength = 2\n[[rod]]\nlength = 1\n");
    const std::string sweep = "sweep " + rods.string() + " --directions 101 --laws sequential,newton";
    REQUIRE(run_cli(sweep + " --csv " + (dir / "full.csv").string()).status == 0);
    std::string joined;
    for (int k = 1; k <= 3; ++k) {
        const fs::path part = dir / ("part" + std::to_string(k) + ".csv");
        REQUIRE(run_cli(sweep + " --shard " + std::to_string(k) + "/3 --csv " + part.string()).status == 0);
        joined += file_text(part);
    }
    const std::string full = file_text(dir / "full.csv");
    CHECK(line_count(full) == 102);
    CHECK(full.rfind("index,theta_deg,gamma1_pre,gamma2_pre,gamma1_wave,gamma2_wave,cone,events,sequential_gamma1", 0) == 0);
    CHECK(joined == full);
}

TEST_CASE("sweep --plot writes the picture with its script and data", "[cli][sweep][plot]") {
    TempDir dir("sweep_cli_plot");
    const auto r = run_cli("sweep cases/seed000_three_rods.toml --directions 360 --plot " + (dir / "map.png").string());
    REQUIRE(r.status == 0);
    CHECK(fs::file_size(dir / "map.png") > 1000);
    CHECK(fs::exists(dir / "map.gp"));
    CHECK(fs::exists(dir / "map.map.dat"));
}

TEST_CASE("sweep --plot draws four rods' cone map on the sphere, with its script and data", "[cli][sweep][plot]") {
    TempDir dir("sweep_cli_plot4");
    const auto r = run_cli("sweep cases/cones/rods_1_2_2_1.toml --directions 300 --plot " + (dir / "map.png").string());
    REQUIRE(r.status == 0);
    CHECK(fs::file_size(dir / "map.png") > 1000);
    CHECK(fs::exists(dir / "map.gp"));
    REQUIRE(fs::exists(dir / "map.map.dat"));
    // One line per direction (300 + the 14 rays), then the facets' arcs.
    std::ifstream in(dir / "map.map.dat");
    std::string line;
    int directions = 0;
    std::getline(in, line);
    while (std::getline(in, line) && !line.empty()) ++directions;
    CHECK(directions == 314);
    // A bad path fails before any work, and nothing is written.
    check_bad_input("sweep cases/cones/rods_1_2_2_1.toml --plot " + (dir / "nowhere" / "map.png").string(), "does not exist");
    check_bad_input("sweep cases/cones/rods_1_2_2_1.toml --plot " + (dir / "map.jpg").string(), "--plot:");
    CHECK_FALSE(fs::exists(dir / "nowhere"));
    CHECK_FALSE(fs::exists(dir / "map.jpg"));
}

TEST_CASE("sweep: bad input gives one line on stderr, nothing on stdout, exit status 2", "[cli][sweep][errors]") {
    TempDir dir("sweep_cli_errors");
    struct Bad {
        std::string args, message;
    };
    const std::string three = "sweep cases/seed000_three_rods.toml ";
    std::string nine = "[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n";
    for (int i = 0; i < 9; ++i) nine += "[[rod]]\n";
    const std::string nine_rods = dir.write("cases/nine.toml", nine).string();
    const Bad cases[] = {
        {three + "--directions 0", "--directions: must be > 0, got 0"},
        {three + "--directions 2000000", "--directions: must be in [1, 1000000], got 2000000"},
        {three + "--directions -5", "--directions"},
        {three + "--directions many", "directions"},
        {three + "--shard 3/2", "--shard: k/n needs 1 <= k <= n <= directions (360), got 3/2"},
        {three + "--shard 2", "--shard: must be K/N with integers, e.g. 2/4, got \"2\""},
        {three + "--laws sequential,bogus", "--laws: unknown law \"bogus\""},
        {three + "--restitution 2", "--restitution: must be in [0, 1]"},
        {three + "--plot " + (dir / "map.jpg").string(), "--plot:"},
        {three + "--plot " + (dir / "nowhere" / "map.png").string(), "does not exist"},
        {three + "--csv " + (dir / "nowhere" / "x.csv").string(), "--csv:"},
        {"sweep cases/seed000_two_rods.toml", "a sweep needs exactly 3 rods (gamma- lives in the (gamma1, gamma2) plane); the case has 2"},
        {"sweep " + nine_rods, "a sweep needs 3 to 8 rods (gamma- lives on the sphere S^(n-2)); the case has 9"},
        {"sweep cases/cones/five_identical_rods.toml --plot " + (dir / "map.png").string(),
         "--plot: the picture is drawn for three or four rods only"},
        {"sweep cases/cones/four_identical_rods.toml --seed -1", "--seed"},
        {"sweep", "missing CASE"},
    };
    for (const Bad& b : cases) check_bad_input(b.args, b.message);
    fs::remove_all(dir / "cases");
    CHECK(fs::is_empty(dir.path()));  // nothing written
}

TEST_CASE("sweep of four rods: the cone map, the exported law, and the law applied by laws and compare",
          "[cli][sweep][cone_sweep]") {
    TempDir dir("sweep_cli_four");
    const std::string law = (dir / "four.json").string();
    const auto r = run_cli("sweep cases/cones/four_identical_rods.toml --directions 1000 --json --export-law " + law);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["bodies"] == 4);
    REQUIRE(j["cone_map"].size() == 24);  // 4!: the sorting law's cones
    for (const auto& c : j["cone_map"]) {
        CHECK(c["linear"] == true);
        CHECK(c["matrix"].size() == 3);
        CHECK(c["directions"].get<int>() > 0);
        CHECK(c["sequential_same_directions"] == true);
    }
    // Rod 1 strikes three at rest: the last leaves with its velocity (Newton's cradle).
    const auto a = run_cli("laws --law identified:" + law + " --masses 1,1,1,1 --velocities 1,0,0,0 --json");
    REQUIRE(a.status == 0);
    const auto u = nlohmann::json::parse(a.out)["final_velocities"];
    CHECK(u[0].get<double>() == Approx(0).margin(1e-14));
    CHECK(u[3].get<double>() == Approx(1).epsilon(1e-14));
    const auto c = run_cli("compare cases/cones/four_identical_rods.toml --laws sequential,identified:" + law + " --json");
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("identified:"));
}

TEST_CASE("laws --law identified: bad law files give one line naming the file, exit 2", "[cli][laws][identified][errors]") {
    TempDir dir("laws_cli_identified");
    const std::string junk = dir.write("junk.json", "{ no").string();
    check_bad_input("laws --law identified:" + junk + " --masses 1,1,1 --velocities 1,0,0", junk + ": not JSON");
    const std::string law = (dir / "four.json").string();
    REQUIRE(run_cli("sweep cases/cones/four_identical_rods.toml --directions 100 --export-law " + law).status == 0);
    check_bad_input("laws --law identified:" + law + " --masses 1,1,1 --velocities 1,0,0",
                    law + ": made for 4 bodies, applied to 3");
    check_bad_input("compare cases/seed000_three_rods.toml --laws identified:" + law, law + ": made for 4 bodies, applied to 3");
    check_bad_input("laws --law identified:" + (dir / "none.json").string() + " --masses 1,1,1 --velocities 1,0,0",
                    "cannot be read");
}

TEST_CASE("sweep on a 3-ball Hertz cradle: the compliant map around the circle", "[cli][sweep][balls]") {
    const auto r = run_cli("sweep cases/compliant/hertz_cradle_3.toml --directions 24 --laws sequential --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["outcome_model"] == "compliant contacts");
    CHECK(j["directions"] == 24);
    // The Hertz map differs from the sequential law where contacts approach (cone III: both).
    bool differs = false;
    for (const auto& c : j["laws"][0]["cones"])
        if (c["cone"] == "III") differs = c["max_error"].get<double>() > 1e-3;
    CHECK(differs);
    const auto t = run_cli("sweep cases/compliant/hertz_cradle_3.toml --directions 24");
    REQUIRE(t.status == 0);
    CHECK_THAT(t.out, Catch::Contains("bodies (touching, power-law contacts"));
}

TEST_CASE("sweep on the 3-ball steel cradle (cases/balls/): positively homogeneous, so the circle is the whole map; "
          "elastic, so every direction keeps its relative energy", "[cli][sweep][balls]") {
    TempDir dir("sweep_cli_cradle");
    const std::string csv = (dir / "map.csv").string();
    const auto r = run_cli("sweep cases/balls/steel_cradle_3.toml --directions 16 --laws sequential --json --csv " + csv);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["outcome_model"] == "compliant contacts");
    CHECK(j["directions"] == 16);
    // Equal masses m: G = (1/m) [[2, -1], [-1, 2]], so gamma^T G^-1 gamma is (m/3)(2a^2 + 2ab + 2b^2).
    auto energy = [](double a, double b) { return 2 * a * a + 2 * a * b + 2 * b * b; };
    std::istringstream lines(file_text(csv));
    std::string line;
    std::getline(lines, line);  // the header
    CHECK_THAT(line, Catch::StartsWith("index,theta_deg,gamma1_pre,gamma2_pre,gamma1_wave,gamma2_wave"));
    int points = 0;
    while (std::getline(lines, line)) {
        INFO(line);
        std::vector<double> x;
        std::istringstream fields(line);
        for (std::string f; std::getline(fields, f, ',') && x.size() < 6;) x.push_back(std::stod(f));
        REQUIRE(x.size() == 6);
        CHECK(std::abs(energy(x[4], x[5]) - energy(x[2], x[3])) <= 1e-8 * energy(x[2], x[3]));
        ++points;
    }
    CHECK(points == 16);
}

TEST_CASE("sweep refuses dashpots beside Hertz, rods with compliant contacts and --export-law of balls: one line, "
          "exit 2, nothing written", "[cli][sweep][balls][errors]") {
    TempDir dir("sweep_cli_balls");
    const std::string damped = dir.write("damped.toml",
                                         "[[rod]]\nkind = \"mass\"\nmass = 1\nvelocity = 1\n"
                                         "[[rod]]\nkind = \"mass\"\nmass = 1\ncontact_stiffness = 100\ncontact_exponent = 1.5\n"
                                         "[[rod]]\nkind = \"mass\"\nmass = 1\ncontact_stiffness = 100\ncontact_exponent = 1.5\n"
                                         "contact_damping = 2\n")
                                   .string();
    check_bad_input("sweep " + damped, "rod[2].contact_damping: sweep takes balls and masses with power-law contacts: a "
                                       "dashpot (contact_damping = 2) beside k delta^1.5");
    const std::string law = (dir / "law.json").string();
    check_bad_input("sweep cases/compliant/hertz_cradle_3.toml --directions 12 --export-law " + law,
                    "the cone sweep (four rods and more, and --export-law)");
    const std::string csv = (dir / "map.csv").string();
    check_bad_input("sweep " + damped + " --csv " + csv, "rod[2].contact_damping");
    fs::remove(damped);
    CHECK(fs::is_empty(dir.path()));  // nothing written
    const std::string rods = dir.write("rods.toml",
                                       "[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\nvelocity = 1\n"
                                       "[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\ncontact_stiffness = 10\n"
                                       "[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n")
                                 .string();
    check_bad_input("sweep " + rods, "chains of balls and masses alone");
    check_bad_input("sweep cases/balls/steel_ball_on_rod.toml", "chains of balls and masses alone");
}
