// Rigid masses at a junction of the grid (lumped_node.hpp; docs/physics.md §9.4).
#include "solvers/fd/lumped_node.hpp"

#include "rodcollide/solver_options.hpp"
#include "solvers/shared/link_rate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rodcollide {

LumpedNode::LumpedNode(const Chain& chain, std::size_t j) : junction_(j) {
    const Junction& q = chain.junctions()[j];
    const std::vector<Element>& elements = chain.elements();
    left_rod_ = q.left >= 0;
    right_rod_ = q.right >= 0;
    const std::size_t first = left_rod_ ? elements[static_cast<std::size_t>(q.left)].rod + 1 : 0;
    const std::size_t past = right_rod_ ? elements[static_cast<std::size_t>(q.right)].rod : chain.size();
    for (std::size_t r = first; r < past; ++r) {
        if (!chain[r].is_mass()) throw std::logic_error("LumpedNode: a rod among the masses");
        masses_.push_back(r);
        mass_.push_back(chain[r].mass());
        velocity_.push_back(chain[r].velocity);
    }
    // Link i joins body i - 1 and body i; its law is the right body's contact law (a rod's or a
    // mass's), or the chain end's.
    for (std::size_t i = 0; i <= masses_.size(); ++i) {
        LumpedLink link;
        const bool at_left_end = i == 0 && !left_rod_;
        const bool at_right_end = i == masses_.size() && !right_rod_;
        if (at_left_end || at_right_end) {
            const ChainEnd& end = chain.ends()[at_left_end ? ChainSide::left : ChainSide::right];
            link.law = end.law();
            link.kind = end.attached()            ? LumpedLink::Kind::attached
                        : end.kind == EndKind::wall ? LumpedLink::Kind::compliant
                                                    : LumpedLink::Kind::free;
            link.overlap = end.kind == EndKind::wall ? -end.gap : 0.0;
        } else {
            const std::size_t right_body = i < masses_.size() ? masses_[i] : masses_.back() + 1;
            link.law = chain[right_body].contact_law();
            link.kind = link.law.rigid() ? LumpedLink::Kind::rod_rigid : LumpedLink::Kind::compliant;
            link.overlap = -chain[right_body].gap;
        }
        links_.push_back(link);
    }
}

namespace {

/// k φ(δ) of a compliant or attached law.
double elastic(const ContactLaw& law, double d) {
    if (law.bilateral) return law.stiffness * d;
    if (d <= 0) return 0;
    return law.stiffness * (law.exponent == 1 ? d : std::pow(d, law.exponent));
}

/// A compliant contact with restitution e < 1 (§9.7): its force follows its memory's branch.
bool hysteretic(const LumpedLink& l) {
    return l.kind == LumpedLink::Kind::compliant && !l.law.bilateral && l.law.restitution < 1;
}

}  // namespace

