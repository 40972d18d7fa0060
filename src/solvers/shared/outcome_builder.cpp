// Outcome assembly shared by both solvers (outcome_builder.hpp; docs/physics.md §2).
#include "solvers/shared/outcome_builder.hpp"

#include "outcome/outcome_check.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rodcollide {

namespace {

/// A rod held at a fixed end never moves freely: its momentum oscillates about its mean, 0, for
/// ever (its displacement stays bounded, docs/physics.md §8.2), so the settled outcome reports that
/// mean: final velocity 0, its whole energy as vibration, and the fixed end's impulse as the mean
/// of its oscillation, which is what balances the rod's momentum (I - p(t): the rod's p(t) is the
/// end's impulse so far minus its mean). A rod held at both ends shares the correction equally:
/// only the sum of the two impulses is determined by the mean motion.
void report_held_rods_by_mean_motion(const Chain& chain, SolverReport& report) {
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        if (chain.ends()[side].kind != EndKind::fixed) continue;
        const std::size_t i = side == ChainSide::left ? 0 : chain.size() - 1;
        const bool both = chain.size() == 1 && chain.ends()[ChainSide::left].kind == EndKind::fixed &&
                          chain.ends()[ChainSide::right].kind == EndKind::fixed;
        RodState& rod = report.rods[i];
        const double p = both ? rod.momentum / 2 : rod.momentum;
        (side == ChainSide::left ? report.left_end : report.right_end).impulse -= p;
        if (both && side == ChainSide::left) continue;  // the rod's own state once, below
        rod.vibration_energy += rigid_energy(chain[i].mass(), rod.momentum / chain[i].mass());
        rod.momentum = 0;
    }
}

}  // namespace

Outcome build_outcome(const Chain& chain, const ContactHistory& contacts, SolverReport report) {
    Outcome o;
    o.method = report.method;
    o.end_time = report.end_time;
    o.settled = report.settled;
    if (report.settled && !report.at_horizon) report_held_rods_by_mean_motion(chain, report);
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
    o.compliant = chain.compliant();
    o.energy.contact = report.contact_energy;
    o.energy.dissipated = report.dissipated;
    o.energy.dropped = report.energy_created ? 0.0 - *report.energy_created  // +0 when nothing was dropped
                                             : o.energy.initial - (o.energy.final_rigid + o.energy.final_vibration);
    // Stored and dissipated in the compliant junctions: accounted for, not lost (+0 without them, so
    // rigid chains' numbers are unchanged).
    if (!report.energy_created && o.compliant) o.energy.dropped -= o.energy.contact + o.energy.dissipated;
    if (chain.ends().any())
        for (ChainSide side : {ChainSide::left, ChainSide::right}) {
            const EndReport& r = side == ChainSide::left ? report.left_end : report.right_end;
            EndOutcome e;
            e.side = side;
            e.kind = chain.ends()[side].kind;
            e.gap = chain.ends()[side].gap;
            e.loaded = chain.ends().load_at(side) != nullptr;
            e.impulse = r.impulse;
            e.work = r.work;
            e.load_step_error = r.load_step_error;
            if (e.kind == EndKind::anechoic) o.energy.radiated -= r.work;
            if (report.force_samples && chain.ends()[side].attached())
                e.force_history = decimate_forces(report.attached_end_forces[side == ChainSide::left ? 0 : 1],
                                                  o.end_time, report.force_samples);
            if (e.loaded) o.energy.input += r.work;
            o.ends.push_back(std::move(e));
        }
    // Without its own account (finite differences), the solver's loss is the balance: what came in
    // minus what left and what is left. A wall or held end does no work; what a grid's end appears
    // to do there (a gap closing inside a step) is part of that loss.
    if (!report.energy_created && (o.energy.input != 0 || o.energy.radiated != 0))
        o.energy.dropped += o.energy.input - o.energy.radiated;
    const double records_time = report.records_time.value_or(o.end_time);
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Junction& junction = chain.junctions()[contacts.junction(k)];
        std::vector<Interval> intervals = contacts[k].intervals(records_time);
        for (const Interval& iv : intervals) o.last_contact_time = std::max(o.last_contact_time, iv.end);
        ForceHistory history;
        if (report.force_samples)
            history = decimate_forces(contacts[k].recorded_forces(), o.end_time, report.force_samples);
        if (contacts.is_wall(k)) {
            EndOutcome& e = o.ends[junction.left < 0 ? 0 : 1];
            e.intervals = std::move(intervals);
            e.force_history = std::move(history);
            continue;
        }
        ContactOutcome c;
        c.left_rod = contacts.left_rod(k);
        c.impulse = contacts[k].impulse(records_time);
        c.intervals = std::move(intervals);
        c.force_history = std::move(history);
        o.contacts.push_back(std::move(c));
    }
    o.accuracy = report.accuracy;
    o.balance_accuracy = report.balance_accuracy;
    o.velocity_error_bound = report.velocity_error_bound;
    o.stats = report.stats;
    o.warnings = std::move(report.warnings);
    if (!o.settled)
        o.warnings.push_back(fmt::format(
            "not settled at t = {:g}: contacts may still happen; final velocities are the momenta / masses "
            "at that time", o.end_time));
    check_outcome(o);  // the last line of defence: never a wrong outcome, whoever asked for it
    return o;
}

ForceHistory decimate_forces(const ForceHistory& steps, double end, std::size_t samples) {
    ForceHistory out;
    const std::size_t n = steps.time.size();
    const auto force_at = [&](double t) {
        const auto k = std::upper_bound(steps.time.begin(), steps.time.end(), t) - steps.time.begin();
        return k == 0 ? 0.0 : steps.force[static_cast<std::size_t>(k - 1)];
    };
    if (2 * n + 2 <= samples) {
        double previous = 0;
        out.time.push_back(0);
        out.force.push_back(force_at(0));
        for (std::size_t k = 0; k < n && steps.time[k] <= end; ++k) {
            out.time.insert(out.time.end(), {steps.time[k], steps.time[k]});
            out.force.insert(out.force.end(), {previous, steps.force[k]});
            previous = steps.force[k];
        }
        out.time.push_back(end);
        out.force.push_back(force_at(end));
        return out;
    }
    for (std::size_t i = 0; i < samples; ++i) {
        const double t = end * static_cast<double>(i) / static_cast<double>(samples - 1);
        out.time.push_back(t);
        out.force.push_back(force_at(t));
    }
    return out;
}

}  // namespace rodcollide
