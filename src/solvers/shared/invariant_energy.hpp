// Energy from the Riemann invariants (docs/physics.md §1-2). A uniform element of impedance Z whose
// contents reach its ends over the next transit time as alpha (right end) and beta (left end)
// holds the kinetic + strain energy (Z/4) int (alpha^2 + beta^2) dt, since
// rho A v^2/2 + N^2/(2 E A) per unit length is (Z/4c)(alpha^2 + beta^2); about a mean velocity m
// (the vibration about a rigid motion at m) it holds (Z/4) int ((alpha - m)^2 + (beta - m)^2) dt.
#pragma once

#include "solvers/shared/arrival_window.hpp"

namespace rodcollide {

/// Mean of the invariants of an element of transit time T [s], (1/2T) int (alpha + beta) dt over
/// its two arrival windows [m/s].
double invariant_mean(const ArrivalWindow& alpha, const ArrivalWindow& beta, double transit_time);

/// (Z/4) int ((alpha - mean)^2 + (beta - mean)^2) dt over the two arrival windows of an element of
/// impedance Z [N s/m] [J]: its total energy for mean 0, its vibration about a motion at `mean`.
double invariant_energy(double impedance, const ArrivalWindow& alpha, const ArrivalWindow& beta, double mean = 0);

/// (Z/4)(emitted^2 - exact^2) [W]: how much more energy per unit time an end sends into an element
/// of impedance Z by emitting the invariant `emitted` instead of `exact` [m/s].
double emitted_energy_excess(double impedance, double emitted, double exact);

}  // namespace rodcollide
