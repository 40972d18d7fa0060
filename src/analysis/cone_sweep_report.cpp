// CSV, table and JSON of a cone sweep (see cone_sweep.hpp).
#include "rodcollide/cone_sweep.hpp"

#include "rodcollide/laws/report.hpp"
#include "analysis/chain_description.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iterator>

namespace rodcollide {

namespace {

using json = nlohmann::ordered_json;

std::vector<double> list(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(); }

json matrix_json(const Eigen::MatrixXd& m) {
    json a = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) a.push_back(list(m.row(i).transpose()));
    return a;
}

json vectors_json(const std::vector<Eigen::VectorXd>& vs) {
    json a = json::array();
    for (const Eigen::VectorXd& v : vs) a.push_back(list(v));
    return a;
}

std::string matrix_text(const Eigen::MatrixXd& m) {
    std::vector<std::string> rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        std::vector<std::string> e;
        for (Eigen::Index k = 0; k < m.cols(); ++k) e.push_back(fmt::format("{:.6g}", std::abs(m(i, k)) < 5e-13 ? 0.0 : m(i, k)));
        rows.push_back(fmt::format("{}", fmt::join(e, ", ")));
    }
    return fmt::format("[{}]", fmt::join(rows, "; "));
}

json cone_json(const IdentifiedCone& c, bool wave, const std::vector<IdentifiedCone>& sequential) {
    json j = {{"linear", c.linear},
              {"matrix", c.linear ? matrix_json(c.matrix) : json()},
              {"directions", c.directions},
              {"boundary_directions", c.boundary_directions},
              {"representative", c.representative.size() ? json(list(c.representative)) : json()},
              {"signatures", c.signatures.size()},
              {"merged", c.signatures.size() > 1},
              {"signature", c.signatures.empty() ? json() : json(c.signatures.front())},
              {"residual", finite_or_null(c.residual)},
              {"norm", c.linear ? json(c.norm) : json()},
              {"facets", vectors_json(c.facets)},
              {"facets_exact", c.linear ? json(c.facets_exact) : json()},
              {"bisected_facets", c.bisected_facets},
              {"rays", vectors_json(c.rays)}};
    if (!c.label.empty()) j["impact_sequence"] = c.label;
    if (wave) {
        j["sequential_cone"] = c.sequential_cone >= 0 ? json(sequential[static_cast<std::size_t>(c.sequential_cone)].label) : json();
        j["sequential_same_directions"] = c.sequential_same_directions;
        j["sequential_matrix_deviation"] = c.sequential_cone >= 0 ? json(c.sequential_matrix_deviation) : json();
        if (c.linear) j["restitution_matrix"] = matrix_json(c.restitution_matrix);
        if (c.seed_cone) j["seed_cone"] = laws::cone_name(*c.seed_cone);
    }
    return j;
}

std::size_t linear_count(const std::vector<IdentifiedCone>& cones) {
    std::size_t k = 0;
    for (const IdentifiedCone& c : cones) k += c.linear;
    return k;
}

}  // namespace

std::string cone_sweep_csv(const ConeSweepResult& r) {
    std::string s;
    auto out = std::back_inserter(s);
    const std::size_t d = r.bodies - 1;
    if (r.shard.index == 1) {
        fmt::format_to(out, "index,ray");
        for (std::size_t k = 1; k <= d; ++k) fmt::format_to(out, ",gamma{}_pre", k);
        for (std::size_t k = 1; k <= d; ++k) fmt::format_to(out, ",gamma{}_wave", k);
        fmt::format_to(out, ",cone,sequential_cone,events");
        for (const std::string& l : r.laws) {
            for (std::size_t k = 1; k <= d; ++k) fmt::format_to(out, ",{}_gamma{}", l, k);
            fmt::format_to(out, ",{}_error", l);
        }
        fmt::format_to(out, "\n");
    }
    for (const ConeSweepPoint& p : r.points) {
        fmt::format_to(out, "{},{}", p.index, p.ray ? 1 : 0);
        for (double x : list(p.gamma_pre)) fmt::format_to(out, ",{:.17g}", x);
        for (double x : list(p.gamma_post)) fmt::format_to(out, ",{:.17g}", x);
        fmt::format_to(out, ",{},{},{}", p.cone, p.sequential_cone, p.events);
        for (std::size_t l = 0; l < r.laws.size(); ++l) {
            for (double x : list(p.law_post[l])) fmt::format_to(out, ",{:.17g}", x);
            if (std::isnan(p.law_error[l])) fmt::format_to(out, ",");
            else fmt::format_to(out, ",{:.17g}", p.law_error[l]);
        }
        fmt::format_to(out, "\n");
    }
    return s;
}

