// Runs the solver a case asks for and returns its Outcome: the single entry point the CLI, the
// comparison module and the validation suite use, so both solvers answer the same questions.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace rodcollide {

/// The requested method is not available in this build.
class UnsupportedMethod : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Solves with options.method.
/// @throws InvalidInput for options validate(SolverOptions) refuses.
/// @throws UnsupportedMethod for a method this build lacks.
/// @throws SolverLimitExceeded when a cap (max_events, max_fronts, cells, work) is reached.
/// @throws InvalidResolution (finite differences) when no grid within the limits resolves the chain.
/// @throws InvariantViolation when the outcome fails its self-check (a solver bug, never input).
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
/// field at evenly spaced times and positions (sample_field; on a chain with compliant junctions,
/// sampled while the delay network runs, to its stated accuracy). Finite differences: the grid's own
/// history (finite_difference.hpp), to the end of the run or, given t_end, to t_end.
/// @throws InvalidInput for bad options or bounds (validate(FieldResolution): "times", "positions").
/// @throws what solve() throws.
SolutionWithField solve_with_field(const Chain& chain, const SolverOptions& options, std::size_t times,
                                   std::size_t positions, std::optional<double> t_end = std::nullopt);

/// The exact field at points of the chain: per point k, at material coordinate x[k] (rods laid end
/// to end, gaps not counted) [m] and time t[k] >= 0 [s].
struct FieldAtPoints {
    double valid_until = 0;  ///< the field is known on [0, valid_until] [s]
    /// Per point; empty when a t[k] lies beyond valid_until.
    std::vector<double> velocity;  ///< [m/s]
    std::vector<double> strain;    ///< [-], negative in compression
    std::vector<double> force;     ///< [N], positive in tension
    std::vector<std::size_t> rod;  ///< rod holding x[k] (the right one at a boundary)
};

/// Python's field(): solves with the exact solver (characteristics, whatever options.method),
/// keeping the field's history through the latest t[k] (raising options.record_until to it), and
/// reads the field at the points. On a chain with compliant junctions its delay network samples the
/// grid of the distinct x[k] and t[k] while it runs instead (at most max_field_samples, else
/// std::invalid_argument), and gives nothing past options.end_time.
/// @pre each x[k] in [0, chain.total_length()] and each t[k] finite and >= 0 (not checked here:
///      Python's field() checks them).
/// @throws std::invalid_argument if x and t differ in length.
/// @throws what solve() throws.
FieldAtPoints exact_field_at(const Chain& chain, const SolverOptions& options, std::span<const double> x,
                             std::span<const double> t);

/// An outcome with gauge signals.
struct SolutionWithGauges {
    Outcome outcome;
    std::vector<GaugeSignal> gauges;
};

/// The one entry point for gauge signals (`run --gauges`, `run --json`, Python's run()): solves
/// with options.method (solve_with_wave_field, or on a chain with compliant junctions the exact
/// solver's delay network sampling while it runs: the outcome is the same) and samples each gauge at
/// `samples` equally spaced times (2 to largest_samples) over [0, t_end]. Without t_end: to the
/// horizon if options.end_time is set, else to two transits of the whole chain past settling, so
/// the signals show the vibration left; never past what the run recorded.
/// @pre each gauge passes check_gauge(gauge, chain) (the case reader checks them).
/// @throws InvalidInput ("samples") for samples outside [2, largest_samples].
/// @throws what solve() throws.
SolutionWithGauges solve_with_gauges(const Chain& chain, const SolverOptions& options, const std::vector<Gauge>& gauges,
                                     std::size_t samples, std::optional<double> t_end = std::nullopt);

/// The force-history samples `run --json` records (SolverOptions::force_samples): `samples` when
/// given (--samples N); else default_samples when the case has gauges or ends that are not free
/// and unloaded; else none (0), so a free chain reports as it always did.
std::size_t reported_force_samples(const Chain& chain, bool has_gauges, std::optional<std::size_t> samples);

}  // namespace rodcollide
