// CSV, table and JSON output of a sweep (see sweep.hpp).
#include "rodcollide/sweep.hpp"
#include "analysis/chain_description.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <iterator>

namespace rodcollide {

namespace {

using json = nlohmann::ordered_json;

std::string matrix_text(const Eigen::Matrix2d& m) {
    auto entry = [](double x) { return std::abs(x) < 5e-13 ? 0.0 : x; };  // no "-1.2e-16" noise
    return fmt::format("[{:.6g}, {:.6g}; {:.6g}, {:.6g}]", entry(m(0, 0)), entry(m(0, 1)), entry(m(1, 0)),
                       entry(m(1, 1)));
}

std::string range_text(double begin, double end, bool begin_located = true, bool end_located = true) {
    // Shown to 1e-9 deg, far below the located boundaries' rounding: no "5.7e-13" for 0.
    auto shown = [](double x) { return std::round((x > 360 + 1e-9 ? x - 360 : x) * 1e9) / 1e9 + 0.0; };
    return fmt::format("[{}{:.6g}, {}{:.6g}]", begin_located ? "" : "~", shown(begin), end_located ? "" : "~", shown(end));
}

std::vector<double> list(const Eigen::Vector3d& v) { return {v[0], v[1], v[2]}; }

json matrix_json(const Eigen::Matrix2d& m) { return json::array({{m(0, 0), m(0, 1)}, {m(1, 0), m(1, 1)}}); }

}  // namespace

std::string sweep_csv(const SweepResult& r) {
    std::string s;
    auto out = std::back_inserter(s);
    if (r.shard.index == 1) {
        fmt::format_to(out, "index,theta_deg,gamma1_pre,gamma2_pre,gamma1_wave,gamma2_wave,cone,events");
        for (const SweepLaw& l : r.laws) fmt::format_to(out, ",{0}_gamma1,{0}_gamma2,{0}_error", l.law);
        fmt::format_to(out, "\n");
    }
    for (std::size_t j = 0; j < r.points.size(); ++j) {
        const SweepPoint& p = r.points[j];
        fmt::format_to(out, "{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{},{}", p.index, p.theta, p.gamma_pre[0],
                       p.gamma_pre[1], p.gamma_post[0], p.gamma_post[1], laws::cone_name(p.cone), p.events);
        for (const SweepLaw& l : r.laws)
            fmt::format_to(out, ",{:.17g},{:.17g},{:.17g}", l.gamma_post[j][0], l.gamma_post[j][1], l.error[j]);
        fmt::format_to(out, "\n");
    }
    return s;
}

std::string sweep_table(const SweepResult& r) {
    std::string s;
    auto out = std::back_inserter(s);
    // Balls and masses: the map is their compliant contacts' (named so, as compare does); rods: as it was.
    fmt::format_to(out, "{}: {} directions of gamma- = (cos theta, sin theta) [{}: {}]", r.title, r.directions,
                   r.rigid_bodies ? "compliant contacts" : "wave", to_string(r.method));
    if (r.shard.count > 1)
        fmt::format_to(out, ", shard {}/{}: directions {}..{}", r.shard.index, r.shard.count, r.first, r.last - 1);
    if (r.rigid_bodies)
        fmt::format_to(out, "\nbodies (touching, power-law contacts: the map is their compliant outcome's): masses ({:.6g}) kg\n",
                       fmt::join(list(r.masses), ", "));
    else
        fmt::format_to(out, "\nrods (touching): lengths ({:.6g}) m, masses ({:.6g}) kg, impedances ({:.6g}) N s/m, "
                            "transit times ({:.6g}) s\n",
                       fmt::join(list(r.lengths), ", "), fmt::join(list(r.masses), ", "),
                       fmt::join(list(r.impedances), ", "), fmt::join(list(r.transit_times), ", "));

    fmt::format_to(out, "\nlargest error per cone of gamma- (Winandy & Leine 2015 Fig. 4a), "
                        "error = ||gamma+_law - gamma+_wave||_G^-1 / ||gamma-||_G^-1:\n");
    fmt::format_to(out, "{:<5} {:<12} {:>10}", "cone", "range [deg]", "directions");
    for (const SweepLaw& l : r.laws) fmt::format_to(out, "  {:>12} {:>8}", l.law, "at [deg]");
    fmt::format_to(out, "\n");
    for (std::size_t c = 0; c < 6; ++c) {
        const auto [b, e] = seed_cone_range(laws::all_cones[c]);
        fmt::format_to(out, "{:<5} {:<12} {:>10}", laws::cone_name(laws::all_cones[c]), range_text(b, e),
                       r.cone_directions[c]);
        for (const SweepLaw& l : r.laws) {
            if (l.cone_worst_theta[c] < 0)
                fmt::format_to(out, "  {:>12} {:>8}", "-", "-");
            else
                fmt::format_to(out, "  {:>12.3e} {:>8.6g}", l.cone_max_error[c], l.cone_worst_theta[c]);
        }
        fmt::format_to(out, "\n");
    }

    fmt::format_to(out, "\nempirical cone map: the wave map is linear, gamma+ = J gamma-, on each range "
                        "(secant matrices equal to {:.0e});\n~ marks a boundary known only to the nearest direction\n",
                   r.linear_tolerance);
    if (r.cone_map.empty()) fmt::format_to(out, "  (needs at least 3 directions)\n");
    fmt::format_to(out, "{:<26} {:>10}  {:<36} {:<22} {}\n", "range [deg]", "directions", "J", "Winandy & Leine cone",
                   "max |J - Q|");
    for (const EmpiricalCone& c : r.cone_map) {
        const std::string seed = fmt::format("{} {}", laws::cone_name(c.seed_cone),
                                             c.seed_boundaries_match ? "(same range)" : "(range differs)");
        if (c.linear)
            fmt::format_to(out, "{:<26} {:>10}  {:<36} {:<22} {:.3e}\n",
                           range_text(c.begin, c.end, c.begin_located, c.end_located), c.directions,
                           matrix_text(c.matrix), seed, c.seed_matrix_deviation);
        else
            fmt::format_to(out, "{:<26} {:>10}  {:<36} {:<22} -\n", range_text(c.begin, c.end, false, false),
                           c.directions, "not linear at this resolution", seed);
    }
    return s;
}

json sweep_json(const SweepResult& r) {
    json laws_json = json::array();
    for (const SweepLaw& l : r.laws) {
        json cones = json::array();
        for (std::size_t c = 0; c < 6; ++c) {
            const auto [b, e] = seed_cone_range(laws::all_cones[c]);
            const bool any = l.cone_worst_theta[c] >= 0;
            cones.push_back({{"cone", laws::cone_name(laws::all_cones[c])},
                             {"range", {b, e}},
                             {"directions", r.cone_directions[c]},
                             {"max_error", any ? json(l.cone_max_error[c]) : json()},
                             {"at_theta", any ? json(l.cone_worst_theta[c]) : json()}});
        }
        laws_json.push_back({{"law", l.law}, {"cones", cones}});
    }
    json map = json::array();
    for (const EmpiricalCone& c : r.cone_map)
        map.push_back({{"begin", c.begin},
                       {"end", c.end},
                       {"begin_located", c.begin_located},
                       {"end_located", c.end_located},
                       {"linear", c.linear},
                       {"matrix", c.linear ? matrix_json(c.matrix) : json()},
                       {"directions", c.directions},
                       {"seed_cone", laws::cone_name(c.seed_cone)},
                       {"seed_boundaries_match", c.seed_boundaries_match},
                       {"seed_matrix_deviation", c.linear ? json(c.seed_matrix_deviation) : json()}});
    return {{"title", r.title},
            {"method", to_string(r.method)},
            {"rods", rods_json(r.lengths, r.masses, r.impedances, r.transit_times)},
            {"directions", r.directions},
            {"shard", {r.shard.index, r.shard.count}},
            {"first", r.first},
            {"last", r.last},
            {"linear_tolerance", r.linear_tolerance},
            {"laws", laws_json},
            {"cone_map", map},
            {"outcome_model", r.rigid_bodies ? "compliant contacts" : "waves"}};
}

}  // namespace rodcollide
