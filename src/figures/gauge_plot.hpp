// The gauge signals of a case as a picture (`rodcollide diagram --kind gauges`): force and
// velocity over time at every [[gauge]], as a Hopkinson-bar test shows its strain gauges.
#pragma once

#include "rodcollide/gauge_signals.hpp"
#include "figures/plot.hpp"

#include <filesystem>
#include <vector>

namespace rodcollide {

/// Two panels, force [kN] and velocity [m/s] over time [us], one line per gauge; the data file
/// beside the picture holds the samples in SI. Throws PlotPathError, PlotError, std::invalid_argument
/// (no gauges).
PlotFiles plot_gauges(const std::vector<GaugeSignal>& signals, const std::filesystem::path& image,
                      const PlotOptions& options);

}  // namespace rodcollide
