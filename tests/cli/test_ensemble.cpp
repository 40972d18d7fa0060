// `rodcollide ensemble` and `rodcollide merge`: the report's contract (JSON keys), the same bytes
// for 1 and 2 threads and for a single run and its merged shards (JSON, table and CSV), the plot
// files, and bad input as one line with exit status 2 and nothing written (more in
// tests/cli/cli_catalogue.json).
#include "cli_checks.hpp"
#include "file_text.hpp"
#include "run_cli.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using rodcollide::testing::check_bad_input;
using rodcollide::testing::file_text;
using rodcollide::testing::run_cli;
using rodcollide::testing::TempDir;
namespace fs = std::filesystem;

namespace {

/// Two identical rods, the striker's velocity drawn: the target leaves with it (docs/physics.md §2.5).
const std::string two_rods =
    "ensemble cases/seed000_two_rods.toml --perturb 'key = \"velocity\", rods = [0], relative = 0.01'";

/// Five steel rods of a Newton's cradle, every rod's length and the striker's velocity drawn.
const std::string cradle_any_seed = "ensemble cases/steel_cradle_5.toml --members 23"
                                    " --perturb 'key = \"length\", relative = 1e-3, distribution = \"normal\"'"
                                    " --perturb 'key = \"velocity\", rods = [0], absolute = 0.01'";
const std::string cradle = cradle_any_seed + " --seed 5";

}  // namespace

TEST_CASE("ensemble --json: the contract's keys, and the exchange of two identical rods", "[cli][ensemble]") {
    const auto r = run_cli(two_rods + " --members 64 --json --precision 1e-4");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["members"] == 64);
    CHECK(j["seed"] == 1);
    REQUIRE(j["rods"].size() == 2);
    for (const char* key : {"mean", "std", "sem", "q05", "q50", "q95"}) {
        INFO(key);
        CHECK(j["rods"][0]["final_velocity"][key].get<double>() == Approx(0).margin(1e-12));
        CHECK(j["rods"][1]["final_velocity"].contains(key));
        CHECK(j["energy"]["final_rigid"].contains(key));
        CHECK(j["energy"]["final_vibration"].contains(key));
        CHECK(j["settling_time"].contains(key));
        CHECK(j["closings"].contains(key));
    }
    const auto& target = j["rods"][1]["final_velocity"];
    // Uniform on 1 +- 0.01: std 0.01/sqrt(3), and the mean within a few sem of 1.
    CHECK(target["std"].get<double>() == Approx(0.01 / std::sqrt(3.0)).epsilon(0.25));
    CHECK(std::abs(target["mean"].get<double>() - 1) < 4 * target["sem"].get<double>());
    CHECK(target["sem"].get<double>() == Approx(target["std"].get<double>() / 8));
    CHECK(j["settled"] == 1.0);
    CHECK(j["reached_horizon"] == 0.0);
    CHECK(j["closings"]["mean"] == 1.0);
    const double needed = std::ceil(std::pow(target["std"].get<double>() / 1e-4, 2));
    CHECK(j["convergence"]["members_needed"].get<double>() == needed);
    CHECK(j["convergence"]["rod"] == 1);
    CHECK(!j.contains("data"));  // the members' numbers only in a shard's output
}

TEST_CASE("ensemble: the [ensemble] table of the case, overridden by --members and --seed", "[cli][ensemble]") {
    TempDir dir("ensemble_cli_table");
    const fs::path c = dir.write("c.toml", "[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                                           "[[rod]]\nvelocity = 1.0\n[[rod]]\n[ensemble]\nmembers = 12\nseed = 4\n"
                                           "[[ensemble.perturb]]\nkey = \"velocity\"\nrods = [0]\nrelative = 0.01\n");
    const auto from_file = run_cli("ensemble " + c.string() + " --json");
    REQUIRE(from_file.status == 0);
    const auto j = nlohmann::json::parse(from_file.out);
    CHECK(j["members"] == 12);
    CHECK(j["seed"] == 4);
    CHECK(j["perturb"][0]["key"] == "velocity");
    const auto flags = run_cli(two_rods + " --members 12 --seed 4 --json");
    REQUIRE(flags.status == 0);
    CHECK(nlohmann::json::parse(flags.out)["rods"] == j["rods"]);  // the same draws, however declared
    const auto other = run_cli("ensemble " + c.string() + " --json --members 12 --seed 5");
    REQUIRE(other.status == 0);
    CHECK(nlohmann::json::parse(other.out)["rods"] != j["rods"]);
}

