// What bounds a chain besides its rods (docs/physics.md §8): the condition at each of its two
// ends (free, fixed, a rigid wall at a gap, anechoic) and prescribed load histories at free ends.
// Validated with the Chain that owns them (chain.hpp); the physics is junction.hpp's.
#pragma once

#include "rodcollide/contact_law.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rodcollide {

/// The two ends of a chain.
enum class ChainSide { left, right };

/// "left" / "right".
std::string_view to_string(ChainSide side);

/// The condition at one end of the chain.
enum class EndKind {
    free,      ///< N = 0 (the default)
    fixed,     ///< v = 0, bilateral: the end carries tension and compression
    wall,      ///< a rigid, immobile wall at a gap: compression only, opens and re-closes
    anechoic,  ///< impedance-matched: the rod continues to infinity in its initial state, so
               ///< nothing that arrives is reflected (energy leaves: energy.radiated)
    // Issue 23 (docs/physics.md §9.3): attached to the end, bilateral (they pull as well as push).
    spring,          ///< a linear spring of `stiffness` to the ground, unstretched at t = 0
    dashpot,         ///< a linear dashpot of `damping` to the ground
    spring_dashpot,  ///< both, in parallel ("spring-dashpot")
};

/// "free" | "fixed" | "wall" | "anechoic" | "spring" | "dashpot" | "spring-dashpot".
std::string_view to_string(EndKind kind);

struct ChainEnd {
    EndKind kind = EndKind::free;
    double gap = 0;  ///< wall only: distance from the chain's end to the wall at t = 0 [m], >= 0
    double stiffness = 0;  ///< spring, spring-dashpot: k [N/m], > 0
    double damping = 0;    ///< dashpot, spring-dashpot: c [N s/m], > 0
    /// wall only: a compliant wall's law (contact_law.hpp); 0 and 0: rigid (the default).
    double contact_stiffness = 0;  ///< [N/m^p]
    double contact_exponent = 1;   ///< [-]
    double contact_damping = 0;    ///< [N s/m]
    /// wall only (issue 24): e in (0, 1] of a compliant wall's contact (energetic, §9.8).
    double restitution = 1;
    /// Set by Chain: a rigid wall met by a curved end carries the Hertz law Chain derived (the wall
    /// flat and rigid, docs/physics.md §9.8), not keys the user gave.
    bool hertz_contact = false;

    /// A wall's contact law (rigid unless contact keys were given); a spring or dashpot end's
    /// bilateral law (k, p = 1, c); rigid for the other kinds.
    ContactLaw law() const;
    /// The wall's contact keys only (rigid() unless given).
    ContactLaw contact_law() const { return {contact_stiffness, contact_exponent, contact_damping, false, restitution}; }
    /// A spring, dashpot or spring-dashpot end.
    bool attached() const { return kind == EndKind::spring || kind == EndKind::dashpot || kind == EndKind::spring_dashpot; }
    /// Anything beyond the rigid end conditions: an attached end, or a compliant wall.
    bool compliant() const { return attached() || (kind == EndKind::wall && !contact_law().rigid()); }
};

/// What a load prescribes at its end.
enum class LoadQuantity {
    force,     ///< the end force N [N], positive in tension
    velocity,  ///< the end velocity [m/s]
};

std::string_view to_string(LoadQuantity quantity);

/// A prescribed history at a free end of the chain: piecewise linear through the points
/// (time[k], value[k]), 0 before the first time and after the last.
struct Load {
    ChainSide end = ChainSide::left;
    LoadQuantity quantity = LoadQuantity::force;
    std::vector<double> time;   ///< [s], increasing, >= 0, at least 1 point
    std::vector<double> value;  ///< N or m/s, one per time, finite

    /// After this the end is free [s]. @pre !time.empty()
    double end_time() const { return time.back(); }
    /// The piecewise-linear value at t. @pre check_load(*this) passes
    double at(double t) const;
};

/// The ends of a chain and its loads (at most one per end).
struct ChainEnds {
    ChainEnd left, right;
    std::vector<Load> loads;

    const ChainEnd& operator[](ChainSide side) const { return side == ChainSide::left ? left : right; }
    /// The load at `side`, or null.
    const Load* load_at(ChainSide side) const;
    /// Anything other than two free, unloaded ends (the outputs then report "ends").
    bool any() const;
};

/// A load history as piecewise-constant steps, for the exact solver (docs/physics.md §8): a
/// constant piece (two equal values) is kept exactly; a sloped piece is cut into steps holding
/// its value at their midpoints, so the impulse of every piece is exact and the largest
/// difference from the linear value is max |slope| * step / 2 (max_error).
struct LoadSteps {
    std::vector<double> time;   ///< start of each step [s], increasing; the last step is 0
    std::vector<double> value;
    double max_error = 0;       ///< largest |step value - linear value| [N or m/s]
};

/// Steps per sloped piece: enough for an error of 1e-3 of the load's largest |value|, at most
/// this many (bounded work; the reported max_error says what was reached).
inline constexpr std::size_t max_steps_per_load_piece = 4096;

/// @pre check_load(load) passes (a Chain's loads do).
LoadSteps load_steps(const Load& load);

/// Shapes a load may be given by (case file `shape`), as time/value points.
/// rectangle: amplitude on [0, duration]; trapezoid: rises linearly over `rise`, holds, falls
/// over `fall`, all within `duration`; half-sine: amplitude sin(pi t / duration), as 64 linear
/// pieces (shape_points).
struct LoadShape {
    std::string name;  ///< one of load_shape_names
    double amplitude = 0, duration = 0, rise = 0, fall = 0;
};
/// The shapes, in the order messages list them.
inline constexpr std::string_view load_shape_names[] = {"rectangle", "trapezoid", "half-sine"};
/// Sets `time` and `value` to the shape's points.
/// @throws InvalidInput naming the offending parameter ("shape", "duration", "rise", ...).
void shape_points(const LoadShape& shape, std::vector<double>& time, std::vector<double>& value);

/// For analyses of a free chain (the rigid impact laws, their comparison and sweeps); `what` names
/// the analysis in the message.
/// @throws InvalidInput (key "ends") if the chain has an end that is not free or a load.
void require_free_ends(const ChainEnds& ends, std::string_view what);

/// The one line with which what cannot carry issue 23's compliant parts next to rods refuses a
/// chain that has them (Chain::compliant()): the front tracker, and the analyses built on it or on
/// rigid laws. It names what is refused and what does carry it (run, by either method).
/// `what` names the refuser.
std::string compliant_refusal(std::string_view what);

/// The one line with which a wave field, diagram or gauge signal is refused for a chain of rigid
/// bodies alone (no rod, no waves; docs/physics.md §9.9).
std::string rigid_bodies_field_refusal();

/// The one line with which the exact solver refuses the wave field, characteristics diagram and
/// gauge signals of a chain with rods and compliant parts: its delay network gives the outcome
/// only (docs/physics.md §9.10). `what` names the refuser.
std::string compliant_field_refusal(std::string_view what);

/// Checks a load's own invariants (times finite, >= 0, strictly increasing; values finite; as
/// many values as times).
/// @throws InvalidInput with key "time" or "value".
void check_load(const Load& load);

}  // namespace rodcollide
