// Rigid-body chains (rigid_bodies.hpp; docs/physics.md §9.9): links, time scale, settling, outcome.
#include "solvers/shared/rigid_bodies.hpp"

#include "outcome/outcome_check.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/outcome_builder.hpp"
#include "solvers/shared/settling.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

bool rigid_bodies_only(const Chain& chain) { return chain.elements().empty(); }

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// The shortest time on which link `law` acts between bodies of reduced mass m [kg] at speed V:
/// the compression time δ_s / V with (p + 1) m V^2 / 2 = k δ_s^(p+1) (all the kinetic energy
/// stored), or a spring's 1/ω = sqrt(m/k); a dashpot's m / c.
double link_time_scale(const ContactLaw& law, double m, double v) {
    double t = inf;
    if (law.stiffness > 0) {
        if (law.bilateral || v == 0) {
            t = std::sqrt(m / law.stiffness);
        } else {
            const double p = law.exponent;
            const double reach = std::pow((p + 1) * m * v * v / (2 * law.stiffness), 1 / (p + 1));
            t = reach / v;
        }
    }
    if (law.damping > 0) t = std::min(t, m / law.damping);
    return t;
}

}  // namespace

RigidBodies::RigidBodies(const Chain& chain) {
    const std::size_t n = chain.size();
    velocity_scale = chain.velocity_scale();
    for (const Rod& r : chain.rods()) {
        mass.push_back(r.mass());
        velocity.push_back(r.velocity);
    }
    links.resize(n + 1);
    for (std::size_t k = 1; k < n; ++k) links[k] = {BodyLink::Kind::contact, chain[k].contact_law(), -chain[k].gap};
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        const ChainEnd& e = chain.ends()[side];
        BodyLink& l = links[side == ChainSide::left ? 0 : n];
        if (e.attached()) l = {BodyLink::Kind::attached, e.law(), 0};
        else if (e.kind == EndKind::wall) l = {BodyLink::Kind::contact, e.contact_law(), -e.gap};
        // free: nothing (Chain refuses rigid walls, fixed and anechoic ends and loads at a mass)
    }
    time_scale = inf;
    for (std::size_t k = 0; k <= n; ++k) {
        if (links[k].kind == BodyLink::Kind::free) continue;
        const double m = k == 0 ? mass[0] : k == n ? mass[n - 1] : mass[k - 1] * mass[k] / (mass[k - 1] + mass[k]);
        time_scale = std::min(time_scale, link_time_scale(links[k].law, m, velocity_scale));
    }
    force_tolerance = std::isfinite(time_scale) ? 1e-10 * *std::max_element(mass.begin(), mass.end()) * velocity_scale / time_scale
                                                 : 0.0;
}

bool RigidBodies::has_attached_end() const {
    return links.front().kind == BodyLink::Kind::attached || links.back().kind == BodyLink::Kind::attached;
}

double continued_force(const ContactLaw& law, double overlap, double overlap_rate) {
    if (law.bilateral) return contact_force(law, overlap, overlap_rate);
    const double elastic = contact_force(law, std::abs(overlap), 0);  // k |δ|^p
    return (overlap < 0 ? -elastic : elastic) + law.damping * overlap_rate;
}

double continued_force(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory) {
    if (law.bilateral || law.restitution >= 1 || overlap >= memory.max_overlap)
        return continued_force(law, overlap, overlap_rate);
    // The unloading branch of contact_law.cpp (the one place of the law), continued smoothly past
    // its zero at δ_r for an integrator inside the branch (its opening is an event there).
    const double dr = residual_overlap(law, memory);
    const double elastic =
        overlap >= dr ? elastic_force(law, overlap, memory) : -elastic_force(law, 2 * dr - overlap, memory);
    return elastic + law.damping * overlap_rate;
}

namespace {
const ContactMemory& memory_of(const std::vector<ContactMemory>* memory, std::size_t k) {
    static const ContactMemory none;
    return memory ? (*memory)[k] : none;
}
}  // namespace

bool rigid_body_link_settled(const RigidBodies& bodies, std::size_t k, double overlap, bool acting, double rate,
                             double t, const ContactMemory& memory) {
    if (bodies.links[k].kind == BodyLink::Kind::free) return true;
    if (bodies.links[k].kind == BodyLink::Kind::attached) return false;
    const double velocity_tolerance = 1e-10 * bodies.velocity_scale;  // contact_tolerances()'s
    // Acting at a rounding-sized force, at a rounding-sized relative velocity: the pair moves as
    // one for ever. (Separating faster, it opens at its own event.)
    if (acting && (std::abs(continued_force(bodies.links[k].law, overlap, rate, memory)) > bodies.force_tolerance ||
                   std::abs(rate) > velocity_tolerance))
        return false;
    // A rigid body does not vibrate: no excursion, so only the gap and the mean velocities count.
    const double gap = std::max(0.0, -overlap);
    return std::isfinite(contact_release_time(t, gap, -rate, 0.0, 0.0, velocity_tolerance));
}

bool rigid_bodies_settled(const RigidBodies& bodies, const std::vector<double>& overlap,
                          const std::vector<char>& acting, const double* velocity, double t,
                          const std::vector<ContactMemory>* memory) {
    for (std::size_t k = 0; k < bodies.links.size(); ++k)
        if (!rigid_body_link_settled(bodies, k, overlap[k], acting[k], bodies.overlap_rate(k, velocity), t,
                                     memory_of(memory, k)))
            return false;
    return true;
}