TEST_CASE("ensemble: the same bytes for 1 and 2 threads, and for 1 run and 3 merged shards", "[cli][ensemble][shard]") {
    TempDir dir("ensemble_cli_shards");
    const auto one = run_cli(cradle + " --threads 1 --json --csv " + (dir / "one.csv").string());
    const auto two = run_cli(cradle + " --threads 2 --json");
    REQUIRE(one.status == 0);
    REQUIRE(two.status == 0);
    CHECK(one.out == two.out);
    std::string parts, csv;
    for (int k = 1; k <= 3; ++k) {
        const fs::path part = dir / ("part" + std::to_string(k) + ".json");
        const fs::path part_csv = dir / ("part" + std::to_string(k) + ".csv");
        const auto r = run_cli(cradle + " --shard " + std::to_string(k) + "/3 --json --csv " + part_csv.string());
        REQUIRE(r.status == 0);
        std::ofstream(part) << r.out;
        const auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["shard"]["index"] == k);
        CHECK(doc["data"]["members"].size() == doc["members_in_shard"]);
        parts.append(" ").append(part.string());
        csv += file_text(part_csv);
    }
    CHECK(csv == file_text(dir / "one.csv"));
    const auto merged = run_cli("merge" + parts + " --json");
    REQUIRE(merged.status == 0);
    CHECK(merged.out == one.out);
    const auto table = run_cli(cradle);
    const auto merged_table = run_cli("merge" + parts + " --csv " + (dir / "merged.csv").string());
    REQUIRE(merged_table.status == 0);
    CHECK(merged_table.out == table.out);
    CHECK(file_text(dir / "merged.csv") == file_text(dir / "one.csv"));
    CHECK_THAT(table.out, Catch::Contains("ensemble of 23 members, seed 5"));
    CHECK_THAT(table.out, Catch::Contains("convergence:"));

    SECTION("merge refuses parts that do not belong together, in one line") {
        check_bad_input("merge " + (dir / "part1.json").string() + " " + (dir / "part2.json").string(),
                        "shard 3 of 3 missing");
        check_bad_input("merge" + parts + " " + (dir / "part2.json").string(), "shard 2/3 is given twice");
        const auto other_seed = run_cli(cradle_any_seed + " --seed 6 --shard 3/3 --json");
        std::ofstream(dir / "seed6.json") << other_seed.out;
        check_bad_input("merge " + (dir / "part1.json").string() + " " + (dir / "part2.json").string() + " " +
                            (dir / "seed6.json").string(),
                        "seed6.json has 6, but");
        const auto other_case = run_cli(cradle + " --end-time 1e-3 --shard 3/3 --json");
        std::ofstream(dir / "other.json") << other_case.out;
        check_bad_input("merge " + (dir / "part1.json").string() + " " + (dir / "part2.json").string() + " " +
                            (dir / "other.json").string(),
                        "not shards of one ensemble");
        check_bad_input("merge " + (dir / "one.csv").string(), "not JSON");
    }
}

TEST_CASE("ensemble --plot draws box plots and a histogram with gnuplot", "[cli][ensemble][plot]") {
    TempDir dir("ensemble_cli_plot");
    const auto r = run_cli(cradle + " --plot " + (dir / "e.png").string());
    REQUIRE(r.status == 0);
    CHECK(fs::file_size(dir / "e.png") > 1000);
    const std::string data = file_text(dir / "e.ensemble.dat");
    CHECK_THAT(data, Catch::Contains("# rod q05 q25 q50 q75 q95 mean"));
    CHECK_THAT(file_text(dir / "e.gp"), Catch::Contains("candlesticks"));
}

TEST_CASE("ensemble: bad input is one line naming the key, and nothing is written", "[cli][ensemble][input]") {
    TempDir dir("ensemble_cli_bad");
    const std::string csv = " --csv " + (dir / "out.csv").string();
    check_bad_input(two_rods + " --members 0" + csv, "--members: must be > 0, got 0");
    check_bad_input(two_rods + " --members 1000001" + csv, "--members: must be in [1, 1000000], got 1000001");
    check_bad_input("ensemble cases/seed000_two_rods.toml --perturb 'key = \"length\", relative = 1'" + csv,
                    "--perturb: perturb[0].relative: a uniform spread of 1 could make length non-positive");
    check_bad_input("ensemble cases/seed000_two_rods.toml --perturb 'key = \"area\", relative = 0.25, distribution = "
                    "\"normal\"'" + csv,
                    "it must be < 0.25 (normal draws reach 4 times the spread)");
    check_bad_input("ensemble cases/seed000_two_rods.toml --perturb 'key = \"velocity\", spread = 0.1'" + csv,
                    "--perturb: perturb.spread: unknown key");
    check_bad_input("ensemble cases/seed000_two_rods.toml" + csv, "perturb: nothing is perturbed");
    check_bad_input(two_rods + " --members 4 --shard 2/5" + csv, "--shard: k/n needs 1 <= k <= n <= members (4), got 2/5");
    CHECK(!fs::exists(dir / "out.csv"));
}
