// JSON and table output of rigid-impact-law results and of property reports.
#include "rodcollide/laws/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <vector>

namespace rodcollide::laws {

namespace {

std::vector<double> list(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

nlohmann::ordered_json matrix(const Eigen::MatrixXd& m) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(list(m.row(i).transpose()));
    return rows;
}

nlohmann::ordered_json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(); }

// A vector for the table; long ones only in the JSON output.
std::string vec(const Eigen::VectorXd& v) {
    if (v.size() > 6) return "(see --json)";
    return fmt::format("({:.6g})", fmt::join(list(v), ", "));
}

std::string yes_no(bool b) { return b ? "yes" : "NO"; }

std::string restitution_text(const LawResult& r, const LawParameters& p) {
    if (r.law == "sequential") return "elastic two-ball impacts";
    if (r.law.starts_with("identified:")) return "cone-wise linear, identified from waves";
    if (p.restitution_matrix.size() > 0) {
        std::vector<std::string> rows;
        for (Eigen::Index i = 0; i < p.restitution_matrix.rows(); ++i)
            rows.push_back(fmt::format("{:g}", fmt::join(list(p.restitution_matrix.row(i).transpose()), ",")));
        return fmt::format("E_n = [{}]", fmt::join(rows, "; "));
    }
    const std::string what = r.law == "kinematic" ? "E_n = diag" : "restitution";
    if (p.restitution.size() == 0) return r.law == "kinematic" ? "E_n = I (default)" : "restitution 1 (default)";
    if (p.restitution.size() == 1) return fmt::format("{} {:g} at every contact", what, p.restitution[0]);
    return fmt::format("{} ({:g})", what, fmt::join(list(p.restitution), ", "));
}

}  // namespace

nlohmann::ordered_json to_json(const LawResult& r, const LawParameters& p) {
    nlohmann::ordered_json j;
    j["law"] = r.law;
    j["masses"] = list(r.masses);
    j["initial_velocities"] = list(r.velocities_pre);
    j["final_velocities"] = list(r.velocities_post);
    j["impulses"] = list(r.impulses);
    j["contact_velocities_pre"] = list(r.gamma_pre);
    j["contact_velocities_post"] = list(r.gamma_post);
    j["energy_pre"] = r.energy_pre;
    j["energy_post"] = r.energy_post;
    j["energy_ratio"] = finite_or_null(r.energy_ratio);
    j["impact_equation_residual"] = finite_or_null(r.impact_equation_residual);
    j["consistency"] = {{"kinematic", r.consistency.kinematic},
                        {"kinetic", r.consistency.kinetic},
                        {"energetic", r.consistency.energetic}};
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    if (p.restitution.size() > 0) params["restitution"] = list(p.restitution);
    if (p.restitution_matrix.size() > 0) params["restitution_matrix"] = matrix(p.restitution_matrix);
    j["parameters"] = params;
    if (r.law == "newton" || r.law == "poisson") j["lcp_pivots"] = r.lcp_pivots;
    if (r.sequential) {
        const SequentialInfo& s = *r.sequential;
        j["order"] = s.order;
        j["impacts"] = s.impacts;
        j["max_impacts"] = s.max_impacts;
        j["cap_hit"] = s.cap_hit;
        if (s.cone) {
            j["cone"] = *s.cone;
            j["cone_matrix"] = matrix(s.cone_matrix);
        }
    }
    return j;
}

nlohmann::ordered_json to_json(const PropertyReport& r) {
    nlohmann::ordered_json cycle = nlohmann::ordered_json::array();
    for (const Eigen::VectorXd& g : r.cyclically_monotone.cycle) cycle.push_back(list(g));
    return {
        {"evaluations", r.evaluations},
        {"non_expansive",
         {{"holds", r.non_expansive.holds},
          {"max_ratio", r.non_expansive.max_ratio},
          {"pairs", r.non_expansive.pairs},
          {"gamma_a", list(r.non_expansive.gamma_a)},
          {"gamma_b", list(r.non_expansive.gamma_b)}}},
        {"monotone",
         {{"holds", r.monotone.holds},
          {"min_value", r.monotone.min_value},
          {"gamma_a", list(r.monotone.gamma_a)},
          {"gamma_b", list(r.monotone.gamma_b)}}},
        {"cyclically_monotone",
         {{"holds", r.cyclically_monotone.holds},
          {"worst_value", r.cyclically_monotone.worst_value},
          {"worst_relative", r.cyclically_monotone.worst_relative},
          {"cycles", r.cyclically_monotone.cycles},
          {"cycle", cycle}}},
        {"positively_homogeneous",
         {{"holds", r.positively_homogeneous.holds},
          {"max_deviation", r.positively_homogeneous.max_deviation},
          {"gamma", list(r.positively_homogeneous.gamma)},
          {"factor", r.positively_homogeneous.factor}}},
        {"continuous",
         {{"holds", r.continuous.holds},
          {"max_jump", r.continuous.max_jump},
          {"boundaries", r.continuous.boundaries},
          {"gamma", list(r.continuous.gamma)}}},
    };
}

