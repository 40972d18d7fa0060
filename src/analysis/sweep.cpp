// The impact-map sweep (see sweep.hpp): directions solved in parallel, errors per cone, and the
// empirical cone map from secant matrices of the wave map.
#include "rodcollide/sweep.hpp"

#include "rodcollide/compare.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "analysis/parallel_for.hpp"
#include "analysis/wave_map.hpp"
#include "solvers/shared/rigid_bodies.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

namespace rodcollide {

namespace {

constexpr double degrees_per_radian = 180 / std::numbers::pi;

/// Angle of v in [0, 360) [deg].
double angle_of(const Eigen::Vector2d& v) {
    const double a = std::atan2(v[1], v[0]) * degrees_per_radian;
    return a < 0 ? a + 360 : a + 0.0;  // + 0.0: no -0
}

/// x reduced to [0, 360).
double wrap360(double x) {
    x = std::fmod(x, 360.0);
    return x < 0 ? x + 360 : x;
}

/// Signed difference a - b reduced to (-180, 180] [deg].
double angle_difference(double a, double b) {
    const double d = wrap360(a - b);
    return d > 180 ? d - 360 : d;
}

std::size_t cone_index(laws::Cone c) {
    return static_cast<std::size_t>(std::find(std::begin(laws::all_cones), std::end(laws::all_cones), c) -
                                    std::begin(laws::all_cones));
}

// ---- Solving the directions ------------------------------------------------------------------------

struct SweepWork {
    const Chain& chain;
    const SolverOptions& solver;
    const ImpactMatrices& im;
    const std::vector<laws::LawParameters>& laws;
    SweepResult& result;

