// One junction of the exact solver's delay network (docs/physics.md §9.10): what sits between two
// rod ends, or between a rod end and the chain's end — two segments of one rod welded together, a
// rigid or compliant contact, a wall, a held, anechoic, free or spring/dashpot end, and any rigid
// masses (kind = "mass", balls) in between with their links. Driven by the waves arriving from its
// rods, it is an ODE (rigid links switch on and off at events); this file holds its state layout and
// right-hand side, the one place of that physics for the exact solver (the compliant law itself:
// contact_law.hpp, link_rate.hpp).
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/contact_law.hpp"
#include "solvers/shared/contact_branches.hpp"
#include "solvers/shared/contact_record.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

/// What joins body i - 1 and body i of a node (body -1 its left side, body m its right side).
struct NodeLink {
    enum class Kind {
        free,       ///< a free chain end: nothing acts
        rigid,      ///< a rigid unilateral contact (rod-rod, rod-mass, rod-wall)
        compliant,  ///< a compliant unilateral contact (contact_law.hpp)
        attached,   ///< a spring/dashpot end: bilateral
        fixed,      ///< a held end: v = 0, bilateral
        anechoic,   ///< an anechoic end: the rod continued by itself in its initial state
        loaded,     ///< a free end under a [[load]]: its force or velocity while the load acts, else free
        welded,     ///< two segments of one rod: bilateral and rigid, their ends move together
    };
    Kind kind = Kind::free;
    ContactLaw law;
    double initial_overlap = 0;  ///< δ at t = 0 [m] (minus the gap)
    std::ptrdiff_t record = -1;  ///< its ContactHistory record (contacts and walls), -1: none
    const Load* load = nullptr;  ///< kind loaded: the chain's load at that end
    bool unilateral() const { return kind == Kind::rigid || kind == Kind::compliant; }
};

/// A side of a node: a rod end (rod >= 0) or the chain's end.
struct NodeSide {
    std::ptrdiff_t rod = -1;      ///< the chain's rod (Chain index)
    std::ptrdiff_t element = -1;  ///< its element (segment) at this end (Chain::elements() index)
    double z = 0;        ///< the rod's impedance [N s/m]; at an anechoic chain end its continuation's
    double outside = 0;  ///< at an anechoic chain end: the invariant its continuation sends [m/s]
};

/// The invariants arriving at a node: alpha from its left rod, beta from its right rod [m/s].
struct NodeArrivals {
    double alpha = 0, beta = 0;
    double t = 0;             ///< when [s] (what a load prescribes depends on it)
    bool left_limit = false;  ///< the limit from the left at t (at a load's breakpoints)
};


class JunctionNode {
public:
    /// `compression_rate_floor` [m/s]: a contact with restitution reaches its maximum compression
    /// where δ' falls below minus it (above the noise of the arriving waves' fits).
    JunctionNode(const Chain& chain, std::size_t junction, const ContactHistory& contacts, double compression_rate_floor);

    std::size_t junction() const { return junction_; }
    const NodeSide& left() const { return left_; }
    const NodeSide& right() const { return right_; }
    std::size_t masses() const { return bodies_.size(); }
    const std::vector<std::size_t>& bodies() const { return bodies_; }  ///< rod indices, left to right
    const std::vector<NodeLink>& links() const { return links_; }
    double mass(std::size_t k) const { return mass_[k]; }
    /// The node's shortest time scale [s] (masses on rods M/Z, contacts' compression times...),
    /// at most `longest`: the integrator's first step and its tolerance weights use it.
    double time_scale(double velocity_scale, double longest) const;

    // State layout: δ_i (links), u_k (masses), I_i = ∫F_i dt (links), D (dissipated), W (work done
    // on the chain through a chain end of this node).
    std::size_t size() const { return 3 * masses() + 4; }
    std::size_t u0() const { return links_.size(); }
    std::size_t i0() const { return links_.size() + masses(); }
    std::size_t d0() const { return 2 * links_.size() + masses(); }
    std::size_t w0() const { return d0() + 1; }
    std::vector<double> initial_state() const;

