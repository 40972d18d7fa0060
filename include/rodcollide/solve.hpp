// Runs the solver a case asks for and returns its Outcome: the single entry point the CLI, the
// comparison module and the validation suite use, so both solvers answer the same questions.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/gauges.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <vector>

namespace rodcollide {

/// The requested method is not available in this build.
class UnsupportedMethod : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Solves with options.method. Throws InvalidInput for options validate(SolverOptions) refuses,
/// UnsupportedMethod, SolverLimitExceeded, and for finite differences InvalidResolution
/// (finite_difference.hpp).
Outcome solve(const Chain& chain, const SolverOptions& options);

/// An outcome with the velocity and force fields over the run, for plots.
struct SolutionWithField {
    Outcome outcome;
    FieldSamples field;
};

/// The one entry point for field samples from either solver: solves with options.method and
/// samples velocity and force over [0, t_end] at no more than `times` x `positions` points (each
/// 2 to 2000; positions >= 1). Without t_end, over the recorded run: to the outcome's end_time
/// (plus record_after_settling once settled), or record_until if later. Characteristics: the exact
/// field at evenly spaced times and positions (sample_field). Finite differences: the grid's own
/// history (finite_difference.hpp), to the end of the run or, given t_end, to t_end. Throws
/// InvalidInput for bad options or bounds (validate(FieldResolution): "times", "positions").
SolutionWithField solve_with_field(const Chain& chain, const SolverOptions& options, std::size_t times,
                                   std::size_t positions, std::optional<double> t_end = std::nullopt);

/// An outcome with the wave field (wave_field.hpp) of chosen rods.
struct SolutionWithWaveField {
    Outcome outcome;
    WaveField field;  ///< valid on [0, field.valid_until()]
};

/// Solves with options.method and keeps the wave field of `rods` (the exact solver keeps every
/// rod's) over the recorded run: to the outcome's end_time plus options.record_after_settling
/// once settled, or record_until if later, or the horizon. Characteristics: the exact field.
/// Finite differences: the field rebuilt from what the rods' element ends emitted
/// (docs/finite_difference.md "Gauges"), exact at Courant 1. Throws what solve() throws.
SolutionWithWaveField solve_with_wave_field(const Chain& chain, const SolverOptions& options,
                                            const std::vector<std::size_t>& rods);

/// An outcome with gauge signals.
struct SolutionWithGauges {
    Outcome outcome;
    std::vector<GaugeSignal> gauges;
};

/// Solves with options.method and samples each gauge at `samples` >= 2 equally spaced times over
/// [0, t_end] (sample_gauges). Without t_end: to the horizon if options.end_time is set, else to
/// the outcome's end_time plus options.record_after_settling (once settled); never past what the
/// run recorded. Throws what solve() throws.
SolutionWithGauges solve_with_gauges(const Chain& chain, const SolverOptions& options, const std::vector<Gauge>& gauges,
                                     std::size_t samples, std::optional<double> t_end = std::nullopt);

}  // namespace rodcollide
