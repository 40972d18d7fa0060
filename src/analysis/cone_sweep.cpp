// The cone sweep of n >= 3 touching bodies (see cone_sweep.hpp): directions, the solves in
// parallel, the wave map's and the sequential law's cones, their comparison, the measured
// properties and the identified law.
#include "rodcollide/cone_sweep.hpp"

#include "rodcollide/compare.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/sequential.hpp"
#include "analysis/cone_facets.hpp"
#include "analysis/parallel_for.hpp"
#include "analysis/sphere_directions.hpp"
#include "analysis/wave_map.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

namespace rodcollide {

namespace {

/// gamma scaled to ||gamma||_{G^-1} = 1.
Eigen::VectorXd unit_in_metric(const Eigen::VectorXd& gamma, const Eigen::MatrixXd& G_inverse) {
    return gamma / std::sqrt(gamma.dot(G_inverse * gamma));
}

/// The rays of the equal-mass sequential law's cones (the braid arrangement u_i = u_j): the
/// velocities take two values, u in {0, 1}^n not constant, gamma = W^T u. They include the
/// coordinate directions (u = 0..0 1..1 and its complement), which come first.
std::vector<Eigen::VectorXd> boundary_rays(Eigen::Index n) {
    std::vector<Eigen::VectorXd> coordinate, other;
    const std::uint64_t patterns = std::uint64_t{1} << n;
    for (std::uint64_t p = 1; p + 1 < patterns; ++p) {
        Eigen::VectorXd u(n);
        for (Eigen::Index i = 0; i < n; ++i) u[i] = static_cast<double>((p >> i) & 1);
        const Eigen::VectorXd gamma = contact_velocities(u);
        const bool axis = (gamma.array() != 0).count() == 1;
        (axis ? coordinate : other).push_back(gamma);
    }
    coordinate.insert(coordinate.end(), other.begin(), other.end());
    return coordinate;
}

std::string sequence_text(const std::vector<Eigen::Index>& sequence) {
    std::vector<Eigen::Index> from_one;
    for (Eigen::Index k : sequence) from_one.push_back(k + 1);
    return from_one.empty() ? "-" : fmt::format("{}", fmt::join(from_one, ","));
}

}  // namespace

void validate(const ConeSweepOptions& o) {
    validate_sweep_work(o.directions, o.threads, o.shard);
    input::require("linear_tolerance", input::within(o.tolerance, {0, 1, true, true}));
    CompareOptions laws;
    laws.laws = o.laws;
    laws.restitution = o.restitution;
    validate(laws);
}

void check_cone_sweep_chain(const Chain& chain) {
    require_free_ends(chain.ends(), "sweep");
    if (chain.compliant())
        throw InvalidInput("rod", fmt::format("the cone sweep (four rods and more, and --export-law) identifies the "
                                              "cone-wise linear map of rods with rigid contacts; {}",
                                              compliant_refusal("it")));
    if (chain.size() < 3 || chain.size() > max_cone_sweep_rods)
        throw InvalidInput("rods", fmt::format("a sweep needs 3 to {} rods (gamma- lives on the sphere S^(n-2)); the "
                                               "case has {}",
                                               max_cone_sweep_rods, chain.size()));
}

std::vector<Eigen::VectorXd> cone_sweep_directions(const Chain& chain, const ConeSweepOptions& options) {
    const ImpactMatrices im = impact_matrices(chain.masses());
    const auto d = static_cast<Eigen::Index>(chain.size() - 1);
    const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(im.G).matrixL();  // G = L L^T
    const Eigen::MatrixXd G_inverse = im.G.inverse();
    std::vector<Eigen::VectorXd> out;
    out.reserve(options.directions);
    // x uniform on the Euclidean sphere -> gamma = L x uniform on the G^-1 sphere (gamma^T G^-1 gamma = |x|^2).
    for (std::size_t i = 0; i < options.directions; ++i)
        out.push_back(L * sphere::direction(i, options.directions, d, options.seed));
    if (options.boundary_rays)
        for (const Eigen::VectorXd& r : boundary_rays(d + 1)) out.push_back(unit_in_metric(r, G_inverse));
    return out;
}

namespace {

/// The wave solver's options for one direction of a cone sweep (its event cap, no progress).
SolverOptions direction_solver(const ConeSweepOptions& options) {
    SolverOptions solver = options.solver;
    solver.progress = nullptr;
    solver.max_events = std::min(solver.max_events, cone_sweep_max_events);
    return solver;
}

/// Shards 1..n of one sweep, in order, as one solve of all its directions (a single part, whatever
/// its shard, stays as it is).
ConeSweepSolves joined(std::vector<ConeSweepSolves> parts) {
    if (parts.empty()) throw std::invalid_argument("join_cone_sweep: no shards");
    for (const ConeSweepSolves& p : parts)
        if (p.last < p.first || p.last - p.first != p.points.size() || p.sequential_post.size() != p.points.size() ||
            p.sequential_signatures.size() != p.points.size() || p.consistency.size() != p.points.size())
            throw std::invalid_argument("join_cone_sweep: a shard's solves do not match its directions");
    if (parts.size() == 1) return std::move(parts.front());
    const std::size_t count = parts.size();
    ConeSweepSolves all;
    all.shard = Shard{};
    for (std::size_t k = 0; k < count; ++k) {
        ConeSweepSolves& p = parts[k];
        if (p.shard.index != k + 1 || p.shard.count != count || p.first != all.last)
            throw std::invalid_argument("join_cone_sweep: not shards 1..n of one sweep, in order");
        all.last = p.last;
        std::move(p.points.begin(), p.points.end(), std::back_inserter(all.points));
        std::move(p.sequential_post.begin(), p.sequential_post.end(), std::back_inserter(all.sequential_post));
        std::move(p.sequential_signatures.begin(), p.sequential_signatures.end(), std::back_inserter(all.sequential_signatures));
        all.consistency.insert(all.consistency.end(), p.consistency.begin(), p.consistency.end());
    }
    return all;
}

}  // namespace

ConeSweepSolves solve_cone_sweep_shard(const Chain& chain, const ConeSweepOptions& options) {
    check_cone_sweep_chain(chain);
    validate(options);
    const std::vector<Eigen::VectorXd> all = cone_sweep_directions(chain, options);
    ConeSweepSolves s;
    s.shard = options.shard;
    std::tie(s.first, s.last) = shard_range(all.size(), options.shard);

    const ImpactMatrices im = impact_matrices(chain.masses());
    std::vector<laws::LawParameters> law_parameters;
    for (const std::string& law : options.laws) law_parameters.push_back(comparison_law_parameters(law, options.restitution));
    const SolverOptions solver = direction_solver(options);
    const double time_unit = chain.shortest_transit_time();
    Eigen::VectorXd transit_times(static_cast<Eigen::Index>(chain.size()));
    for (std::size_t i = 0; i < chain.size(); ++i) transit_times[static_cast<Eigen::Index>(i)] = chain[i].transit_time();
    const std::optional<double> unit = commensurate_unit(transit_times);

    const std::size_t n = s.last - s.first;
    s.points.resize(n);
    s.sequential_post.resize(n);
    s.sequential_signatures.resize(n);
    s.consistency.resize(n);
    auto solve_point = [&](std::size_t j) {
        ConeSweepPoint& p = s.points[j];
        p.index = s.first + j;
        p.ray = p.index >= options.directions;
        p.gamma_pre = all[p.index];
        const Eigen::VectorXd u_pre = laws::velocities_with_contact_velocities(p.gamma_pre);
        const laws::LawResult seq = laws::sequential_impacts(im, u_pre);
        s.sequential_post[j] = seq.gamma_post;
        s.sequential_signatures[j] = sequence_text(seq.sequential->sequence);
        Outcome o;
        try {
            o = wave_outcome_for(chain, p.gamma_pre, solver);
        } catch (const SolverLimitExceeded&) {
            p.unsettled = true;
            p.signature = "unsettled";
            const double nan = std::numeric_limits<double>::quiet_NaN();
            p.gamma_post = Eigen::VectorXd::Constant(p.gamma_pre.size(), nan);
            for (const laws::LawParameters& lp : law_parameters) {
                p.law_post.push_back(laws::apply_law(lp, im, u_pre).gamma_post);
                p.law_error.push_back(nan);
            }
            return;
        }
        const Eigen::VectorXd u_wave = o.final_velocities();
        p.gamma_post = contact_velocities(u_wave);
        p.signature = impact_signature(o.contact_events, time_unit, p.recontact);
        p.fixed_times = fixed_event_times(o.contact_events, unit);
        p.events = o.stats.events;
        p.accuracy = o.accuracy;
        // The laws module's consistency flags, to the wave outcome's accuracy (as compare does).
        s.consistency[j] = laws::make_law_result("wave", im, u_pre, u_wave, o.impulses(),
                                                 std::max(o.accuracy, laws::consistency_tolerance))
                               .consistency;
        for (const laws::LawParameters& lp : law_parameters) {
            const laws::LawResult lr = laws::apply_law(lp, im, u_pre);
            p.law_post.push_back(lr.gamma_post);
            p.law_error.push_back(relative_distance(im.masses, u_pre, lr.velocities_post, u_wave));
        }
    };
    parallel_for(n, worker_threads(options.threads, n), solve_point, options.progress);
    return s;
}

ConeSweepResult cone_sweep(const std::string& title, const Chain& chain, const ConeSweepOptions& options) {
    return join_cone_sweep(title, chain, options, {solve_cone_sweep_shard(chain, options)});
}

ConeSweepResult join_cone_sweep(const std::string& title, const Chain& chain, const ConeSweepOptions& options,
                                std::vector<ConeSweepSolves> shards) {
    check_cone_sweep_chain(chain);
    validate(options);
    ConeSweepSolves solves = joined(std::move(shards));
    ConeSweepResult r;
    r.title = title;
    r.bodies = chain.size();
    const auto nb = static_cast<Eigen::Index>(r.bodies);
    r.masses.resize(nb);
    r.lengths.resize(nb);
    r.impedances.resize(nb);
    r.transit_times.resize(nb);
    for (std::size_t i = 0; i < r.bodies; ++i) {
        const auto k = static_cast<Eigen::Index>(i);
        r.masses[k] = chain[i].mass();
        r.lengths[k] = chain[i].length;
        r.impedances[k] = chain[i].impedance();
        r.transit_times[k] = chain[i].transit_time();
    }
    r.seed = options.seed;
    r.method = options.solver.method;
    r.tolerance = options.tolerance;
    r.laws = options.laws;
    r.directions = options.directions;
    r.rays = options.boundary_rays ? boundary_rays(nb).size() : 0;
    r.shard = solves.shard;
    if (r.shard.index < 1 || r.shard.index > r.shard.count ||
        std::make_pair(solves.first, solves.last) != shard_range(r.directions + r.rays, r.shard))
        throw std::invalid_argument("join_cone_sweep: the shards' directions are not those of these options");
    for (std::size_t j = 0; j < solves.points.size(); ++j) {
        const ConeSweepPoint& p = solves.points[j];
        if (p.index != solves.first + j || p.gamma_pre.size() != nb - 1 || p.gamma_post.size() != nb - 1 ||
            p.law_post.size() != r.laws.size() || p.law_error.size() != r.laws.size())
            throw std::invalid_argument("join_cone_sweep: the shards' solves are not of this chain and these laws");
    }
    std::tie(r.first, r.last) = std::make_pair(solves.first, solves.last);
    r.points = std::move(solves.points);
    const std::vector<Eigen::VectorXd>& seq_post = solves.sequential_post;
    const std::vector<std::string>& seq_signature = solves.sequential_signatures;

    const ImpactMatrices im = impact_matrices(chain.masses());
    const SolverOptions solver = direction_solver(options);
    const double time_unit = chain.shortest_transit_time();
    const std::size_t n = r.points.size();

    r.law_max_error.assign(r.laws.size(), 0);
    for (const ConeSweepPoint& p : r.points)
        for (std::size_t l = 0; l < r.laws.size(); ++l)
            if (!p.unsettled) r.law_max_error[l] = std::max(r.law_max_error[l], p.law_error[l]);
    for (const laws::Consistency& c : solves.consistency) {
        r.properties.energetic_violations += !c.energetic;
        r.properties.kinematic_violations += !c.kinematic;
        r.properties.kinetic_violations += !c.kinetic;
    }

    // The cones of the wave map and of the sequential law, identified the same way.
    // Unsettled directions have no gamma+: they enter as gamma- = 0, which identification skips.
    std::vector<Eigen::VectorXd> pre(n), post(n);
    std::vector<std::string> signature(n);
    for (std::size_t j = 0; j < n; ++j) {
        const ConeSweepPoint& p = r.points[j];
        r.unsettled_directions += p.unsettled;
        pre[j] = p.unsettled ? Eigen::VectorXd::Zero(p.gamma_pre.size()) : p.gamma_pre;
        post[j] = p.unsettled ? Eigen::VectorXd::Zero(p.gamma_pre.size()) : p.gamma_post;
        signature[j] = p.signature;
    }
    std::vector<std::ptrdiff_t> wave_cone, seq_cone;
    std::vector<char> wave_boundary, seq_boundary;
    r.cone_map = identify_cones(pre, post, signature, im.G, options.tolerance, wave_cone, wave_boundary, r.merged_cones);
    r.sequential_cones = identify_cones(pre, seq_post, seq_signature, im.G, options.tolerance, seq_cone, seq_boundary,
                                        r.sequential_merged);
    for (std::size_t s = 0; s < r.sequential_cones.size(); ++s) {
        IdentifiedCone& c = r.sequential_cones[s];
        c.label = c.signatures.front();
        for (const std::string& sig : c.signatures)
            if (std::count(sig.begin(), sig.end(), ',') < std::count(c.label.begin(), c.label.end(), ',')) c.label = sig;
    }
    // Interior directions only: a boundary direction belongs to every cone that meets there, and
    // each identification puts it into one of them.
    for (std::size_t j = 0; j < n; ++j) {
        r.points[j].cone = wave_cone[j];
        r.points[j].sequential_cone = seq_cone[j];
        if (wave_cone[j] < 0) ++r.non_linear_directions;
    }
    for (std::size_t c = 0; c < r.cone_map.size(); ++c) {
        IdentifiedCone& cone = r.cone_map[c];
        if (!cone.linear) continue;
        // Evidence: its directions interior to both maps' cones. Each added ray (a coordinate
        // direction or a ray of the equal-mass law's cones) lies on boundaries of the sequential
        // law's cones, even where both identifications found a full-dimensional signature, and so
        // may be put into any cone that meets there: it is no evidence.
        std::set<std::ptrdiff_t> seen;
        for (std::size_t j = 0; j < n; ++j)
            if (wave_cone[j] == static_cast<std::ptrdiff_t>(c) && !wave_boundary[j] && !seq_boundary[j] && !r.points[j].ray)
                seen.insert(seq_cone[j]);
        // A cone whose directions are nearly all such rays (five identical rods: 25 of 29) has too
        // little evidence; it is paired with the one sequential cone that has its matrix, if any.
        if (seen.empty()) {
            std::vector<std::ptrdiff_t> same_matrix;
            for (std::size_t s = 0; s < r.sequential_cones.size(); ++s) {
                const IdentifiedCone& q = r.sequential_cones[s];
                const double scale = std::max({1.0, q.matrix.cwiseAbs().maxCoeff(), cone.matrix.cwiseAbs().maxCoeff()});
                if (q.linear && (q.matrix - cone.matrix).cwiseAbs().maxCoeff() <= 1e3 * options.tolerance * scale)
                    same_matrix.push_back(static_cast<std::ptrdiff_t>(s));
            }
            if (same_matrix.size() == 1) seen.insert(same_matrix.front());
        }
        if (seen.size() == 1 && *seen.begin() >= 0) {
            const auto s = static_cast<std::size_t>(*seen.begin());
            cone.sequential_cone = *seen.begin();
            // Same directions: no direction interior to both maps' cones is in one of the two and not the other.
            bool same = true;
            for (std::size_t j = 0; j < n && same; ++j)
                if (!wave_boundary[j] && !seq_boundary[j] && !r.points[j].ray)
                    same = (wave_cone[j] == static_cast<std::ptrdiff_t>(c)) == (seq_cone[j] == *seen.begin());
            cone.sequential_same_directions = same;
            cone.sequential_matrix_deviation = (cone.matrix - r.sequential_cones[s].matrix).cwiseAbs().maxCoeff();
        }
        const Eigen::VectorXd D = im.G.diagonal().cwiseSqrt();
        cone.restitution_matrix = -(D.cwiseInverse().asDiagonal() * cone.matrix * D.asDiagonal());
        if (r.bodies == 3) cone.seed_cone = laws::cone_of(Eigen::Vector2d(cone.representative));
        r.properties.largest_cone_norm = std::max(r.properties.largest_cone_norm, cone.norm);
    }

    // Exact facets: those between linear cones come from their matrices; the others (next to a
    // region where the map is not linear, or a cone too thin to be sampled) are located with the
    // wave solver, by bisection between a cone's directions and any swept direction of another
    // matrix its facets hold (unsettled directions included).
    {
        std::vector<Eigen::VectorXd> swept_pre(n), swept_post(n);
        for (std::size_t j = 0; j < n; ++j) {
            swept_pre[j] = r.points[j].gamma_pre;
            swept_post[j] = r.points[j].gamma_post;
        }
        std::vector<std::size_t> events(n);
        std::vector<char> fixed(n);
        for (std::size_t j = 0; j < n; ++j) {
            events[j] = r.points[j].events;
            fixed[j] = r.points[j].fixed_times;
        }
        const WaveOracle oracle = [&chain, &solver, time_unit](const Eigen::VectorXd& g,
                                                               std::size_t max_events) -> std::optional<WaveSample> {
            SolverOptions capped = solver;
            capped.max_events = std::min(capped.max_events, max_events);
            try {
                const Outcome o = wave_outcome_for(chain, g, capped);
                bool recontact = false;
                return WaveSample{impact_signature(o.contact_events, time_unit, recontact),
                                  contact_velocities(o.final_velocities())};
            } catch (const SolverLimitExceeded&) {
                return std::nullopt;
            }
        };
        std::vector<char> exact;
        const FacetRefinement fr = refine_facets(r.cone_map, swept_pre, swept_post, signature, events, fixed, wave_cone, im.G,
                                                 options.tolerance, oracle, options.threads, exact);
        r.facet_solves = fr.solves;
            r.bisected_facets = fr.facets_added;
        r.inexact_cones = fr.inexact;
    }

    // The identified law: the linear cones whose facets are exact.
    r.law.bodies = r.bodies;
    r.law.masses = r.masses;
    r.law.chain = {{"title", title},
                   {"masses", std::vector<double>(r.masses.data(), r.masses.data() + nb)},
                   {"lengths", std::vector<double>(r.lengths.data(), r.lengths.data() + nb)},
                   {"impedances", std::vector<double>(r.impedances.data(), r.impedances.data() + nb)},
                   {"transit_times", std::vector<double>(r.transit_times.data(), r.transit_times.data() + nb)},
                   {"directions", r.directions},
                   {"rays", r.rays},
                   {"shard", {r.shard.index, r.shard.count}},
                   {"seed", r.seed}};
    for (std::size_t c = 0; c < r.cone_map.size(); ++c) {
        const IdentifiedCone& cone = r.cone_map[c];
        if (!cone.linear || !cone.facets_exact) continue;
        r.law.cones.push_back({cone.matrix, cone.facets, cone.rays, cone.directions});
        r.law_cone_of.push_back(c);
    }
    for (std::size_t j = 0; j < n; ++j)
        if (wave_cone[j] < 0 || !r.cone_map[static_cast<std::size_t>(wave_cone[j])].facets_exact)
            r.law.non_linear_directions.push_back(r.points[j].gamma_pre);
    // The law checked at every swept direction.
    for (std::size_t j = 0; j < n; ++j) {
        if (r.points[j].unsettled) continue;
        const std::optional<Eigen::VectorXd> g = laws::apply_identified(r.law, pre[j]);
        if (!g) continue;
        ++r.law_answered;
        if (wave_cone[j] < 0) ++r.law_in_non_linear;
        r.identified_max_error = std::max(r.identified_max_error, (*g - post[j]).lpNorm<Eigen::Infinity>() / pre[j].lpNorm<Eigen::Infinity>());
    }

    // Sampled properties of the identified map (the law; the wave solver where it has no answer).
    if (options.properties && r.shard.count == 1) {
        const laws::ContactMap wave = wave_contact_map(chain, solver);
        const laws::IdentifiedLaw& law = r.law;
        const laws::ContactMap map = [&law, wave](const Eigen::VectorXd& g) -> Eigen::VectorXd {
            if (std::optional<Eigen::VectorXd> v = laws::apply_identified(law, g)) return *v;
            return wave(g);
        };
        laws::PropertyOptions po = wave_map_property_options();
        // Its points are drawn in the law's cones (where it has no answer at all, nothing is drawn there).
        if (!law.cones.empty()) po.domain = [&law](const Eigen::VectorXd& g) { return laws::apply_identified(law, g).has_value(); };
        try {
            r.properties.sampled = laws::check_properties(map, im, po);
            r.properties.sampled_done = true;
        } catch (const SolverLimitExceeded&) {
            r.properties.sampled_note = fmt::format("not measured: a sampled point outside the law's cones did not settle "
                                                    "within {} event groups", solver.max_events);
        }
    }
    return r;
}

}  // namespace rodcollide
