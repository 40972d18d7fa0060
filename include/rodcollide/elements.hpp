// Elements and junctions: the layout both solvers run on, derived once from the Chain
// (docs/physics.md §1). An element is a uniform piece of a rod (one wave speed c, impedance Z,
// transit time L/c);
// a junction joins two element ends, or ends the chain, and its kind says what physics acts there
// (the junction rules, src/solvers/shared/junction.hpp). A rod is one element per segment; segments meet at welded junctions, rods at
// contacts, and the chain's two end junctions carry its end conditions (chain_ends.hpp).
#pragma once

#include "rodcollide/chain_ends.hpp"
#include "rodcollide/contact_law.hpp"

#include <cstddef>

namespace rodcollide {

/// What joins two element ends, or ends the chain (Junction below names one).
enum class JunctionKind {
    free_end,  ///< an end of the chain, N = 0: only one side has an element
    contact,   ///< unilateral contact between two rods: compression only; it opens, and it
               ///< closes again when its gap reaches 0 (it has a gap and a ContactRecord)
    welded,    ///< two segments of one rod: always closed, carries tension too
    fixed_end, ///< an end of the chain held still: v = 0, tension and compression
    wall,      ///< an end of the chain against a rigid, immobile wall: a unilateral contact whose
               ///< other side never moves (it has a gap and a ContactRecord)
    anechoic_end,  ///< an end of the chain continued to infinity by the same rod in its initial
                   ///< state: it sends back only that state, so nothing arriving is reflected
    attached_end,  ///< an end of the chain on a spring and/or dashpot to the ground (issue 23):
                   ///< bilateral, its law is Junction::law (docs/physics.md §9.3)
};

/// The junction kind of a chain end of this kind.
JunctionKind end_junction_kind(EndKind kind);

/// Whether junctions of this kind open and close: they have a gap, a ContactRecord (impulse,
/// compression intervals, events) and an entry in Outcome::contacts.
bool has_gap(JunctionKind kind);

/// A uniform piece of a rod, with the quantities the solvers derive from it. Immutable.
struct Element {
    std::size_t rod = 0;          ///< index of the rod it belongs to
    double offset = 0;            ///< left end in the chain's material coordinate (rods side by side) [m]
    double length = 0;            ///< L [m]
    double area = 0;              ///< A [m^2]
    double density = 0;           ///< rho [kg/m^3]
    double youngs_modulus = 0;    ///< E [Pa]
    double initial_velocity = 0;  ///< uniform at t = 0, unstrained [m/s]
    double wave_speed = 0;        ///< c = sqrt(E/rho) [m/s]
    double impedance = 0;         ///< Z = rho A c [N s/m]
    double transit_time = 0;      ///< L/c [s]
    double mass = 0;              ///< rho A L [kg]
    double axial_stiffness = 0;   ///< E A [N]
};

/// What sits between element `left` (at its right end) and element `right` (at its left end).
/// Junctions are listed left to right and there is one more than elements: junction j is at the
/// left end of element j and at the right end of element j - 1.
struct Junction {
    JunctionKind kind = JunctionKind::free_end;
    std::ptrdiff_t left = -1;   ///< element on the left, -1 at the chain's left end
    std::ptrdiff_t right = -1;  ///< element on the right, -1 at the chain's right end
    double initial_gap = 0;     ///< for kinds with a gap (has_gap): the gap at t = 0 [m]
    /// anechoic end: the velocity of the rod's continuation beyond the end (its element's initial
    /// velocity), which is what the end sends back [m/s]
    double outside_velocity = 0;
    /// contact, wall: the compliant law when it is not rigid() (issue 23; rigid by default);
    /// attached_end: its bilateral spring/dashpot law.
    ContactLaw law;
    /// Rigid masses sit between this junction's elements, or between it and the chain's end
    /// (issue 23): only a solver that carries masses may run such a chain.
    bool lumped = false;
};

}  // namespace rodcollide
