// The wave field of a finite-difference run, rebuilt from what its element ends emitted
// (docs/finite_difference.md "Gauges"): inside a uniform element the invariants travel unchanged
// along the characteristics, so alpha at (x, t) is what the left end emitted at t - x/c and beta
// what the right end emitted at t - (L - x)/c. Kept as the exact solver keeps its field (WaveField:
// arrival histories), so gauges and field queries read both solvers through the same code. At
// Courant 1 the emissions are exact and so is the field; at Courant < 1 it is the exact transport
// of the grid's end values, without the grid's dispersion inside the element.
#pragma once

#include "solvers/fd/finite_difference.hpp"
#include "solvers/shared/wave_field.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

class GridWaveField {
public:
    /// Records the elements of `rods`; at most `max_fronts` jumps in all (bounded memory: at
    /// Courant < 1 nearly every step emits a new value).
    GridWaveField(const Chain& chain, const std::vector<std::size_t>& rods, std::size_t max_fronts);

    /// After the step from `step_start`: what the recorded element ends emitted over it. Throws
    /// SolverLimitExceeded past max_fronts.
    void record(const StaggeredGrid& grid, double step_start);

    /// The field, known up to `valid_until` (the grid's time at the end of the run).
    WaveField finish(double valid_until) &&;

private:
    struct Recorded {
        std::size_t element;
        double transit_time, alpha, beta;  // the last values pushed
    };
    WaveField field_;
    std::vector<Recorded> elements_;
    std::size_t fronts_ = 0, max_fronts_;
};

}  // namespace rodcollide
