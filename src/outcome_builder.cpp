// Outcome assembly shared by both solvers (outcome_builder.hpp; docs/physics.md §2).
#include "rodcollide/outcome_builder.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rodcollide {

Outcome build_outcome(const Chain& chain, const ContactHistory& contacts, SolverReport report) {
    Outcome o;
    o.method = report.method;
    o.end_time = report.end_time;
    o.settled = report.settled;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        RodOutcome ro;
        ro.mass = chain[i].mass();
        ro.initial_velocity = chain[i].velocity;
        ro.final_velocity = report.rods[i].momentum / ro.mass;
        ro.vibration_energy = report.rods[i].vibration_energy;
        o.energy.final_rigid += rigid_energy(ro.mass, ro.final_velocity);
        o.energy.final_vibration += ro.vibration_energy;
        o.rods.push_back(ro);
    }
    o.energy.initial = chain.initial_kinetic_energy();
    o.energy.dropped = report.energy_created ? 0.0 - *report.energy_created  // +0 when nothing was dropped
                                             : o.energy.initial - (o.energy.final_rigid + o.energy.final_vibration);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Junction& junction = chain.junctions()[contacts.junction(k)];
        ContactOutcome c;
        c.left_rod = chain.elements()[static_cast<std::size_t>(junction.left)].rod;
        c.impulse = contacts[k].impulse(o.end_time);
        c.intervals = contacts[k].intervals(o.end_time);
        for (const Interval& iv : c.intervals) o.last_contact_time = std::max(o.last_contact_time, iv.end);
        o.contacts.push_back(std::move(c));
    }
    o.accuracy = report.accuracy;
    o.stats = report.stats;
    o.warnings = std::move(report.warnings);
    if (!o.settled)
        o.warnings.push_back(fmt::format(
            "not settled at t = {:g}: contacts may still happen; final velocities are the momenta / masses "
            "at that time", o.end_time));
    return o;
}

}  // namespace rodcollide
