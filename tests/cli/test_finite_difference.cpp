// `rodcollide run --method finite-difference`: the same JSON contract as the exact solver,
// one-line refusals of absurd resolutions with exit status 2, and the field CSV.
#include "run_cli.hpp"
#include "rodcollide/field_samples.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;

namespace {

std::set<std::string> keys(const nlohmann::json& j) {
    std::set<std::string> k;
    for (const auto& item : j.items()) k.insert(item.key());
    return k;
}

std::filesystem::path temp_path(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("rodcollide_fd_cli_" + std::to_string(::getpid()) + "_" + name);
}

}  // namespace

TEST_CASE("run --method finite-difference --json has the exact solver's keys", "[cli][finite-difference]") {
    for (const char* file : {"cases/seed000_three_rods.toml", "cases/chain_with_gaps.toml"}) {
        INFO(file);
        const auto e = run_cli(std::string("run ") + file + " --json");
        const auto f = run_cli(std::string("run ") + file + " --json --method finite-difference");
        REQUIRE(e.status == 0);
        REQUIRE(f.status == 0);
        CHECK(f.err.empty());
        const auto je = nlohmann::json::parse(e.out), jf = nlohmann::json::parse(f.out);
        CHECK(jf["method"] == "finite-difference");
        CHECK(keys(jf) == keys(je));
        CHECK(keys(jf["rods"][0]) == keys(je["rods"][0]));
        CHECK(keys(jf["contacts"][0]) == keys(je["contacts"][0]));
        CHECK(keys(jf["energy"]) == keys(je["energy"]));
        for (const auto& k : keys(je["stats"])) CHECK(jf["stats"].contains(k));  // plus the grid's
        for (const char* k : {"steps", "cells", "shortest_rod_cells", "time_step", "courant_min"}) CHECK(jf["stats"].contains(k));
        CHECK(jf["stats"]["courant_min"].get<double>() == 1.0);
        REQUIRE(jf["rods"].size() == je["rods"].size());
        for (std::size_t i = 0; i < je["rods"].size(); ++i)
            CHECK(jf["rods"][i]["final_velocity"].get<double>() ==
                  Approx(je["rods"][i]["final_velocity"].get<double>()).margin(1e-12));
        CHECK(jf["settled"] == true);
    }
    const auto table = run_cli("run cases/seed000_two_rods.toml --method finite-difference --cells 50");
    REQUIRE(table.status == 0);
    CHECK_THAT(table.out, Catch::Contains("[finite-difference]"));
    CHECK_THAT(table.out, Catch::Contains("100 steps"));
    CHECK_THAT(table.out, Catch::Contains("(50 in the shortest rod)"));
}

TEST_CASE("run: absurd resolutions are refused with one line naming the limit, exit 2", "[cli][finite-difference][errors]") {
    struct Bad {
        const char* args;
        const char* limit;
    };
    const Bad bad[] = {
        {"--cells 100000", "limit of 1e+10 cell-updates"},      // 2e5 cells x 2e5 steps
        {"--cells 40000000", "limit of 50000000 cells"},        // 8e7 cells
        {"--cells 1000000000", "--cells: must be in [1, 100000000], got 1000000000"},      // beyond any resolution
        {"--cells 2000 --end-time 1e6", "limit of 1e+10 cell-updates"},  // a long horizon
    };
    for (const Bad& b : bad) {
        INFO(b.args);
        const auto r = run_cli(std::string("run cases/seed000_two_rods.toml --method finite-difference ") + b.args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(line_count(r.err) == 1);
        CHECK_THAT(r.err, Catch::Contains(b.limit));
    }
    // The same from a case file's [solver] table.
    const auto path = temp_path("cells.toml");
    std::ofstream(path) << "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\nvelocity = 1\n"
                           "[[rod]]\n[solver]\nmethod = \"finite-difference\"\ncells = 100000\n";
    const auto r = run_cli("run '" + path.string() + "' --json");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(line_count(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("limit of 1e+10 cell-updates"));
    std::filesystem::remove(path);
}

TEST_CASE("run --field-csv writes the decimated field history of either method", "[cli][finite-difference][field]") {
    for (const char* method : {"finite-difference", "characteristics"}) {
        INFO(method);
        const auto path = temp_path(std::string(method) + ".csv");
        const auto r = run_cli("run cases/seed000_three_rods.toml --method " + std::string(method) + " --field-csv '" +
                               path.string() + "' --field-times 40 --field-positions 30");
        REQUIRE(r.status == 0);
        const rodcollide::FieldSamples f = rodcollide::read_field_csv(path);
        CHECK(f.t.size() <= 40);
        CHECK(f.t.size() >= 20);
        CHECK(f.x.size() == 30);
        CHECK(f.t.front() == 0.0);
        CHECK(f.t.back() == Approx(3.0).margin(0.2));  // the run ends when both contacts open at t = 3
        CHECK(f.velocity(0, 0) == 2.0);
        CHECK(f.velocity(0, 29) == -1.0);
        std::filesystem::remove(path);
    }
    for (const char* bad : {"--field-times 1", "--field-times 5000", "--field-positions 0"}) {
        INFO(bad);
        const auto r = run_cli(std::string("run cases/seed000_two_rods.toml --field-csv /tmp/x.csv ") + bad);
        CHECK(r.status == 2);
        CHECK(line_count(r.err) == 1);
    }
}
