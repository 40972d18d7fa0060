// Formats an Outcome as the run table (fmt) and the run JSON (nlohmann::json).
#include "rodcollide/outcome_report.hpp"

#include <fmt/format.h>

#include <cmath>

namespace rodcollide {

namespace {

/// The accuracy asked for and reached, and why the solver stopped (Outcome::accuracy_report):
/// "target" and "reached" relative to the velocity scale ("reached" absent when there is no
/// estimate), "met", "status", "statement"; the time
/// resolution, fronts needed, memory budget and peak resident memory [bytes] where they apply.
nlohmann::ordered_json accuracy_json(const Outcome& o) {
    const AccuracyReport& r = o.accuracy_report;
    nlohmann::ordered_json j = {{"target", r.target}};
    if (std::isfinite(o.accuracy)) j["reached"] = o.accuracy;  // absent: no estimate (velocity_error_bound null)
    j["met"] = r.met();
    j["status"] = to_string(r.status);
    j["statement"] = r.statement;
    if (r.time_resolution > 0) j["time_resolution"] = r.time_resolution;
    if (r.fronts_needed > 0) j["fronts_needed"] = r.fronts_needed;
    if (r.memory_budget > 0) j["memory_budget"] = r.memory_budget;
    if (r.peak_resident_memory > 0) j["peak_resident_memory"] = r.peak_resident_memory;
    return j;
}

/// The velocities' accuracy as the run table shows it, under u+.
std::string accuracy_line(const Outcome& o) {
    const AccuracyReport& r = o.accuracy_report;
    std::string line;
    if (o.velocity_error_kind == Outcome::ErrorKind::bound && o.velocity_error_bound == 0)
        line = fmt::format("u+ exact to rounding ({:.2g} of the velocity scale)", o.accuracy);
    else if (!std::isfinite(o.velocity_error_bound))
        line = "u+ accuracy unknown: no estimate could be made (see the warnings)";
    else
        line = fmt::format("u+ ± {:.2g} (estimate: {:.2g} of the velocity scale)", o.velocity_error_bound, o.accuracy);
    if (r.target > 0)
        line += fmt::format("; asked for {:.2g}: {}", r.target, r.met() ? "met" : "NOT met, " + r.statement);
    return line + "\n";
}

}  // namespace

nlohmann::ordered_json outcome_json(const std::string& title, const Outcome& o) {
    using json = nlohmann::ordered_json;
    json rods = json::array();
    for (const RodOutcome& r : o.rods)
        rods.push_back({{"mass", r.mass},
                        {"initial_velocity", r.initial_velocity},
                        {"final_velocity", r.final_velocity},
                        {"vibration_energy", r.vibration_energy}});
    json contacts = json::array();
    for (const ContactOutcome& c : o.contacts) {
        json intervals = json::array();
        for (const Interval& iv : c.intervals) intervals.push_back({iv.start, iv.end});
        contacts.push_back({{"rods", {c.left_rod, c.left_rod + 1}},
                            {"impulse", c.impulse},
                            {"intervals", intervals}});
        if (!c.force_history.time.empty())
            contacts.back()["force_history"] = {{"time", c.force_history.time}, {"force", c.force_history.force}};
    }
    json stats = {{"events", o.stats.events}, {"fronts", o.stats.fronts}, {"dropped_fronts", o.stats.dropped_fronts},
                  {"merged_fronts", o.stats.merged_fronts}, {"peak_stored_fronts", o.stats.peak_stored_fronts},
                  {"free_flights", o.stats.free_flights}, {"sleeps", o.stats.sleeps},
                  {"reflected_ahead", o.stats.reflected_ahead},
                  {"estimate_events", o.stats.estimate_events}};
    if (o.stats.abandoned_events) stats["abandoned_events"] = o.stats.abandoned_events;  // only where there was one
    if (o.method == Method::finite_difference) {
        stats["steps"] = o.stats.steps;
        stats["cells"] = o.stats.cells;
        stats["shortest_rod_cells"] = o.stats.shortest_rod_cells;
        stats["time_step"] = o.stats.time_step;
        stats["courant_min"] = o.stats.courant_min;
        stats["estimate_cells"] = o.stats.estimate_cells;
        stats["velocity_error_target"] = o.stats.velocity_error_target;
        stats["velocity_error_target_met"] = o.stats.velocity_error_target_met;
    }
    json energy = {{"initial", o.energy.initial},
                   {"final_rigid", o.energy.final_rigid},
                   {"final_vibration", o.energy.final_vibration},
                   {"dropped", o.energy.dropped}};
    json doc = {{"title", title}, {"method", to_string(o.method)}, {"rods", rods}, {"contacts", contacts}};
    // A chain with free, unloaded ends reports as it always did; others add their ends.
    if (!o.ends.empty()) {
        json ends = json::array();
        for (const EndOutcome& e : o.ends) {
            json end = {{"side", to_string(e.side)}, {"kind", to_string(e.kind)}};
            if (e.kind == EndKind::wall) {
                json intervals = json::array();
                for (const Interval& iv : e.intervals) intervals.push_back({iv.start, iv.end});
                end["gap"] = e.gap;
                end["intervals"] = intervals;
            }
            end["loaded"] = e.loaded;
            end["impulse"] = e.impulse;
            end["work"] = e.work;
            if (e.loaded) end["load_step_error"] = e.load_step_error;
            if (!e.force_history.time.empty())
                end["force_history"] = {{"time", e.force_history.time}, {"force", e.force_history.force}};
            ends.push_back(end);
        }
        doc["ends"] = ends;
        energy["radiated"] = o.energy.radiated;
        energy["input"] = o.energy.input;
    }
    if (o.compliant) {  // issue 23's terms, only where there are compliant parts (older outputs stay as they were)
        energy["contact"] = o.energy.contact;
        energy["dissipated"] = o.energy.dissipated;
    }
    doc["energy"] = energy;
    json rest = {{"end_time", o.end_time},
            {"settled", o.settled},
            {"last_contact_time", o.last_contact_time},
            {"impact_equation_residual", o.impact_equation_residual()},
            // null when no estimate could be made (+infinity)
            {"velocity_error_bound", std::isfinite(o.velocity_error_bound) ? json(o.velocity_error_bound) : json()},
            {"velocity_error_kind", o.velocity_error_kind == Outcome::ErrorKind::estimate ? "estimate" : "bound"},
            {"accuracy_report", accuracy_json(o)},
            {"stats", stats},
            {"warnings", o.warnings}};
    for (auto& [key, value] : rest.items()) doc[key] = value;
    return doc;
}

nlohmann::ordered_json gauges_json(const std::vector<GaugeSignal>& signals) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const GaugeSignal& g : signals)
        out.push_back({{"name", g.gauge.name}, {"rod", g.gauge.rod}, {"x", g.gauge.x}, {"time", g.time},
                       {"velocity", g.velocity}, {"force", g.force}, {"strain", g.strain}});
    return out;
}

