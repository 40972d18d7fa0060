// The validation runner: PASS and FAIL are told apart (a wrong reference fails), bad validation
// files are one-line FILE:LINE: KEY errors, globbed cross-checks follow the case directory, and
// the shipped suite loads and covers every case file.
#include "rodcollide/validation.hpp"

#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace rodcollide;
using namespace rodcollide::validation;
using rodcollide::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const char* const two_rods_case = R"(
[defaults]
length = 1.0
area = 1.0
density = 1.0
youngs_modulus = 1.0
[[rod]]
velocity = 1.0
[[rod]]
)";

/// A suite directory holding cases/two.toml and one validation file with these checks.
struct SuiteDir {
    TempDir dir;
    explicit SuiteDir(const std::string& name, const std::string& checks) : dir(name) {
        dir.write("cases/two.toml", two_rods_case);
        dir.write("suite.toml", "case = \"cases/two.toml\"\n" + checks);
    }
};

std::string error_of(const std::string& checks) {
    SuiteDir s("validation_error", checks);
    try {
        load_suite(s.dir.path());
    } catch (const ValidationFileError& e) {
        return e.what();
    }
    return "(no error)";
}

const char* const good_check = R"(
[[check]]
quantity = "final_velocities"
expected = [0, 1]
tolerance = 1e-12
source = "paper: Winandy & Leine 2015 §4.1, the velocities are exchanged"
)";

}  // namespace

TEST_CASE("validation: a correct reference passes, a wrong one fails", "[validation]") {
    SuiteDir good("validation_good", good_check);
    const Report pass = run(load_suite(good.dir.path()));
    REQUIRE(pass.rows.size() == 1);
    CHECK(pass.rows[0].pass);
    CHECK(pass.rows[0].error <= 1e-12);
    CHECK(pass.passed());

    // A deliberately wrong reference (the Newton-like (1/2, 1/2)) must fail.
    SuiteDir bad("validation_bad", R"(
[[check]]
quantity = "final_velocities"
expected = ["1/2", "1/2"]
tolerance = 1e-3
source = "closed form: deliberately wrong, to see the runner fail"
)");
    const Report fail = run(load_suite(bad.dir.path()));
    REQUIRE(fail.rows.size() == 1);
    CHECK_FALSE(fail.rows[0].pass);
    CHECK(fail.rows[0].error == Approx(0.5));
    CHECK(fail.failures() == 1);
    CHECK_FALSE(fail.passed());
    CHECK_THAT(format_table(fail), Catch::Contains("FAIL suite.toml:3"));
    CHECK(to_json(fail)["passed"] == false);
}

TEST_CASE("validation: relative tolerances and fractions", "[validation]") {
    SuiteDir s("validation_relative", R"(
[[check]]
quantity = "energy_initial"
expected = "1/2"
tolerance = 1e-12
relative = true
source = "closed form: m v^2 / 2 with m = v = 1"

[[check]]
kind = "law"
law = "newton"
masses = [1, 1, 1]
velocities = [1, 0, 0]
quantity = "final_velocities"
expected = ["-1/3", "2/3", "2/3"]
tolerance = 1e-12
source = "closed form: Newton eps = 1 for three equal balls"

[[check]]
kind = "law"
law = "newton"
masses = [1, 1, 1]
velocities = [1, 0, 0]
restitution = 1
quantity = "final_velocities"
expected = ["-1/3", "2/3", "0.6666"]
tolerance = 1e-5
relative = true
source = "closed form: Newton eps = 1, the last entry off by 6.7e-5 relative"
)");
    const Report r = run(load_suite(s.dir.path()));
    REQUIRE(r.rows.size() == 3);
    CHECK(r.rows[0].pass);
    CHECK(r.rows[1].pass);
    CHECK_FALSE(r.rows[2].pass);
    CHECK(r.rows[2].error == Approx((2.0 / 3 - 0.6666) / (2.0 / 3)).epsilon(1e-9));
    CHECK(r.rows[1].expected == "(-1/3, 2/3, 2/3)");
}

