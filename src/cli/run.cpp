// `rodcollide run CASE`: solves a case file and prints the outcome as a table or as JSON.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/contact_forces.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/output_file.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "rodcollide/outcome_report.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <boost/program_options.hpp>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const run_help = R"(usage: rodcollide run CASE [options]

Solves the collision described by the case file CASE (TOML, see docs/case_file.md) and prints
its outcome: each rod's mass, initial and final velocity (momentum / mass once no contact can
happen again) and vibration energy; each contact's impulse and the intervals during which it was
compressed; the energy split between rigid motion and vibration; and the time by which the chain
provably settled.

The characteristics solver is exact to rounding (front tracking on the Riemann invariants).
--method finite-difference solves on a staggered grid instead (--cells in the rod with the
shortest transit time, default 1000): exact where the transit times are commensurate, a
convergent approximation otherwise; energy.dropped then reports the scheme's energy drift.
Options given here override the case file's [solver] table.

--field-csv FILE writes the velocity and force fields over the run for plots: CSV lines
t,x,rod,velocity,force (s, m, -, m/s, N; x along the rods laid end to end, gaps not drawn),
at most --field-times x --field-positions samples.

Gauges ([[gauge]] in the case file) record velocity, force and strain at a point: --gauges FILE
writes them as one CSV (time, then NAME_velocity, NAME_force, NAME_strain per gauge), and --json
adds "gauges". With --json, contacts and walls get a "force_history" when --samples is given or
the case has gauges or ends that are not free. Signals and histories have at most --samples
points each (default 1000, at most 100000). Gauge signals run to the horizon ([solver] end_time)
or two transits of the whole chain past settling. With --method finite-difference they are read
from the grid's element ends (exact at Courant 1; docs/finite_difference.md "Gauges").

--contact-forces FILE writes the force of every contact, wall and spring/dashpot end over the run
as one CSV: time, then contact_K (rods K and K+1), left_wall / right_wall and left_end / right_end
[N, positive in tension], at --samples equally spaced times over [0, end_time] and at every
closing and opening: the same samples as Python's Outcome.contact_forces() (docs/python.md).

Compliant junctions and rigid masses (issue 23: contact_stiffness, kind = "mass", spring and
dashpot ends; docs/physics.md §9) in a chain with rods run with either method: the exact solver
carries them as a delay network (§9.10: rods exact, junctions to its stated accuracy; loads and
rods of segments included), with their field (--field-csv) and gauges sampled as it runs; --plot
(the characteristics diagram of piecewise-constant waves) is refused there: their waves are smooth
(rodcollide diagram CASE --kind velocity, force or gauges draws them, by either method).
A chain of masses with no rod runs with either method (the exact solver integrates its ODE system
to the stated accuracy; finite differences by velocity Verlet), with no field, diagram or gauges.
A spring or dashpot end never lets the chain settle: give --end-time. Their outcome adds
energy.contact and energy.dissipated; a mass has its entry in "rods" (vibration_energy 0).

Balls and Hertz contacts (issue 24: kind = "ball" with radius and poisson_ratio, end_radius on
rods, restitution; docs/physics.md §9.7-9.8) run the same way: a contact with a curved side is
Hertz's F = k δ^1.5 unless contact_stiffness is given, and restitution's hysteresis loss adds to
energy.dissipated.

examples:
  rodcollide run cases/seed000_three_rods.toml
  rodcollide run cases/steel_cradle_5.toml --json | jq '.rods[].final_velocity'
  rodcollide run cases/seed000_two_rods.toml --plot fig6a.png   (also draws the characteristics diagram)
  rodcollide run cases/saint_venant_short_striker.toml --method finite-difference --cells 200
  rodcollide run cases/seed000_two_rods.toml --method finite-difference --field-csv field.csv
  rodcollide run cases/ends/split_hopkinson_bar.toml --gauges shpb.csv
  rodcollide run cases/ends/split_hopkinson_bar.toml --method finite-difference --gauges shpb-fd.csv
  rodcollide run cases/compliant/rod_spring_backed_wall.toml --contact-forces wall.csv
  rodcollide run cases/balls/steel_ball_on_rod.toml
)";

