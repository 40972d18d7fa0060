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

const char* const diagram_help = R"(usage: rodcollide diagram CASE [options]

Draws a picture of the collision described by the case file CASE, with gnuplot:

  characteristics  the x-t plane, x the material coordinate along the chain (rods side by side,
                   gaps not drawn), t upward: fronts as lines, rod ends and contacts as vertical
                   lines, compressed contacts thick, closings (filled) and openings (open
                   circles) marked, and every region of constant state labelled with its
                   velocity u_t and strain u_x. When all rods share the wave speed c and the
                   states are simple multiples, labels read like seed 000 Fig. 6: "2v", "-v/2c",
                   with v the smallest nonzero initial speed; otherwise they are numbers in SI
                   units. Fronts weaker than --min-jump are left out and the legend says how
                   many. (default)
  velocity, force  pseudocolour fields over the x-t plane (blue negative, red positive; a
                   negative force is compression), from the exact solver or, with
                   --method finite-difference, from the grid solver.
  displacement     a de Saint-Venant displacement diagram: each rod as a band between its ends,
                   a few material points as lines, position across and time upward; gaps show
                   as white. Displacements too small or too large to show well are scaled
                   (the subtitle says by how much).

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
)";

/// Parses "WxH" into the plot options; nullopt on success, else the exit status.
std::optional<int> apply_size(const std::string& text, PlotOptions& plot) {
    std::smatch m;
    if (!std::regex_match(text, m, std::regex(R"((\d{1,6})[xX](\d{1,6}))")))
        return usage_error("diagram", fmt::format("--size: expected WIDTHxHEIGHT in pixels, e.g. 1000x700, got '{}'", text));
    plot.width = std::stoi(m[1]);
    plot.height = std::stoi(m[2]);
    if (plot.width < smallest_plot_size || plot.width > largest_plot_size || plot.height < smallest_plot_size ||
        plot.height > largest_plot_size)
        return usage_error("diagram", fmt::format("--size: each side must be between {} and {} pixels, got {}",
                                                  smallest_plot_size, largest_plot_size, text));
    return std::nullopt;
}

int run_diagram(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    visible.add_options()
        ("help,h", "show this help")
        ("out,o", po::value<std::string>(), "picture to write, .png or .svg (default: <case-stem>-<kind>.png in the current directory)")
        ("kind,k", po::value<std::string>()->default_value("characteristics"), "characteristics, velocity, force or displacement")
        ("t-end", po::value<double>(), "end of the diagram [s] (default: settling time + one longest transit time)")
        ("size", po::value<std::string>()->default_value("1000x700"), "picture size WIDTHxHEIGHT [pixels]")
        ("min-jump", po::value<double>()->default_value(1e-3),
         "characteristics: leave out fronts whose jump is below this fraction of the velocity scale");
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("diagram", diagram_help, args, visible, vm)) return *status;

    FigureRequest request;
    const std::string kind_name = vm["kind"].as<std::string>();
    const std::optional<FigureKind> kind = parse_figure_kind(kind_name);
    if (!kind)
        return usage_error("diagram", fmt::format("--kind: unknown kind '{}' (use characteristics, velocity, force or displacement)", kind_name));
    request.kind = *kind;
    if (auto status = apply_size(vm["size"].as<std::string>(), request.plot)) return *status;
    request.min_jump = vm["min-jump"].as<double>();
    if (!std::isfinite(request.min_jump) || request.min_jump < 0 || request.min_jump >= 1)
        return usage_error("diagram", fmt::format("--min-jump: must be in [0, 1), got {}", request.min_jump));
    if (vm.count("t-end")) request.t_end = vm["t-end"].as<double>();
    const std::filesystem::path case_path = vm["case"].as<std::string>();
    request.image = vm.count("out") ? std::filesystem::path(vm["out"].as<std::string>())
                                    : std::filesystem::path(fmt::format("{}-{}.png", case_path.stem().string(), kind_name));

    std::optional<Case> loaded = load_case_or_report(case_path);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    if (auto status = flags.apply("diagram", vm, c.solver)) return *status;
    if (vm.count("method") && c.solver.method == Method::finite_difference && !accepts_finite_difference(request.kind))
        return usage_error("diagram", fmt::format("--kind {} needs the exact wave field: use --method characteristics "
                                                  "(velocity and force also accept finite-difference)", kind_name));
    request.plot.title = figure_title(c.title, request.kind);

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
    fmt::print("wrote {} (t = 0 to {:.6g} s)\n", figure.files.image.string(), figure.t_end);
    if (request.kind == FigureKind::characteristics)
        fmt::print("  {} fronts drawn, {} left out (below the visual threshold, or past the strongest {}); "
                   "{} regions, {} labelled\n",
                   figure.fronts, figure.omitted_fronts, DiagramOptions{}.max_fronts, figure.regions,
                   figure.labelled_regions);
    if (figure.magnification != 1) fmt::print("  displacements and gaps drawn x{:g}\n", figure.magnification);
    fmt::print("  redraw or restyle: gnuplot {} (in {}), data:", figure.files.script.filename().string(),
               figure.files.script.has_parent_path() ? figure.files.script.parent_path().string() : ".");
    for (const auto& d : figure.files.data) fmt::print(" {}", d.filename().string());
    fmt::print("\n");
    return exit_ok;
}

const RegisterCommand registered{"diagram", "draw a characteristics diagram, a velocity/force field or a displacement diagram",
                                 &run_diagram};

}  // namespace

}  // namespace rodcollide::cli
