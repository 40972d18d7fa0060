// The scaled ODE of a chain of rigid bodies that the exact solver integrates (rigid_body_ode.cpp;
// docs/physics.md §9.9), on its active set.
//
// Scaling: t = T t̂, δ = V T δ̂, v = V v̂, impulses M V Î, energy M V^2 D̂ (T the links' shortest time
// scale, V the velocity scale, M the largest mass), so that one tolerance fits every component.
//
// The active set: a long chain struck at one end is quiet almost everywhere. Ahead of the wave the
// bodies touch at rest, behind it they fly apart, and only a few bodies around the wave move under
// force. A body is integrated only while one of its links is not quiet; the others fly at their
// constant velocities, their links' overlaps advance linearly, and each step costs the active set,
// not the chain. A link is quiet when it cannot exert a force without an event first:
//   - open, at δ <= 0 and not approaching (δ' <= 0), with no restitution memory; or
//   - acting at a force below 1/10 of the parked threshold below (a margin, so that a link does not
//     flicker between parked and active) and below the settling rule's rounding force, with
//     |δ'| <= 1e-10 V: touching bodies at rest ahead of the wave, or moving as one behind it at the
//     integration's noise (what rigid_body_link_settled() takes as moving as one for ever).
// A quiet link between an integrated body and one that is not is watched by the event functions:
//   - open: its closing is the ordinary event, after which it is no longer quiet;
//   - acting ("parked"): the waiting body is left out of the ODE, so the link's force is taken as 0
//     on both sides (momentum stays exact) until the force it would carry rises past a threshold of
//     θ m V / T, θ = 1e-2 of the step tolerance (m the lighter body). That is an event, and the
//     waiting body joins the ODE there; the velocity it missed is about θ V times the time to the
//     threshold over T (measured on the tapered ball chain: 1e-15 N s, 1e-13 m/s). Because θ follows
//     the tolerance, the error bound from the run at 100x the tolerance covers it. A force that turns
//     tensile first opens the link (the ordinary opening event).
// What the active set does change is the step size: the error control no longer sees the bodies
// ahead of the wave, whose tiny motions held the steps short, so at a given tolerance the error is
// the wave's own (measured: cases/balls/tapered_chain.toml at τ = 1e-10, 400 steps and an error of
// 1.4e-9 V against 479 steps and 5.8e-10 V with every body integrated). The bound, from the run at
// τ/100, is the measured difference either way.
// The set is chosen again at every event (plan()), in O(n), the steps in between cost O(active).
// A link between two bodies outside the ODE is not watched between events: one acting at a
// rounding-sized rate may creep past the threshold by 1e-10 V per unit of scaled time, which the next
// plan sees; and the run is declared settled only once every link of the full state is
// (rigid_body_ode.cpp).
#pragma once

#include "solvers/shared/contact_branches.hpp"
#include "solvers/shared/rigid_bodies.hpp"

#include <cstddef>
#include <limits>
#include <vector>

namespace rodcollide {

using BodyState = std::vector<double>;

class BodyOde {
public:
    /// `tolerance`: the integrator's step tolerance, which sets the parked links' threshold.
    BodyOde(const RigidBodies& b, double tolerance);

    // The full state: δ̂ (n + 1 links), v̂ (n bodies), Î (n + 1 links), D̂.
    std::size_t full_size() const { return 3 * n_ + 3; }
    std::size_t v0() const { return n_ + 1; }      ///< index of v̂_0
    std::size_t i0() const { return 2 * n_ + 1; }  ///< index of Î_0
    std::size_t d0() const { return 3 * n_ + 2; }  ///< index of D̂
    double T() const { return T_; }
    double V() const { return V_; }
    double M() const { return M_; }

    /// Each link's branch (contact_branches.hpp): acting, and with restitution its memory.
    ContactBranches& branches() { return br_; }
    std::vector<char>& acting() { return br_.acting; }
    /// A contact with restitution e < 1: it has a memory and a second event function.
    bool hysteretic(std::size_t k) const {
        return b_.links[k].kind == BodyLink::Kind::contact && rodcollide::hysteretic(b_.links[k].law);
    }
    bool has_events(std::size_t k) const { return b_.links[k].kind == BodyLink::Kind::contact; }

