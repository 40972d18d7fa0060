// Physics at rod ends, shared by both solvers (physics.md §1; seed 000 Table 1).
// A rod carries the Riemann invariants alpha = v - N/Z (constant along dx/dt = +c) and
// beta = v + N/Z (constant along dx/dt = -c); N is the normal force, positive in tension.
// A junction receives alpha from the rod on its left (arriving at that rod's right end) and beta
// from the rod on its right (arriving at that rod's left end), and sends back beta to the left
// and alpha to the right. Free ends reflect; a closed contact makes v and N continuous; a
// unilateral contact carries compression only and opens when it would carry tension.
#pragma once

namespace rodcollide {

/// v = (alpha + beta)/2 [m/s].
inline double velocity_of(double alpha, double beta) { return 0.5 * (alpha + beta); }
/// N = Z (beta - alpha)/2 [N], positive in tension.
inline double force_of(double impedance, double alpha, double beta) {
    return 0.5 * impedance * (beta - alpha);
}
/// alpha = v - N/Z and beta = v + N/Z from velocity [m/s], force [N] and impedance [N s/m].
inline double alpha_of(double velocity, double force, double impedance) {
    return velocity - force / impedance;
}
inline double beta_of(double velocity, double force, double impedance) {
    return velocity + force / impedance;
}

/// Free end (N = 0): the outgoing invariant equals the incoming one. At a right end an arriving
/// alpha leaves beta = alpha; at a left end an arriving beta leaves alpha = beta.
inline double free_end_reflection(double incoming) { return incoming; }

/// What a two-sided junction sends back, and the state of its ends.
struct JunctionResponse {
    double beta_to_left = 0;    ///< beta emitted into the left rod at its right end [m/s]
    double alpha_to_right = 0;  ///< alpha emitted into the right rod at its left end [m/s]
    double velocity_left = 0;   ///< velocity of the left rod's right end [m/s]
    double velocity_right = 0;  ///< velocity of the right rod's left end [m/s]
    double force = 0;           ///< N carried by the junction [N] (<= 0 for a contact)
};

/// Relative velocity v_right_end - v_left_end the two ends would have if both were free
/// (beta_in - alpha_in) [m/s]. Its sign decides a unilateral contact: a closed contact would
/// carry force Z_L Z_R/(Z_L+Z_R) times this, so it is in tension exactly when this is > 0.
inline double free_separation_velocity(double alpha_in, double beta_in) { return beta_in - alpha_in; }

/// Both ends free (an open contact): each end reflects its own incoming invariant.
JunctionResponse open_junction(double alpha_in, double beta_in);

/// Closed (bonded) contact between impedances z_left and z_right: v and N continuous,
/// v* = (Z_L alpha_in + Z_R beta_in)/(Z_L + Z_R), N* = Z_L Z_R (beta_in - alpha_in)/(Z_L + Z_R).
/// Equal impedances transmit a front unchanged; unequal ones split it.
JunctionResponse closed_junction(double z_left, double alpha_in, double z_right, double beta_in);

/// Unilateral contact whose ends touch (gap 0): the closed response if it carries compression,
/// else the open one. Returns the open response for N* = 0 too; both coincide there.
/// `tolerance` [m/s] >= 0 widens "no compression" to free separation velocities >= -tolerance, for
/// a solver whose arriving invariants carry rounding noise (finite differences recompute them
/// every step): ends touching without force must not pick up spurious compression.
JunctionResponse touching_junction(double z_left, double alpha_in, double z_right, double beta_in,
                                   double tolerance = 0);

/// Whether touching ends stay in contact: a contact opens only when the free separation velocity
/// exceeds `tolerance` [m/s] (a tiny relative velocity from rounding must not split a contact
/// interval into many).
inline bool stays_in_contact(double alpha_in, double beta_in, double tolerance) {
    return free_separation_velocity(alpha_in, beta_in) <= tolerance;
}

}  // namespace rodcollide