int run_run(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    bool json = false;
    std::string field_csv, gauges_csv_path, forces_csv_path;
    visible.add_options()
        ("help,h", "show this help")
        ("json", po::bool_switch(&json), "print one JSON document (keys: title, method, rods, contacts, energy, end_time, settled, ...)")
        ("plot", po::value<std::string>()->value_name("FILE"), "also draw the characteristics diagram into FILE (.png or .svg), as `rodcollide diagram CASE --out FILE` does")
        ("field-csv", po::value(&field_csv)->value_name("FILE"), "write the velocity and force fields over the run to this CSV file")
        ("field-times", po::value<std::string>()->value_name("N"), "--field-csv: at most this many sample times, 2 to 2000 (default 500)")
        ("field-positions", po::value<std::string>()->value_name("N"), "--field-csv: at most this many positions along the chain, 1 to 2000 (default 500)")
        ("gauges", po::value(&gauges_csv_path)->value_name("FILE"), "write the [[gauge]] signals to this CSV file")
        ("contact-forces", po::value(&forces_csv_path)->value_name("FILE"), "write the force of every contact, wall and spring/dashpot end over the run to this CSV file")
        ("samples", po::value<std::string>()->value_name("N"), "points per gauge signal and per force history, 2 to 100000 (default 1000)");
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("run", run_help, args, visible, vm)) return *status;
    if (auto status = flags.read("run", vm)) return *status;
    std::optional<std::int64_t> field_times, field_positions, samples_flag;
    try {
        field_times = integer_flag(vm, "field-times");
        field_positions = integer_flag(vm, "field-positions");
        samples_flag = integer_flag(vm, "samples");
        if (samples_flag)
            input::require("samples", input::integer_within(*samples_flag, 2, largest_samples));
    } catch (const InvalidInput& e) {
        return usage_error("run", flag_error(e, visible));
    }
    // Output paths are checked before any work: bad input computes and writes nothing.
    if (vm.count("plot"))
        if (auto status = check_output_flag("run", "plot", vm["plot"].as<std::string>(), OutputKind::picture)) return *status;
    if (vm.count("field-csv"))
        if (auto status = check_output_flag("run", "field-csv", field_csv)) return *status;
    if (!gauges_csv_path.empty())
        if (auto status = check_output_flag("run", "gauges", gauges_csv_path)) return *status;
    if (!forces_csv_path.empty())
        if (auto status = check_output_flag("run", "contact-forces", forces_csv_path)) return *status;
    std::optional<Case> loaded = load_case_with_flags("run", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    const std::size_t samples = samples_flag ? static_cast<std::size_t>(*samples_flag) : default_samples;
    if (!gauges_csv_path.empty() && c.gauges.empty())
        return usage_error("run", "--gauges: the case has no [[gauge]] table");
    const bool want_gauges = !c.gauges.empty() && (json || !gauges_csv_path.empty());
    if (!forces_csv_path.empty() && !has_contact_forces(c.chain))
        return usage_error("run", "--contact-forces: the case has no contact, wall or spring/dashpot end");
    if (json)
        c.solver.force_samples = reported_force_samples(
            c.chain, !c.gauges.empty(),
            samples_flag ? std::optional(static_cast<std::size_t>(*samples_flag)) : std::nullopt);
    if (!forces_csv_path.empty()) c.solver.force_samples = std::max(c.solver.force_samples, samples);
    if (vm.count("plot") && c.chain.elements().empty())
        return usage_error("run", "--plot: a chain of rigid bodies only (no rod) has no characteristics diagram");
    if (vm.count("plot") && c.solver.method == Method::characteristics && c.chain.compliant())
        return usage_error("run", "solver.method: " + compliant_field_refusal("the exact (characteristics) solver"));
    std::optional<FigureRequest> plot;
    if (vm.count("plot")) {
        plot.emplace();
        plot->image = vm["plot"].as<std::string>();
        plot->plot.title = figure_title(c.title, FigureKind::characteristics);
        plot->plot.dimensionless = c.dimensionless;
        gnuplot_executable();  // fail before solving
    }
    FieldResolution resolution;
    try {  // FieldResolution's fields are the flags --field-times and --field-positions
        if (field_times) resolution.times = to_count("times", *field_times);
        if (field_positions) resolution.positions = to_count("positions", *field_positions);
        validate(resolution);
    } catch (const InvalidInput& e) {
        return usage_error("run", fmt::format("--field-{}: {}", e.key(), e.message()));
    }

    ProgressReporter progress("run");
    c.solver.progress = progress.callback();
    Outcome outcome;
    std::optional<FieldSamples> field;
    std::optional<FigureSource> figure_source;
    std::vector<GaugeSignal> gauges;
    try {
        if (want_gauges) {
            SolutionWithGauges s = solve_with_gauges(c.chain, c.solver, c.gauges, samples);
            outcome = std::move(s.outcome);
            gauges = std::move(s.gauges);
        } else if (plot && c.solver.method == Method::characteristics && field_csv.empty()) {
            // One exact solve gives both the outcome and the diagram. Recording changes the outcome by
            // rounding only: it keeps absolute times and every reflection (docs/physics.md §6.6).
            try {
                figure_source = solve_figure(c.chain, c.solver, *plot);
                outcome = *figure_source->exact_outcome();
            } catch (const SolverLimitExceeded&) {
                // Only the diagram's history or recording hit the cap: report the outcome, then
                // let drawing fail on it below.
                outcome = solve(c.chain, c.solver);
            }
        } else if (field_csv.empty()) {
            outcome = solve(c.chain, c.solver);
        }
        // The field's own solve (the gauges' keeps the outcome it already has: the same).
        if (!field_csv.empty()) {
            SolutionWithField s = solve_with_field(c.chain, c.solver, resolution.times, resolution.positions);
            if (!want_gauges) outcome = std::move(s.outcome);
            field = std::move(s.field);
        }
    } catch (const UnsupportedMethod& e) {
        return usage_error("run", e.what());
    } catch (const InvalidResolution& e) {
        progress.finish();
        return usage_error("run", e.what());
    }
    progress.finish();
    if (field) write_field_csv(*field, c.title, field_csv);
    if (!gauges_csv_path.empty()) write_file_atomically(gauges_csv_path, gauges_csv(gauges));
    if (!forces_csv_path.empty()) write_file_atomically(forces_csv_path, contact_forces_csv(sample_contact_forces(outcome, samples)));
    if (json) {
        nlohmann::ordered_json doc = outcome_json(c.title, outcome);
        if (want_gauges) doc["gauges"] = gauges_json(gauges);
        fmt::print("{}\n", doc.dump(2));
    } else {
        fmt::print("{}", outcome_table(c.title, outcome));
    }
    for (const std::string& w : outcome.warnings) fmt::print(stderr, "rodcollide run: warning: {}\n", w);
    if (plot) {
        const Figure figure = figure_source ? draw_solved_figure(c.chain, *figure_source, *plot)
                                            : draw_figure(c.chain, c.solver, *plot);
        if (!json)
            fmt::print("\ncharacteristics diagram: {} (redraw: gnuplot {} in {})\n", display_path(figure.files.image),
                       display_path(figure.files.script.filename()),
                       display_path(figure.files.script.has_parent_path() ? figure.files.script.parent_path() : "."));
    }
    return exit_ok;
}

const RegisterCommand registered{"run", "solve a case file and print the outcome (table or --json)", &run_run};

}  // namespace

}  // namespace rodcollide::cli
