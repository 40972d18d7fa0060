// `rodcollide run`: the table, the JSON contract, and one-line errors with exit status 2.
#include "run_cli.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <cmath>
#include <fstream>
#include <sstream>

using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;

namespace {

/// Writes a case into a temporary file and returns its path.
std::string temp_case(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("rodcollide_cli_" + name + ".toml");
    std::ofstream(path) << text;
    return path.string();
}

}  // namespace

TEST_CASE("run prints a table with rods, contacts, energies and the settling time", "[cli][run]") {
    const auto r = run_cli("run cases/seed000_three_rods.toml");
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK_THAT(r.out, Catch::Contains("settled"));
    CHECK_THAT(r.out, Catch::Contains("impulse"));
    CHECK_THAT(r.out, Catch::Contains("vibration"));
    CHECK_THAT(r.out, Catch::Contains("[0, 3]"));
}

TEST_CASE("run --json prints exactly one document with the contract's keys", "[cli][run][json]") {
    const auto r = run_cli("run cases/seed000_two_rods.toml --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);  // throws if there is more than one document
    for (const char* key : {"title", "method", "rods", "contacts", "energy", "end_time", "settled"})
        CHECK(j.contains(key));
    CHECK(j["method"] == "characteristics");
    CHECK(j["settled"] == true);
    REQUIRE(j["rods"].size() == 2);
    for (const char* key : {"mass", "initial_velocity", "final_velocity", "vibration_energy"})
        CHECK(j["rods"][0].contains(key));
    CHECK(j["rods"][0]["final_velocity"].get<double>() == Approx(0).margin(1e-15));
    CHECK(j["rods"][1]["final_velocity"].get<double>() == Approx(1));
    CHECK(j["contacts"][0]["rods"] == nlohmann::json::array({0, 1}));
    CHECK(j["contacts"][0]["impulse"].get<double>() == Approx(1));
    CHECK(j["contacts"][0]["intervals"] == nlohmann::json::parse("[[0.0, 2.0]]"));
    for (const char* key : {"initial", "final_rigid", "final_vibration", "dropped"})
        CHECK(j["energy"].contains(key));
    CHECK(j["end_time"].get<double>() == Approx(2));
}

TEST_CASE("run --end-time stops early with settled: false", "[cli][run]") {
    const auto r = run_cli("run cases/seed000_two_rods.toml --json --end-time 1");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["settled"] == false);
    CHECK(j["end_time"].get<double>() == 1.0);
    CHECK_THAT(r.err, Catch::Contains("not settled"));
}

