// A junction of the delay network (junction_node.hpp; docs/physics.md §9.10).
#include "solvers/exact/junction_node.hpp"

#include "solvers/shared/link_rate.hpp"
#include "solvers/shared/rigid_bodies.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rodcollide {

JunctionNode::JunctionNode(const Chain& chain, std::size_t j, const ContactHistory& contacts,
                           double compression_rate_floor)
    : junction_(j), compression_rate_floor_(compression_rate_floor) {
    const Junction& q = chain.junctions()[j];
    const std::vector<Element>& elements = chain.elements();
    if (q.left >= 0) {
        const Element& e = elements[static_cast<std::size_t>(q.left)];
        left_.rod = static_cast<std::ptrdiff_t>(e.rod);
        left_.element = q.left;
        left_.z = e.impedance;
    }
    if (q.right >= 0) {
        const Element& e = elements[static_cast<std::size_t>(q.right)];
        right_.rod = static_cast<std::ptrdiff_t>(e.rod);
        right_.element = q.right;
        right_.z = e.impedance;
    }
    if (q.kind == JunctionKind::welded) {  // two segments of one rod: no masses, one bilateral link
        NodeLink link;
        link.kind = NodeLink::Kind::welded;
        links_.push_back(link);
        return;
    }
    const std::size_t first = left_.rod >= 0 ? static_cast<std::size_t>(left_.rod) + 1 : 0;
    const std::size_t past = right_.rod >= 0 ? static_cast<std::size_t>(right_.rod) : chain.size();
    for (std::size_t r = first; r < past; ++r) {
        if (!chain[r].is_mass()) throw std::logic_error("JunctionNode: a rod among the masses");
        bodies_.push_back(r);
        mass_.push_back(chain[r].mass());
        velocity0_.push_back(chain[r].velocity);
    }
    const std::size_t m = bodies_.size();
    // The chain index of the body on the left of link 0 (rods of the chain: link i joins chain
    // elements base + i - 1 and base + i).
    const std::ptrdiff_t base = left_.rod >= 0 ? left_.rod + 1 : 0;
    for (std::size_t i = 0; i <= m; ++i) {
        NodeLink link;
        const bool at_left_end = i == 0 && left_.rod < 0, at_right_end = i == m && right_.rod < 0;
        if (at_left_end || at_right_end) {
            const ChainSide side = at_left_end ? ChainSide::left : ChainSide::right;
            const ChainEnd& end = chain.ends()[side];
            switch (end.kind) {
                case EndKind::free:
                    link.load = chain.ends().load_at(side);
                    link.kind = link.load ? NodeLink::Kind::loaded : NodeLink::Kind::free;
                    break;
                case EndKind::fixed: link.kind = NodeLink::Kind::fixed; break;
                case EndKind::anechoic: {
                    link.kind = NodeLink::Kind::anechoic;
                    NodeSide& ground = at_left_end ? left_ : right_;
                    const NodeSide& rod = at_left_end ? right_ : left_;
                    ground.z = rod.z;  // the rod continued by itself
                    ground.outside = q.outside_velocity;
                    break;
                }
                case EndKind::wall:
                    link.law = end.law();
                    link.kind = link.law.rigid() ? NodeLink::Kind::rigid : NodeLink::Kind::compliant;
                    link.initial_overlap = -end.gap;
                    link.record = contacts.contact_at(j);
                    break;
                default:  // spring, dashpot, spring-dashpot
                    link.kind = NodeLink::Kind::attached;
                    link.law = end.law();
                    break;
            }
        } else {
            const std::size_t right_body = static_cast<std::size_t>(base) + i;  // chain index right of the link
            link.law = chain[right_body].contact_law();
            link.kind = link.law.rigid() ? NodeLink::Kind::rigid : NodeLink::Kind::compliant;
            link.initial_overlap = -chain[right_body].gap;
            if (q.lumped) {
                const std::size_t first_record = left_.rod >= 0 ? static_cast<std::size_t>(left_.rod) : 0;
                link.record = contacts.first_lumped_contact(j) + static_cast<std::ptrdiff_t>(right_body - 1 - first_record);
            } else {
                link.record = contacts.contact_at(j);
            }
        }
        links_.push_back(link);
    }
}

