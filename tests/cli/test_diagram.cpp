// `rodcollide diagram` and `rodcollide run --plot`: pictures where asked (or named after the
// case), one-line errors with exit status 2 for bad input and 1 for a missing gnuplot, and no
// file left behind by a failure.
#include "cli_checks.hpp"
#include "run_cli.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <unistd.h>

using rodcollide::testing::check_bad_input;
using rodcollide::testing::line_count;
using rodcollide::testing::run_cli;
namespace fs = std::filesystem;

namespace {

/// A fresh directory for one test, removed at the end.
struct Scratch {
    explicit Scratch(const std::string& name)
        : path(fs::temp_directory_path() / ("rodcollide_cli_diagram_" + name + "_" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch() { fs::remove_all(path); }
    bool empty() const { return fs::is_empty(path); }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
    fs::path path;
};

/// Run options: in `dir`, with environment assignments `env`.
rodcollide::testing::CliOptions where(const std::string& dir, const std::string& env = "") {
    rodcollide::testing::CliOptions o;
    o.dir = dir;
    o.env = env;
    return o;
}

const std::string two_rods = std::string(RODCOLLIDE_SOURCE_DIR) + "/cases/seed000_two_rods.toml";

}  // namespace

TEST_CASE("diagram --help teaches the kinds, the outputs and gives examples", "[cli][diagram]") {
    const auto r = run_cli("diagram --help");
    CHECK(r.status == 0);
    for (const char* s : {"characteristics", "velocity", "force", "displacement", "--t-end", "--size", "--out",
                          "gnuplot FILE.gp", "RODCOLLIDE_GNUPLOT", "examples:", "-v/(2c)"})
        CHECK_THAT(r.out, Catch::Contains(s));
    CHECK_THAT(run_cli("--help").out, Catch::Contains("diagram"));
}

TEST_CASE("diagram writes <case-stem>-<kind>.png in the current directory by default", "[cli][diagram]") {
    const Scratch dir("default");
    const auto r = run_cli("diagram '" + two_rods + "'", where(dir.path.string()));
    REQUIRE(r.status == 0);
    CHECK(r.err.empty());
    CHECK(fs::exists(dir / "seed000_two_rods-characteristics.png"));
    CHECK(fs::exists(dir / "seed000_two_rods-characteristics.gp"));
    CHECK_THAT(r.out, Catch::Contains("4 fronts drawn"));
    CHECK_THAT(r.out, Catch::Contains("5 regions, 5 labelled"));
    CHECK_THAT(r.out, Catch::Contains("to 3)"));  // settled at 2l/c, plus one transit time (a dimensionless case: no "s")

    const auto k = run_cli("diagram '" + two_rods + "' --kind force --t-end 2.5", where(dir.path.string()));
    REQUIRE(k.status == 0);
    CHECK(fs::exists(dir / "seed000_two_rods-force.png"));
    CHECK_THAT(k.out, Catch::Contains("to 2.5)"));
}

TEST_CASE("diagram --out FILE.svg --size WxH", "[cli][diagram]") {
    const Scratch dir("svg");
    const auto r = run_cli("diagram cases/seed000_three_rods.toml --out '" + (dir / "b.svg") + "' --size 800x900 --kind displacement");
    REQUIRE(r.status == 0);
    CHECK(fs::exists(dir / "b.svg"));
    CHECK(fs::exists(dir / "b.paths.dat"));
    CHECK_THAT(r.out, Catch::Contains("displacements and gaps drawn x0.1"));
}

TEST_CASE("diagram: bad input exits 2 with one line and writes nothing", "[cli][diagram][errors]") {
    const Scratch dir("bad");
    const std::string out = " --out '" + (dir / "x.png") + "'";
    struct Bad {
        std::string args;
        const char* says;
    };
    for (const Bad& b : {
             Bad{"diagram", "missing CASE"},
             Bad{"diagram cases/nonexistent.toml" + out, "nonexistent.toml"},
             Bad{"diagram cases/seed000_two_rods.toml --kind contour" + out, "--kind: unknown kind \"contour\"; valid: characteristics, velocity, force, displacement"},
             Bad{"diagram cases/seed000_two_rods.toml --size 10x10" + out, "--size"},
             Bad{"diagram cases/seed000_two_rods.toml --size big" + out, "WIDTHxHEIGHT"},
             Bad{"diagram cases/seed000_two_rods.toml --t-end -1" + out, "--t-end: must be > 0, got -1"},
             Bad{"diagram cases/seed000_two_rods.toml --min-jump 2" + out, "--min-jump"},
             Bad{"diagram cases/seed000_two_rods.toml --out '" + (dir / "x.jpg") + "'", "use .png or .svg"},
             Bad{"diagram cases/seed000_two_rods.toml --out '" + (dir / "no/x.png") + "'", "does not exist"},
             Bad{"diagram cases/seed000_two_rods.toml --out /sys/x.png", "cannot write in directory /sys"},
             Bad{"diagram cases/seed000_two_rods.toml --method finite-difference" + out, "needs the exact wave field"},
             Bad{"diagram cases/seed000_two_rods.toml --end-time 1 --t-end 2" + out, "beyond the solver's end time"},
         }) {
        check_bad_input(b.args, b.says);
    }
    CHECK(dir.empty());
}

TEST_CASE("diagram --kind velocity --method finite-difference draws the grid solver's field", "[cli][diagram]") {
    const Scratch dir("fd");
    const auto r = run_cli("diagram cases/seed000_two_rods.toml --kind velocity --t-end 1 --method finite-difference --out '" +
                           (dir / "v.png") + "'");
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(std::filesystem::file_size(dir / "v.png") > 1000);
    // An absurd resolution is refused before anything is written.
    const auto bad = run_cli("diagram cases/seed000_two_rods.toml --kind force --method finite-difference --cells 100000000 --out '" +
                             (dir / "f.png") + "'");
    CHECK(bad.status == 2);
    CHECK(line_count(bad.err) == 1);
    CHECK_FALSE(std::filesystem::exists(dir / "f.png"));
}

TEST_CASE("diagram without gnuplot exits 1 with one line and writes nothing", "[cli][diagram][errors]") {
    const Scratch dir("nognuplot");
    const auto r = run_cli("diagram cases/seed000_two_rods.toml --out '" + (dir / "x.png") + "'",
                           where(RODCOLLIDE_SOURCE_DIR, "RODCOLLIDE_GNUPLOT=/nonexistent"));
    CHECK(r.status == 1);
    CHECK(line_count(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("gnuplot not found"));
    CHECK_THAT(r.err, Catch::Contains("RODCOLLIDE_GNUPLOT=/nonexistent"));
    CHECK(dir.empty());
}

TEST_CASE("run --plot FILE also draws the characteristics diagram", "[cli][run][diagram]") {
    const Scratch dir("runplot");
    const auto r = run_cli("run cases/seed000_three_rods.toml --plot '" + (dir / "fig6b.png") + "'");
    REQUIRE(r.status == 0);
    CHECK_THAT(r.out, Catch::Contains("impulse"));  // the usual table
    CHECK_THAT(r.out, Catch::Contains("characteristics diagram: "));
    CHECK(fs::exists(dir / "fig6b.png"));
    CHECK(fs::exists(dir / "fig6b.labels.dat"));

    const auto json = run_cli("run cases/seed000_two_rods.toml --json --plot '" + (dir / "a.svg") + "'");
    REQUIRE(json.status == 0);
    CHECK(json.out.find("characteristics diagram") == std::string::npos);  // stdout stays one JSON document
    CHECK(fs::exists(dir / "a.svg"));

    // A bad path is refused before solving: nothing printed on stdout.
    const auto bad = run_cli("run cases/seed000_two_rods.toml --plot '" + (dir / "a.gif") + "'");
    CHECK(bad.status == 2);
    CHECK(bad.out.empty());
    CHECK(line_count(bad.err) == 1);
    CHECK_FALSE(fs::exists(dir / "a.gif"));
}