TEST_CASE("run: bad case files give one line naming file, line and key, exit 2", "[cli][run][errors]") {
    struct Bad { const char* name; const char* text; const char* expect; };
    const Bad bad[] = {
        {"negative_length", "[[rod]]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\nlength = -1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n",
         ":7: rod[1].length:"},
        {"malformed", "[[rod]\nlength = 1\n", ":1: (syntax):"},
        {"unknown_key", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\nlenght = 2\n[[rod]]\n", ":7: rod[0].lenght:"},
        {"nan", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\nvelocity = nan\n[[rod]]\n", ":7: rod[0].velocity:"},
        {"one_rod", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n", "rod"},
        {"first_gap", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\ngap = 0.1\n[[rod]]\n", ":7: rod[0].gap:"},
        {"wrong_type", "[defaults]\nlength = \"one\"\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n[[rod]]\n", ":2: defaults.length:"},
        {"missing", "[defaults]\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n[[rod]]\n", "length"},
        {"bad_method", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n[[rod]]\n[solver]\nmethod = \"magic\"\n", ":9: solver.method:"},
    };
    for (const Bad& b : bad) {
        INFO(b.name);
        const std::string path = temp_case(b.name, b.text);
        const auto r = run_cli("run '" + path + "' --json");
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(line_count(r.err) == 1);
        CHECK_THAT(r.err, Catch::StartsWith(path));
        CHECK_THAT(r.err, Catch::Contains(b.expect));
        std::filesystem::remove(path);
    }
}

TEST_CASE("run: a missing file, bad options and unknown methods are one-line errors", "[cli][run][errors]") {
    for (const char* args : {"run cases/does_not_exist.toml", "run", "run cases/seed000_two_rods.toml --method magic",
                             "run cases/seed000_two_rods.toml --end-time -1", "run cases/seed000_two_rods.toml --bogus",
                             "run cases/seed000_two_rods.toml --end-time nan", "run cases/seed000_two_rods.toml --cells 0"}) {
        INFO(args);
        const auto r = run_cli(args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(line_count(r.err) == 1);
    }
    CHECK_THAT(run_cli("run cases/does_not_exist.toml").err, Catch::StartsWith("cases/does_not_exist.toml:0:"));
}

TEST_CASE("run --help teaches and the program lists its commands", "[cli]") {
    const auto r = run_cli("run --help");
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("--json"));
    CHECK_THAT(r.out, Catch::Contains("example"));
    const auto top = run_cli("--help");
    CHECK(top.status == 0);
    CHECK_THAT(top.out, Catch::Contains("run"));
    CHECK(run_cli("no-such-command").status == 2);
}

TEST_CASE("run --contact-forces writes every contact's and wall's force, sampled and at every event",
          "[cli][run][compliant]") {
    const auto csv = std::filesystem::temp_directory_path() / "rodcollide_cli_contact_forces.csv";
    std::filesystem::remove(csv);
    const auto r = run_cli("run cases/seed000_three_rods.toml --samples 5 --contact-forces '" + csv.string() + "'");
    REQUIRE(r.status == 0);
    std::ifstream in(csv);
    std::stringstream text;
    text << in.rdbuf();
    // Winandy & Leine 2015 §4.2: both contacts carry force on [0, 3] (N = -1 / -0.5, then -1.5 on
    // [1, 2], ...); rows at 0, 0.75, 1.5, 2.25, 3.
    CHECK(text.str() == "time,contact_0,contact_1\n0,-1,-0.5\n0.75,-1,-0.5\n1.5,-1.5,-1.5\n2.25,-0.5,-1\n3,0,0\n");
    // A spring-backed wall (finite differences): Z V (1 - exp(-k t / Z)) as the wall's force.
    const auto wall = run_cli("run cases/compliant/rod_spring_backed_wall.toml --samples 11 --contact-forces '" + csv.string() + "'");
    REQUIRE(wall.status == 0);
    std::ifstream again(csv);
    std::string header, first, second;
    std::getline(again, header);
    std::getline(again, first);
    std::getline(again, second);
    CHECK(header == "time,right_wall");
    const double t = std::stod(second.substr(0, second.find(','))), f = std::stod(second.substr(second.find(',') + 1));
    // The grid's force is a step's mean; dt = 0.001 against the spring's time Z/k = 0.2.
    CHECK(-f == Approx(1 - std::exp(-5 * t)).epsilon(0.01));
    // A spring-dashpot end has its column too; its force pulls as well as pushes.
    REQUIRE(run_cli("run cases/compliant/hammer_cushion_pile.toml --samples 50 --contact-forces '" + csv.string() + "'").status == 0);
    std::ifstream pile(csv);
    std::getline(pile, header);
    CHECK(header == "time,contact_0,right_end");
    bool pulls = false, pushes = false;
    for (std::string line; std::getline(pile, line);) {
        const double f = std::stod(line.substr(line.rfind(',') + 1));
        pulls = pulls || f > 0;
        pushes = pushes || f < 0;
    }
    CHECK(pulls);
    CHECK(pushes);
    // A spring end alone (no contact, no wall) has its column: it is not refused as "nothing to
    // report". A rod (Z = c = L = 1, V = 1) on a spring k = 1 sees, until 2L/c, the spring wall's
    // Z V (1 - exp(-k t / Z)); the grid holds a step's mean (dt = 0.01): within k dt of it.
    const std::string spring = temp_case("spring_end_only",
                                         "units = \"dimensionless\"\n[solver]\nmethod = \"finite-difference\"\n"
                                         "end_time = 1.0\ncells = 100\n[[rod]]\nlength = 1.0\narea = 1.0\n"
                                         "density = 1.0\nyoungs_modulus = 1.0\nvelocity = 1.0\n"
                                         "[right]\nkind = \"spring\"\nstiffness = 1.0\n");
    REQUIRE(run_cli("run '" + spring + "' --samples 3 --contact-forces '" + csv.string() + "'").status == 0);
    std::ifstream alone(csv);
    std::getline(alone, header);
    CHECK(header == "time,right_end");
    std::getline(alone, first);
    std::getline(alone, second);
    const double half = std::stod(second.substr(0, second.find(','))), f_half = std::stod(second.substr(second.find(',') + 1));
    CHECK(half == 0.5);
    CHECK(-f_half == Approx(1 - std::exp(-0.5)).margin(0.01));
    std::filesystem::remove(csv);
    CHECK(run_cli("run cases/compliant/rod_spring_backed_wall.toml --contact-forces /no/such/dir/f.csv").status == 2);
}
