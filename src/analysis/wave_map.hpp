// The wave solver read as a rigid impact map (docs/physics.md §3; Winandy & Leine 2015 eq. 7): the
// rods of a chain, all touching (gaps 0, as the rigid laws assume), start with the velocities of a
// given gamma- and the outcome's gamma+ = W^T u+ is the map's value. The map is Galilean invariant
// (only velocity differences act), so the lift u = (0, gamma1, gamma1+gamma2, ...) is enough; and
// with touching rods it is positively homogeneous (the wave equation is linear, contacts switch on
// signs). Used by the comparison module (sampled map properties) and the sweep.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Dense>

namespace rodcollide {

/// The rods of `chain` (lengths, sections, materials), touching, with the velocities
/// u = (0, gamma1, gamma1+gamma2, ...) [m/s] (laws::velocities_with_contact_velocities).
/// gamma_pre needs chain.size() - 1 finite entries (std::invalid_argument otherwise).
Chain touching_chain_with_contact_velocities(const Chain& chain, const Eigen::VectorXd& gamma_pre);

/// Solves the touching rods for gamma- with `options` (solve.hpp) and returns the outcome.
Outcome wave_outcome_for(const Chain& chain, const Eigen::VectorXd& gamma_pre,
                         const SolverOptions& options);

/// The wave map gamma- -> gamma+ [m/s] of the chain's rods, as a black-box map for
/// laws::check_properties. Throws what solve() throws (a cap, an unsupported method).
laws::ContactMap wave_contact_map(const Chain& chain, const SolverOptions& options);

}  // namespace rodcollide
