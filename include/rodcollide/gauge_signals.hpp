// Gauge signals (docs/physics.md §8): histories of velocity, force and strain at a gauge station
// (gauge.hpp), as a strain gauge on a Hopkinson bar records them. The field is sampled after the
// solve (solve_with_gauges, solve.hpp), so a gauge does not change the solution.
#pragma once

#include "rodcollide/gauge.hpp"

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

/// One CSV: "time" then, per gauge, NAME_velocity, NAME_force, NAME_strain; one line per sample.
/// @pre every signal has the first one's sample times (solve_with_gauges' do).
std::string gauges_csv(const std::vector<GaugeSignal>& signals);

}  // namespace rodcollide