    void solve_point(std::size_t j) const {
        SweepPoint& p = result.points[j];
        p.index = result.first + j;
        p.theta = 360.0 * static_cast<double>(p.index) / static_cast<double>(result.directions);
        p.gamma_pre = sweep_direction(p.index, result.directions);
        p.cone = laws::cone_of(p.gamma_pre);
        const Outcome o = wave_outcome_for(chain, p.gamma_pre, solver);
        const Eigen::VectorXd u_wave = o.final_velocities();
        p.gamma_post = contact_velocities(u_wave);
        p.events = o.stats.events;
        p.accuracy = o.accuracy;
        const Eigen::VectorXd u_pre = laws::velocities_with_contact_velocities(p.gamma_pre);
        for (std::size_t l = 0; l < laws.size(); ++l) {
            const laws::LawResult r = laws::apply_law(laws[l], im, u_pre);
            result.laws[l].gamma_post[j] = r.gamma_post;
            result.laws[l].error[j] = relative_distance(im.masses, u_pre, r.velocities_post, u_wave);
        }
    }
};

/// Solves every point of the result on `threads` threads, reporting progress from this thread.
void solve_points(const SweepWork& work, unsigned threads, const std::function<void(std::size_t, std::size_t)>& progress) {
    parallel_for(work.result.points.size(), threads, [&work](std::size_t j) { work.solve_point(j); }, progress);
}

void summarise_cones(SweepResult& r) {
    for (const SweepPoint& p : r.points) ++r.cone_directions[cone_index(p.cone)];
    for (SweepLaw& law : r.laws) {
        law.cone_max_error.fill(0);
        law.cone_worst_theta.fill(-1);
        for (std::size_t j = 0; j < r.points.size(); ++j) {
            const std::size_t c = cone_index(r.points[j].cone);
            if (law.cone_worst_theta[c] < 0 || law.error[j] > law.cone_max_error[c]) {
                law.cone_max_error[c] = law.error[j];
                law.cone_worst_theta[c] = r.points[j].theta;
            }
        }
    }
}

// ---- The empirical cone map -------------------------------------------------------------------------

/// J with J [g-_a g-_b] = [g+_a g+_b]: the wave map's matrix if both directions lie in one linear cone.
Eigen::Matrix2d secant_matrix(const SweepPoint& a, const SweepPoint& b) {
    Eigen::Matrix2d pre, post;
    pre << a.gamma_pre, b.gamma_pre;
    post << a.gamma_post, b.gamma_post;
    return post * pre.inverse();
}

/// The direction [deg] where two linear pieces A and B of a continuous map meet: the null line of
/// A - B (rank 1), the one of its two rays within [lo, hi] (unwrapped degrees); nullopt if A - B is
/// not of rank 1 to the tolerance or the ray is outside.
std::optional<double> meeting_direction(const Eigen::Matrix2d& A, const Eigen::Matrix2d& B, double lo, double hi,
                                        double tolerance) {
    const Eigen::JacobiSVD<Eigen::Matrix2d> svd(A - B, Eigen::ComputeFullV);
    const Eigen::Vector2d s = svd.singularValues();
    if (!(s[0] > 0) || s[1] > std::sqrt(tolerance) * s[0]) return std::nullopt;
    const Eigen::Vector2d v = svd.matrixV().col(1);
    const double slack = 1e-9 * std::max(1.0, hi - lo);
    for (const double ray : {angle_of(v), angle_of(-v)}) {
        // The representative of `ray` closest to the middle of the bracket.
        const double mid = 0.5 * (lo + hi);
        const double a = mid + angle_difference(ray, mid);
        if (a >= lo - slack && a <= hi + slack) return std::clamp(a, lo, hi);
    }
    return std::nullopt;
}

/// Fills the Winandy & Leine 2015 comparison of a finished cone.
void compare_with_seed(EmpiricalCone& c) {
    const double width = c.end - c.begin;
    c.begin = wrap360(c.begin);
    if (360 - c.begin < 1e-9) c.begin = 0;  // a boundary at 0 found as 360 - rounding
    c.end = c.begin + width;
    const double mid = (c.begin + 0.5 * width) / degrees_per_radian;
    c.seed_cone = laws::cone_of(Eigen::Vector2d(std::cos(mid), std::sin(mid)));
    const auto [b, e] = seed_cone_range(c.seed_cone);
    constexpr double same = 1e-6;  // [deg]
    c.seed_boundaries_match = std::abs(angle_difference(c.begin, b)) <= same && std::abs(angle_difference(c.end, e)) <= same;
    if (c.linear) c.seed_matrix_deviation = (c.matrix - laws::cone_matrix(c.seed_cone)).cwiseAbs().maxCoeff();
}

}  // namespace

// ---- Options ----------------------------------------------------------------------------------------

void validate_sweep_work(std::size_t directions, unsigned threads, const Shard& shard) {
    validate_sweep_work(directions, threads, shard, "directions", max_sweep_directions);
}

void validate_sweep_work(std::size_t count, unsigned threads, const Shard& shard, std::string_view count_key,
                         std::size_t largest) {
    input::require(count_key, input::integer_within(count, 1, largest));
    input::require("threads", input::integer_within(threads, 0, largest_sweep_threads));
    if (shard.index < 1 || shard.count < 1 || shard.index > shard.count || shard.count > count)
        throw InvalidInput("shard", fmt::format("k/n needs 1 <= k <= n <= {} ({}), got {}/{}", count_key, count,
                                                shard.index, shard.count));
}

void validate(const SweepOptions& o) {
    validate_sweep_work(o.directions, o.threads, o.shard);
    if (o.linear_tolerance)
        input::require("linear_tolerance", input::within(*o.linear_tolerance, {0, 1, true, true}));
    CompareOptions laws;
    laws.laws = o.laws;
    laws.restitution = o.restitution;
    validate(laws);
}

void check_sweep_chain(const Chain& chain) {
    require_free_ends(chain.ends(), "sweep");
    if (chain.compliant() && !rigid_bodies_only(chain))
        throw InvalidInput("rod", fmt::format("{} compares the rigid impact laws with rods whose contacts are rigid, or "
                                              "with chains of balls and masses alone; {}",
                                              "sweep", compliant_refusal("it")));
    if (rigid_bodies_only(chain)) {
        // The circle of directions is the whole map only if the map is positively homogeneous
        // (docs/physics.md §9.11): contacts k δ^p with one exponent p are; contacts of two exponents
        // are not (each would scale time its own way), nor is a dashpot c δ' beside k δ^p with p != 1.
        const double p = chain[1].contact_exponent;
        for (std::size_t i = 2; i < chain.size(); ++i)
            if (chain[i].contact_exponent != p)
                throw InvalidInput(fmt::format("rod[{}].contact_exponent", i),
                                   fmt::format("sweep takes balls and masses whose contacts share one exponent: {:g} "
                                               "here, {:g} at rod[1] (contacts of two exponents make the map "
                                               "gamma- -> gamma+ depend on |gamma-|, so no circle of directions is the "
                                               "whole map: docs/physics.md §9.11); use compare for this chain",
                                               chain[i].contact_exponent, p));
        for (std::size_t i = 1; i < chain.size(); ++i)
            if (chain[i].contact_damping > 0 && p != 1)
                throw InvalidInput(fmt::format("rod[{}].contact_damping", i),
                                   fmt::format("sweep takes balls and masses with power-law contacts: a dashpot "
                                               "(contact_damping = {:g}) beside k delta^{:g} makes the map gamma- -> gamma+ "
                                               "depend on |gamma-|, so no circle of directions is the whole map "
                                               "(docs/physics.md §9.11; only p = 1 keeps it); use compare for this chain",
                                               chain[i].contact_damping, p));
    }
    if (chain.size() != 3)
        throw InvalidInput("rods", fmt::format("a sweep needs exactly 3 rods (gamma- lives in the (gamma1, gamma2) "
                                               "plane); the case has {}",
                                               chain.size()));
}

std::pair<double, double> seed_cone_range(laws::Cone c) {
    const Eigen::Matrix2d span = laws::cone_matrix(c).inverse();
    const double a = angle_of(span.col(0)), b = angle_of(span.col(1));
    const double a_to_b = wrap360(b - a);
    return a_to_b < 180 ? std::pair(a, a + a_to_b) : std::pair(b, b + 360 - a_to_b);
}

std::pair<std::size_t, std::size_t> shard_range(std::size_t directions, const Shard& shard) {
    return {(shard.index - 1) * directions / shard.count, shard.index * directions / shard.count};
}

Eigen::Vector2d sweep_direction(std::size_t i, std::size_t directions) {
    if ((4 * i) % directions == 0) {  // quarter turns: exact axes, so cone boundaries are hit exactly
        switch ((4 * i / directions) % 4) {
            case 0: return {1, 0};
            case 1: return {0, 1};
            case 2: return {-1, 0};
            default: return {0, -1};
        }
    }
    const double theta = 2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(directions);
    return {std::cos(theta), std::sin(theta)};
}

// ---- The sweep --------------------------------------------------------------------------------------

SweepResult sweep(const std::string& title, const Chain& chain, const SweepOptions& options) {
    check_sweep_chain(chain);
    validate(options);
    SweepResult r;
    r.title = title;
    r.rigid_bodies = rigid_bodies_only(chain);
    for (std::size_t i = 0; i < 3; ++i) {
        const Rod& rod = chain[i];
        const auto k = static_cast<Eigen::Index>(i);
        r.masses[k] = rod.mass();
        r.lengths[k] = rod.length;
        r.impedances[k] = rod.impedance();
        r.transit_times[k] = rod.transit_time();
    }
    r.directions = options.directions;
    r.shard = options.shard;
    std::tie(r.first, r.last) = shard_range(options.directions, options.shard);
    r.method = options.solver.method;

    const std::size_t n = r.last - r.first;
    r.points.resize(n);
    std::vector<laws::LawParameters> law_parameters;
    for (const std::string& law : options.laws) {
        law_parameters.push_back(comparison_law_parameters(law, options.restitution));
        SweepLaw l;
        l.law = law;
        l.gamma_post.resize(n);
        l.error.resize(n);
        r.laws.push_back(std::move(l));
    }
    const ImpactMatrices im = impact_matrices(chain.masses());
    SolverOptions solver = options.solver;
    solver.progress = nullptr;  // not thread-safe; the sweep reports its own progress
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(options.threads ? options.threads : hardware, n));
    solve_points(SweepWork{chain, solver, im, law_parameters, r}, std::max(1u, threads), options.progress);

