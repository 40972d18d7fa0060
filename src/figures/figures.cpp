// Case -> picture (figures.hpp): one solve for what the figure needs, its data, and drawing.
#include "rodcollide/figures.hpp"

#include "figures/diagram.hpp"
#include "figures/gauge_plot.hpp"
#include "figures/plot.hpp"
#include "figures/solved_figure.hpp"
#include "rodcollide/solve.hpp"
#include "sampling/wave_field_samples.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/exact/delay_network.hpp"
#include "solvers/shared/rigid_bodies.hpp"
#include "solvers/solve_with_wave_field.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rodcollide {

std::string to_string(FigureKind kind) {
    switch (kind) {
        case FigureKind::characteristics: return "characteristics";
        case FigureKind::velocity: return "velocity";
        case FigureKind::force: return "force";
        case FigureKind::displacement: return "displacement";
        case FigureKind::gauges: return "gauges";
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

bool accepts_finite_difference(FigureKind kind) {
    return kind == FigureKind::velocity || kind == FigureKind::force || kind == FigureKind::gauges;
}

namespace {

/// A requested end, checked before any solving.
std::optional<double> checked_end(const SolverOptions& options, const FigureRequest& request) {
    if (!request.t_end) return std::nullopt;
    const double t = *request.t_end;
    if (!std::isfinite(t) || t <= 0) throw std::invalid_argument(fmt::format("t_end must be finite and > 0, got {}", t));
    if (options.end_time && t > *options.end_time)
        throw std::invalid_argument(
            fmt::format("t_end {} is beyond the solver's end time {} (the field is not known there)", t, *options.end_time));
    return t;
}

/// Options that record through t_end or, without it, one longest transit time past settling
/// (default_diagram_end_time), so that the free vibration after the last contact shows.
SolverOptions recording(const Chain& chain, SolverOptions o, std::optional<double> t_end) {
    o.record_until = t_end;
    if (!t_end) o.record_after_settling = chain.longest_transit_time();
    return o;
}

}  // namespace

const Outcome* FigureSource::exact_outcome() const {
    return solved && solved->exact ? &solved->exact->outcome : nullptr;
}

FigureSource solve_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request) {
    std::optional<double> t_end = checked_end(options, request);
    FigureSource source;
    auto solved = std::make_shared<internal::SolvedFigure>();
    source.solved = solved;
    if (request.kind == FigureKind::gauges && options.method == Method::characteristics && delay_network_chain(chain)) {
        // The delay network samples its gauges while it runs (it keeps no WaveField).
        SolutionWithGauges s = solve_with_gauges(chain, recording(chain, options, t_end), request.gauges,
                                                 request.gauge_samples, t_end);
        source.t_end = s.gauges.empty() || s.gauges.front().time.empty() ? 0.0 : s.gauges.front().time.back();
        solved->gauge_signals = std::move(s.gauges);
        return source;
    }
    if (request.kind == FigureKind::gauges) {
        std::vector<std::size_t> rods;
        for (const Gauge& g : request.gauges) rods.push_back(g.rod);
        SolutionWithWaveField s = solve_with_wave_field(chain, recording(chain, options, t_end), rods);
        source.t_end = std::min(t_end.value_or(default_diagram_end_time(s.outcome, chain)), s.field.valid_until());
        solved->wave_field = std::move(s.field);
        return source;
    }
    if (!accepts_finite_difference(request.kind)) {
        // These kinds draw the front tracker's piecewise-constant waves. A chain with no rod has no
        // waves; one with compliant junctions has smooth ones, which the exact solver's delay
        // network samples as fields and gauges (docs/physics.md §9.10).
        if (rigid_bodies_only(chain))
            throw UnsupportedMethod(rigid_bodies_field_refusal());
        if (chain.compliant())
            throw UnsupportedMethod(fmt::format(
                "--kind {} is drawn from the front tracker's piecewise-constant waves; with compliant contacts "
                "or walls, masses, balls or spring/dashpot ends the waves are smooth (docs/physics.md §9.10): "
                "draw --kind velocity, force or gauges (by either method)",
                to_string(request.kind)));
        SolverOptions exact = recording(chain, options, t_end);
        exact.method = Method::characteristics;
        exact.keep_history = true;
        solved->exact = solve_characteristics(chain, exact);
        source.t_end = t_end.value_or(default_diagram_end_time(solved->exact->outcome, chain));
        return source;
    }
    // The grid is planned for the run's length (finite_difference.hpp): learn it first.
    if (!t_end && options.method == Method::finite_difference) t_end = default_diagram_end_time(solve(chain, options), chain);
    SolutionWithField s =
        solve_with_field(chain, recording(chain, options, t_end), figure_field_times, figure_field_positions, t_end);
    source.t_end = t_end.value_or(default_diagram_end_time(s.outcome, chain));
    solved->field = std::move(s.field);
    return source;
}

Figure draw_solved_figure(const Chain& chain, const FigureSource& source, const FigureRequest& request) {
    if (!source.solved) throw std::invalid_argument("draw_solved_figure: the source was not solved (solve_figure)");
    const internal::SolvedFigure& solved = *source.solved;
    Figure figure;
    figure.t_end = source.t_end;
    switch (request.kind) {
        case FigureKind::characteristics: {
            DiagramOptions d;
            d.t_end = figure.t_end;
            d.min_jump = request.min_jump;
            fit_labels_to_plot(request.plot, chain, d);
            const CharacteristicsDiagram diagram = characteristics_diagram(solved.exact.value(), d);
            figure.fronts = diagram.fronts.size();
            figure.omitted_fronts = diagram.omitted_fronts;
            figure.regions = diagram.regions.size();
            for (const Region& r : diagram.regions) figure.labelled_regions += r.labelled;
            figure.files = plot_characteristics(diagram, request.image, request.plot);
            break;
        }
        case FigureKind::velocity:
        case FigureKind::force: {
            const FieldQuantity q = request.kind == FigureKind::velocity ? FieldQuantity::velocity : FieldQuantity::force;
            figure.files = plot_field(solved.field.value(), q, chain, request.image, request.plot);
            break;
        }
        case FigureKind::displacement: {
            const DisplacementDiagram diagram = displacement_diagram(solved.exact.value().field, figure.t_end);
            figure.magnification = diagram.magnification;
            figure.files = plot_displacement(diagram, request.image, request.plot);
            break;
        }
        case FigureKind::gauges:
            figure.files = plot_gauges(solved.gauge_signals ? *solved.gauge_signals
                                                            : sample_gauges(solved.wave_field.value(), request.gauges,
                                                                            figure.t_end, request.gauge_samples),
                                       request.image, request.plot);
            break;
    }
    return figure;
}

Figure draw_figure(const Chain& chain, const SolverOptions& options, const FigureRequest& request) {
    check_output_path(request.image);
    gnuplot_executable();
    return draw_solved_figure(chain, solve_figure(chain, options, request), request);
}

}  // namespace rodcollide
