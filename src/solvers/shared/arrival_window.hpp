// What arrives at one end of an element over its next transit time (docs/physics.md §1-2): the
// wave field's step functions of arrival time cut to one window. The settling proof reads a rod's
// future end motion from these windows, and the energy of an element is an integral over them
// (invariant_energy.hpp).
#pragma once

#include <vector>

namespace rodcollide {

/// One piece of a piecewise-constant arrival history.
struct ArrivalPiece {
    double duration = 0;  ///< [s]
    double value = 0;     ///< invariant value [m/s]
};

/// The invariants that will arrive at one end during the next transit time, in order; the
/// durations sum to T.
using ArrivalWindow = std::vector<ArrivalPiece>;

}  // namespace rodcollide