double JunctionNode::time_scale(double V, double longest) const {
    double t = longest;
    const auto zside = [](const NodeSide& s) { return s.rod >= 0 ? s.z : 0.0; };
    for (std::size_t k = 0; k < masses(); ++k) {
        const double z = (k == 0 ? zside(left_) : 0.0) + (k + 1 == masses() ? zside(right_) : 0.0);
        if (z > 0) t = std::min(t, mass_[k] / z);
    }
    for (std::size_t i = 0; i < links_.size(); ++i) {
        const NodeLink& l = links_[i];
        if (l.kind != NodeLink::Kind::compliant && l.kind != NodeLink::Kind::attached) continue;
        const double k = l.law.stiffness, c = l.law.damping, p = l.law.bilateral ? 1.0 : l.law.exponent;
        double mass = 0;  // the lighter adjacent mass, if any
        if (i > 0) mass = mass_[i - 1];
        if (i < masses()) mass = mass > 0 ? std::min(mass, mass_[i]) : mass_[i];
        const double z = (i == 0 ? zside(left_) : 0.0) + (i == masses() ? zside(right_) : 0.0);
        if (k > 0 && V > 0) {
            if (mass > 0) t = std::min(t, std::pow((p + 1) * mass * V * V / (2 * k), 1 / (p + 1)) / V);
            if (z > 0) t = std::min(t, std::pow(z * V / k, 1 / p) / V);
        }
        if (c > 0 && mass > 0) t = std::min(t, mass / c);
    }
    return t;
}

std::vector<double> JunctionNode::initial_state() const {
    std::vector<double> x(size(), 0.0);
    for (std::size_t i = 0; i < links_.size(); ++i) x[i] = links_[i].initial_overlap;
    for (std::size_t k = 0; k < masses(); ++k) x[u0() + k] = velocity0_[k];
    return x;
}

JunctionNode::Sides JunctionNode::sides(std::size_t i, const double* x, const NodeArrivals& a) const {
    const std::size_t m = masses();
    Sides s{};
    // Left of the link: the left rod's end (free velocity alpha, impedance Z), a mass, or the ground
    // (an anechoic end: the continuation, sending `outside` through its impedance).
    if (i > 0) s.va = x[u0() + i - 1], s.za = 0;
    else if (left_.rod >= 0) s.va = a.alpha, s.za = left_.z;
    else s.va = left_.outside, s.za = links_[i].kind == NodeLink::Kind::anechoic ? left_.z : 0.0;
    if (i < m) s.vb = x[u0() + i], s.zb = 0;
    else if (right_.rod >= 0) s.vb = a.beta, s.zb = right_.z;
    else s.vb = right_.outside, s.zb = links_[i].kind == NodeLink::Kind::anechoic ? right_.z : 0.0;
    return s;
}

namespace {

/// The impedance a link's force meets (0: none, rigid bodies or the ground only).
double link_impedance(double za, double zb) {
    if (za > 0 && zb > 0) return za * zb / (za + zb);
    return za > 0 ? za : zb;
}

}  // namespace

