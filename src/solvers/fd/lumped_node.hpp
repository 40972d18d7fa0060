// Rigid masses in the finite-difference grid (issue 23; docs/physics.md §9.4): the masses that sit
// at one junction of the layout (Junction::lumped) and the contacts that join them to each other, to
// the rods on either side and to the chain's end, integrated as one ODE over a grid step with the
// invariants arriving from the rods held (as a compliant junction is, contact_law.hpp).
#pragma once

#include "rodcollide/chain.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

/// One link of a lumped node: what joins body i - 1 to body i (body -1 the left side, a rod end or
/// the chain's end; the last body the right side).
struct LumpedLink {
    enum class Kind {
        rod_rigid,   ///< a rod end and a mass, a rigid unilateral contact
        compliant,   ///< a compliant contact (rod-mass, mass-mass, or a mass against a compliant wall)
        attached,    ///< a spring/dashpot end on a mass (bilateral)
        free,        ///< a free chain end: nothing
    };
    Kind kind = Kind::free;
    ContactLaw law;
    double overlap = 0;  ///< δ [m]: the overlap (a gap is δ < 0), or an attached end's displacement into it
    ContactMemory memory;  ///< a compliant contact's δ_m (restitution e < 1, docs/physics.md §9.7)
};

/// The masses of one lumped junction and their links (links.size() == masses.size() + 1).
class LumpedNode {
public:
    /// The node at junction `j` of `chain` (Junction::lumped).
    LumpedNode(const Chain& chain, std::size_t j);

    /// Invariants arriving from the rods: alpha from the left rod (impedance z_left, 0 if none),
    /// beta from the right rod (z_right, 0 if none).
    struct Step {
        std::vector<double> mean_force;  ///< per link: the mean N over the step [N] (<= 0 for a contact)
        std::vector<bool> acting;        ///< per link: carried force during the step
        std::vector<double> overlap;     ///< per link: δ at the end of the step
        std::vector<double> velocity;    ///< per mass: u at the end of the step
        std::vector<double> mean_velocity;  ///< per mass: mean u over the step
        std::vector<ContactMemory> memory;  ///< per link: its memory at the end of the step
        double dissipated = 0;           ///< dashpot work and hysteresis loss over the step [J]
    };
    Step integrate(double z_left, double alpha, double z_right, double beta, double dt) const;
    /// Takes the step's end state.
    void accept(const Step& s);

    std::size_t junction() const { return junction_; }
    const std::vector<std::size_t>& masses() const { return masses_; }  ///< rod indices, left to right
    const std::vector<LumpedLink>& links() const { return links_; }
    double velocity(std::size_t m) const { return velocity_[m]; }
    /// Energy stored in the compliant links and attached springs [J].
    double stored_energy() const;
    /// Any link carrying force or overlapping, or attached: no settling bound.
    bool engaged() const;

private:
    std::size_t junction_;
    std::vector<std::size_t> masses_;
    std::vector<double> mass_;      // M per mass [kg]
    std::vector<double> velocity_;  // u per mass [m/s]
    std::vector<LumpedLink> links_;
    bool left_rod_ = false, right_rod_ = false;  // which sides are rod ends (else chain ends)
};

}  // namespace rodcollide
