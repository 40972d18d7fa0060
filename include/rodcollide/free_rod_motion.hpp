// The free motion of one rod of an exact wave field from time t on, as the settling rule needs it
// (settling.hpp; docs/physics.md §2, §7): exact end excursions for a uniform rod with free ends
// or an anechoic end, and energy bounds for rods with segments or a fixed end.
#pragma once

#include "rodcollide/settling.hpp"
#include "rodcollide/wave_field.hpp"

namespace rodcollide {

/// Rod `rod` of field.chain() at t, when no contact carries force and no load acts on it.
/// `tolerance` [m/s]: a rod with segments and an anechoic end is at rest relative to its
/// continuation when every invariant in it is within this of the continuation's velocity.
FreeRodMotion free_rod_motion(const WaveField& field, std::size_t rod, double t, double tolerance);

}  // namespace rodcollide
