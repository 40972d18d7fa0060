// The compliant junction law and its one-step ODE (contact_law.hpp; docs/physics.md §9).
#include "rodcollide/contact_law.hpp"

#include "rodcollide/solver_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {
/// x^p for x >= 0. Hertz's p = 3/2 as x sqrt(x): the integrators evaluate it for every compressed
/// contact at every stage, and std::pow made 1000-ball chains spend a third of their time in libm.
double power(double x, double p) {
    if (p == 1) return x;
    if (p == 1.5) return x * std::sqrt(x);
    return std::pow(x, p);
}

/// k δ^p, for δ > 0 (a bilateral law is linear: k δ of either sign).
double elastic(const ContactLaw& law, double overlap) {
    if (law.bilateral) return law.stiffness * overlap;
    if (overlap <= 0 || law.stiffness == 0) return 0;
    return law.stiffness * power(overlap, law.exponent);
}
}  // namespace

double contact_force(const ContactLaw& law, double overlap, double overlap_rate) {
    const double f = elastic(law, overlap) + law.damping * overlap_rate;
    if (law.bilateral) return f;
    return overlap > 0 ? std::max(0.0, f) : 0.0;
}

double residual_overlap(const ContactLaw& law, const ContactMemory& memory) {
    if (law.bilateral || law.restitution >= 1) return 0;
    return (1 - law.restitution * law.restitution) * memory.max_overlap;
}

double elastic_force(const ContactLaw& law, double overlap, const ContactMemory& memory) {
    const double dm = memory.max_overlap;
    if (law.bilateral || law.restitution >= 1 || overlap >= dm) return elastic(law, overlap);
    // Unloading (or reloading below δ_m): the loading curve's shape, scaled so that it runs from
    // (δ_r, 0) to (δ_m, k δ_m^p). Its area is e^2 of the loading curve's: (δ_m - δ_r) = e^2 δ_m.
    const double dr = residual_overlap(law, memory);
    if (overlap <= dr) return 0;
    const double x = (overlap - dr) / (dm - dr);
    return elastic(law, dm) * power(x, law.exponent);
}

double contact_force(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory) {
    if (law.bilateral || law.restitution >= 1) return contact_force(law, overlap, overlap_rate);
    const double f = elastic_force(law, overlap, memory) + law.damping * overlap_rate;
    return overlap > residual_overlap(law, memory) ? std::max(0.0, f) : 0.0;
}

double contact_energy(const ContactLaw& law, double overlap, const ContactMemory& memory) {
    const double dm = memory.max_overlap;
    if (law.bilateral || law.restitution >= 1) return contact_energy(law, overlap);
    // On the loading branch the memory is (or is about to be) δ itself: of the energy stored so
    // far, e^2 comes back on unloading and the rest is the hysteresis loss already counted.
    if (overlap >= dm) return law.restitution * law.restitution * contact_energy(law, overlap);
    const double dr = residual_overlap(law, memory);
    if (overlap <= dr) return 0;
    // ∫_δr^δ k δ_m^p ((s - δ_r)/(δ_m - δ_r))^p ds
    return elastic(law, dm) * (dm - dr) * std::pow((overlap - dr) / (dm - dr), law.exponent + 1) /
           (law.exponent + 1);
}

double hysteresis_loss(const ContactLaw& law, const ContactMemory& memory) {
    if (law.bilateral || law.restitution >= 1) return 0;
    return (1 - law.restitution * law.restitution) * contact_energy(law, memory.max_overlap);
}

ContactMemory remember(const ContactLaw& law, ContactMemory memory, double overlap) {
    if (!law.bilateral && overlap <= 0) return {};
    memory.max_overlap = std::max(memory.max_overlap, overlap);
    return memory;
}

double contact_energy(const ContactLaw& law, double overlap) {
    if (law.bilateral) return 0.5 * law.stiffness * overlap * overlap;
    if (overlap <= 0 || law.stiffness == 0) return 0;
    return law.stiffness * std::pow(overlap, law.exponent + 1) / (law.exponent + 1);
}

double contact_relaxation_rate(const ContactLaw& law, double overlap, double z) {
    if (law.stiffness == 0) return 0;
    if (law.bilateral || law.exponent == 1) return law.stiffness / (z + law.damping);
    if (overlap <= 0) return law.exponent < 1 ? std::numeric_limits<double>::infinity() : 0.0;
    return law.stiffness * law.exponent * std::pow(overlap, law.exponent - 1) / (z + law.damping);
}

double overlap_rate(const ContactLaw& law, double z, double overlap, double free_rate) {
    // δ' = -s - (k φ(δ) + c δ')/z  =>  δ' = -(s + k φ(δ)/z) / (1 + c/z) while compressed. The
    // contact is compressed when that F = (k φ(δ) - c s)/(1 + c/z) is > 0; else free: δ' = -s.
    const double kphi = elastic(law, overlap);
    const double rate = -(free_rate + kphi / z) / (1 + law.damping / z);
    if (law.bilateral) return rate;
    if (overlap <= 0) return -free_rate;
    return kphi + law.damping * rate > 0 ? rate : -free_rate;
}

double overlap_rate(const ContactLaw& law, double z, double overlap, double free_rate, const ContactMemory& memory) {
    // As above, on the branch the memory selects; the contact is open at or below δ_r.
    const double kphi = elastic_force(law, overlap, memory);
    const double rate = -(free_rate + kphi / z) / (1 + law.damping / z);
    if (law.bilateral) return rate;
    if (overlap <= residual_overlap(law, memory)) return -free_rate;
    return kphi + law.damping * rate > 0 ? rate : -free_rate;
}

