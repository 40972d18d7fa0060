// `rodcollide diagram CASE`: draws a characteristics diagram, a velocity or force field, or a
// displacement diagram of a case, with gnuplot.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>

#include <cmath>
#include <regex>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const diagram_help = R"help(usage: rodcollide diagram CASE [options]

Draws a picture of the collision described by the case file CASE, with gnuplot:

  characteristics  the x-t plane, x the material coordinate along the chain (rods side by side,
                   gaps not drawn), t upward: fronts as lines, rod ends and contacts as vertical
                   lines, compressed contacts thick, closings (filled) and openings (open
                   circles) marked, and every region of constant state labelled with its
                   velocity u_t and strain u_x. When all rods share the wave speed c and the
                   states are simple multiples, labels read like Winandy & Leine 2015 Fig. 6: "2v",
                   "-v/(2c)", with v the smallest nonzero initial speed; otherwise they are numbers in
                   SI units. Fronts weaker than --min-jump are left out and the legend says how
                   many. (default)
  velocity, force  pseudocolour fields over the x-t plane (blue negative, red positive; a
                   negative force is compression), from the exact solver or, with
                   --method finite-difference, from the grid solver.
  displacement     a de Saint-Venant displacement diagram: each rod as a band between its ends,
                   a few material points as lines, position across and time upward; gaps show
                   as white. Displacements too small or too large to show well are scaled
                   (the subtitle says by how much).
  gauges           the case's [[gauge]] signals (velocity, force, strain against time), from the
                   exact solver or, with --method finite-difference, from the grid solver.

Axes read x/l and t c/l when all rods have the same length l and wave speed c, else SI units.
The diagram ends at --t-end, by default when the chain provably settled plus one longest transit
time L/c, so the free vibration after the last contact shows.

Beside the picture go its gnuplot script and data (FILE.png -> FILE.gp, FILE.*.dat, SI values):
run `gnuplot FILE.gp` in that directory to redraw it after restyling. Nothing is written unless
gnuplot succeeds. The gnuplot used is $RODCOLLIDE_GNUPLOT if set, else the one found at build
time, else gnuplot on PATH.

examples:
  rodcollide diagram cases/seed000_three_rods.toml --out fig6b.png
  rodcollide diagram cases/steel_cradle_5.toml --kind force --out cradle-force.svg --size 1200x600
  rodcollide diagram cases/saint_venant_long_striker.toml --kind displacement
  rodcollide diagram cases/impedance_ratio_3.toml --t-end 2e-4 --min-jump 0.01

exit status: 0 drawn; 1 gnuplot missing or failed, or the solver hit a cap; 2 bad input (case
file, option, output path): nothing was written.
)help";

/// Parses "WxH" into the plot options, checked by the plotter's own validate(PlotOptions).
void apply_size(const std::string& text, PlotOptions& plot) {
    std::smatch m;
    if (!std::regex_match(text, m, std::regex(R"((\d{1,6})[xX](\d{1,6}))")))
        throw InvalidInput("size", input::wrong_type("WIDTHxHEIGHT in pixels, e.g. 1000x700", fmt::format("{:?}", text)));
    plot.width = std::stoi(m[1]);
    plot.height = std::stoi(m[2]);
    validate(plot);
}

