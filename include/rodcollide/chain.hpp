// Rod and Chain: the validated, immutable description of a collision (no solver state).
// Thin elastic rods (docs/physics.md §1, Winandy & Leine 2015 §4): wave speed c = sqrt(E/rho), mass
// m = rho*A*L, transit time L/c and force impedance Z = A*sqrt(E*rho) = rho*A*c. Any consistent
// unit system works; the comments give SI units.
#pragma once

#include "rodcollide/chain_ends.hpp"
#include "rodcollide/contact_law.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/elements.hpp"

#include <Eigen/Dense>

#include <cstddef>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rodcollide {

/// Thrown when a model would be invalid. rod() and quantity() say which rod ("rod[3]", none for
/// the rod count) and which of its quantities ("length", empty for the rod as a whole), as data;
/// what() reads "rod[3].length: must be > 0, got -1".
class InvalidModel : public InvalidInput {
public:
    InvalidModel(std::optional<std::size_t> rod, std::string quantity, std::string message);
    std::optional<std::size_t> rod() const noexcept { return rod_; }
    const std::string& quantity() const noexcept { return quantity_; }

private:
    std::optional<std::size_t> rod_;
    std::string quantity_;
};

/// A uniform piece of a rod made of segments welded together (docs/physics.md §8). Same
/// invariants as a rod's material keys: every value finite and > 0.
struct Segment {
    double length = 0;          ///< [m]
    double area = 0;            ///< [m^2]
    double density = 0;         ///< [kg/m^3]
    double youngs_modulus = 0;  ///< [Pa]
};

/// What an element of the chain is (case file `[[rod]] kind`).
enum class RodKind {
    rod,   ///< a thin elastic rod (the default)
    mass,  ///< a rigid body of mass `mass`: no length, no waves (docs/physics.md §9.1)
    ball,  ///< a rigid sphere (issue 24): radius, density, youngs_modulus, poisson_ratio; its mass
           ///< rho 4 pi R^3 / 3; a rigid body like a mass (Rod::is_mass()), Hertz at its contacts (§9.8)
};
/// "rod" / "mass" / "ball".
std::string_view to_string(RodKind kind);
/// The kinds, in RodKind's order (the case file's names).
inline constexpr std::string_view rod_kind_names[] = {"rod", "mass", "ball"};

/// Hertz's contact of two curved elastic bodies (docs/physics.md §9.8): force k δ^(3/2) with
/// k = (4/3) E* sqrt(R*), 1/E* = (1 - nu1^2)/E1 + (1 - nu2^2)/E2, 1/R* = 1/R1 + 1/R2.
inline constexpr double hertz_exponent = 1.5;
/// One side of a contact as Hertz sees it: its curvature 1/R [1/m] (0: flat) and its compliance
/// (1 - nu^2)/E [1/Pa] (0: rigid, a mass or a rigid wall).
struct HertzSide {
    double curvature = 0;
    double compliance = 0;
};
/// k = (4/3) E* sqrt(R*) [N/m^1.5] of two sides; 0 (no Hertz law: the contact stays rigid) when
/// both are flat or both rigid.
double hertz_stiffness(HertzSide a, HertzSide b);

