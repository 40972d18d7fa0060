// Physics at rod ends, shared by both solvers (docs/physics.md §1; Winandy & Leine 2015 Table 1).
// A rod carries the Riemann invariants alpha = v - N/Z (constant along dx/dt = +c) and
// beta = v + N/Z (constant along dx/dt = -c); N is the normal force, positive in tension.
// A junction receives alpha from the rod on its left (arriving at that rod's right end) and beta
// from the rod on its right (arriving at that rod's left end), and sends back beta to the left
// and alpha to the right. Free ends reflect; a closed contact makes v and N continuous; a
// unilateral contact carries compression only and opens when it would carry tension.
#pragma once

#include "rodcollide/chain_ends.hpp"
#include "rodcollide/elements.hpp"

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

// ---- Junction kinds: the one dispatch both solvers call ------------------------------------------
//
// A solver only transports invariants along elements; what happens where they meet is decided here.
// A new kind is one enumerator of JunctionKind (elements.hpp) plus one case in each function below
// (junction.cpp): a fixed end
// (v = 0) or an anechoic end is a response without a gap; a rigid wall at a gap is a kind with a
// gap whose closed response reflects with v = 0 (and whose ContactRecord holds the gap); a welded
// joint answers closed_junction() whatever the sign of N. The solvers need no edit for such kinds.

/// What arrives at a junction: alpha at the right end of the element on its left, beta at the
/// left end of the element on its right, and the impedances on both sides (0 and 0 where the chain
/// ends; the solver supplies Z, or its discrete impedance kappa).
struct JunctionArrivals {
    double z_left = 0;    ///< [N s/m]
    double alpha_in = 0;  ///< [m/s]
    double z_right = 0;   ///< [N s/m]
    double beta_in = 0;   ///< [m/s]
    double outside = 0;   ///< anechoic end: the invariant its continuation sends in [m/s]
};

/// A junction at an end of the chain has an element on one side only: which end it is, that
/// element's impedance z [N s/m] and the invariant arriving from it [m/s] (alpha at the chain's
/// right end, beta at its left end).
struct ChainEndArrival {
    ChainSide side = ChainSide::left;
    double z = 0;
    double incoming = 0;
};

/// The arrival at a chain end from what arrives at its junction: the chain's right end when an
/// element is on the junction's left (z_left > 0), else its left end.
inline ChainEndArrival chain_end_arrival(const JunctionArrivals& in) {
    if (in.z_left > 0) return {ChainSide::right, in.z_left, in.alpha_in};
    return {ChainSide::left, in.z_right, in.beta_in};
}

/// Held end (v = 0): the arriving invariant comes back with its sign changed.
JunctionResponse fixed_end_response(const ChainEndArrival& end);

/// Anechoic end: sends back `outside` (the continuation's invariant, its initial velocity)
/// whatever arrives, so the end force is N = Z (outside - alpha_in)/2 at a right end.
JunctionResponse anechoic_end_response(const ChainEndArrival& end, double outside);

/// A free end whose force (quantity force, N [N]) or velocity (quantity velocity [m/s]) is
/// prescribed to `value`: the outgoing invariant follows from N = Z (beta - alpha)/2 or
/// v = (alpha + beta)/2 on the side that has an element.
JunctionResponse loaded_end_response(LoadQuantity quantity, double value, const ChainEndArrival& end);

/// The response of a junction of `kind`. `touching` says whether the ends of a kind with a gap
/// are in contact (ignored by other kinds); `tolerance` [m/s] is touching_junction()'s rounding
/// band. A free end reflects its one arriving invariant (the missing side's fields are unused).
JunctionResponse junction_response(JunctionKind kind, bool touching, const JunctionArrivals& in,
                                   double tolerance = 0);

/// For a kind with a gap whose ends touch: whether they stay in contact (stays_in_contact()).
/// False for kinds without a gap.
bool stays_touching(JunctionKind kind, const JunctionArrivals& in, double tolerance);

}  // namespace rodcollide
