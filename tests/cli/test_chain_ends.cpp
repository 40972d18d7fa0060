// `run --gauges`, `--samples`, the JSON of ends, gauges and force histories, and `diagram --kind
// gauges` on the split Hopkinson bar example (docs/case_file.md, docs/ends.md).
#include "run_cli.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using rodcollide::testing::run_cli;

namespace {

const std::string shpb = "cases/ends/split_hopkinson_bar.toml";

}  // namespace

TEST_CASE("run --json reports ends, radiated energy, gauges and force histories", "[cli][chain-ends]") {
    const auto r = run_cli("run " + shpb + " --json --samples 300");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["ends"].size() == 2);
    CHECK(j["ends"][1]["kind"] == "anechoic");
    CHECK(j["energy"]["radiated"].get<double>() > 0);
    CHECK(j["energy"]["input"].get<double>() == 0);
    const auto& e = j["energy"];
    CHECK(std::abs(e["initial"].get<double>() + e["input"].get<double>() -
                   (e["final_rigid"].get<double>() + e["final_vibration"].get<double>() + e["dropped"].get<double>() +
                    e["radiated"].get<double>())) < 1e-12 * e["initial"].get<double>());
    REQUIRE(j["gauges"].size() == 2);
    CHECK(j["gauges"][0]["name"] == "incident");
    CHECK(j["gauges"][0]["time"].size() == 300);
    CHECK(j["gauges"][1]["strain"].size() == 300);
    // The incident pulse: -Z V/2 = -63.777 kN between 145 and 261 us at the incident gauge.
    double min_force = 0;
    for (const auto& f : j["gauges"][0]["force"]) min_force = std::min(min_force, f.get<double>());
    CHECK(min_force == Approx(-0.5 * 7850 * 3.1416e-4 * std::sqrt(210e9 / 7850) * 10).epsilon(1e-12));
    for (const auto& c : j["contacts"]) CHECK(c["force_history"]["time"].size() <= 300);
}

TEST_CASE("run on a chain with free ends reports as it always did", "[cli][chain-ends]") {
    const auto j = nlohmann::json::parse(run_cli("run cases/seed000_two_rods.toml --json").out);
    CHECK_FALSE(j.contains("ends"));
    CHECK_FALSE(j["energy"].contains("radiated"));
    CHECK_FALSE(j["contacts"][0].contains("force_history"));
    const auto with_samples = nlohmann::json::parse(run_cli("run cases/seed000_two_rods.toml --json --samples 10").out);
    CHECK(with_samples["contacts"][0]["force_history"]["force"].size() <= 10);
}

TEST_CASE("run --gauges writes one CSV; mistakes are one line with status 2", "[cli][chain-ends]") {
    rodcollide::testing::TempDir dir("chain_ends_cli");
    const std::string csv = (dir.path() / "g.csv").string();
    const auto r = run_cli("run " + shpb + " --gauges '" + csv + "' --samples 50");
    REQUIRE(r.status == 0);
    std::ifstream in(csv);
    std::string header;
    std::getline(in, header);
    CHECK(header == "time,incident_velocity,incident_force,incident_strain,transmitted_velocity,transmitted_force,"
                    "transmitted_strain");
    int rows = 0;
    for (std::string line; std::getline(in, line);) ++rows;
    CHECK(rows == 50);

    const auto no_gauges = run_cli("run cases/seed000_two_rods.toml --gauges '" + csv + "'");
    CHECK(no_gauges.status == 2);
    CHECK(no_gauges.err == "rodcollide run: --gauges: the case has no [[gauge]] table\n");
    const auto bad_samples = run_cli("run " + shpb + " --json --samples 1");
    CHECK(bad_samples.status == 2);
    CHECK(bad_samples.err.find("--samples: must be in [2, 100000], got 1") != std::string::npos);
}