std::string cone_sweep_table(const ConeSweepResult& r) {
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, "{}: {} bodies, {} quasi-uniform directions of gamma- on the unit sphere (G^-1 metric) + {} "
                        "boundary rays [wave: {}]",
                   r.title, r.bodies, r.directions, r.rays, to_string(r.method));
    if (r.shard.count > 1)
        fmt::format_to(out, ", shard {}/{}: directions {}..{}", r.shard.index, r.shard.count, r.first, r.last - 1);
    fmt::format_to(out, "\nrods (touching): lengths ({:.6g}) m, masses ({:.6g}) kg, impedances ({:.6g}) N s/m\n",
                   fmt::join(list(r.lengths), ", "), fmt::join(list(r.masses), ", "), fmt::join(list(r.impedances), ", "));
    fmt::format_to(out, "\nlargest error over all directions, ||gamma+_law - gamma+_wave||_G^-1 / ||gamma-||_G^-1:\n");
    for (std::size_t l = 0; l < r.laws.size(); ++l) fmt::format_to(out, "  {:<12} {:.3e}\n", r.laws[l], r.law_max_error[l]);

    fmt::format_to(out, "\nwave map: {} linear cones ({} signatures merged into others: same matrix), {} directions "
                        "in no linear cone; each matrix verified at every direction of its cone to {:.0e}\n",
                   linear_count(r.cone_map), r.merged_cones, r.non_linear_directions, r.tolerance);
    if (r.unsettled_directions > 0)
        fmt::format_to(out, "{} directions did not settle within {} event groups (re-contacts): left out, in no cone\n",
                       r.unsettled_directions, cone_sweep_max_events);
    fmt::format_to(out, "{:>4} {:>10} {:>9} {:>8} {:>10}  {:<22} {}\n", "cone", "directions", "residual", "norm",
                   "facets", "sequential cone", "J (gamma+ = J gamma-)");
    for (std::size_t c = 0; c < r.cone_map.size(); ++c) {
        const IdentifiedCone& k = r.cone_map[c];
        if (!k.linear) {
            fmt::format_to(out, "{:>4} {:>10} {:>9} {:>8} {:>10}  {:<22} not linear (signature {})\n", c, k.directions,
                           "-", "-", "-", "-", k.signatures.front());
            continue;
        }
        std::string seq = "none";
        if (k.sequential_cone >= 0)
            seq = fmt::format("{}{}", r.sequential_cones[static_cast<std::size_t>(k.sequential_cone)].label,
                              k.sequential_same_directions ? " (same)" : " (part)");
        fmt::format_to(out, "{:>4} {:>10} {:>9.1e} {:>8.4f} {:>10}  {:<22} {}\n", c, k.directions, k.residual, k.norm,
                       k.facets.size(), seq, matrix_text(k.matrix));
    }
    fmt::format_to(out, "\nsequential law: {} linear cones ({} impact sequences merged: same matrix); largest norm ",
                   linear_count(r.sequential_cones), r.sequential_merged);
    double seq_norm = 0;
    for (const IdentifiedCone& c : r.sequential_cones) seq_norm = std::max(seq_norm, c.linear ? c.norm : 0.0);
    fmt::format_to(out, "{:.6g}\n", seq_norm);

    const ConeMapProperties& p = r.properties;
    fmt::format_to(out, "\nproperties of the identified map: largest cone norm ||J||_G^-1 = {:.6g} ({}); "
                        "inconsistent directions: energetic {}, kinematic {}, kinetic {}\n",
                   p.largest_cone_norm, p.largest_cone_norm <= 1 + 1e-9 ? "non-expansive" : "EXPANSIVE",
                   p.energetic_violations, p.kinematic_violations, p.kinetic_violations);
    if (p.sampled_done) fmt::format_to(out, "{}", laws::format_table(p.sampled));
    if (!p.sampled_note.empty()) fmt::format_to(out, "sampled properties {}\n", p.sampled_note);
    fmt::format_to(out, "\nidentified law at the swept directions: {} of {} answered, largest |law - wave| / |gamma-| "
                        "{:.3e}, {} answered inside non-linear regions; {} cones in the law ({} left out: facets "
                        "not exact), {} facets located with {} wave solves\n",
                   r.law_answered, r.points.size(), r.identified_max_error, r.law_in_non_linear, r.law.cones.size(),
                   r.inexact_cones, r.bisected_facets, r.facet_solves);
    return s;
}