TEST_CASE("validation: errors relative to the case's velocity scale are frame-invariant", "[validation]") {
    // Two identical rods u- = (3, 1) -> u+ = (1, 3): V = 2 but max |u+| = 3. An error of 0.003 is
    // 1e-3 of max |expected| and 1.5e-3 of V.
    SuiteDir s("validation_velocity_scale", R"(
[[check]]
case = "cases/moving.toml"
quantity = "final_velocities"
expected = [1, 3.003]
tolerance = 1.2e-3
relative = true
source = "closed form: exchange of velocities, off by 0.003 on purpose"

[[check]]
case = "cases/moving.toml"
quantity = "final_velocities"
expected = [1, 3.003]
tolerance = 1.2e-3
relative = "velocity_scale"
source = "closed form: exchange of velocities, off by 0.003 on purpose"
)");
    s.dir.write("cases/moving.toml", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n"
                                     "[[rod]]\nvelocity = 3\n[[rod]]\nvelocity = 1\n");
    const Report r = run(load_suite(s.dir.path()));
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].pass);
    CHECK(r.rows[0].error == Approx(0.003 / 3.003));
    CHECK_FALSE(r.rows[1].pass);
    CHECK(r.rows[1].error == Approx(0.0015));
    CHECK(r.rows[1].tolerance == "0.0012 of V");
    CHECK_THAT(error_of("[[check]]\nkind = \"law\"\nlaw = \"newton\"\nmasses = [1, 1]\nvelocities = [1, 0]\n"
                        "quantity = \"final_velocities\"\nexpected = [0, 1]\ntolerance = 1e-12\nrelative = \"velocity_scale\"\n"
                        "source = \"closed form: two balls\"\n"),
               Catch::Contains("check[0].relative: \"velocity_scale\" needs a case's outcome"));
}

TEST_CASE("validation: a check that cannot be computed is a FAIL row, not a crash", "[validation]") {
    SuiteDir s("validation_throws", R"(
[[check]]
kind = "compare"
quantity = "effective_restitution"
expected = 1
tolerance = 1e-12
source = "closed form: placeholder for a case with no relative motion"
case = "cases/rest.toml"
)");
    s.dir.write("cases/rest.toml", "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n[[rod]]\n[[rod]]\n");
    const Report r = run(load_suite(s.dir.path()));
    REQUIRE(r.rows.size() == 1);
    CHECK_FALSE(r.rows[0].pass);
    CHECK_THAT(r.rows[0].got, Catch::StartsWith("error: undefined"));
}

