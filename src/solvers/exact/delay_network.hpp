// The exact solver for chains with rods and compliant junctions (issue 23; docs/physics.md §9.10):
// rods stay exact delay lines, carrying what their ends emit as polynomial pieces (wave_history.hpp);
// every junction (junction_node.hpp) is an ODE driven by the waves arriving from its rods. Every
// delay is at least the shortest transit time, so over a window of that length every junction's
// arrivals are already known and each junction is integrated on its own (Dormand-Prince 5(4) with
// error control, events located on its dense output), appending its emissions to the rods.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <string>

namespace rodcollide {

/// Whether the exact solver runs `chain` on the delay network: it has compliant parts (contacts,
/// walls, attached ends, masses) and at least one rod.
bool delay_network_chain(const Chain& chain);
/// The outcome, its velocity_error_bound from a second run at a 100x tighter tolerance.
Outcome solve_delay_network(const Chain& chain, const SolverOptions& options);

}  // namespace rodcollide