    summarise_cones(r);
    double accuracy = 0;
    for (const SweepPoint& p : r.points) accuracy = std::max(accuracy, p.accuracy);
    r.linear_tolerance = options.linear_tolerance.value_or(linear_tolerance_factor * accuracy);
    r.cone_map = empirical_cone_map(r.points, options.shard.count == 1, r.linear_tolerance);
    return r;
}

SweepResult merge_sweeps(std::vector<SweepResult> parts, std::optional<double> linear_tolerance) {
    if (parts.empty()) throw std::invalid_argument("merge_sweeps: no parts");
    SweepResult r = std::move(parts.front());
    const std::size_t n = r.shard.count;
    if (parts.size() != n || r.shard.index != 1) throw std::invalid_argument("merge_sweeps: not shards 1..n in order");
    for (std::size_t k = 1; k < n; ++k) {
        SweepResult& p = parts[k];
        if (p.shard.index != k + 1 || p.shard.count != n || p.directions != r.directions || p.laws.size() != r.laws.size() ||
            p.first != r.last)
            throw std::invalid_argument("merge_sweeps: not shards 1..n of one sweep, in order");
        r.points.insert(r.points.end(), p.points.begin(), p.points.end());
        for (std::size_t l = 0; l < r.laws.size(); ++l) {
            r.laws[l].gamma_post.insert(r.laws[l].gamma_post.end(), p.laws[l].gamma_post.begin(), p.laws[l].gamma_post.end());
            r.laws[l].error.insert(r.laws[l].error.end(), p.laws[l].error.begin(), p.laws[l].error.end());
        }
        r.last = p.last;
    }
    r.shard = Shard{};
    std::fill(std::begin(r.cone_directions), std::end(r.cone_directions), 0);
    summarise_cones(r);
    double accuracy = 0;
    for (const SweepPoint& p : r.points) accuracy = std::max(accuracy, p.accuracy);
    r.linear_tolerance = linear_tolerance.value_or(linear_tolerance_factor * accuracy);
    r.cone_map = empirical_cone_map(r.points, true, r.linear_tolerance);
    return r;
}