    // ---- The active set ----
    /// Chooses the active set from the full state x at time t̂ (scaled), remembers x as the base the
    /// inactive bodies fly from, and returns the compact state the integrator carries: δ̂ of the
    /// active links, v̂ of the active bodies, Î of the active links, D̂.
    BodyState plan(const BodyState& x, double t_hat);
    /// The full state at time t̂ from the compact state y (of the current plan).
    void expand(const BodyState& y, double t_hat, BodyState& x) const;
    /// The links in the ODE: those of the active bodies.
    const std::vector<std::size_t>& links() const { return links_; }
    std::size_t active_bodies() const { return bodies_.size(); }
    /// Acting link k waits at δ = 0 for a body outside the ODE (its force is taken as 0).
    bool parked(std::size_t k) const { return parked_[k]; }

    // ---- Link k's overlap [m] and overlap rate [m/s] ----
    /// In the compact state y (link k active).
    double overlap(const BodyState& y, std::size_t k) const { return y[lslot_[k]] * V_ * T_; }
    double rate(const BodyState& y, std::size_t k) const {
        return (velocity(y, k, true) - velocity(y, k, false)) * V_;
    }
    /// In the full state x.
    double full_overlap(const BodyState& x, std::size_t k) const { return x[k] * V_ * T_; }
    double full_rate(const BodyState& x, std::size_t k) const { return b_.overlap_rate(k, &x[v0()]) * V_; }

    // ---- Link k's functions of its overlap d and rate r ----
    /// F_k >= 0 compressive [N] in the current branch (0 while parked).
    double force(std::size_t k, double d, double r) const;
    /// Event function: its sign says which branch the state is on (> 0: compressive). Acting: the
    /// force (parked: the force it would carry); not acting: the force it would carry if switched on
    /// where δ > 0, else δ.
    double event_value(std::size_t k, double d, double r) const;
    /// The second event of link k and its sense (+1: the event is where it rises past 0, -1: where it
    /// falls below 0, 0: none). Hysteretic: loading, δ' (maximum compression); unloading, δ - δ_m
    /// (re-loading); open with a memory, δ (separated: the memory is cleared). Parked: the force it
    /// would carry minus the threshold (the waiting body joins the ODE).
    int second_sense(std::size_t k) const;
    double second_value(std::size_t k, double d, double r) const;

    /// The memory that selects link k's branch in the right-hand side (the loading law while loading).
    const ContactMemory& branch_memory(std::size_t k) const { return br_.branch(k); }
    /// Link k's memory at overlap d: remembered up to d while loading.
    ContactMemory memory_at(std::size_t k, double d) const {
        return hysteretic(k) ? br_.memory_at(b_.links[k].law, k, d) : ContactMemory{};
    }
    /// The hysteresis loss of every link in the full state x [J].
    double hysteresis(const BodyState& x) const;

    /// The right-hand side on the compact state.
    void operator()(const BodyState& y, BodyState& dydt, double t) const;

private:
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    /// An acting link is quiet below this fraction of its parked threshold (the margin against flicker).
    static constexpr double quiet_fraction = 0.1;
    /// v̂ of the body left (`left`) or right of link k; 0 past an end; an inactive body's is constant.
    double velocity(const BodyState& y, std::size_t k, bool left) const {
        if (left ? k == 0 : k == n_) return 0.0;
        const std::size_t i = left ? k - 1 : k;
        return bslot_[i] != none ? y[bslot_[i]] : base_[v0() + i];
    }
    bool quiet(const BodyState& x, std::size_t k) const;
    /// The force link k carries while acting, on its branch (continued past its zero), parked or not.
    double acting_force(std::size_t k, double d, double r) const;

    const RigidBodies& b_;
    std::size_t n_;
    double T_, V_, M_;
    /// The maximum compression is taken where δ' falls below -1e-12 V, not at 0: touching bodies
    /// that move as one (behind the wave in a chain, or not yet reached by it) have a δ' of
    /// rounding size whose sign means nothing, and would switch loading <-> unloading at every
    /// step. The price is nil: δ_m is then short of the peak by (1e-12 V)^2 / (2 |δ''|).
    static constexpr double max_compression_rate_ = 1e-12;
    ContactBranches br_;
    std::vector<double> threshold_;  ///< per link: the parked force threshold [N]

    // The current plan.
    BodyState base_;  ///< the full state at the plan's time
    double base_time_ = 0;
    std::vector<std::size_t> bodies_, links_;  ///< active, ascending
    std::vector<std::size_t> bslot_, lslot_;   ///< per body / link: index in the compact state, or none
    std::vector<char> parked_;
};

}  // namespace rodcollide
