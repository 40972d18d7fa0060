// The self-check every Outcome passes before a solver returns it (docs/physics.md §2): all numbers
// finite, momentum conserved, the energy balance closed, every impulse >= 0, each within the
// solver's stated accuracy (Outcome::accuracy). A violation is an error, never a result.
#pragma once

#include "rodcollide/errors.hpp"
#include "rodcollide/outcome.hpp"

namespace rodcollide {

/// Throws InvariantViolation (errors.hpp) for the first invariant `o` breaks (in the order of the header
/// comment); tolerances are o.accuracy relative to each quantity's scale.
void check_outcome(const Outcome& o);

}  // namespace rodcollide
