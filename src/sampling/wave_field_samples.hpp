// Samples of a wave field (solvers/shared/wave_field.hpp), from either solver: the regular x-t
// grid of field plots (field_samples.hpp) and the gauge signals (gauge_signals.hpp). The field is
// piecewise constant, so each sample is exact.
#pragma once

#include "rodcollide/field_samples.hpp"
#include "rodcollide/gauge.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "solvers/shared/wave_field.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

/// The times of field samples and gauge signals: n equally spaced over [0, t_end] (n = 1: 0 alone).
std::vector<double> sample_times(double t_end, std::size_t n);
/// The positions of field samples: nx cell centres along the chain's material coordinate and the
/// rods holding them (FieldSamples::x and rod; t and the fields left empty). Throws
/// std::invalid_argument if nt * nx exceeds max_field_samples.
FieldSamples field_positions(const Chain& chain, std::size_t nt, std::size_t nx);

/// Samples an exact field at nt times in [0, t_end] and nx cell centres along the chain.
/// Throws std::invalid_argument if nt * nx exceeds max_field_samples or t_end is beyond the
/// field's validity.
FieldSamples sample_field(const WaveField& field, double t_end, std::size_t nt, std::size_t nx);

/// Each gauge's signal at `samples` >= 2 equally spaced times over [0, t_end], t_end <=
/// field.valid_until(). A front shorter than the spacing may fall between samples.
std::vector<GaugeSignal> sample_gauges(const WaveField& field, const std::vector<Gauge>& gauges, double t_end,
                                       std::size_t samples);

}  // namespace rodcollide
