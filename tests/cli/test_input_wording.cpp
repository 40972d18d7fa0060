// One wording per kind of mistake across the front ends: a solver option given as a command-line
// flag reads exactly as the same value given as a case-file key, and a ball's mass on the `laws`
// command line as in a validation file.
#include "cli_checks.hpp"
#include "temp_dir.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/validation.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace rodcollide;
using rodcollide::testing::run_cli;
using rodcollide::testing::TempDir;

namespace {

const std::string two_rods = "[defaults]\nlength = 1\narea = 1\ndensity = 1\nyoungs_modulus = 1\n"
                             "[[rod]]\nvelocity = 1\n[[rod]]\n";

/// The message of a case file whose [solver] has `key = value`, after "FILE:LINE: solver.KEY: ".
std::string case_file_message(const std::string& key, const std::string& value) {
    try {
        parse_case(two_rods + "[solver]\n" + key + " = " + value + "\n", "x.toml");
    } catch (const CaseError& e) {
        CHECK(e.key() == "solver." + key);
        CHECK(e.line() == 10);
        return e.message();
    }
    FAIL("the case file accepted " << key << " = " << value);
    return {};
}

/// The message of `rodcollide run CASE --FLAG value`, after "rodcollide run: --FLAG: ".
std::string flag_message(const std::string& flag, const std::string& value) {
    const auto r = run_cli("run cases/seed000_two_rods.toml --" + flag + " '" + value + "'");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    const std::string prefix = "rodcollide run: --" + flag + ": ";
    REQUIRE(r.err.starts_with(prefix));
    REQUIRE(r.err.ends_with("\n"));
    return r.err.substr(prefix.size(), r.err.size() - prefix.size() - 1);
}

}  // namespace

TEST_CASE("the same mistake reads the same as a flag and as a case-file key", "[input][cli]") {
    struct Mistake {
        std::string flag, key, flag_value, toml_value, message;
    };
    const Mistake mistakes[] = {
        {"end-time", "end_time", "0", "0", "must be > 0, got 0"},
        {"end-time", "end_time", "-2.5", "-2.5", "must be > 0, got -2.5"},
        {"end-time", "end_time", "nan", "nan", "must be finite, got nan"},
        {"end-time", "end_time", "inf", "inf", "must be finite, got inf"},
        {"end-time", "end_time", "1e999", "1e999", "1e999 is out of range for a double"},
        {"drop-tolerance", "drop_tolerance", "1", "1", "must be in [0, 0.01], got 1"},
        {"drop-tolerance", "drop_tolerance", "-0.001", "-0.001", "must be in [0, 0.01], got -0.001"},
        {"time-resolution", "time_resolution", "1", "1", "must be in [0, 0.25], got 1"},
        {"time-resolution", "time_resolution", "nan", "nan", "must be finite, got nan"},
        {"cells", "cells", "0", "0", "must be > 0, got 0"},
        {"cells", "cells", "-5", "-5", "must be > 0, got -5"},
        {"cells", "cells", "1.5", "1.5", "must be an integer, got a float (1.5)"},
        {"cells", "cells", "100000001", "100_000_001", "must be in [1, 100000000], got 100000001"},
        {"cells", "cells", "99999999999999999999", "99999999999999999999",
         "99999999999999999999 is out of range for a 64-bit integer"},
        {"max-events", "max_events", "0", "0", "must be > 0, got 0"},
        {"max-events", "max_events", "2.5", "2.5", "must be an integer, got a float (2.5)"},
        {"max-events", "max_events", "10000000001", "10_000_000_001", "must be in [1, 10000000000], got 10000000001"},
        {"method", "method", "rk4", "\"rk4\"", "unknown method \"rk4\"; valid: characteristics, finite-difference"},
    };
    for (const Mistake& m : mistakes) {
        INFO("--" << m.flag << " " << m.flag_value << " / " << m.key << " = " << m.toml_value);
        const std::string from_flag = flag_message(m.flag, m.flag_value);
        const std::string from_file = case_file_message(m.key, m.toml_value);
        CHECK(from_flag == m.message);
        CHECK(from_file == m.message);
    }
}

TEST_CASE("a ball's mass reads the same on the laws command line and in a validation file", "[input][cli]") {
    const auto r = run_cli("laws --law newton --masses 1,0,1 --velocities 1,0,0");
    CHECK(r.status == 2);
    CHECK(r.err == "rodcollide laws: --masses: must be > 0, got 0 (ball 2)\n");
    const auto few = run_cli("laws --law newton --masses 1,1 --velocities 1,0,0");
    CHECK(few.err == "rodcollide laws: --velocities: must have 2 values (one per ball), got 3\n");

    TempDir dir("input_wording");
    const auto check = [&](const std::string& masses, const std::string& velocities) {
        const std::string text = "[[check]]\nkind = \"law\"\nlaw = \"newton\"\nmasses = " + masses +
                                 "\nvelocities = " + velocities +
                                 "\nquantity = \"energy_ratio\"\nexpected = 1\ntolerance = 0\n"
                                 "source = \"closed form: elastic balls\"\n";
        try {
            validation::parse_validation_file(text, "v.toml", dir.path());
        } catch (const validation::ValidationFileError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    CHECK(check("[1, 0, 1]", "[1, 0, 0]") == "v.toml:4: check[0].masses: must be > 0, got 0 (ball 2)");
    CHECK(check("[1, 1]", "[1, 0, 0]") == "v.toml:5: check[0].velocities: must have 2 values (one per ball), got 3");
}
