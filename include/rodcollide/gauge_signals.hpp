// Gauge signals (docs/physics.md §8): histories of velocity, force and strain at a gauge station
// (gauge.hpp), as a strain gauge on a Hopkinson bar records them. The exact field is sampled after
// the solve (WaveField::state), so a gauge does not change the solution.
#pragma once

#include "rodcollide/gauge.hpp"
#include "solvers/shared/wave_field.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace rodcollide {

struct GaugeSignal {
    Gauge gauge;
    std::vector<double> time;      ///< [s]
    std::vector<double> velocity;  ///< [m/s]
    std::vector<double> force;     ///< [N], positive in tension
    std::vector<double> strain;    ///< [-], negative in compression
};

/// Default and largest number of samples per signal (CLI --samples).
inline constexpr std::size_t default_samples = 1000;

/// Each gauge's signal at `samples` >= 2 equally spaced times over [0, t_end], t_end <=
/// field.valid_until(). The field is piecewise constant, so each sample is exact; a front
/// shorter than the spacing may fall between samples.
std::vector<GaugeSignal> sample_gauges(const WaveField& field, const std::vector<Gauge>& gauges, double t_end,
                                       std::size_t samples);

/// One CSV: "time" then, per gauge, NAME_velocity, NAME_force, NAME_strain; one line per sample.
std::string gauges_csv(const std::vector<GaugeSignal>& signals);

}  // namespace rodcollide