/// One rod, as given by the user. Invariants (checked by Chain): length, area, density and
/// youngs_modulus finite and > 0; velocity finite; gap finite and >= 0. A rod with segments is
/// their welded sequence, left to right: its length is their sum (Chain sets it), and its area,
/// density and modulus are the first segment's (used only where a rod is taken as uniform). All
/// within the dynamic range below.
struct Rod {
    double length = 0;          ///< L [m]
    double area = 0;            ///< A [m^2]
    double density = 0;         ///< rho [kg/m^3]
    double youngs_modulus = 0;  ///< E [Pa]
    double velocity = 0;        ///< initial uniform particle velocity [m/s], rod unstrained
    double gap = 0;             ///< initial distance from the previous rod's right end [m]
    std::vector<Segment> segments;  ///< empty: one uniform piece
    // Added by issue 23 (after the fields above, so that aggregate initialisation keeps its meaning).
    RodKind kind = RodKind::rod;
    double rigid_mass = 0;  ///< kind mass: M [kg] (case key `mass`); a rod's mass is rho A L
    /// The contact on this element's left (with the previous element): 0 and 0 is rigid (the
    /// default); else the compliant law of contact_law.hpp (keys contact_stiffness, _exponent,
    /// _damping).
    double contact_stiffness = 0;  ///< k [N/m^p], > 0 when given
    double contact_exponent = 1;   ///< p [-], > 0
    double contact_damping = 0;    ///< c [N s/m], >= 0
    // Added by issue 24 (docs/physics.md §9.8).
    double radius = 0;            ///< kind ball: R [m], > 0
    double poisson_ratio = 0.3;   ///< nu [-] in (-1, 0.5), of a rod or a ball (Hertz's E*)
    double end_radius = 0;        ///< a rod: both ends are spherical caps of this radius [m] (0: flat)
    double left_end_radius = 0;   ///< a rod: its left end's cap radius [m], over end_radius (0: end_radius)
    double right_end_radius = 0;  ///< a rod: its right end's cap radius [m], over end_radius (0: end_radius)
    double restitution = 1;       ///< e in (0, 1] of the contact on this element's left (energetic)
    /// Set by Chain: the contact on this element's left carries the Hertz law it derived (one side
    /// curved and no contact_stiffness given), not keys the user gave. A Chain built again from
    /// these rods derives it again (so a changed radius is followed).
    bool hertz_contact = false;

    /// A rigid body: a mass or a ball (every path that handles masses handles balls).
    bool is_mass() const { return kind == RodKind::mass || kind == RodKind::ball; }
    bool is_ball() const { return kind == RodKind::ball; }
    /// The law of the contact on this element's left: rigid by default; in a Chain, Hertz's where
    /// a side is curved (Chain derives it once, docs/physics.md §9.8), else the keys given.
    ContactLaw contact_law() const { return {contact_stiffness, contact_exponent, contact_damping, false, restitution}; }
    /// The cap radius of this element's end on `side` [m]: a ball's radius, a rod's end radius, 0
    /// for a flat end or a mass.
    double curvature_radius(ChainSide side) const;
    /// This element's side as Hertz sees it at its end on `side` (a mass: flat and rigid).
    HertzSide hertz_side(ChainSide side) const;
    /// A ball's mass rho 4 pi R^3 / 3 [kg].
    double ball_mass() const;

    double wave_speed() const;    ///< c = sqrt(E/rho) [m/s] (first segment's)
    double mass() const;          ///< m = rho*A*L [kg], summed over segments; M for a mass or a ball
    double transit_time() const;  ///< L/c [s], summed over segments
    double impedance() const;     ///< Z = rho*A*c [N*s/m]
    double axial_stiffness() const;  ///< E*A [N]
};

/// Largest chain rodcollide accepts (bounded work and memory).
inline constexpr std::size_t max_rods = 100000;

/// The dynamic range the solvers resolve in double precision (docs/case_file.md "Limits"). Every
/// rod quantity (length, area, density, youngs_modulus, |velocity|, gap) and every derived one
/// (c, m, Z, L/c, E A, m v^2) lies within [smallest_magnitude, largest_magnitude] (velocity and
/// gap may be 0, m v^2 may be small): the solvers multiply at most three such quantities (an
/// energy Z v^2 t), and 1e-100^3 and 1e100^3 are still normal doubles, so nothing overflows or
/// turns subnormal.
inline constexpr double smallest_magnitude = 1e-100;
inline constexpr double largest_magnitude = 1e100;
/// Largest ratio of two scales of one kind the solvers resolve: transit times (the longest rod's
/// over the shortest element's: a rod of segments has one element per segment), the time for the
/// gaps (between rods and to walls) to close at the velocity scale over the shortest element's
/// transit time, and the largest speed over the velocity scale. Times and velocities are rounded to 2.2e-16 of
/// their size, and simultaneous events are told apart at 1e-10 of the shortest transit time, so a
/// ratio of 1e5 keeps rounding (2.2e-11) below that tolerance.
inline constexpr double largest_scale_ratio = 1e5;

/// Largest contact_exponent p accepted (bounded: δ^p stays a normal double for the overlaps the
/// dynamic range allows).
inline constexpr double largest_contact_exponent = 10;

