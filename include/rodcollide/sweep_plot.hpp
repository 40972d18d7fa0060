// The empirical cone map of a sweep (sweep.hpp) drawn with gnuplot (plot.hpp): the picture
// `rodcollide sweep --plot` writes (docs/sweep.md).
#pragma once

#include "rodcollide/sweep.hpp"

#include <filesystem>

namespace rodcollide {

/// The empirical cone map picture (PNG or SVG by the extension of `image`): the unit circle of
/// gamma- coloured by empirical cone with Winandy & Leine's boundaries, and the errors against theta.
/// Writes FILE.gp (`gnuplot FILE.gp` in that directory redraws it) and FILE.map.dat beside it,
/// through plot.hpp's render(): all files appear complete, or none. Throws PlotPathError (bad
/// path: check_output_path() first), PlotError (gnuplot missing or failing).
void write_sweep_plot(const SweepResult& r, const std::filesystem::path& image);

}  // namespace rodcollide
