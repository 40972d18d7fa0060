// The force and overlap rate of a compliant link on its acting branch (docs/physics.md §9.2, §9.4),
// the one formula both solvers' junctions use (the grid's lumped nodes, lumped_node.cpp; the exact
// solver's delay network, junction_node.cpp).
#pragma once

namespace rodcollide {

struct LinkRate {
    double force = 0;  ///< F, compressive > 0 [N]
    double rate = 0;   ///< δ' [m/s]
};

/// A compliant link of elastic force `kphi` (k φ(δ), contact_law.hpp) and damping c between two
/// sides that would part at `free_rate` (δ' with no force, s) [m/s]; z [N s/m] is the impedance the
/// force meets on the rod sides (Z of one rod end, Z_L Z_R/(Z_L + Z_R) of two; 0: none, only rigid
/// bodies or the ground, whose velocities a force changes only over time). A force F slows the rod
/// ends: δ' = s - F/z with F = k φ + c δ', solved for δ'.
inline LinkRate compliant_link_rate(double kphi, double damping, double z, double free_rate) {
    const double rate = z > 0 ? (free_rate - kphi / z) / (1 + damping / z) : free_rate;
    return {kphi + damping * rate, rate};
}

}  // namespace rodcollide
