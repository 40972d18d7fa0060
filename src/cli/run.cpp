// `rodcollide run CASE`: solves a case file and prints the outcome as a table or as JSON.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/characteristics.hpp"
#include "rodcollide/figures.hpp"
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
  rodcollide run cases/seed000_two_rods.toml --plot fig6a.png   (also draws the characteristics diagram)

options)";

int run_run(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    bool json = false;
    visible.add_options()
        ("help,h", "show this help")
        ("json", po::bool_switch(&json), "print one JSON document (keys: title, method, rods, contacts, energy, end_time, settled, ...)")
        ("plot", po::value<std::string>(), "also draw the characteristics diagram into FILE (.png or .svg), as `rodcollide diagram CASE --out FILE` does");
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("run", run_help, args, visible, vm)) return *status;
    std::optional<Case> loaded = load_case_or_report(vm["case"].as<std::string>());
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    if (auto status = flags.apply("run", vm, c.solver)) return *status;
    std::optional<FigureRequest> plot;
    if (vm.count("plot")) {
        plot.emplace();
        plot->image = vm["plot"].as<std::string>();
        plot->plot.title = figure_title(c.title, FigureKind::characteristics);
        try {  // fail before solving
            check_output_path(plot->image);
            gnuplot_executable();
        } catch (const PlotPathError& e) {
            return usage_error("run", e.what());
        }
    }

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
    if (plot) {
        const Figure figure = draw_figure(c.chain, c.solver, *plot);
        if (!json) fmt::print("\ncharacteristics diagram: {} (redraw: gnuplot {})\n", figure.files.image.string(),
                              figure.files.script.filename().string());
    }
    return exit_ok;
}

const RegisterCommand registered{"run", "solve a case file and print the outcome (table or --json)", &run_run};

}  // namespace

}  // namespace rodcollide::cli