std::string outcome_table(const std::string& title, const Outcome& o) {
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, "{}  [{}]\n", title, to_string(o.method));
    if (o.settled)
        fmt::format_to(out, "settled: no contact can happen after t = {:.6g} (last contact force at t = {:.6g})\n\n",
                       o.end_time, o.last_contact_time);
    else
        fmt::format_to(out, "NOT settled: stopped at t = {:.6g}; contacts may still happen\n\n", o.end_time);

    fmt::format_to(out, "{:>5}  {:>12}  {:>13}  {:>13}  {:>16}\n", "rod", "mass", "u- (initial)",
                   "u+ (final)", "vibration energy");
    for (std::size_t i = 0; i < o.rods.size(); ++i) {
        const RodOutcome& r = o.rods[i];
        fmt::format_to(out, "{:>5}  {:>12.6g}  {:>13.6g}  {:>13.6g}  {:>16.6g}\n", i, r.mass,
                       r.initial_velocity, r.final_velocity, r.vibration_energy);
    }
    s += accuracy_line(o);
    fmt::format_to(out, "\n{:>7}  {:>6}  {:>12}  {}\n", "contact", "rods", "impulse", "compressed during");
    for (std::size_t k = 0; k < o.contacts.size(); ++k) {
        const ContactOutcome& c = o.contacts[k];
        std::string intervals;
        for (const Interval& iv : c.intervals)
            intervals += fmt::format("{}[{:.6g}, {:.6g}]", intervals.empty() ? "" : " ", iv.start, iv.end);
        fmt::format_to(out, "{:>7}  {:>6}  {:>12.6g}  {}\n", k, fmt::format("{}-{}", c.left_rod, c.left_rod + 1),
                       c.impulse, intervals.empty() ? "never touched" : intervals);
    }
    const EnergyBalance& e = o.energy;
    const double total = e.final_rigid + e.final_vibration;
    fmt::format_to(out, "\nenergy: initial {:.6g} = rigid {:.6g} ({:.2f}%) + vibration {:.6g} ({:.2f}%)",
                   e.initial, e.final_rigid, total > 0 ? 100 * e.final_rigid / total : 100.0,
                   e.final_vibration, total > 0 ? 100 * e.final_vibration / total : 0.0);
    if (e.dropped != 0)
        fmt::format_to(out, " + {} {:.3g}", o.method == Method::finite_difference ? "scheme drift" : "dropped", e.dropped);
    if (o.compliant) fmt::format_to(out, " + in contacts {:.6g} + dissipated {:.6g}", e.contact, e.dissipated);
    if (!o.ends.empty()) {
        fmt::format_to(out, " + radiated {:.6g} - input by loads {:.6g}", e.radiated, e.input);
        for (const EndOutcome& end : o.ends) {
            fmt::format_to(out, "\n{} end: {}{}, impulse {:.6g}, work {:.6g}", to_string(end.side),
                           to_string(end.kind), end.loaded ? " (loaded)" : "", end.impulse, end.work);
            if (end.kind == EndKind::wall) {
                fmt::format_to(out, ", gap {:.6g}, compressed during", end.gap);
                for (const Interval& iv : end.intervals) fmt::format_to(out, " [{:.6g}, {:.6g}]", iv.start, iv.end);
                if (end.intervals.empty()) fmt::format_to(out, " never touched");
            }
            if (end.load_step_error > 0)
                fmt::format_to(out, ", load applied as steps within {:.3g} of the linear history", end.load_step_error);
        }
    }
    if (o.method == Method::finite_difference)
        fmt::format_to(out, "\nsolver: {} steps of {:.6g} on {} cells ({} in the shortest rod), Courant number >= {:.6g}",
                       o.stats.steps, o.stats.time_step, o.stats.cells, o.stats.shortest_rod_cells, o.stats.courant_min);
    if (o.method == Method::finite_difference && !std::isfinite(o.velocity_error_bound))
        fmt::format_to(out, "\nerror estimate: none, see the warning (target {:.3g}: NOT shown)", o.stats.velocity_error_target);
    else if (o.method == Method::finite_difference)
        fmt::format_to(out, "\nerror estimate: final velocities within {:.3g} ({}; target {:.3g}: {})",
                       o.velocity_error_bound,
                       o.stats.estimate_cells ? fmt::format("against runs on {} cells and coarser", o.stats.estimate_cells)
                                              : std::string("exact grid: Courant 1, every event on a grid time"),
                       o.stats.velocity_error_target, o.stats.velocity_error_target_met ? "met" : "NOT met");
    else
        fmt::format_to(out, "\nsolver: {} events, {} fronts", o.stats.events, o.stats.fronts);
    if (o.stats.dropped_fronts) fmt::format_to(out, ", {} jumps below the drop tolerance", o.stats.dropped_fronts);
    if (o.stats.merged_fronts) fmt::format_to(out, ", {} fronts merged below the time resolution", o.stats.merged_fronts);
    if (o.stats.abandoned_events)
        fmt::format_to(out, ", and {} events of an attempt without merging, abandoned for the work budget",
                       o.stats.abandoned_events);
    if (o.method == Method::characteristics && o.velocity_error_kind == Outcome::ErrorKind::estimate)
        fmt::format_to(out, "\nerror estimate: final velocities within {:.3g} ({})", o.velocity_error_bound,
                       o.stats.estimate_events ? fmt::format("against a coarser run of {} events", o.stats.estimate_events)
                                               : std::string("none: the coarser run did not finish"));
    fmt::format_to(out, "\n");
    return s;
}

}  // namespace rodcollide
