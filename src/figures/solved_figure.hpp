// What solve_figure() solved for a figure (FigureSource::solved, figures.hpp): the one solution
// the figure's kind needs, kept for draw_solved_figure().
#pragma once

#include "rodcollide/field_samples.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/shared/wave_field.hpp"

#include <optional>
#include <vector>

namespace rodcollide::internal {

struct SolvedFigure {
    /// The exact solution, for the characteristics and displacement diagrams. Its outcome is the
    /// case's outcome (recording does not change it), so `run --plot` reports it.
    std::optional<CharacteristicsSolution> exact;
    /// Velocity and force over [0, t_end], for those plots (field_times x field_positions at most).
    std::optional<FieldSamples> field;
    /// Gauges: the wave field of the gauges' rods through t_end, from options.method
    /// (solve_with_wave_field).
    std::optional<WaveField> wave_field;
    /// Gauges on the exact solver's delay network: their signals, sampled while it ran (it keeps no
    /// WaveField; solve_with_gauges).
    std::optional<std::vector<GaugeSignal>> gauge_signals;
};

}  // namespace rodcollide::internal