/// The checks Chain makes, for readers that report a value where it is written: a rod count
/// outside [2, max_rods], and one quantity of a rod ("length", "area", "density",
/// "youngs_modulus", "velocity", "gap", "mass", "contact_stiffness", "contact_exponent",
/// "contact_damping", "radius", "poisson_ratio", "end_radius", "left_end_radius",
/// "right_end_radius", "restitution"; rod none for a default that applies to every rod) that
/// breaks Rod's invariants or lies outside the magnitudes above. Throw InvalidModel.
/// A single rod is allowed when `single_allowed` (a chain bounded by something other than two
/// free, unloaded ends).
/// @throws InvalidModel (key "rod") for a count outside [single_allowed ? 1 : 2, max_rods].
void check_rod_count(std::size_t rods, bool single_allowed = false);
/// @throws InvalidModel naming the rod and quantity, for a value Rod's invariants refuse.
void check_rod_quantity(std::optional<std::size_t> rod, std::string_view quantity, double value);

/// Rods listed left to right. A Chain that exists is valid: the constructor checks every
/// invariant.
class Chain {
public:
    /// @throws InvalidModel naming the rod and quantity ("rod[2].length: must be > 0"), or the
    ///         end or load ("left.gap", "load[1].time"), for anything the limits refuse.
    explicit Chain(std::vector<Rod> rods, ChainEnds ends = {});

    std::size_t size() const { return rods_.size(); }
    std::size_t contact_count() const { return rods_.size() - 1; }
    /// @pre i < size()
    const Rod& operator[](std::size_t i) const { return rods_[i]; }
    const std::vector<Rod>& rods() const { return rods_; }
    /// The chain's end conditions and loads (free and unloaded by default).
    const ChainEnds& ends() const { return ends_; }

    Eigen::VectorXd masses() const;             ///< m_i [kg]
    Eigen::VectorXd initial_velocities() const; ///< u^-_i [m/s]
    double total_length() const;                ///< sum of L_i [m] (material coordinate span)
    double shortest_transit_time() const;       ///< min L/c over the elements (segments) [s]
    double longest_transit_time() const;        ///< max L_i/c_i [s]
    /// Left end of rod i in the material coordinate of the whole chain, rods side by side
    /// (gaps not counted) [m].
    /// @pre i < size()
    double material_offset(std::size_t i) const;
    /// Whether anything in the chain is beyond the rigid model of the papers: a mass, a compliant
    /// contact or wall, or a spring or dashpot end (issue 23; the exact solver refuses these).
    bool compliant() const;
    /// Whether any element is a rigid mass.
    bool has_masses() const;

    /// Largest difference of initial velocities, the velocity scale of the problem [m/s]; with
    /// ends, also the speed of a rod at a non-free end and what a load imposes.
    double velocity_scale() const;
    double initial_kinetic_energy() const;      ///< sum m_i v_i^2 / 2 [J]

    // ---- The layout the solvers run on (elements.hpp) ----
    /// Uniform elements, left to right; a rod's elements are contiguous.
    const std::vector<Element>& elements() const { return elements_; }
    /// Junctions, left to right: junction j is at the left end of element j (elements + 1 of them).
    const std::vector<Junction>& junctions() const { return junctions_; }
    /// Indices of rod i's elements, in order.
    /// @pre i < size()
    std::ranges::iota_view<std::size_t, std::size_t> element_indices(std::size_t i) const {
        return {first_element_[i], first_element_[i + 1]};
    }

private:
    void derive_layout();
    /// Refuses scales more than largest_scale_ratio apart (after derive_layout: uses elements).
    void check_scale_ratios() const;
    /// "rod[2]", or "rod[2].segment[1]" for an element of a rod of segments.
    std::string element_name(std::size_t element) const;

    std::vector<Rod> rods_;
    ChainEnds ends_;
    std::vector<double> offsets_;
    std::vector<Element> elements_;
    std::vector<Junction> junctions_;
    std::vector<std::size_t> first_element_;  // rod i has elements [first_element_[i], first_element_[i+1])
};

}  // namespace rodcollide
