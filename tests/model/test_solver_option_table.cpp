// The one table of [solver] options (solver_option_table.hpp) and every place that reads it: the
// case reader accepts each key and names it in its errors, the command line has each flag with its
// help and default, and the fuzz mutator's [solver] keys are the table's. (The Python module:
// python/tests/test_input.py, test_solver_keywords_are_the_option_table.)
#include "case_mutator.hpp"
#include "run_cli.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solver_option_table.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

using namespace rodcollide;

namespace {

const char* const rods = "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\nvelocity = 1.0\n"
                         "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\nvelocity = 0.0\n";

/// A value every option of this type accepts, as TOML.
std::string valid_value(OptionType type) {
    switch (type) {
        case OptionType::method: return "\"finite-difference\"";
        case OptionType::number: return "0.005";  // within every number's range
        case OptionType::count: return "1000";
        case OptionType::on_off: return "false";
    }
    return "";
}

/// A value of the wrong type for this option, as TOML.
std::string wrong_value(OptionType type) { return type == OptionType::on_off ? "1.0" : "true"; }

Case case_with(const SolverOptionSpec& o, const std::string& value) {
    return parse_case(fmt::format("[solver]\n{} = {}\n{}", o.key, value, rods), "table.toml");
}

/// Runs of blanks (boost's line wrapping) as one space.
std::string squeezed(const std::string& s) {
    std::string out;
    for (char c : s) {
        const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
        if (blank && (out.empty() || out.back() == ' ')) continue;
        out += blank ? ' ' : c;
    }
    return out;
}

}  // namespace

TEST_CASE("option table: keys are unique and every row is complete", "[solver_options]") {
    std::set<std::string_view> keys;
    for (const SolverOptionSpec& o : solver_option_table()) {
        INFO(o.key);
        CHECK(keys.insert(o.key).second);
        CHECK(find_solver_option(o.key) == &o);
        CHECK(!o.help.empty());
        CHECK(o.set != nullptr);
        CHECK(option_help(o).find('{') == std::string::npos);  // every placeholder filled
    }
    CHECK(find_solver_option("no_such_option") == nullptr);
}

TEST_CASE("option table: defaults and limits are printed from the constants", "[solver_options]") {
    CHECK(short_number(3e8) == "3e8");
    CHECK(short_number(1e-12) == "1e-12");
    CHECK(short_number(0.02) == "0.02");
    CHECK(short_number(1e10) == "1e10");
    CHECK(find_solver_option("max_events")->default_text() == short_number(static_cast<double>(SolverOptions{}.max_events)));
    CHECK(find_solver_option("cells")->default_text() == std::to_string(default_cells));
    CHECK(find_solver_option("drop_tolerance")->largest_text() == short_number(largest_drop_tolerance));
    CHECK(find_solver_option("rounding_check")->default_text() == (SolverOptions{}.rounding_check ? "on" : "off"));
    CHECK(option_help(*find_solver_option("time_resolution")).find(std::to_string(SolverOptions{}.exact_fronts)) !=
          std::string::npos);
}

TEST_CASE("option table: the case reader accepts every key and names it in its errors", "[solver_options]") {
    for (const SolverOptionSpec& o : solver_option_table()) {
        INFO(o.key);
        CHECK_NOTHROW(case_with(o, valid_value(o.type)));
        try {
            case_with(o, wrong_value(o.type));
            FAIL("a value of the wrong type was accepted");
        } catch (const CaseError& e) {
            CHECK(e.key() == fmt::format("solver.{}", o.key));
        }
    }
    // Setting through the table is what the reader does: the parsed options equal those set.
    SolverOptions expected;
    find_solver_option("max_events")->set(expected, OptionValue{std::size_t{1000}});
    CHECK(case_with(*find_solver_option("max_events"), "1000").solver.max_events == expected.max_events);
    find_solver_option("rounding_check")->set(expected, OptionValue{false});
    CHECK(case_with(*find_solver_option("rounding_check"), "false").solver.rounding_check == expected.rounding_check);
}

TEST_CASE("option table: every flag in --help with its help and default, and accepted", "[solver_options][cli]") {
    for (const char* command : {"run", "compare", "sweep", "diagram"}) {
        const std::string help = squeezed(testing::run_cli(fmt::format("{} --help", command)).out);
        for (const SolverOptionSpec& o : solver_option_table()) {
            if (o.value_name.empty()) continue;  // case file only
            if (std::string(command) == "diagram" && o.key == "end_time") continue;  // an alias there (--t-end)
            INFO(command << " --" << option_flag(o));
            CHECK(help.find(fmt::format("--{} {}", option_flag(o), o.value_name)) != std::string::npos);
            CHECK(help.find(squeezed(option_help(o))) != std::string::npos);
        }
    }
    for (const SolverOptionSpec& o : solver_option_table()) {
        if (o.value_name.empty()) continue;
        const std::string value = o.type == OptionType::method   ? "characteristics"
                                  : o.type == OptionType::on_off ? "off"
                                  : o.type == OptionType::count  ? "100000"
                                                                 : "0.005";
        INFO("--" << option_flag(o) << " " << value);
        const testing::CliResult r =
            testing::run_cli(fmt::format("run cases/seed000_three_rods.toml --{} {}", option_flag(o), value));
        CHECK(r.err.find("unrecognised") == std::string::npos);
        CHECK(r.err.find("unknown") == std::string::npos);
    }
}

TEST_CASE("option table: the fuzz mutator writes every [solver] key", "[solver_options][fuzz]") {
    const auto row = std::ranges::find(fuzz::case_keys, std::string_view("solver"), &fuzz::TableKeys::table);
    REQUIRE(row != fuzz::case_keys.end());
    std::set<std::string_view> mutated;
    for (std::string_view k : row->keys)
        if (!k.empty()) mutated.insert(k);
    std::set<std::string_view> table;
    for (const SolverOptionSpec& o : solver_option_table()) table.insert(o.key);
    CHECK(mutated == table);
}

TEST_CASE("option table: docs/case_file.md has a [solver] row and docs/cli.md a flag for every option",
          "[solver_options][docs]") {
    const auto read = [](const char* name) {
        std::ifstream in(std::string(RODCOLLIDE_SOURCE_DIR) + "/docs/" + name);
        REQUIRE(in);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string case_file = read("case_file.md"), cli = read("cli.md");
    const std::size_t solver = case_file.find("### `[solver]`");
    REQUIRE(solver != std::string::npos);
    const std::string solver_table = case_file.substr(solver, case_file.find("\n### ", solver + 1) - solver);
    for (const SolverOptionSpec& o : solver_option_table()) {
        INFO(o.key);
        CHECK(solver_table.find(fmt::format("| `{}` |", o.key)) != std::string::npos);
        if (!o.value_name.empty())  // a flag (record_until is in case files only)
            CHECK(cli.find(fmt::format("| `--{} ", option_flag(o))) != std::string::npos);
    }
}