JunctionNode::Link JunctionNode::link(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const {
    return link(i, x, a, b.acting[i] != 0, b.branch(i));
}

JunctionNode::Link JunctionNode::link(std::size_t i, const double* x, const NodeArrivals& a, bool acting,
                                      const ContactMemory& branch) const {
    const NodeLink& l = links_[i];
    const Sides s = sides(i, x, a);
    const double z = link_impedance(s.za, s.zb), free_rate = s.va - s.vb;
    switch (l.kind) {
        case NodeLink::Kind::free: return {0, 0};
        case NodeLink::Kind::loaded: {
            // docs/physics.md §8.3: free before the load's first time and after its last.
            const Load& load = *l.load;
            const double t0 = load.time.front(), t1 = load.time.back();
            if (a.left_limit ? !(a.t > t0 && a.t <= t1) : !(a.t >= t0 && a.t < t1)) return {0, 0};
            const double value = load.at(a.t);
            if (load.quantity == LoadQuantity::force) return {-value, 0};  // compressive F = -N
            // The end moves at v: the ground moves with it (a held end moving at v).
            const double rate = left_.rod < 0 ? value - s.vb : s.va - value;  // the ground on the left / right
            return {z * rate, 0};
        }
        case NodeLink::Kind::fixed:
        case NodeLink::Kind::anechoic:
        case NodeLink::Kind::welded: return {z * free_rate, 0};  // the ends held together (junction.hpp's rule)
        case NodeLink::Kind::rigid:
            // Closed, the sides move together: the force that makes them (Z_L Z_R/(Z_L + Z_R) s).
            return acting ? Link{z * free_rate, 0} : Link{0, free_rate};
        case NodeLink::Kind::compliant:
        case NodeLink::Kind::attached: {
            if (!acting && l.kind == NodeLink::Kind::compliant) return {0, free_rate};
            // The elastic force k φ(δ) on the branch, continued past its zero (rigid_bodies.hpp).
            const LinkRate r = compliant_link_rate(continued_force(l.law, x[i], 0.0, branch), l.law.damping, z, free_rate);
            return {r.force, r.rate};
        }
    }
    return {0, 0};
}

double JunctionNode::event_value(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const {
    const double d = x[i];
    if (b.acting[i]) return link(i, x, a, b).force;
    // Open with a memory (e < 1): it closes again on the unloading branch, whose force is 0 at δ_r.
    const ContactMemory& m = b.memory[i];
    const double dr = hysteretic(i) ? residual_overlap(links_[i].law, m) : 0.0;
    if (d > dr) return link(i, x, a, true, m).force;
    return d - dr;
}

bool JunctionNode::hysteretic(std::size_t i) const {
    return links_[i].kind == NodeLink::Kind::compliant && rodcollide::hysteretic(links_[i].law);
}

int JunctionNode::second_sense(std::size_t i, const ContactBranches& b) const {
    return hysteretic(i) ? b.second_sense(i) : 0;
}

double JunctionNode::second_value(std::size_t i, const double* x, const NodeArrivals& a, const ContactBranches& b) const {
    switch (second_sense(i, b)) {
        case 0: return 0;
        case +1: return x[i] - b.memory[i].max_overlap;
        default: return b.acting[i] ? link(i, x, a, b).rate + compression_rate_floor_ : x[i];
    }
}

ContactMemory JunctionNode::memory_at(std::size_t i, const double* x, const ContactBranches& b) const {
    return hysteretic(i) ? b.memory_at(links_[i].law, i, x[i]) : ContactMemory{};
}

double JunctionNode::hysteresis(const double* x, const ContactBranches& b) const {
    double loss = 0;
    for (std::size_t i = 0; i < links_.size(); ++i)
        if (hysteretic(i)) loss += b.hysteresis(links_[i].law, i, x[i]);
    return loss;
}

bool JunctionNode::acts_initially(std::size_t i, const NodeArrivals& a) const {
    const NodeLink& l = links_[i];
    if (l.kind == NodeLink::Kind::free) return false;
    if (!l.unilateral()) return true;
    const std::vector<double> x = initial_state();
    return l.initial_overlap == 0 && link(i, x.data(), a, false, {}).rate >= 0;
}

void JunctionNode::rhs(const double* x, double* dxdt, const NodeArrivals& a, const ContactBranches& b) const {
    const std::size_t m = masses(), n = links_.size();
    double power = 0, work = 0;
    for (std::size_t k = 0; k < m; ++k) dxdt[u0() + k] = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const NodeLink& l = links_[i];
        const Link f = link(i, x, a, b);
        dxdt[i] = f.rate;
        dxdt[i0() + i] = f.force;
        if (i > 0) dxdt[u0() + i - 1] -= f.force / mass_[i - 1];
        if (i < m) dxdt[u0() + i] += f.force / mass_[i];
        // (A dashpot's contact that opened at δ > 0 releases its elastic energy as δ returns to 0:
        // counted exactly per step by the driver, release_while_open(), not here: its power has a
        // kink at δ = 0 that no step would be stopped at.)
        if ((l.kind == NodeLink::Kind::compliant || l.kind == NodeLink::Kind::attached) && b.acting[i])
            power += l.law.damping * f.rate * f.rate;
        // Work done on the chain through a chain end: F pushes the left end rightwards (at the
        // velocity of the chain's end there) and the right end leftwards.
        if (i == 0 && left_.rod < 0) {
            const Sides s = sides(i, x, a);
            const double v = s.zb > 0 && right_.rod >= 0 && m == 0 ? s.vb + f.force / s.zb : s.vb;
            work += f.force * v;
        }
        if (i == m && right_.rod < 0) {
            const Sides s = sides(i, x, a);
            const double v = s.za > 0 && left_.rod >= 0 && m == 0 ? s.va - f.force / s.za : s.va;
            work -= f.force * v;
        }
    }
    dxdt[d0()] = power;
    dxdt[w0()] = work;
}

double JunctionNode::exact_impulse(std::size_t i, bool acting, double alpha_integral, double beta_integral, double h) const {
    const NodeLink& l = links_[i];
    const bool algebraic = l.kind == NodeLink::Kind::fixed || l.kind == NodeLink::Kind::anechoic ||
                           l.kind == NodeLink::Kind::welded || (l.kind == NodeLink::Kind::rigid && acting);
    if (masses() > 0 || !algebraic) return std::numeric_limits<double>::quiet_NaN();
    // sides() with the waves' integrals for their values (the ground: its `outside` velocity).
    const bool ground_z = l.kind == NodeLink::Kind::anechoic;
    const double va = left_.rod >= 0 ? alpha_integral : left_.outside * h;
    const double vb = right_.rod >= 0 ? beta_integral : right_.outside * h;
    const double za = left_.rod >= 0 || ground_z ? left_.z : 0.0, zb = right_.rod >= 0 || ground_z ? right_.z : 0.0;
    return link_impedance(za, zb) * (va - vb);
}

double JunctionNode::exact_anechoic_work(double arriving_square_integral, double h) const {
    if (masses() > 0 || links_[0].kind != NodeLink::Kind::anechoic) return std::numeric_limits<double>::quiet_NaN();
    // F = (Z/2)(α - v₀) and the end moves at (α + v₀)/2 (right end; the left one mirrored).
    if (right_.rod < 0) return -0.25 * left_.z * (arriving_square_integral - right_.outside * right_.outside * h);
    return 0.25 * right_.z * (left_.outside * left_.outside * h - arriving_square_integral);
}

NodeArrivals JunctionNode::emitted(const double* x, const NodeArrivals& a, const ContactBranches& b) const {
    // A rod end under the compressive force F (N = -F): beta_out = alpha_in + 2N/Z at a right end,
    // alpha_out = beta_in - 2N/Z at a left end (junction.hpp's invariants).
    NodeArrivals out;
    if (left_.rod >= 0) out.beta = a.alpha - 2 * link(0, x, a, b).force / left_.z;
    if (right_.rod >= 0) out.alpha = a.beta + 2 * link(masses(), x, a, b).force / right_.z;
    return out;
}

double JunctionNode::release_while_open(std::size_t i, double before, double after, const ContactBranches& b) const {
    const NodeLink& l = links_[i];
    if (l.kind != NodeLink::Kind::compliant) return 0;
    if (!hysteretic(i)) return contact_energy(l.law, before) - contact_energy(l.law, after);
    return contact_energy(l.law, before, b.memory[i]) - contact_energy(l.law, after, b.memory[i]);
}

double JunctionNode::stored_energy(const double* x, const ContactBranches& b) const {
    double e = 0;
    for (std::size_t i = 0; i < links_.size(); ++i) {
        if (links_[i].kind != NodeLink::Kind::compliant && links_[i].kind != NodeLink::Kind::attached) continue;
        e += hysteretic(i) ? contact_energy(links_[i].law, x[i], memory_at(i, x, b)) : contact_energy(links_[i].law, x[i]);
    }
    return e;
}

}  // namespace rodcollide