std::vector<EmpiricalCone> empirical_cone_map(const std::vector<SweepPoint>& p, bool closed, double tolerance) {
    const std::size_t n = p.size();
    if (n < 3) return {};
    const std::size_t secants = closed ? n : n - 1;
    std::vector<Eigen::Matrix2d> J(secants);
    for (std::size_t j = 0; j < secants; ++j) J[j] = secant_matrix(p[j], p[(j + 1) % n]);
    auto same = [&](std::size_t a, std::size_t b) {
        const double scale = std::max({1.0, J[a].cwiseAbs().maxCoeff(), J[b].cwiseAbs().maxCoeff()});
        return (J[a] - J[b]).cwiseAbs().maxCoeff() <= tolerance * scale;
    };
    // Secant position k joins the points at positions k and k+1, position k being point
    // (start + k) % n. On a closed circle start at a change of matrix, so that no cone is cut in two.
    std::size_t start = 0;
    if (closed) {
        while (start < secants && same((start + secants - 1) % secants, start)) ++start;
        if (start == secants) {  // one linear map all around
            EmpiricalCone c;
            c.begin = p[0].theta;
            c.end = c.begin + 360;
            c.matrix = J[0];
            c.directions = n;
            compare_with_seed(c);
            return {c};
        }
    }
    const double spacing = closed ? 360.0 / static_cast<double>(n) : p[1].theta - p[0].theta;  // [deg]
    auto angle_at = [&](std::size_t k) { return p[start].theta + static_cast<double>(k) * spacing; };
    auto secant = [&](std::size_t k) { return (start + k) % secants; };

    // Linear runs: at least two consecutive secants with one matrix (three directions).
    struct Run {
        std::size_t begin, end;  // secant positions [begin, end), so points begin..end
        Eigen::Matrix2d matrix;
    };
    std::vector<Run> runs;
    for (std::size_t k = 0; k < secants;) {
        std::size_t e = k + 1;
        Eigen::Matrix2d sum = J[secant(k)];
        while (e < secants && same(secant(k), secant(e))) sum += J[secant(e++)];
        if (e - k >= 2) runs.push_back({k, e, sum / static_cast<double>(e - k)});
        k = e;
    }

    std::vector<EmpiricalCone> cones;
    auto stretch = [&](std::size_t from, std::size_t to) {  // not linear at this resolution
        EmpiricalCone c;
        c.linear = false;
        c.begin = angle_at(from);
        c.end = angle_at(to);
        c.directions = to - from + 1;
        return c;
    };
    if (runs.empty()) {
        cones.push_back(stretch(0, secants));
    } else {
        if (!closed && runs.front().begin > 0) cones.push_back(stretch(0, runs.front().begin));
        std::size_t first_run_cone = cones.size();
        std::optional<std::pair<double, bool>> pending_begin;  // located boundary for the next run
        for (std::size_t r = 0; r < runs.size(); ++r) {
            EmpiricalCone c;
            c.begin = angle_at(runs[r].begin);
            c.end = angle_at(runs[r].end);
            c.matrix = runs[r].matrix;
            c.directions = runs[r].end - runs[r].begin + 1;
            if (pending_begin) std::tie(c.begin, c.begin_located) = *std::exchange(pending_begin, std::nullopt);
            cones.push_back(c);
            // The boundary with the next run (on a closed circle, the last run meets the first).
            const bool wraps = r + 1 == runs.size();
            if (wraps && !closed) break;
            const Run& b = wraps ? runs.front() : runs[r + 1];
            const std::size_t b_begin = b.begin + (wraps ? secants : 0);
            const std::size_t gap = b_begin - runs[r].end;  // straddling secants
            std::optional<double> meet;
            if (gap <= 1) {
                // gap 0: the boundary is a swept direction; gap 1: inside the one straddling secant.
                const double lo = angle_at(runs[r].end) - (gap == 0 ? spacing : 0);
                const double hi = angle_at(b_begin) + (gap == 0 ? spacing : 0);
                meet = meeting_direction(runs[r].matrix, b.matrix, lo, hi, tolerance);
            }
            if (meet || gap == 0) {
                const double boundary = meet ? *meet : angle_at(runs[r].end);
                cones.back().end = boundary;
                cones.back().end_located = meet.has_value();
                // The next run's cone begins there (the first one, shifted a turn, when wrapping).
                if (wraps) {
                    cones[first_run_cone].begin = boundary - 360;
                    cones[first_run_cone].begin_located = meet.has_value();
                } else {
                    pending_begin = std::pair(boundary, meet.has_value());
                }
            } else {
                cones.push_back(stretch(runs[r].end, b_begin));
            }
        }
        if (!closed && runs.back().end < secants) cones.push_back(stretch(runs.back().end, secants));
    }
    for (EmpiricalCone& c : cones) compare_with_seed(c);
    std::sort(cones.begin(), cones.end(), [](const EmpiricalCone& a, const EmpiricalCone& b) { return a.begin < b.begin; });
    return cones;
}

}  // namespace rodcollide
