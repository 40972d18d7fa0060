// JSON and table output of a Comparison (the `compare` command; keys in compare.hpp).
#include "rodcollide/compare.hpp"

#include "rodcollide/laws/report.hpp"
#include "rodcollide/outcome_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <vector>

namespace rodcollide {

namespace {

using json = nlohmann::ordered_json;

std::vector<double> list(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(); }

std::string vector_text(const Eigen::VectorXd& v) {
    if (v.size() > 8) return "(see --json)";
    return fmt::format("({:.6g})", fmt::join(list(v), ", "));
}

std::string yes_no(bool b) { return b ? "yes" : "NO"; }

std::string law_label(const LawComparison& lc, const std::optional<double>& restitution) {
    if (lc.parameters.law == "sequential") return "sequential";
    const double e = restitution.value_or(1.0);
    if (lc.parameters.law == "kinematic") return fmt::format("kinematic E_n={:g}I", e);
    return fmt::format("{} e={:g}", lc.parameters.law, e);
}

std::string distance_text(double d) { return std::isfinite(d) ? fmt::format("{:.6g}", d) : "undefined"; }

}  // namespace

json comparison_json(const Comparison& c) {
    json laws_json = json::array();
    for (const LawComparison& lc : c.laws) {
        json j = laws::to_json(lc.result, lc.parameters);
        j["distance"] = finite_or_null(lc.distance);
        laws_json.push_back(std::move(j));
    }
    const laws::LawResult& w = c.wave_as_law;
    json wave_as_law = {
        {"rigid_energy_share", c.rigid_energy_share},
        {"energy_ratio", finite_or_null(w.energy_ratio)},
        {"contact_velocities_pre", list(w.gamma_pre)},
        {"contact_velocities_post", list(w.gamma_post)},
        {"impulses", list(w.impulses)},
        {"consistency",
         {{"kinematic", w.consistency.kinematic}, {"kinetic", w.consistency.kinetic}, {"energetic", w.consistency.energetic}}},
        {"tolerance", c.wave_tolerance},
        {"map_properties", c.wave_map_properties ? laws::to_json(*c.wave_map_properties) : json()},
    };
    if (!c.wave_map_note.empty()) wave_as_law["map_properties_note"] = c.wave_map_note;
    return {
        {"wave", outcome_json(c.title, c.wave)},
        {"laws", laws_json},
        {"title", c.title},
        {"gaps_ignored_by_laws", c.has_gaps},
        {"restitution", c.restitution ? json(*c.restitution) : json()},
        {"closest_law", c.closest ? json(c.laws[*c.closest].parameters.law) : json()},
        {"cone", c.cone ? json(std::string(laws::cone_name(*c.cone))) : json()},
        {"wave_as_law", wave_as_law},
        {"implied_restitution",
         {{"effective_coefficient", c.effective_restitution ? json(*c.effective_restitution) : json()},
          {"first_column", c.restitution_column ? json(list(*c.restitution_column)) : json()}}},
        {"outcome_model", c.rigid_bodies ? "compliant contacts" : "waves"},
    };
}

std::string comparison_table(const Comparison& c) {
    std::string s;
    auto out = std::back_inserter(s);
    const laws::LawResult& w = c.wave_as_law;
    // A chain of balls and masses alone: the outcome beside the laws is its compliant contacts' (the
    // ODE of docs/physics.md §9.9), named so; for rods the wording stays as it was.
    const std::string model = c.rigid_bodies ? "compliant" : "wave";
    fmt::format_to(out, "{}  [{}: {}]\n", c.title, c.rigid_bodies ? "compliant contacts" : "wave", to_string(c.wave.method));
    if (c.rigid_bodies)
        fmt::format_to(out, "rigid model: {} bodies, masses {} kg, u- = {} m/s, every contact closed\n",
                       c.matrices.masses.size(), vector_text(c.matrices.masses), vector_text(c.velocities_pre));
    else
        fmt::format_to(out, "rigid model: {} rods, masses rho*A*L = {} kg, u- = {} m/s, every contact closed\n",
                       c.matrices.masses.size(), vector_text(c.matrices.masses), vector_text(c.velocities_pre));
    fmt::format_to(out, "gamma- = {} m/s", vector_text(w.gamma_pre));
    if (c.cone) fmt::format_to(out, ": cone {} of Winandy & Leine 2015 Fig. 4a", laws::cone_name(*c.cone));
    fmt::format_to(out, "\n");
    if (c.has_gaps)
        fmt::format_to(out, "note: the case has gaps; the rigid laws ignore them (every contact closed at one instant)\n");
    if (!c.wave.settled)
        fmt::format_to(out, "note: the {} solution did NOT settle (stopped at t = {:.6g}); its u+ is momentum/mass then\n",
                       model, c.wave.end_time);

    fmt::format_to(out, "\n{:<20} {:<34} {:>10} {:>9}  {:<9} {:<7} {}\n", "", "u+ [m/s]", "distance", "T+/T-",
                   "kinematic", "kinetic", "energetic");
    auto row = [&](const std::string& name, const laws::LawResult& r, const std::string& distance) {
        fmt::format_to(out, "{:<20} {:<34} {:>10} {:>9.6g}  {:<9} {:<7} {}\n", name, vector_text(r.velocities_post),
                       distance, r.energy_ratio, yes_no(r.consistency.kinematic), yes_no(r.consistency.kinetic),
                       yes_no(r.consistency.energetic));
    };
    row(model, w, "-");
    for (const LawComparison& lc : c.laws) {
        row(law_label(lc, c.restitution), lc.result, distance_text(lc.distance));
        if (lc.result.sequential && lc.result.sequential->cap_hit)
            fmt::format_to(out, "  (the sequential law hit its cap of {} impacts: u+ is where it stopped)\n",
                           lc.result.sequential->max_impacts);
    }
    fmt::format_to(out, "distance = ||u+_law - u+_{}||_M / ||u- - u_cm||_M; flags: gamma+ >= 0, Lambda >= 0, T+ <= T-\n", model);
    if (c.closest)
        fmt::format_to(out, "closest law: {} (distance {})\n", law_label(c.laws[*c.closest], c.restitution),
                       distance_text(c.laws[*c.closest].distance));

    fmt::format_to(out, "\n{} outcome as an impact law:\n", model);
    if (c.rigid_bodies)
        fmt::format_to(out, "  rigid bodies: no vibration; dissipated (dashpots, restitution) {:.4f}% of the initial energy\n",
                       c.wave.energy.initial > 0 ? 100 * c.wave.energy.dissipated / c.wave.energy.initial : 0.0);
    else
        fmt::format_to(out, "  energy in rigid motion {:.4f}% (vibration {:.4f}%)\n", 100 * c.rigid_energy_share,
                       100 * (1 - c.rigid_energy_share));
    fmt::format_to(out, "  impulses {} N s, gamma+ = {} m/s\n", vector_text(w.impulses), vector_text(w.gamma_post));
    fmt::format_to(out, "  consistency (slack {:.0e}): kinematic {}, kinetic {}, energetic {}\n", c.wave_tolerance,
                   yes_no(w.consistency.kinematic), yes_no(w.consistency.kinetic), yes_no(w.consistency.energetic));
    if (c.wave_map_properties) {
        fmt::format_to(out, "  {} map gamma- -> gamma+ of the {} touching (exact solver), sampled:\n", model,
                       c.rigid_bodies ? "bodies" : "rods");
        std::string table = laws::format_table(*c.wave_map_properties);
        for (std::size_t start = table.find_first_not_of('\n'), end; start < table.size(); start = end + 1) {
            end = table.find('\n', start);
            fmt::format_to(out, "  {}\n", table.substr(start, end - start));
        }
        if (!c.wave_map_note.empty()) fmt::format_to(out, "  note: {}\n", c.wave_map_note);
    } else if (!c.wave_map_note.empty()) {
        fmt::format_to(out, "  {} map properties: {}\n", model, c.wave_map_note);
    }

    fmt::format_to(out, "\nimplied restitution:\n");
    if (c.effective_restitution)
        fmt::format_to(out, "  effective energetic coefficient sqrt(T+_rel/T-_rel) = {:.9g} (centre-of-mass frame)\n",
                       *c.effective_restitution);
    else
        fmt::format_to(out, "  effective energetic coefficient: undefined (no relative motion before impact)\n");
    if (c.restitution_column)
        fmt::format_to(out, "  first column of E_n (Brogliato, Zhang & Liu 2012 §7.1, {} 1 strikes the others): {}\n",
                       c.rigid_bodies ? "body" : "rod", vector_text(*c.restitution_column));
    else
        fmt::format_to(out, "  first column of E_n: not applicable ({})\n",
                       c.has_gaps ? "the case has gaps"
                       : c.rigid_bodies ? "u- is not body 1 alone striking the others"
                                        : "u- is not rod 1 alone striking the others");
    return s;
}

}  // namespace rodcollide