    /// Compressive force F_i and overlap rate of link i on the branch `b` says.
    struct Link {
        double force = 0, rate = 0;
    };
    Link link(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const;
    /// Event function of a unilateral link: its continued force where acting, else the force it
    /// would carry switched on where it is compressed (δ > 0, or δ > δ_r with a memory), else δ
    /// (or δ - δ_r).
    double event_value(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const;
    /// A link with restitution e < 1 (§9.7): it has a memory and a second event.
    bool hysteretic(std::size_t i) const;
    /// The sense of link i's second event (+1: where second_value() rises past 0, -1: where it falls
    /// below 0, 0: none): loading, δ' (maximum compression); unloading, δ - δ_m (loading again);
    /// open with a memory, δ (separated: the memory is cleared).
    int second_sense(std::size_t i, const ContactBranches& b) const;
    double second_value(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const;
    /// Link i's memory at state x: remembered up to δ while loading, else the held one.
    ContactMemory memory_at(std::size_t i, const double* x, const ContactBranches& b) const;
    /// The hysteresis loss of every link up to state x [J] (§9.7: banked, plus (1 - e^2) of the
    /// energy stored up to each current memory).
    double hysteresis(const double* x, const ContactBranches& b) const;
    /// Whether link i acts at t = 0 (touching and not parting, or attached/bilateral).
    bool acts_initially(std::size_t i, const NodeArrivals& a) const;
    void rhs(const double* x, double* dxdt, const NodeArrivals& a, const ContactBranches& b) const;
    /// Link i's impulse ∫F dt over a step of length h, where its force is z s of the arriving waves
    /// alone (no masses at the node: a held, anechoic or welded end, or a rigid contact `acting`),
    /// from the integrals of alpha and beta arriving over the step; NaN for any other link. The
    /// integrator's impulse is right to its tolerance only; this one is exact (momentum, §9.10).
    double exact_impulse(std::size_t i, bool acting, double alpha_integral, double beta_integral, double h) const;
    /// The work done on the chain through an anechoic end of this node over a step of length h,
    /// from ∫w² of the wave w arriving there over the step: -(Z/4)(∫α² - v₀² h) at a right end,
    /// (Z/4)(v₀² h - ∫β²) at a left one (all of it radiated); NaN at any other node.
    double exact_anechoic_work(double arriving_square_integral, double h) const;
    /// The waves the node emits for state x: beta into its left rod, alpha into its right rod.
    NodeArrivals emitted(const double* x, const NodeArrivals& a, const ContactBranches& b) const;
    /// The elastic energy an open compliant contact at δ > 0 (a dashpot's, opened before δ reached
    /// 0, or above δ_r with a memory) releases while δ goes from `before` to `after` [J]: its
    /// contact_energy() falls while no force acts, which counts as dissipated (the dashpot relaxes
    /// the unloaded spring, §9.9).
    double release_while_open(std::size_t i, double before, double after, const ContactBranches& b) const;
    /// Energy stored in its compliant links and springs [J] (what unloading would give back).
    double stored_energy(const double* x, const ContactBranches& b) const;

private:
    struct Sides {
        double va, za, vb, zb;
    };
    Sides sides(std::size_t i, const double* x, const NodeArrivals& a) const;
    Link link(std::size_t i, const double* x, const NodeArrivals& a, bool acting, const ContactMemory& branch) const;

    std::size_t junction_;
    NodeSide left_, right_;
    std::vector<std::size_t> bodies_;
    std::vector<double> mass_, velocity0_;
    std::vector<NodeLink> links_;
    /// The maximum compression is taken where δ' falls below minus this, not at 0 (as
    /// rigid_body_ode.cpp does with 1e-12 V): near a flat peak δ' is as noisy as the arriving waves,
    /// and a contact would switch loading <-> unloading on that noise [m/s].
    double compression_rate_floor_ = 0;
};

}  // namespace rodcollide
