// Velocity and force over the x-t plane from the solver a case asks for, as FieldSamples: what
// the field plots (velocity, force) draw, whichever solver produced it.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>

namespace rodcollide {

/// Solves with options.method and samples velocity and force at nt times in [0, t_end] [s] and
/// nx positions along the chain. Throws UnsupportedMethod (solve.hpp), SolverLimitExceeded,
/// std::invalid_argument (grid too large).
FieldSamples solve_field(const Chain& chain, const SolverOptions& options, double t_end, std::size_t nt, std::size_t nx);

/// The finite-difference solver's field history on such a grid (issue 4). Until that solver
/// exists, its stub in src/field_history.cpp throws UnsupportedMethod.
FieldSamples finite_difference_field(const Chain& chain, const SolverOptions& options, double t_end, std::size_t nt,
                                     std::size_t nx);

}  // namespace rodcollide
