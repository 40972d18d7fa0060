// Runs the solver a case asks for and returns its Outcome: the single entry point the CLI, the
// comparison module and the validation suite use, so both solvers answer the same questions.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>
#include <stdexcept>

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

/// Solves with options.method and samples the fields over [0, end of the run] (the outcome's
/// end_time, or record_until if later) at no more than `times` x `positions` points (each 2 to
/// 2000; positions >= 1). Characteristics: the exact field at evenly spaced times and positions
/// (sample_field). Finite differences: the grid's own history (finite_difference.hpp). Throws
/// InvalidInput for bad options or bounds (validate(FieldResolution): "times", "positions").
SolutionWithField solve_with_field(const Chain& chain, const SolverOptions& options, std::size_t times,
                                   std::size_t positions);

}  // namespace rodcollide
