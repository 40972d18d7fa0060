// The free motion of one rod from time t on, as the settling rule needs it (settling.hpp;
// docs/physics.md §2, §7, §8.2): exact end excursions for a uniform rod with free ends or an
// anechoic end, and energy bounds for rods with segments or a fixed end. Both solvers call it, each
// with what it knows of the rod: its momentum and the invariants its elements hold.
#pragma once

#include "solvers/shared/settling.hpp"
#include "solvers/shared/wave_field.hpp"

#include <vector>

namespace rodcollide {

/// What a solver knows of one rod at t: its momentum [N s] and, per element of the rod (in order,
/// Chain::element_indices), the alpha arriving at the element's right end and the beta arriving at
/// its left end over its next transit time (what the element holds).
struct RodWindows {
    double momentum = 0;
    std::vector<ArrivalWindow> alpha, beta;
};

/// Rod `rod` of `chain` at t, when no contact carries force and no load acts on it.
/// `tolerance` [m/s]: a rod with an anechoic end is at rest relative to its continuation, and has
/// nothing more to send through that end, when every invariant in it is within this of the
/// continuation's velocity. `grid_noise`, for a stepping solver whose windows hold one piece per
/// step and whose grid keeps oscillations of its own that never leave (finite differences at
/// Courant < 1, docs/finite_difference.md "Settling"): a remainder that is mostly oscillation from
/// step to step (its energy at most twice that of its half step-to-step differences) counts as
/// quiet too. The exact solver passes false.
FreeRodMotion free_rod_motion(const Chain& chain, std::size_t rod, const RodWindows& windows, double t,
                              double tolerance, bool grid_noise = false);

/// The same, read from an exact wave field at t.
FreeRodMotion free_rod_motion(const WaveField& field, std::size_t rod, double t, double tolerance);

}  // namespace rodcollide
