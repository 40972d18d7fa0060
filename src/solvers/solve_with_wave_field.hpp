// The dispatch behind gauges and the gauge figure (solve.hpp): either solver's outcome with the
// wave field of chosen rods, for the library's own samplers (sampling/wave_field_samples.hpp).
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"
#include "solvers/shared/wave_field.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

/// An outcome with the wave field (solvers/shared/wave_field.hpp) of chosen rods.
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

}  // namespace rodcollide