TEST_CASE("run --method finite-difference carries ends, gauges and force histories", "[cli][chain-ends][finite-difference]") {
    rodcollide::testing::TempDir dir("chain_ends_fd_cli");
    const std::string csv = (dir.path() / "g.csv").string();
    const auto r = run_cli("run " + shpb + " --method finite-difference --json --samples 200 --gauges '" + csv + "'");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["method"] == "finite-difference");
    REQUIRE(j["ends"].size() == 2);
    CHECK(j["ends"][1]["kind"] == "anechoic");
    CHECK(j["energy"]["radiated"].get<double>() > 0);
    REQUIRE(j["gauges"].size() == 2);
    CHECK(j["gauges"][1]["velocity"].size() == 200);
    for (const auto& c : j["contacts"]) CHECK(c["force_history"]["time"].size() <= 200);
    // The incident pulse, -Z V/2 from 145.0 to 261.0 us at the incident gauge: in the middle of its
    // plateau (203 us) the grid's gauge reads it to its accuracy (fronts ring at Courant < 1).
    const auto& g = j["gauges"][0];
    std::size_t mid = 0;
    for (std::size_t i = 0; i < g["time"].size(); ++i)
        if (std::abs(g["time"][i].get<double>() - 203e-6) < std::abs(g["time"][mid].get<double>() - 203e-6)) mid = i;
    CHECK(g["force"][mid].get<double>() == Approx(-0.5 * 7850 * 3.1416e-4 * std::sqrt(210e9 / 7850) * 10).epsilon(1e-3));
    std::ifstream in(csv);
    int rows = -1;
    for (std::string line; std::getline(in, line);) ++rows;
    CHECK(rows == 200);
}

TEST_CASE("diagram --kind gauges draws the gauge signals", "[cli][chain-ends][plot]") {
    rodcollide::testing::TempDir dir("chain_ends_diagram");
    const std::string png = (dir.path() / "g.png").string();
    const auto r = run_cli("diagram " + shpb + " --kind gauges --out '" + png + "'");
    REQUIRE(r.status == 0);
    CHECK(std::filesystem::file_size(png) > 1000);
    CHECK(std::filesystem::exists(dir.path() / "g.gauges.dat"));
    const auto none = run_cli("diagram cases/seed000_two_rods.toml --kind gauges --out '" + png + "'");
    CHECK(none.status == 2);
    CHECK(none.err == "rodcollide diagram: --kind gauges: the case has no [[gauge]] table\n");
}

TEST_CASE("compare and sweep refuse chains with ends or loads; diagrams draw joints and walls", "[cli][chain-ends]") {
    const auto compare = run_cli("compare " + shpb);
    CHECK(compare.status == 2);
    CHECK(compare.err == "rodcollide compare: ends: compare takes a chain with free, unloaded ends (the rigid impact "
                         "laws know no walls, held or anechoic ends, or loads); use run\n");
    rodcollide::testing::TempDir dir("chain_ends_walls");
    std::ofstream(dir.path() / "c.toml") << "[left]\nkind = \"wall\"\ngap = 0.5\n[defaults]\ndensity = 1.0\n"
                                            "youngs_modulus = 1.0\narea = 1.0\n[[rod]]\nlength = 1.0\nvelocity = -1.0\n"
                                            "[[rod]]\n[[rod.segment]]\nlength = 1.0\n[[rod.segment]]\nlength = 0.5\n"
                                            "area = 2.0\n";
    const std::string png = (dir.path() / "d.png").string();
    const auto r = run_cli("diagram '" + (dir.path() / "c.toml").string() + "' --out '" + png + "'");
    REQUIRE(r.status == 0);
    std::ifstream joints(dir.path() / "d.joints.dat"), walls(dir.path() / "d.walls.dat");
    std::stringstream j, w;
    j << joints.rdbuf();
    w << walls.rdbuf();
    CHECK(j.str().find("\n2\n") != std::string::npos);  // the joint at x = 1 + 1
    CHECK(w.str().find("\n0\n") != std::string::npos);  // the left wall
}

TEST_CASE("run with gauges also writes --field-csv, with the gauges' outcome", "[cli][chain-ends]") {
    // The gauges' solve used to be the only one, so the field file was silently not written.
    rodcollide::testing::TempDir dir("chain_ends_field");
    const std::string field = (dir.path() / "field.csv").string();
    const auto with_field = run_cli("run " + shpb + " --json --samples 20 --field-csv '" + field + "' --field-times 5");
    REQUIRE(with_field.status == 0);
    std::ifstream in(field);
    REQUIRE(in.good());
    std::string line;
    std::size_t lines = 0;
    while (std::getline(in, line)) ++lines;
    CHECK(lines > 5);
    const auto alone = run_cli("run " + shpb + " --json --samples 20");
    CHECK(nlohmann::json::parse(with_field.out) == nlohmann::json::parse(alone.out));
}
