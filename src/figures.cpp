// Case -> picture (figures.hpp): solving, diagram data and drawing wired together.
#include "rodcollide/figures.hpp"

#include "rodcollide/characteristics.hpp"
#include "rodcollide/diagram.hpp"
#include "rodcollide/field_history.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace rodcollide {

std::string to_string(FigureKind kind) {
    switch (kind) {
        case FigureKind::characteristics: return "characteristics";
        case FigureKind::velocity: return "velocity";
        case FigureKind::force: return "force";
        case FigureKind::displacement: return "displacement";
    }
    return "?";
}

std::optional<FigureKind> parse_figure_kind(const std::string& name) {
    for (FigureKind k : all_figure_kinds)
        if (to_string(k) == name) return k;
    return std::nullopt;
}

std::string figure_title(const std::string& case_title, FigureKind kind) {
    return fmt::format("{} — {}", case_title, to_string(kind));
}

bool accepts_finite_difference(FigureKind kind) { return kind == FigureKind::velocity || kind == FigureKind::force; }

namespace {

/// Field sampling grid for the pseudocolour plots (about one sample per 1.5 pixels).
constexpr std::size_t field_times = 401, field_positions = 600;

/// The diagram's end: requested, or settled + one transit time from a first solve.
double end_time(const Chain& chain, const SolverOptions& options, const FigureRequest& request) {
    if (request.t_end) {
        const double t = *request.t_end;
        if (!std::isfinite(t) || t <= 0) throw std::invalid_argument(fmt::format("t_end must be finite and > 0, got {}", t));
        if (options.end_time && t > *options.end_time)
            throw std::invalid_argument(
                fmt::format("t_end {} is beyond the solver's end time {} (the field is not known there)", t, *options.end_time));
        return t;
    }
    SolverOptions o = options;
    if (!accepts_finite_difference(request.kind)) o.method = Method::characteristics;
    return default_diagram_end_time(solve(chain, o), chain);
}

}  // namespace

Figure draw_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request) {
    check_output_path(request.image);
    gnuplot_executable();
    Figure figure;
    figure.t_end = end_time(chain, options, request);
    SolverOptions exact = options;
    exact.method = Method::characteristics;
    exact.keep_history = true;
    exact.record_until = figure.t_end;
    switch (request.kind) {
        case FigureKind::characteristics: {
            DiagramOptions d;
            d.t_end = figure.t_end;
            d.min_jump = request.min_jump;
            fit_labels_to_plot(request.plot, chain, d);
            const CharacteristicsDiagram diagram = characteristics_diagram(solve_characteristics(chain, exact), d);
            figure.fronts = diagram.fronts.size();
            figure.omitted_fronts = diagram.omitted_fronts;
            figure.regions = diagram.regions.size();
            for (const Region& r : diagram.regions) figure.labelled_regions += r.labelled;
            figure.files = plot_characteristics(diagram, request.image, request.plot);
            break;
        }
        case FigureKind::velocity:
        case FigureKind::force: {
            const FieldSamples samples = solve_field(chain, options, figure.t_end, field_times, field_positions);
            const FieldQuantity q = request.kind == FigureKind::velocity ? FieldQuantity::velocity : FieldQuantity::force;
            figure.files = plot_field(samples, q, chain, request.image, request.plot);
            break;
        }
        case FigureKind::displacement: {
            const DisplacementDiagram diagram = displacement_diagram(solve_characteristics(chain, exact).field, figure.t_end);
            figure.magnification = diagram.magnification;
            figure.files = plot_displacement(diagram, request.image, request.plot);
            break;
        }
    }
    return figure;
}

}  // namespace rodcollide
