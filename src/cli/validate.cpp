// `rodcollide validate [DIR]`: runs the validation suite (include/rodcollide/validation.hpp) and
// prints its table; exit status 1 if any check fails, 2 for a bad validation file.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/validation.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <optional>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const validate_help = R"(usage: rodcollide validate [DIR | FILE] [--json]

Runs the validation suite: every *.toml file in DIR (default: validation/), or one FILE. Each file
lists reference quantities — a case's outcome or wave field at a point, a rigid law's result, a
comparison, a three-rod sweep, or one solver against another on every case file — with the
expected value, its tolerance and the source of the reference (a paper and equation, a closed
form, or a cross-check between solvers or laws). The format is in docs/validation.md.

Prints one row per quantity (case, quantity, expected, got, error, tolerance, source, PASS/FAIL),
then every failure in full.

exit status: 0 every check passed, 1 a check failed, 2 a validation file (or a case file it names)
is malformed: one line FILE:LINE: KEY: message, nothing computed.

examples:
  rodcollide validate
  rodcollide validate validation/rigid_laws.toml
  rodcollide validate --json | jq '.rows[] | select(.pass | not)'
)";

int run_validate(const std::vector<std::string>& args) {
    po::options_description visible("options");
    visible.add_options()
        ("help,h", "show this help")
        ("json", "print one JSON document {passed, failures, rows: [...]} instead of the table");
    po::options_description all;
    all.add(visible).add_options()("path", po::value<std::string>()->default_value("validation"), "directory or file");
    po::positional_options_description positional;
    positional.add("path", 1);

    po::variables_map vm;
    if (auto status = parse_command_line("validate", args, all, positional, vm)) return *status;
    if (vm.count("help")) {
        fmt::print("{}\n{}", validate_help, to_string(visible));
        return exit_ok;
    }
    std::optional<validation::Suite> suite;
    try {
        suite = validation::load_suite(vm["path"].as<std::string>());
    } catch (const validation::ValidationFileError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return exit_bad_input;
    }
    ProgressReporter progress("validate");
    const validation::Report report =
        validation::run(*suite, [&progress](std::size_t done, std::size_t total) { progress.report(done, total); });
    progress.finish();
    if (vm.count("json"))
        fmt::print("{}\n", validation::to_json(report).dump(2));
    else
        fmt::print("{}", validation::format_table(report));
    return report.passed() ? exit_ok : exit_failure;
}

const RegisterCommand registered{"validate", "run the validation suite (validation/): reference quantities, PASS/FAIL table",
                                 &run_validate};

}  // namespace

}  // namespace rodcollide::cli
