// From a case to a picture: solve once for what the figure needs, build the diagram's data, draw
// it. This is what `rodcollide diagram` and `rodcollide run --plot` do.
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/exact/characteristics.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "figures/plot.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace rodcollide {

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

/// What a figure is drawn from: one solve, recorded through the figure's end.
struct FigureSource {
    double t_end = 0;  ///< end of the figure [s]
    /// The exact solution, for the characteristics and displacement diagrams. Its outcome is the
    /// case's outcome (recording does not change it), so `run --plot` reports it.
    std::optional<CharacteristicsSolution> exact;
    /// Velocity and force over [0, t_end], for those plots (field_times x field_positions at most).
    std::optional<FieldSamples> field;
    /// Gauges: the wave field of the gauges' rods through t_end, from options.method
    /// (solve_with_wave_field).
    std::optional<WaveField> wave_field;
};

/// Field sampling grid of the velocity and force plots (about one sample per 1.5 pixels).
inline constexpr std::size_t figure_field_times = 401, figure_field_positions = 600;

/// Solves what `request` needs: the exact solver (characteristics, displacement) or
/// options.method (velocity, force, gauges), recording through request.t_end or, by default, one longest
/// transit time past settling (default_diagram_end_time). One solve, except for a grid figure
/// without t_end: the grid is planned for the run's length, so a first solve finds it. Throws
/// UnsupportedMethod, SolverLimitExceeded, InvalidResolution, and std::invalid_argument for a bad
/// request (t_end not positive or beyond options.end_time).
FigureSource solve_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request);

/// Draws a figure from an already solved source (solve_figure). Throws PlotPathError, PlotError.
Figure draw_solved_figure(const Chain& chain, const FigureSource& source, const FigureRequest& request);

/// Checks the output path and gnuplot first, then solve_figure() and draw_solved_figure().
/// Throws what those throw.
Figure draw_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request);

}  // namespace rodcollide
