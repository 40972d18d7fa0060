// From a case to a picture in one call: solve, build the diagram's data, draw it. This is what
// `rodcollide diagram` and `rodcollide run --plot` do.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/plot.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace rodcollide {

enum class FigureKind { characteristics, velocity, force, displacement };

/// Every kind, in the order they are listed to users.
inline constexpr FigureKind all_figure_kinds[] = {FigureKind::characteristics, FigureKind::velocity,
                                                  FigureKind::force, FigureKind::displacement};

/// "characteristics", "velocity", "force", "displacement".
std::string to_string(FigureKind kind);
std::optional<FigureKind> parse_figure_kind(const std::string& name);

/// Picture title: "<case title> — <kind>".
std::string figure_title(const std::string& case_title, FigureKind kind);

/// Whether a kind can use the finite-difference solver's field (velocity and force can; the
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

/// Checks the output path and gnuplot first, then solves and draws. The characteristics and
/// displacement diagrams always use the exact solver; velocity and force use options.method.
/// Throws PlotPathError, PlotError, UnsupportedMethod, SolverLimitExceeded, and
/// std::invalid_argument for a bad request (t_end not positive or beyond options.end_time).
Figure draw_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request);

}  // namespace rodcollide