std::string format_table(const LawResult& r, const LawParameters& p) {
    std::string s = fmt::format("{} law, {}\n", r.law, restitution_text(r, p));
    if (r.sequential) {
        const SequentialInfo& q = *r.sequential;
        s += fmt::format("order {}: {} two-ball impact(s), cap {}{}\n", q.order, q.impacts, q.max_impacts,
                         q.cap_hit ? " HIT: the velocities below are where the cap stopped" : "");
        if (q.cone)
            s += fmt::format("cone {} (Winandy & Leine 2015 eq. 23), Q = [{:g}, {:g}; {:g}, {:g}]\n", *q.cone,
                             q.cone_matrix(0, 0), q.cone_matrix(0, 1), q.cone_matrix(1, 0), q.cone_matrix(1, 1));
    }
    s += fmt::format("\n{:>6} {:>12} {:>12} {:>12}\n", "ball", "mass [kg]", "u- [m/s]", "u+ [m/s]");
    for (Eigen::Index i = 0; i < r.masses.size(); ++i)
        s += fmt::format("{:>6} {:>12.6g} {:>12.6g} {:>12.6g}\n", i + 1, r.masses[i], r.velocities_pre[i],
                         r.velocities_post[i]);
    s += fmt::format("\n{:>8} {:>14} {:>14} {:>14}\n", "contact", "gamma- [m/s]", "gamma+ [m/s]", "impulse [N s]");
    for (Eigen::Index k = 0; k < r.impulses.size(); ++k)
        s += fmt::format("{:>4}-{:<3} {:>14.6g} {:>14.6g} {:>14.6g}\n", k + 1, k + 2, r.gamma_pre[k],
                         r.gamma_post[k], r.impulses[k]);
    s += fmt::format("\nenergy: T- = {:.6g} J, T+ = {:.6g} J, T+/T- = {:.6g}\n", r.energy_pre, r.energy_post,
                     r.energy_ratio);
    s += fmt::format("consistency: kinematic (gamma+ >= 0) {}, kinetic (Lambda >= 0) {}, energetic (T+ <= T-) {}\n",
                     yes_no(r.consistency.kinematic), yes_no(r.consistency.kinetic),
                     yes_no(r.consistency.energetic));
    return s;
}

std::string format_table(const PropertyReport& r) {
    const auto& c = r.cyclically_monotone;
    std::vector<std::string> cycle;
    for (const Eigen::VectorXd& g : c.cycle) cycle.push_back(vec(g));
    std::string s = fmt::format("\nproperties (sampled, {} evaluations of the map):\n", r.evaluations);
    s += fmt::format("  {:<32} {:<4} largest ratio {:.9g} over {} pairs, at gamma- {} and {}\n",
                     "non-expansive in G^-1 metric", yes_no(r.non_expansive.holds), r.non_expansive.max_ratio,
                     r.non_expansive.pairs, vec(r.non_expansive.gamma_a), vec(r.non_expansive.gamma_b));
    s += fmt::format("  {:<32} {:<4} smallest -dLambda.dgamma_bar/|dgamma-|^2 {:.6g}\n",
                     "monotone H(gamma_bar) = -Lambda", yes_no(r.monotone.holds), r.monotone.min_value);
    s += fmt::format("  {:<32} {:<4} worst cycle value {:.6g} J (relative {:.6g}) over {} cycles: {}\n",
                     "cyclically monotone", yes_no(c.holds), c.worst_value, c.worst_relative, c.cycles,
                     fmt::join(cycle, " -> "));
    s += fmt::format("  {:<32} {:<4} largest relative deviation {:.3g}\n", "positively homogeneous",
                     yes_no(r.positively_homogeneous.holds), r.positively_homogeneous.max_deviation);
    s += fmt::format("  {:<32} {:<4} largest jump {:.3g} (relative) across {} located boundaries\n",
                     "continuous", yes_no(r.continuous.holds), r.continuous.max_jump, r.continuous.boundaries);
    return s;
}

}  // namespace rodcollide::laws
