// Velocity and force over the x-t plane from the solver a case asks for, as FieldSamples: what
// the field plots (velocity, force) draw, whichever solver produced it.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/solver_options.hpp"

#include <cstddef>

namespace rodcollide {

/// Solves with options.method and samples velocity and force over [0, t_end] [s]: the exact
/// field at nt evenly spaced times and nx positions (characteristics), or the grid's own history
/// decimated to at most nt x nx samples (finite differences, see solve_with_field). Throws
/// UnsupportedMethod (solve.hpp), SolverLimitExceeded, InvalidResolution, std::invalid_argument
/// (grid too large).
FieldSamples solve_field(const Chain& chain, const SolverOptions& options, double t_end, std::size_t nt, std::size_t nx);

}  // namespace rodcollide
