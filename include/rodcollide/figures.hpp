// From a case to a picture: solve once for what the figure needs, build the diagram's data, draw
// it. This is what `rodcollide diagram` and `rodcollide run --plot` do; `sweep --plot` draws the
// cone map (write_sweep_plot). Drawing is gnuplot's, and each picture comes with its data files
// and the gnuplot script that draws it, so it can be restyled without rodcollide:
//   FILE.png (or .svg)   the picture
//   FILE.gp              the script; `gnuplot FILE.gp` in that directory redraws FILE.png
//   FILE.<part>.dat      its data, in SI units, columns described in each file's header
// A failure leaves no file behind.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/gauge.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/output_file.hpp"
#include "rodcollide/solver_options.hpp"
#include "rodcollide/sweep.hpp"
#include "rodcollide/cone_sweep.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rodcollide {

// ---- Pictures -------------------------------------------------------------------------------------

/// A bad output path (unknown extension, or a target check_output_target() refuses): nothing was
/// written.
class PlotPathError : public OutputPathError {
public:
    using OutputPathError::OutputPathError;
};

/// gnuplot is missing or failed: nothing was written.
class PlotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Picture size [pixels] accepted by the plotters.
inline constexpr int smallest_plot_size = 200;
inline constexpr int largest_plot_size = 10000;

struct PlotOptions {
    int width = 1000;   ///< [pixels]
    int height = 700;   ///< [pixels]
    std::string title;  ///< shown above the plot (the case title)
    /// A dimensionless case (Case::dimensionless): axes and labels without SI units or prefixes.
    bool dimensionless = false;
};

/// Checks the picture size: each side in [smallest_plot_size, largest_plot_size].
/// @throws InvalidInput (key "size").
void validate(const PlotOptions& options);

/// The files of one picture.
struct PlotFiles {
    std::filesystem::path image;
    std::filesystem::path script;
    std::vector<std::filesystem::path> data;
};

/// Checks, before any work, that `image` can be written: known extension, and the picture and its
/// script FILE.gp pass check_output_target() (the data files are checked when they are moved into
/// place, as every file is).
/// @throws PlotPathError naming the refused path.
void check_output_path(const std::filesystem::path& image);

/// The gnuplot to run: $RODCOLLIDE_GNUPLOT if set (no fallback: a wrong value is an error), else
/// the gnuplot found when rodcollide was configured, else `gnuplot` on PATH.
/// @throws PlotError if it is not an executable file.
std::filesystem::path gnuplot_executable();

// ---- Figures of a case ---------------------------------------------------------------------------

enum class FigureKind { characteristics, velocity, force, displacement, gauges };

/// Every kind, in the order they are listed to users.
inline constexpr FigureKind all_figure_kinds[] = {FigureKind::characteristics, FigureKind::velocity,
                                                  FigureKind::force, FigureKind::displacement, FigureKind::gauges};

/// "characteristics", "velocity", "force", "displacement".
std::string to_string(FigureKind kind);
std::optional<FigureKind> parse_figure_kind(const std::string& name);

/// Picture title: "<case title> — <kind>".
std::string figure_title(const std::string& case_title, FigureKind kind);

/// Whether a kind can use the finite-difference solver (velocity, force and gauges can; the
/// characteristics and displacement diagrams need the exact wave field).
bool accepts_finite_difference(FigureKind kind);

struct FigureRequest {
    FigureKind kind = FigureKind::characteristics;
    std::filesystem::path image;  ///< .png or .svg
    /// End of the diagram [s]; default: default_diagram_end_time (settled + one transit time).
    std::optional<double> t_end;
    /// Characteristics: fronts with |jump| below min_jump * velocity scale are not drawn.
    double min_jump = 1e-3;
    PlotOptions plot;
    /// Gauges: the stations to plot (the case's [[gauge]] tables) and samples per signal.
    std::vector<Gauge> gauges;
    std::size_t gauge_samples = default_samples;
};

/// What was drawn.
struct Figure {
    PlotFiles files;
    double t_end = 0;  ///< [s]
    std::size_t fronts = 0;          ///< characteristics: fronts drawn
    std::size_t omitted_fronts = 0;  ///< characteristics: fronts below the visual threshold
    std::size_t regions = 0;         ///< characteristics: regions of constant state found
    std::size_t labelled_regions = 0;
    double magnification = 1;        ///< displacement: factor applied to displacements and gaps
};