json cone_sweep_json(const ConeSweepResult& r) {
    json laws_json = json::array();
    for (std::size_t l = 0; l < r.laws.size(); ++l) laws_json.push_back({{"law", r.laws[l]}, {"max_error", r.law_max_error[l]}});
    json map = json::array(), seq = json::array();
    for (const IdentifiedCone& c : r.cone_map) map.push_back(cone_json(c, true, r.sequential_cones));
    double seq_norm = 0;
    for (const IdentifiedCone& c : r.sequential_cones) {
        seq.push_back(cone_json(c, false, r.sequential_cones));
        if (c.linear) seq_norm = std::max(seq_norm, c.norm);
    }
    const ConeMapProperties& p = r.properties;
    json properties = {{"largest_cone_norm", p.largest_cone_norm},
                       {"non_expansive_cones", p.largest_cone_norm <= 1 + 1e-9},
                       {"energetic_violations", p.energetic_violations},
                       {"kinematic_violations", p.kinematic_violations},
                       {"kinetic_violations", p.kinetic_violations},
                       {"sampled", p.sampled_done ? laws::to_json(p.sampled) : json()},
                       {"sampled_in", "the identified law's cones (the wave solver where a segment or search leaves them)"}};
    if (!p.sampled_note.empty()) properties["sampled_note"] = p.sampled_note;
    return {{"title", r.title},
            {"method", to_string(r.method)},
            {"bodies", r.bodies},
            {"rods", rods_json(r.lengths, r.masses, r.impedances, r.transit_times)},
            {"directions", r.directions},
            {"boundary_rays", r.rays},
            {"seed", r.seed},
            {"shard", {r.shard.index, r.shard.count}},
            {"first", r.first},
            {"last", r.last},
            {"linear_tolerance", r.tolerance},
            {"laws", laws_json},
            {"cone_map", map},
            {"linear_cones", linear_count(r.cone_map)},
            {"merged_cones", r.merged_cones},
            {"non_linear_directions", r.non_linear_directions},
            {"unsettled_directions", r.unsettled_directions},
            {"max_events_per_direction", cone_sweep_max_events},
            {"sequential_cones", seq},
            {"sequential_linear_cones", linear_count(r.sequential_cones)},
            {"sequential_merged", r.sequential_merged},
            {"sequential_largest_norm", seq_norm},
            {"properties", properties},
            {"law_check",
             {{"answered", r.law_answered},
              {"directions", r.points.size()},
              {"max_error", r.identified_max_error},
              {"answered_in_non_linear", r.law_in_non_linear},
              {"law_cones", r.law.cones.size()},
              {"inexact_cones", r.inexact_cones},
              {"bisected_facets", r.bisected_facets},
              {"facet_solves", r.facet_solves}}}};
}

}  // namespace rodcollide