double energy_defect_error(const RigidBodies& bodies, const RigidBodiesRun& run) {
    double initial = 0, final_energy = run.dissipated;
    for (std::size_t i = 0; i < bodies.bodies(); ++i) {
        initial += 0.5 * bodies.mass[i] * bodies.velocity[i] * bodies.velocity[i];
        final_energy += 0.5 * bodies.mass[i] * run.velocity[i] * run.velocity[i];
    }
    for (std::size_t k = 0; k < bodies.links.size(); ++k)
        if (bodies.links[k].kind != BodyLink::Kind::free)
            final_energy += run.memory.empty() ? contact_energy(bodies.links[k].law, run.overlap[k])
                                               : contact_energy(bodies.links[k].law, run.overlap[k], run.memory[k]);
    const double scale = std::max(initial, final_energy);
    if (!(final_energy > initial) || !(scale > 0)) return 0;
    const double created = (final_energy - initial) / scale;
    return 1.01 * created / (std::sqrt(1 + created) + 1) * bodies.velocity_scale;  // sqrt(1 + r) - 1
}

double open_release_power(const ContactLaw& law, double overlap, double overlap_rate) {
    // Signed: it balances d/dt of contact_energy() exactly (δ' > 0 at δ > 0 only inside a step that
    // straddles a closing).
    if (law.bilateral || overlap <= 0) return 0;
    return -contact_force(law, overlap, 0) * overlap_rate;
}

double open_release_power(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory) {
    if (law.bilateral || law.restitution >= 1) return open_release_power(law, overlap, overlap_rate);
    if (overlap <= residual_overlap(law, memory)) return 0;
    return -elastic_force(law, overlap, memory) * overlap_rate;
}

FreeRelease free_release(const RigidBodies& bodies, const std::vector<double>& overlap, const double* velocity,
                         const std::vector<ContactMemory>* memory) {
    FreeRelease r;
    for (std::size_t k = 0; k < bodies.links.size(); ++k) {
        if (bodies.links[k].kind != BodyLink::Kind::contact || overlap[k] <= 0) continue;
        const double rate = bodies.overlap_rate(k, velocity);  // < 0: settled means not approaching
        if (rate < 0) r.delay = std::max(r.delay, overlap[k] / -rate);
        r.energy += memory ? contact_energy(bodies.links[k].law, overlap[k], (*memory)[k])
                           : contact_energy(bodies.links[k].law, overlap[k]);
    }
    return r;
}

std::vector<double> force_sample_times(double end, std::size_t samples) {
    std::vector<double> t;
    if (samples < 2) return t;
    for (std::size_t i = 0; i + 1 < samples; ++i) t.push_back(end * static_cast<double>(i) / static_cast<double>(samples - 1));
    t.push_back(end);  // exactly (end * (n - 1) / (n - 1) may round past it)
    return t;
}

void check_rigid_bodies_options(const Chain& chain, const SolverOptions& options) {
    for (ChainSide side : {ChainSide::left, ChainSide::right})
        if (chain.ends()[side].attached() && !options.end_time)
            throw InvalidInput("solver.end_time",
                               fmt::format("the {} end is a \"{}\", attached for ever: the chain never settles "
                                           "(docs/physics.md §9.5); set [solver] end_time (--end-time)",
                                           to_string(side), to_string(chain.ends()[side].kind)));
}

Outcome rigid_bodies_outcome(const Chain& chain, const RigidBodies& bodies, RigidBodiesRun run,
                             std::size_t force_samples) {
    const std::size_t n = bodies.bodies();
    SolverReport report;
    report.method = run.method;
    report.end_time = run.end_time;
    report.settled = run.settled;
    report.at_horizon = run.at_horizon;
    for (std::size_t i = 0; i < n; ++i) report.rods.push_back({bodies.mass[i] * run.velocity[i], 0.0});
    for (std::size_t k = 0; k <= n; ++k)
        if (bodies.links[k].kind != BodyLink::Kind::free)
            report.contact_energy += run.memory.empty() ? contact_energy(bodies.links[k].law, run.overlap[k])
                                                        : contact_energy(bodies.links[k].law, run.overlap[k], run.memory[k]);
    report.dissipated = run.dissipated;
    const double scale = bodies.velocity_scale;
    report.velocity_error_bound = run.velocity_error_bound;
    report.accuracy = scale > 0 ? run.velocity_error_bound / scale : 0.0;
    report.stats = run.stats;
    report.warnings = std::move(run.warnings);
    // The end links give the chain momentum: the left one pushes it right, the right one left. Their
    // work on the chain is what they store and dissipate, taken from it.
    report.left_end.impulse = run.impulse[0];
    report.right_end.impulse = -run.impulse[n];
    ContactHistory none(chain);  // a chain without rods has no junctions: the links are added below
    Outcome o = build_outcome(chain, none, std::move(report));
    for (std::size_t k = 1; k < n; ++k) {
        ContactOutcome c;
        c.left_rod = k - 1;
        c.impulse = run.impulse[k];
        c.intervals = run.intervals[k];
        if (force_samples) c.force_history = run.forces[k];
        o.contacts.push_back(std::move(c));
    }
    for (EndOutcome& e : o.ends) {
        const std::size_t k = e.side == ChainSide::left ? 0 : n;
        if (bodies.links[k].kind == BodyLink::Kind::free) continue;
        if (bodies.links[k].kind == BodyLink::Kind::contact) e.intervals = run.intervals[k];
        if (force_samples) e.force_history = run.forces[k];
    }
    for (const auto& link : run.intervals)
        for (const Interval& iv : link) o.last_contact_time = std::max(o.last_contact_time, iv.end);
    o.velocity_error_kind = run.error_kind;
    o.accuracy_report = std::move(run.accuracy_report);
    check_outcome(o);
    return o;
}

}  // namespace rodcollide