namespace internal {
struct SolvedFigure;  // src/figures/solved_figure.hpp
}

/// What a figure is drawn from: one solve, recorded through the figure's end (solve_figure()).
struct FigureSource {
    double t_end = 0;  ///< end of the figure [s]
    /// The characteristics and displacement diagrams: the exact solve's outcome, which is the
    /// case's outcome (recording does not change it), so `run --plot` reports it. nullptr for the
    /// other kinds.
    const Outcome* exact_outcome() const;
    /// What was solved (the exact solution, the sampled field or the gauges' wave field), as
    /// draw_solved_figure() reads it; internal to the library.
    std::shared_ptr<const internal::SolvedFigure> solved;
};

/// Field sampling grid of the velocity and force plots (about one sample per 1.5 pixels).
inline constexpr std::size_t figure_field_times = 401, figure_field_positions = 600;

/// Solves what `request` needs: the exact solver (characteristics, displacement) or
/// options.method (velocity, force, gauges), recording through request.t_end or, by default, one longest
/// transit time past settling (default_diagram_end_time). One solve, except for a grid figure
/// without t_end: the grid is planned for the run's length, so a first solve finds it.
/// @pre for a gauges figure, each of request.gauges passes check_gauge(gauge, chain).
/// @throws std::invalid_argument for a bad request (t_end not finite and > 0, or beyond
///         options.end_time).
/// @throws what solve() throws.
FigureSource solve_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request);

/// Draws a figure from an already solved source.
/// @pre `source` is what solve_figure(chain, ..., r) returned for this chain and a request r of
///      the same kind (the kind decides what was solved).
/// @throws std::invalid_argument for a source solve_figure() did not fill.
/// @throws PlotPathError for a path that cannot be written; PlotError when gnuplot fails.
Figure draw_solved_figure(const Chain& chain, const FigureSource& source, const FigureRequest& request);

/// Checks the output path and gnuplot first, then solve_figure() and draw_solved_figure().
/// @throws what check_output_path(), gnuplot_executable(), solve_figure() and
///         draw_solved_figure() throw (the path and gnuplot before any solving).
Figure draw_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request);

/// Characteristics diagrams draw at most this many fronts, the strongest (the rest are counted in
/// Figure::omitted_fronts).
inline constexpr std::size_t largest_drawn_fronts = 20000;

// ---- The sweep's cone map ----------------------------------------------------------------------

/// The empirical cone map picture (PNG or SVG by the extension of `image`): the unit circle of
/// gamma- coloured by empirical cone with Winandy & Leine's boundaries, and the errors against theta.
/// Writes FILE.gp (`gnuplot FILE.gp` in that directory redraws it) and FILE.map.dat beside it: all
/// files appear complete, or none.
/// @throws PlotPathError for a bad path (check_output_path() first); PlotError when gnuplot is
///         missing or fails.
void write_sweep_plot(const SweepResult& r, const std::filesystem::path& image);

/// The cone map picture of a four-rod cone sweep (cone_sweep.hpp; PNG or SVG): gamma- on the unit
/// sphere of the G^-1 metric, each hemisphere in Lambert's azimuthal equal-area projection, coloured
/// by cone with the identified law's facets drawn, and below one row per law (the compared ones,
/// then the identified law) coloured by log10 of its error at each direction. FILE.gp and
/// FILE.map.dat beside it, as for write_sweep_plot().
/// @throws PlotError for a sweep of other than four rods, when gnuplot is missing or fails;
///         PlotPathError for a bad path.
void write_cone_sweep_plot(const ConeSweepResult& r, const std::filesystem::path& image);

// ---- An ensemble's distributions ---------------------------------------------------------------

struct EnsembleResult;  // ensemble.hpp

/// The ensemble picture (PNG or SVG): every rod's final velocity over the members as a box plot
/// (box: 25-75 %, whiskers: 5-95 %, line: median, dot: mean), and the histogram of the last
/// rod's final velocity. Writes FILE.gp and FILE.ensemble.dat beside it: all files appear
/// complete, or none.
/// @throws PlotPathError for a bad path; PlotError when gnuplot is missing or fails.
void write_ensemble_plot(const EnsembleResult& r, const std::filesystem::path& image);

}  // namespace rodcollide
