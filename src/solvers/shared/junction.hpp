// Junction rules: what happens where two elements meet, or where the chain ends. The only physics
// at rod ends; both solvers call it (docs/physics.md §1.4 and §8; Winandy & Leine 2015 Table 1).
// The solvers only carry waves along elements; each rule below is a Riemann solver for one kind.
//
// Waves (physics.md §1.2). An element of impedance Z = rho A c [N s/m] carries two Riemann
// invariants [m/s], N the normal force, positive in tension:
//   alpha = v - N/Z   constant along dx/dt = +c (travels right)
//   beta  = v + N/Z   constant along dx/dt = -c (travels left)
//   v = (alpha + beta)/2,   N = Z (beta - alpha)/2.
//
// Inputs (JunctionArrivals): alpha_in from the element on the left (at its right end) and beta_in
// from the element on the right (at its left end); their impedances Z_L and Z_R (0 on the missing
// side of a chain end; a finite-difference solver passes its discrete impedance); `outside`, the
// invariant an anechoic end's continuation sends in; for a kind with a gap, whether its ends touch,
// and the tolerance band [m/s] for rounding.
// Outputs (JunctionResponse): the waves sent back, beta_out into the left element and alpha_out
// into the right one; the velocity of each end; the force N the junction carries.
// s = beta_in - alpha_in is the free separation velocity: how fast the ends would part if both
// were free. A closed junction carries N* = Z_L Z_R s / (Z_L + Z_R), so N* and s share a sign.
//
// kind (JunctionKind)  | rule                          | waves sent                         | physics.md
// ---------------------+-------------------------------+------------------------------------+-----------
// free_end             | N = 0                         | right end: beta_out = alpha_in     | §1.4 Free
//                      |                               | left end: alpha_out = beta_in      | end
// contact, apart       | both ends free (open)         | beta_out = alpha_in,               | §1.4 Open
//                      | v_L = alpha_in, v_R = beta_in | alpha_out = beta_in                | contacts
// contact, touching,   | closed: v and N continuous,   | beta_out = v* + N*/Z_L,            | §1.4 Closed
//   s < -tolerance     | v* = (Z_L alpha_in + Z_R      | alpha_out = v* - N*/Z_R (equal Z:  | contact,
//                      | beta_in)/(Z_L + Z_R), N* < 0  | all transmitted, none reflected)   | Unilateral
// contact, touching,   | no compression: the open rule | as apart; the ends part only once  | §1.4, §6.5
//   s >= -tolerance    | (it equals the closed at s=0) | s > tolerance (stays_touching)     |
// welded               | closed, N of either sign      | as a closed contact                | §8.1
// fixed_end            | v = 0, bilateral              | right: beta_out = -alpha_in,       | §8.2
//                      |                               | N = -Z alpha_in; left: the mirror  |
// wall                 | touching and s < -tolerance   | as fixed_end while closed, else as | §8.2
//                      | (compressed): v = 0           | free_end                           |
// anechoic_end         | continued by the rod in its   | right: beta_out = outside,         | §8.2, §8.5
//                      | initial state (outside = v0)  | N = Z (outside - alpha_in)/2; left:|
//                      |                               | the mirror; nothing is reflected   |
// free end under a     | N = F(t) or v = V(t)          | right: beta_out = alpha_in + 2F/Z  | §8.3
//   load (no kind:     | prescribed                    | or 2V - alpha_in; left: alpha_out =|
//   loaded_end_        |                               | beta_in - 2F/Z or 2V - beta_in     |
//   response())        |                               |                                    |
//
// Not here: when a gap closes (contact_record), simultaneous arrivals (each junction of a group
// reads every arrival of the group: physics.md §1.4 "Simultaneous arrivals"), energy and momentum
// through the ends (end_flux, §8.4).
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