int run_diagram(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    visible.add_options()
        ("help,h", "show this help")
        ("out,o", po::value<std::string>()->value_name("FILE"), "picture to write, .png or .svg (default: <case-stem>-<kind>.png in the current directory)")
        ("kind,k", po::value<std::string>()->value_name("KIND")->default_value("characteristics"), "characteristics, velocity, force, displacement or gauges (the case's [[gauge]] signals)")
        ("t-end", po::value<std::string>()->value_name("T"), "end of the diagram [s] (default: settling time + one longest transit time)")
        ("size", po::value<std::string>()->value_name("WxH")->default_value("1000x700"), "picture size WIDTHxHEIGHT [pixels]")
        ("min-jump", po::value<std::string>()->value_name("J")->default_value("0.001"),
         "characteristics: leave out fronts whose jump is below this fraction of the velocity scale");
    // --end-time, the solver's horizon elsewhere, is here an alias of --t-end (the picture ends
    // where the solve does): accepted, not shown, so that one name is documented.
    po::options_description aliases;
    flags.add_to(visible, &aliases);
    po::variables_map vm;
    if (auto status = parse_case_command_line("diagram", diagram_help, args, visible, vm, &aliases)) return *status;
    if (auto status = flags.read("diagram", vm)) return *status;

    FigureRequest request;
    const std::string kind_name = vm["kind"].as<std::string>();
    try {
        const std::optional<FigureKind> kind = parse_figure_kind(kind_name);
        if (!kind) {
            std::vector<std::string> kinds;
            for (FigureKind k : all_figure_kinds) kinds.push_back(to_string(k));
            throw InvalidInput("kind", input::unknown("kind", kind_name, kinds));
        }
        request.kind = *kind;
        apply_size(vm["size"].as<std::string>(), request.plot);
        request.min_jump = *number_flag(vm, "min-jump");
        input::require("min-jump", input::within(request.min_jump, {0, 1, false, true}));
        request.t_end = number_flag(vm, "t-end");
        if (!request.t_end) request.t_end = number_flag(vm, "end-time");
        if (request.t_end) input::require("t-end", input::positive(*request.t_end));
    } catch (const InvalidInput& e) {
        return usage_error("diagram", flag_error(e, visible));
    }
    const std::filesystem::path case_path = vm["case"].as<std::string>();
    request.image = vm.count("out") ? std::filesystem::path(vm["out"].as<std::string>())
                                    : std::filesystem::path(fmt::format("{}-{}.png", case_path.stem().string(), kind_name));
    // Before any work: bad input computes and writes nothing.
    if (auto status = check_output_flag("diagram", "out", request.image.string(), OutputKind::picture)) return *status;

    std::optional<Case> loaded = load_case_with_flags("diagram", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    if (vm.count("method") && c.solver.method == Method::finite_difference && !accepts_finite_difference(request.kind))
        return usage_error("diagram", fmt::format("--kind {} needs the exact wave field: use --method characteristics "
                                                  "(velocity, force and gauges also accept finite-difference)", kind_name));
    request.plot.title = figure_title(c.title, request.kind);
    request.gauges = c.gauges;
    if (request.kind == FigureKind::gauges && c.gauges.empty())
        return usage_error("diagram", "--kind gauges: the case has no [[gauge]] table");
    request.plot.dimensionless = c.dimensionless;

    ProgressReporter progress("diagram");
    c.solver.progress = progress.callback();
    Figure figure;
    try {
        figure = draw_figure(c.chain, c.solver, request);
    } catch (const PlotPathError& e) {
        return usage_error("diagram", e.what());
    } catch (const UnsupportedMethod& e) {
        return usage_error("diagram", e.what());
    } catch (const std::invalid_argument& e) {
        return usage_error("diagram", e.what());
    } catch (const PlotError& e) {
        progress.finish();
        fmt::print(stderr, "rodcollide diagram: {}\n", e.what());
        return exit_failure;
    }
    progress.finish();
    fmt::print("wrote {} (t = 0 to {:.6g}{})\n", display_path(figure.files.image), figure.t_end, c.dimensionless ? "" : " s");
    if (request.kind == FigureKind::characteristics)
        fmt::print("  {} fronts drawn, {} left out (below the visual threshold, or past the strongest {}); "
                   "{} regions, {} labelled\n",
                   figure.fronts, figure.omitted_fronts, largest_drawn_fronts, figure.regions,
                   figure.labelled_regions);
    if (figure.magnification != 1) fmt::print("  displacements and gaps drawn x{:g}\n", figure.magnification);
    fmt::print("  redraw or restyle: gnuplot {} (in {}), data:", display_path(figure.files.script.filename()),
               display_path(figure.files.script.has_parent_path() ? figure.files.script.parent_path() : "."));
    for (const auto& d : figure.files.data) fmt::print(" {}", display_path(d.filename()));
    fmt::print("\n");
    return exit_ok;
}

const RegisterCommand registered{"diagram", "draw a characteristics diagram, a velocity/force field or a displacement diagram",
                                 &run_diagram};

}  // namespace

}  // namespace rodcollide::cli
