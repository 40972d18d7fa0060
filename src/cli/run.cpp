// `rodcollide run CASE`: solves a case file and prints the outcome as a table or as JSON.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/characteristics.hpp"
#include "rodcollide/report.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const run_help = R"(usage: rodcollide run CASE [options]

Solves the collision described by the case file CASE (TOML, see README "Case files") and prints
its outcome: each rod's mass, initial and final velocity (momentum / mass once no contact can
happen again) and vibration energy; each contact's impulse and the intervals during which it was
compressed; the energy split between rigid motion and vibration; and the time by which the chain
provably settled.

The characteristics solver is exact to rounding (front tracking on the Riemann invariants).
Options given here override the case file's [solver] table.

examples:
  rodcollide run cases/seed000_three_rods.toml
  rodcollide run cases/steel_cradle_5.toml --json | jq '.rods[].final_velocity'

options)";

int run_run(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    bool json = false;
    visible.add_options()
        ("help,h", "show this help")
        ("json", po::bool_switch(&json), "print one JSON document (keys: title, method, rods, contacts, energy, end_time, settled, ...)");
    flags.add_to(visible);
    po::options_description all;
    all.add(visible).add_options()("case", po::value<std::string>(), "case file");
    po::positional_options_description positional;
    positional.add("case", 1);

    po::variables_map vm;
    if (auto status = parse_command_line("run", args, all, positional, vm)) return *status;
    if (vm.count("help")) {
        fmt::print("{}\n{}", run_help, to_string(visible));
        return exit_ok;
    }
    if (!vm.count("case")) return usage_error("run", "missing CASE (a case file; see rodcollide run --help)");

    std::optional<Case> loaded;
    try {
        loaded = load_case(vm["case"].as<std::string>());
    } catch (const CaseError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return exit_bad_input;
    }
    Case& c = *loaded;
    if (auto status = flags.apply("run", vm, c.solver)) return *status;

    ProgressReporter progress("run");
    c.solver.progress = progress.callback();
    Outcome outcome;
    try {
        outcome = solve(c.chain, c.solver);
    } catch (const UnsupportedMethod& e) {
        return usage_error("run", e.what());
    }
    progress.finish();
    if (json) {
        fmt::print("{}\n", outcome_json(c.title, outcome).dump(2));
    } else {
        fmt::print("{}", outcome_table(c.title, outcome));
    }
    for (const std::string& w : outcome.warnings) fmt::print(stderr, "rodcollide run: warning: {}\n", w);
    return exit_ok;
}

const RegisterCommand registered{"run", "solve a case file and print the outcome (table or --json)", &run_run};

}  // namespace

}  // namespace rodcollide::cli