std::string too_stiff_message(double rate, double dt) {
    return fmt::format("a compliant junction relaxes at {:.3g}/s, which needs {:.3g} substeps of the grid's step "
                       "{:.3g} s, over the limit of {} (contact_substep_fraction {:g} of its time): use more cells",
                       rate, rate * dt / contact_substep_fraction, dt, max_contact_substeps, contact_substep_fraction);
}

JunctionOdeStep integrate_junction(const ContactLaw& law, double z, double overlap, double free_rate, double dt,
                                   ContactMemory memory) {
    JunctionOdeStep r;
    // Restitution e < 1 (§9.7): the unloading branch is 1/e^2 as steep as the loading one at δ_m.
    const bool hysteretic = !law.bilateral && law.restitution < 1;
    // Substeps: resolve the relaxation time 1/rate (at the larger of the current overlap and the
    // one a free step would reach: a closing contact stiffens inside the step) and the time the
    // free motion takes to cross the current overlap (so a contact's onset is not jumped over).
    const double reach = std::max(std::abs(overlap), std::abs(overlap - free_rate * dt));
    double rate = std::max(contact_relaxation_rate(law, reach, z), contact_relaxation_rate(law, std::abs(overlap), z));
    if (!law.bilateral && law.exponent < 1) {
        // p < 1: the stiffness k p δ^(p-1) is unbounded at δ -> 0; take it at the overlap the
        // balance k δ^p = z |s| reaches, the scale the contact works at.
        const double scale = std::pow(z * std::max(std::abs(free_rate), 1e-300) / law.stiffness, 1 / law.exponent);
        rate = contact_relaxation_rate(law, std::max(scale, std::abs(overlap)), z);
        rate = std::max(rate, contact_relaxation_rate(law, reach, z));
    }
    if (hysteretic) rate /= law.restitution * law.restitution;
    const double wanted = std::isfinite(rate) ? std::ceil(rate * dt / contact_substep_fraction) : max_contact_substeps;
    // Bounded work, and never RK4 beyond its accuracy: refuse. (p < 1 is singular at δ -> 0 by its
    // law: there the substeps are capped instead, the rate being taken at the working overlap.)
    if (wanted > max_contact_substeps && (law.bilateral || law.exponent >= 1))
        throw SolverLimitExceeded(too_stiff_message(rate, dt));
    const int n = static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(max_contact_substeps)));
    const double h = dt / n;
    // The memory is held over a substep (the branch it selects is exact there: the substep that
    // holds the maximum compression is pinned below) and updated at its end.
    ContactMemory& mem = memory;
    const auto f = [&](double d) { return overlap_rate(law, z, d, free_rate, mem); };
    const auto power = [&](double d) {  // c δ'^2 where the dashpot acts
        const double v = f(d);
        return contact_force(law, d, v, mem) != 0 ? law.damping * v * v : 0.0;
    };
    // Which branch of the law acts: the right-hand side has a kink where a contact closes or opens
    // (and where F crosses 0 with damping). RK4 across a kink is first order in its substep, so a
    // substep whose ends are on different branches is halved until the kink is pinned to 2^-40 of it:
    // the error then converges with the grid instead of sitting at the substep's size.
    const auto acting = [&](double d) { return contact_force(law, d, f(d), mem) != 0; };
    // With e < 1 the branch also switches where the overlap stops growing (loading to unloading).
    const auto switched = [&](double d, double next) { return hysteretic && (f(d) > 0) != (f(next) > 0); };
    const auto advance = [&](auto& self, double& d, double step, int depth) -> void {
        const double k1 = f(d), k2 = f(d + 0.5 * step * k1), k3 = f(d + 0.5 * step * k2), k4 = f(d + step * k3);
        const double next = d + step / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
        // (Only while the substep moves δ beyond rounding: below, a half ends where it began, short of
        // the kink, both halves straddle it again at every level and the halving takes 2^40
        // substeps; the kink is pinned to rounding already. lumped_node.cpp hung there once.)
        const bool moves = std::abs(next - d) > 16 * std::numeric_limits<double>::epsilon() * std::max(std::abs(d), std::abs(next));
        if (!law.bilateral && depth < 40 && moves && (acting(d) != acting(next) || switched(d, next))) {
            self(self, d, 0.5 * step, depth + 1);
            self(self, d, 0.5 * step, depth + 1);
            return;
        }
        if (law.damping > 0)
            r.dissipated += step / 6 * (power(d) + 2 * power(d + 0.5 * step * k1) + 2 * power(d + 0.5 * step * k2) +
                                        power(d + step * k3));
        if (acting(d) || acting(next)) r.compressed = true;
        d = next;
        if (hysteretic) {  // the loss grows with δ_m (it stays counted once the memory is cleared)
            const ContactMemory after = remember(law, mem, d);
            if (after.max_overlap > mem.max_overlap) r.dissipated += hysteresis_loss(law, after) - hysteresis_loss(law, mem);
            mem = after;
        }
    };
    // A contact's force is never negative; an attached law's acts both ways (its "compressed"
    // means acting).
    if (acting(overlap)) r.compressed = true;
    double d = overlap;
    for (int i = 0; i < n; ++i) advance(advance, d, h, 0);
    r.overlap = d;
    // N = z (δ' + s) pointwise, so its mean is exactly z (Δδ/dt + s): the impulse the two sides
    // receive matches the overlap they made (momentum is exact whatever the substeps).
    r.mean_force = z * ((d - overlap) / dt + free_rate);
    r.last_force = -contact_force(law, d, f(d), mem);
    r.memory = mem;
    if (!r.compressed) r.mean_force = 0;
    return r;
}

}  // namespace rodcollide