LumpedNode::Step LumpedNode::integrate(double z_left, double alpha, double z_right, double beta, double dt) const {
    const std::size_t m = masses_.size(), links = links_.size();
    double vscale = std::max(std::abs(alpha), std::abs(beta));
    for (double u : velocity_) vscale = std::max(vscale, std::abs(u));
    vscale = std::max(vscale, 1e-300);
    const double closed_tolerance = 1e-13 * vscale * dt;  // a rigid link counts as touching within it

    // The links' memories, held over a substep and updated at its end (as integrate_junction does).
    std::vector<ContactMemory> mem(links);
    for (std::size_t i = 0; i < links; ++i) mem[i] = links_[i].memory;
    // Force F (compressive magnitude) and overlap rate of link i for velocities u and overlaps d.
    const auto link_state = [&](std::size_t i, const double* u, double d, double& f, double& rate) {
        const LumpedLink& l = links_[i];
        const bool rod_left = i == 0 && left_rod_, rod_right = i == m && right_rod_;
        const bool end_left = i == 0 && !left_rod_, end_right = i == m && !right_rod_;
        f = 0;
        if (l.kind == LumpedLink::Kind::free) {
            rate = 0;
            return;
        }
        // The free rate s: how fast the overlap grows with no force; z the impedance the force
        // sees on a rod side (0: none).
        double free_rate = 0, z = 0, rigid_force = 0;
        if (rod_left) free_rate = alpha - u[0], z = z_left, rigid_force = z_left * (alpha - u[0]);
        else if (rod_right) free_rate = u[m - 1] - beta, z = z_right, rigid_force = z_right * (u[m - 1] - beta);
        else if (end_left) free_rate = -u[0];
        else if (end_right) free_rate = u[m - 1];
        else free_rate = u[i - 1] - u[i];
        if (l.kind == LumpedLink::Kind::rod_rigid) {
            if (d >= -closed_tolerance && rigid_force > 0) {
                f = rigid_force;  // the rod's end moves with the mass
                rate = 0;
            } else {
                rate = free_rate;
            }
            return;
        }
        const bool lossy = hysteretic(l);
        const double kphi = lossy ? elastic_force(l.law, d, mem[i]) : elastic(l.law, d), c = l.law.damping;
        // With a rod side the force slows that side's end: rate = s - F/z (link_rate.hpp).
        const LinkRate lr = compliant_link_rate(kphi, c, z, free_rate);
        const double compliant_rate = lr.rate, force = lr.force;
        if (l.law.bilateral || (d > (lossy ? residual_overlap(l.law, mem[i]) : 0.0) && force > 0)) {
            f = force;
            rate = compliant_rate;
        } else {
            rate = free_rate;
        }
    };
    struct Derivative {
        std::vector<double> du, dd, f;
    };
    const auto derive = [&](const std::vector<double>& u, const std::vector<double>& d) {
        Derivative r{std::vector<double>(m), std::vector<double>(links), std::vector<double>(links)};
        for (std::size_t i = 0; i < links; ++i) link_state(i, u.data(), d[i], r.f[i], r.dd[i]);
        for (std::size_t k = 0; k < m; ++k) r.du[k] = (r.f[k] - r.f[k + 1]) / mass_[k];
        return r;
    };

    // Substeps: 0.05 of the fastest time of the node: Z/M of a mass on a rod, sqrt(k/M) of a mass on
    // a link (its stiffness at the overlap an energy balance reaches), k/z of a link on a rod.
    double rate = 0;
    for (std::size_t k = 0; k < m; ++k) {
        double z = 0, stiffness = 0;
        for (std::size_t i : {k, k + 1}) {
            const LumpedLink& l = links_[i];
            const bool on_rod = (i == 0 && left_rod_) || (i == m && right_rod_);
            const double z_rod = on_rod ? (i == 0 ? z_left : z_right) : 0.0;
            z += z_rod;
            if (l.kind == LumpedLink::Kind::compliant || l.kind == LumpedLink::Kind::attached) {
                const double p = l.law.bilateral ? 1.0 : l.law.exponent;
                const double reach = std::pow((p + 1) * mass_[k] * vscale * vscale / (2 * std::max(l.law.stiffness, 1e-300)),
                                              1 / (p + 1));
                const double d = std::max(std::abs(l.overlap), reach);
                // The unloading branch of restitution e is 1/e^2 as steep at δ_m (§9.7).
                const double branch = hysteretic(l) ? l.law.restitution * l.law.restitution : 1.0;
                stiffness += l.law.stiffness * p * std::pow(d, p - 1) / branch;
                rate = std::max(rate, l.law.damping / mass_[k]);
                // A link on a rod relaxes against the rod's impedance at k φ'(δ) / (z + c)
                // (contact_relaxation_rate(), the rate the grid's compliant junctions take), at the
                // overlap where its force balances the rod's z V if that is larger: a stiff
                // spring's fastest time, far shorter than sqrt(M/k) (a mass of 1.5 on 1e4 N/m
                // against a rod of z = 0.66: 1.5e4/s against 82/s). Without it the substeps were
                // RK4-unstable there and the rod took up energy the mass never gave (4.8 % of the
                // energy scale at 1000 cells, 40 % at 1414; test_finite_difference_masses.cpp).
                if (on_rod && l.kind == LumpedLink::Kind::compliant) {
                    const double balance = std::pow(z_rod * vscale / std::max(l.law.stiffness, 1e-300), 1 / p);
                    rate = std::max(rate, contact_relaxation_rate(l.law, std::max(d, balance), z_rod) / branch);
                }
            }
        }
        rate = std::max(rate, z / mass_[k] + std::sqrt(stiffness / mass_[k]));
    }
    const double wanted = std::ceil(rate * dt / contact_substep_fraction);
    if (!(wanted <= max_contact_substeps)) throw SolverLimitExceeded(too_stiff_message(rate, dt));
    const int n = static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(max_contact_substeps)));

    Step s;
    s.mean_force.assign(links, 0.0);
    s.acting.assign(links, false);
    s.mean_velocity.assign(m, 0.0);
    std::vector<double> u = velocity_, d(links);
    for (std::size_t i = 0; i < links; ++i) d[i] = links_[i].overlap;
    std::vector<double> impulse(links, 0.0), travel(m, 0.0);
    // Which branch each link is on: acting or not, and for e < 1 closing or opening (the kink of
    // maximum compression, where the memory's branch switches). A unilateral compliant link counts
    // as acting once its overlap exceeds closed_tolerance, not at the first positive bit: links that
    // touch at rest close one after another as the force spreads down the chain, each overlap
    // leaving 0 a little later than the last (1e-20, then 1e-58, 1e-116 m), so every halving made
    // a new "kink" of the next link and the halving never ended (a rod on five touching balls took
    // gigabytes and hours). Placing a closing within closed_tolerance/(v dt) = 1e-13 of a step
    // changes nothing but rounding: the force there is k δ^p + c δ' of a 1e-13 overlap.
    const auto regime = [&](const std::vector<double>& uu, const std::vector<double>& dd) {
        std::vector<char> a(links);
        const Derivative r = derive(uu, dd);
        for (std::size_t i = 0; i < links; ++i) {
            const bool unilateral = links_[i].kind == LumpedLink::Kind::compliant && !links_[i].law.bilateral;
            const bool acting = r.f[i] != 0 && (!unilateral || dd[i] > closed_tolerance);
            a[i] = static_cast<char>(acting + (hysteretic(links_[i]) && r.dd[i] > 0 ? 2 : 0));
        }
        return a;
    };
    // Whether a substep from (u, d) to (u1, d1) moves some velocity or overlap by more than 16 units
    // of rounding.
    const auto beyond_rounding = [](const std::vector<double>& u0, const std::vector<double>& u1,
                                    const std::vector<double>& d0, const std::vector<double>& d1) {
        const auto moved = [](double a, double b) {
            return std::abs(b - a) > 16 * std::numeric_limits<double>::epsilon() * std::max(std::abs(a), std::abs(b));
        };
        for (std::size_t k = 0; k < u0.size(); ++k)
            if (moved(u0[k], u1[k])) return true;
        for (std::size_t i = 0; i < d0.size(); ++i)
            if (moved(d0[i], d1[i])) return true;
        return false;
    };
    // Bounded work whatever the kinks: 40 halvings pin one kink to 2^-40 of a substep; a step has a
    // few kinks per link. Past the budget a kink is stepped over (first order there, not a hang).
    const std::size_t max_halvings = 160 * links;
    std::size_t halvings = 0;
    const auto advance = [&](auto& self, double h, int depth) -> void {
        const auto shifted = [&](const std::vector<double>& base, const std::vector<double>& slope, double by) {
            std::vector<double> out(base.size());
            for (std::size_t k = 0; k < base.size(); ++k) out[k] = base[k] + by * slope[k];
            return out;
        };
        const Derivative k1 = derive(u, d);
        const Derivative k2 = derive(shifted(u, k1.du, 0.5 * h), shifted(d, k1.dd, 0.5 * h));
        const Derivative k3 = derive(shifted(u, k2.du, 0.5 * h), shifted(d, k2.dd, 0.5 * h));
        const Derivative k4 = derive(shifted(u, k3.du, h), shifted(d, k3.dd, h));
        std::vector<double> u1(m), d1(links);
        for (std::size_t k = 0; k < m; ++k) u1[k] = u[k] + h / 6 * (k1.du[k] + 2 * k2.du[k] + 2 * k3.du[k] + k4.du[k]);
        for (std::size_t i = 0; i < links; ++i) d1[i] = d[i] + h / 6 * (k1.dd[i] + 2 * k2.dd[i] + 2 * k3.dd[i] + k4.dd[i]);
        // A kink (a link closing or opening) inside the substep: halve it, as contact_law.cpp does,
        // while the substep still moves the state beyond rounding. Below that, a half no longer
        // advances the overlaps and velocities at all (its increment rounds away): it would end
        // where it began, short of the kink, both halves of every level would straddle it again,
        // and the halving would take 2^40 substeps (a ball between two rod ends opening at δ_r,
        // seed 2425 of test_finite_difference_balls.cpp, never returned). The kink is then pinned to
        // rounding already.
        if (depth < 40 && halvings < max_halvings && regime(u, d) != regime(u1, d1) && beyond_rounding(u, u1, d, d1)) {
            ++halvings;
            self(self, 0.5 * h, depth + 1);
            self(self, 0.5 * h, depth + 1);
            return;
        }
        for (std::size_t i = 0; i < links; ++i) {
            // The same weights as the velocities': M Δu equals the links' impulses to rounding.
            impulse[i] += h / 6 * (k1.f[i] + 2 * k2.f[i] + 2 * k3.f[i] + k4.f[i]);
            if (k1.f[i] != 0 || k4.f[i] != 0) s.acting[i] = true;
            const LumpedLink& l = links_[i];
            if (l.law.damping > 0 && l.kind != LumpedLink::Kind::rod_rigid) {
                const auto power = [&](const Derivative& k) { return k.f[i] != 0 ? l.law.damping * k.dd[i] * k.dd[i] : 0.0; };
                s.dissipated += h / 6 * (power(k1) + 2 * power(k2) + 2 * power(k3) + power(k4));
            }
        }
        for (std::size_t k = 0; k < m; ++k) travel[k] += h / 6 * (u[k] + 2 * (u[k] + 0.5 * h * k1.du[k]) +
                                                                  2 * (u[k] + 0.5 * h * k2.du[k]) + u[k] + h * k3.du[k]);
        u = std::move(u1);
        d = std::move(d1);
        for (std::size_t i = 0; i < links; ++i) {
            if (!hysteretic(links_[i])) continue;
            const ContactMemory after = remember(links_[i].law, mem[i], d[i]);
            if (after.max_overlap > mem[i].max_overlap)
                s.dissipated += hysteresis_loss(links_[i].law, after) - hysteresis_loss(links_[i].law, mem[i]);
            mem[i] = after;
        }
    };
    const double h = dt / n;
    for (int i = 0; i < n; ++i) advance(advance, h, 0);
    for (std::size_t i = 0; i < links; ++i) s.mean_force[i] = -impulse[i] / dt;
    for (std::size_t k = 0; k < m; ++k) s.mean_velocity[k] = travel[k] / dt;
    s.overlap = std::move(d);
    s.memory = std::move(mem);
    s.velocity = std::move(u);
    return s;
}

void LumpedNode::accept(const Step& s) {
    velocity_ = s.velocity;
    for (std::size_t i = 0; i < links_.size(); ++i) links_[i].overlap = s.overlap[i], links_[i].memory = s.memory[i];
}

double LumpedNode::stored_energy() const {
    double e = 0;
    for (const LumpedLink& l : links_)
        if (l.kind == LumpedLink::Kind::compliant || l.kind == LumpedLink::Kind::attached)
            e += contact_energy(l.law, l.overlap, l.memory);
    return e;
}

bool LumpedNode::engaged() const {
    // A rigid link's overlap stays at 0 while it acts, to rounding: its force says whether it does.
    for (const LumpedLink& l : links_)
        if (l.kind == LumpedLink::Kind::attached || (l.kind == LumpedLink::Kind::compliant && l.overlap > 0)) return true;
    return false;
}

}  // namespace rodcollide
