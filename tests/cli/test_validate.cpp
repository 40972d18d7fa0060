// `rodcollide validate`: exit status 0 when every check passes, 1 on a failure, 2 for a bad file.
#include "run_cli.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>
#include <string>

using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;
using rodcollide::testing::TempDir;

namespace {

/// A validation file with one check of the two-rod case's final velocities.
std::string check_of(const std::string& expected) {
    return std::string("case = \"") + RODCOLLIDE_SOURCE_DIR + "/cases/seed000_two_rods.toml\"\n"
           "[[check]]\n"
           "quantity = \"final_velocities\"\n"
           "expected = " + expected + "\n"
           "tolerance = 1e-12\n"
           "source = \"paper: Winandy & Leine 2015 §4.1, the velocities are exchanged\"\n";
}

}  // namespace

TEST_CASE("validate prints the table and exits 0 when every check passes", "[cli][validation]") {
    TempDir dir("validate_cli_pass");
    dir.write("ok/a.toml", check_of("[0, 1]"));
    const auto r = run_cli("validate " + (dir / "ok").string());
    CHECK(r.status == 0);
    for (const char* column : {"case", "quantity", "expected", "got", "error", "tolerance", "source", "result"})
        CHECK_THAT(r.out, Catch::Contains(column));
    CHECK_THAT(r.out, Catch::Contains("PASS"));
    CHECK_THAT(r.out, Catch::Contains("1 checks: 1 passed, 0 failed"));
}

TEST_CASE("validate exits 1 and names the failure when a reference is wrong", "[cli][validation]") {
    TempDir dir("validate_cli_fail");
    const auto file = dir.write("wrong.toml", check_of("[0.5, 0.5]"));
    const auto r = run_cli("validate " + file.string());
    CHECK(r.status == 1);
    CHECK_THAT(r.out, Catch::Contains("FAIL wrong.toml:2: seed000_two_rods: final_velocities: got (0, 1)"));
    const auto j = nlohmann::json::parse(run_cli("validate --json " + file.string()).out);
    CHECK(j["passed"] == false);
    CHECK(j["failures"] == 1);
}

TEST_CASE("validate: a bad validation file is one line on stderr, exit status 2", "[cli][validation][errors]") {
    TempDir dir("validate_cli_bad");
    const auto file = dir.write("bad.toml", "[[check]]\nquantity = \"final_velocities\"\ntolerance = 1e-12\n"
                                            "source = \"paper: Winandy & Leine 2015 §4.1\"\n");
    const auto r = run_cli("validate " + file.string());
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(line_count(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("bad.toml:1: check[0].expected: missing"));
    const auto empty = run_cli("validate " + dir.path().string() + "/nothing");
    CHECK(empty.status == 2);
    CHECK_THAT(empty.err, Catch::Contains("(file): no such file"));
}

TEST_CASE("every file an example of a command's --help names exists", "[cli][help]") {
    // A newcomer copies the examples: each cases/... or validation/... path they name must be there.
    for (const char* command : {"run", "compare", "sweep", "diagram", "validate"}) {
        const auto r = run_cli(std::string(command) + " --help");
        REQUIRE(r.status == 0);
        std::istringstream words(r.out);
        for (std::string w; words >> w;) {
            if (!(w.starts_with("cases/") || w.starts_with("validation/")) || !w.ends_with(".toml")) continue;
            INFO(command << " --help names " << w);
            CHECK(std::filesystem::exists(std::filesystem::path(RODCOLLIDE_SOURCE_DIR) / w));
        }
    }
}