TEST_CASE("validation: bad files are one-line FILE:LINE: KEY: message errors", "[validation][errors]") {
    auto line_count = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
    const std::pair<std::string, std::string> bad_files[] = {
        {"[[check]]\nquantity = \"final_velocities\"\nexpectd = [0, 1]\ntolerance = 1e-12\nsource = \"paper: x\"\n",
         "suite.toml:4: check[0].expectd: unknown key; did you mean \"expected\"?"},
        {"[[check]]\nquantity = \"final_velocities\"\nexpected = [0, 1]\ntolerance = 1e-12\n",
         "suite.toml:2: check[0].source: missing"},
        {"[[check]]\nquantity = \"final_velocities\"\nexpected = [0, 1]\ntolerance = 1e-12\n"
            "source = \"my earlier run\"\n",
         "suite.toml:6: check[0].source: must say where the reference comes from"},
        {"[[check]]\nquantity = \"final_velocity\"\nexpected = [0, 1]\ntolerance = 1e-12\nsource = \"paper: Winandy & Leine 2015\"\n",
         "suite.toml:3: check[0].quantity: unknown outcome quantity \"final_velocity\""},
        {"[[check]]\nquantity = \"final_velocities\"\nexpected = [0, 1, 2]\ntolerance = 1e-12\n"
            "source = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "suite.toml:4: check[0].expected: must have 2 values (one per rod), got 3"},
        {"[[check]]\nquantity = \"final_velocities\"\nexpected = [0, \"1/0\"]\ntolerance = 1e-12\n"
            "source = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "check[0].expected[1]: division by zero"},
        {"[[check]]\nquantity = \"final_velocities\"\nexpected = [0, 1]\ntolerance = -1\n"
            "source = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "suite.toml:5: check[0].tolerance: must be >= 0"},
        {"[[check]]\nquantity = \"velocity\"\nexpected = 1\ntolerance = 1e-12\nsource = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "check[0].at: missing"},
        {"[[check]]\nquantity = \"velocity\"\nat = [7, 1]\nexpected = 1\ntolerance = 1e-12\n"
            "source = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "suite.toml:4: check[0].at: x must be in [0, 2]"},
        {"[[check]]\nkind = \"law\"\nlaw = \"newtn\"\nmasses = [1, 1]\nvelocities = [1, 0]\n"
            "quantity = \"final_velocities\"\nexpected = [0, 1]\ntolerance = 1e-12\nsource = \"closed form: two balls\"\n",
         "suite.toml:4: check[0].law: unknown law \"newtn\""},
        {"[[check]]\nkind = \"sweep\"\ndirections = 36\nquantity = \"cone_errors\"\nexpected = 0\n"
            "tolerance = 1e-12\nsource = \"cross-check: sequential vs wave\"\n",
         "suite.toml:2: check[0].case: a sweep needs exactly 3 rods (gamma- lives in the (gamma1, gamma2) plane); the case has 2"},
        {"[[check]]\nkind = \"magic\"\n",
         "suite.toml:3: check[0].kind: unknown kind \"magic\""},
        {"[[check]]\nquantity = \n",
         "suite.toml:3: (syntax):"},
        {"[[check]]\ncase = \"cases/none.toml\"\nquantity = \"final_velocities\"\nexpected = [0, 1]\n"
            "tolerance = 1e-12\nsource = \"paper: Winandy & Leine 2015 §4.1\"\n",
         "suite.toml:3: check[0].case: cannot use \"cases/none.toml\":"},
        {"title = 3\n",
         "suite.toml:2: title: must be a string"},
        {"",
         "suite.toml:0: check: missing"},
        {"[[check]]\nkind = \"cross_method\"\ncases = \"cases/*.txt\"\nquantity = \"impulses\"\n"
            "tolerance = 1e-3\nsource = \"cross-check: fd vs exact\"\n",
         "check[0].cases: \"cases/*.txt\" matches no file"},
    };
    for (const auto& [text, message] : bad_files) {
        const std::string e = error_of(text);
        INFO(text);
        CHECK_THAT(e, Catch::Contains(message));
        CHECK(line_count(e) == 0);
    }
}

TEST_CASE("validation: cross-method checks cover every case the pattern matches, found at run time", "[validation]") {
    SuiteDir s("validation_glob", R"toml(
[[check]]
kind = "cross_method"
cases = "cases/*.toml"
method = "characteristics"
reference_method = "characteristics"
quantity = "final_velocities"
tolerance = 1e-12
relative = true
source = "cross-check: the exact solver against itself (a test of the runner only)"
)toml");
    CHECK(load_suite(s.dir.path()).checks.size() == 1);
    s.dir.write("cases/another.toml", two_rods_case);  // a new case is covered without editing
    const Suite suite = load_suite(s.dir.path());
    REQUIRE(suite.checks.size() == 2);
    CHECK(suite.checks[0].name == "another");
    const Report r = run(suite);
    CHECK(r.passed());
    CHECK_THAT(r.rows[0].expected, Catch::Contains("(0, 1)"));
}

TEST_CASE("validation: the shipped suite loads and covers every file in cases/", "[validation]") {
    const Suite suite = load_suite(fs::path(RODCOLLIDE_SOURCE_DIR) / "validation");
    CHECK(suite.checks.size() > 100);
    std::set<std::pair<std::string, std::string>> cross;  // (case, quantity) of the solver cross-checks
    for (const Check& c : suite.checks) {
        if (c.kind == Kind::cross_method) cross.insert({c.case_data->path.lexically_normal().string(), c.quantity});
        CHECK_FALSE(c.source.empty());
    }
    // Both solvers on every example: final velocities and impulses, and what passes through the
    // ends of those in cases/ends.
    std::size_t case_files = 0;
    for (const char* dir : {"cases", "cases/ends"})
        for (const auto& e : fs::directory_iterator(fs::path(RODCOLLIDE_SOURCE_DIR) / dir)) {
            if (e.path().extension() != ".toml") continue;
            ++case_files;
            INFO(e.path().string());
            const std::string path = e.path().lexically_normal().string();
            std::vector<std::string> quantities = {"final_velocities", "impulses"};
            if (std::string(dir) == "cases/ends") quantities.insert(quantities.end(), {"end_impulses", "energy_radiated"});
            for (const std::string& q : quantities) CHECK(cross.count({path, q}) == 1);
        }
    CHECK(case_files >= 12);
}
