// Sampled structural checks of an impact map (Leine & Baumann 2014 Thm 1; Winandy & Leine 2015 §5,
// eqs 18, 37, 45-49), for any law or a black-box map such as a wave solver's outcome.
#include "rodcollide/laws/properties.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace rodcollide::laws {

namespace {

// One evaluated point: gamma-, gamma+, gamma_bar and Lambda (Winandy & Leine 2015 eqs 5-6).
struct Sample {
    Eigen::VectorXd pre, post, mean, impulse;
    double norm2 = 0;  // ||gamma-||^2_{G^-1}
};

class Evaluator {
public:
    Evaluator(const ContactMap& map, const ImpactMatrices& im)
        : dim(im.G.rows()), map_(map), G_(im.G.ldlt()) {}

    double norm2(const Eigen::VectorXd& x) const { return x.dot(G_.solve(x)); }

    Eigen::VectorXd post(const Eigen::VectorXd& pre) {
        Eigen::VectorXd p = map_(pre);
        ++evaluations;
        if (p.size() != pre.size())
            throw std::invalid_argument(fmt::format(
                "impact map: returned {} contact velocities for {}", p.size(), pre.size()));
        if (!p.allFinite()) throw std::invalid_argument("impact map: returned a non-finite velocity");
        return p;
    }

    Sample operator()(const Eigen::VectorXd& pre) {
        Sample s;
        s.pre = pre;
        s.post = post(pre);
        s.mean = 0.5 * (s.pre + s.post);
        s.impulse = G_.solve(s.post - s.pre);
        s.norm2 = norm2(pre);
        return s;
    }

    const Eigen::Index dim;  // number of contacts
    long long evaluations = 0;

private:
    const ContactMap& map_;
    Eigen::LDLT<Eigen::MatrixXd> G_;
};

class Sampler {
public:
    Sampler(const PropertyOptions& o, Eigen::Index dim) : o_(o), dim_(dim), rng_(o.seed) {}

    Eigen::VectorXd direction() {
        Eigen::VectorXd d(dim_);
        for (Eigen::Index i = 0; i < dim_; ++i) d[i] = normal_(rng_);
        return d;
    }
    // Keeps a point in the sampled domain.
    Eigen::VectorXd admissible(Eigen::VectorXd x) const {
        return o_.approaching_only ? Eigen::VectorXd(x.cwiseMin(0.0)) : x;
    }
    Eigen::VectorXd point() {
        Eigen::VectorXd x = admissible(o_.velocity_scale * direction());
        for (int tries = 1; o_.domain && !o_.domain(x) && tries < 1000; ++tries) x = admissible(o_.velocity_scale * direction());
        return x;
    }
    double log_uniform(double lo, double hi) {
        return lo * std::pow(hi / lo, std::uniform_real_distribution<double>(0, 1)(rng_));
    }
    std::size_t index(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

private:
    const PropertyOptions& o_;
    Eigen::Index dim_;
    std::mt19937_64 rng_;
    std::normal_distribution<double> normal_;
};

// ---- Non-expansivity and monotonicity (Leine & Baumann 2014 Thm 1, Winandy & Leine 2015 Thm 1) ---

struct PairCheck {
    static constexpr double min_separation = 1e-5;
    Evaluator& eval;
    NonExpansivity& ne;
    Monotonicity& mono;

    // Returns the G^-1 ratio of the pair (0 for coincident points) and records the extremes.
    double operator()(const Sample& a, const Sample& b) {
        // Closer pairs measure rounding, not the map: |S(a)-S(b)| carries ~1e-16 (|a|+|b|).
        if (!((a.pre - b.pre).norm() > min_separation * (a.pre.norm() + b.pre.norm()))) return 0;
        const double d2 = eval.norm2(a.pre - b.pre);
        ++ne.pairs;
        const double ratio = std::sqrt(eval.norm2(a.post - b.post) / d2);
        const double m = -(a.impulse - b.impulse).dot(a.mean - b.mean) / d2;
        if (ratio > ne.max_ratio) {
            ne.max_ratio = ratio;
            ne.gamma_a = a.pre;
            ne.gamma_b = b.pre;
        }
        if (mono.gamma_a.size() == 0 || m < mono.min_value) {
            mono.min_value = m;
            mono.gamma_a = a.pre;
            mono.gamma_b = b.pre;
        }
        return ratio;
    }
};

void refine_pair(Evaluator& eval, Sampler& rng, const PropertyOptions& o, PairCheck& check) {
    // Local search: perturb the worst pair, keep what increases the ratio.
    if (check.ne.gamma_a.size() == 0) return;
    Sample a = eval(check.ne.gamma_a), b = eval(check.ne.gamma_b);
    double best = check.ne.max_ratio;
    for (int s = 0; s < o.pair_refine_steps; ++s) {
        const double sigma = 0.3 * (a.pre - b.pre).norm() * (1.0 - double(s) / o.pair_refine_steps);
        Sample a2 = eval(rng.admissible(a.pre + sigma * rng.direction()));
        Sample b2 = eval(rng.admissible(b.pre + sigma * rng.direction()));
        const double ratio = check(a2, b2);
        if (ratio > best) {
            best = ratio;
            a = std::move(a2);
            b = std::move(b2);
        }
    }
}

void check_pairs(Evaluator& eval, Sampler& rng, const PropertyOptions& o, PropertyReport& r) {
    PairCheck check{eval, r.non_expansive, r.monotone};
    for (int i = 0; i < o.pairs; ++i) {
        const Sample a = eval(rng.point());
        // Half far pairs, half near pairs (a local Lipschitz constant > 1 shows only up close).
        const Eigen::VectorXd b = i % 2 ? rng.admissible(a.pre + rng.log_uniform(1e-4, 1) * o.velocity_scale * rng.direction())
                                        : rng.point();
        check(a, eval(b));
    }
    refine_pair(eval, rng, o, check);
    r.non_expansive.holds = r.non_expansive.max_ratio <= 1 + o.tolerance;
    r.monotone.holds = r.monotone.min_value >= -o.tolerance;
}

// ---- Cyclic monotonicity (Winandy & Leine 2015 Def. 3, eqs 18 and 49) ---------------------------

double cycle_sum(const std::vector<const Sample*>& c) {
    double v = 0;
    for (std::size_t i = 0; i < c.size(); ++i)
        v += c[i]->impulse.dot(c[(i + 1) % c.size()]->mean - c[i]->mean);
    return v;
}

double cycle_scale(const std::vector<const Sample*>& c) {
    double s = 0;
    for (const Sample* p : c) s = std::max(s, p->norm2);
    return s;
}

void record_cycle(const std::vector<const Sample*>& c, CyclicMonotonicity& cm) {
    ++cm.cycles;
    const double scale = cycle_scale(c);
    if (!(scale > 0)) return;
    const double v = cycle_sum(c);
    if (cm.cycle.empty() || v / scale < cm.worst_relative) {
        cm.worst_value = v;
        cm.worst_relative = v / scale;
        cm.cycle.clear();
        for (const Sample* p : c) cm.cycle.push_back(p->pre);
    }
}

void refine_cycle(Evaluator& eval, Sampler& rng, const PropertyOptions& o, CyclicMonotonicity& cm) {
    // Local search: move one point of the worst cycle at a time, keep what lowers the value.
    std::vector<Sample> worst;
    for (const Eigen::VectorXd& g : cm.cycle) worst.push_back(eval(g));
    for (int s = 0; s < o.cycle_refine_steps; ++s) {
        const std::size_t i = rng.index(worst.size());
        const double sigma = 0.3 * o.velocity_scale * (1.0 - double(s) / o.cycle_refine_steps);
        std::vector<Sample> trial = worst;
        trial[i] = eval(rng.admissible(worst[i].pre + sigma * rng.direction()));
        std::vector<const Sample*> c;
        for (const Sample& p : trial) c.push_back(&p);
        const double before = cm.worst_relative;
        record_cycle(c, cm);
        if (cm.worst_relative < before) worst = std::move(trial);
    }
}

void check_cycles(Evaluator& eval, Sampler& rng, const PropertyOptions& o, PropertyReport& r) {
    CyclicMonotonicity& cm = r.cyclically_monotone;
    std::vector<Sample> pts;
    if (o.cycle_points > 0) pts.push_back(eval(Eigen::VectorXd::Zero(eval.dim)));  // as C in eq. (45)
    for (int i = 1; i < o.cycle_points; ++i) pts.push_back(eval(rng.point()));
    const std::size_t n = pts.size();
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            for (std::size_t k = j + 1; k < n; ++k) {
                record_cycle({&pts[i], &pts[j], &pts[k]}, cm);
                record_cycle({&pts[i], &pts[k], &pts[j]}, cm);
            }
    if (!cm.cycle.empty()) refine_cycle(eval, rng, o, cm);
    cm.holds = cm.worst_relative >= -o.tolerance;
}

// ---- Positive homogeneity: S(a x) = a S(x) for a > 0 --------------------------------------------

void check_homogeneity(Evaluator& eval, Sampler& rng, const PropertyOptions& o, PropertyReport& r) {
    Homogeneity& h = r.positively_homogeneous;
    for (int i = 0; i < o.homogeneity_points; ++i) {
        const Eigen::VectorXd x = rng.point();
        const Eigen::VectorXd sx = eval.post(x);
        const double size = x.norm() + sx.norm();
        if (!(size > 0)) continue;
        for (double a : {1e-3, 0.5, 2.0, 1e3}) {
            const double dev = (eval.post(a * x) - a * sx).norm() / (a * size);
            if (h.gamma.size() == 0 || dev > h.max_deviation) {
                h.max_deviation = dev;
                h.gamma = x;
                h.factor = a;
            }
        }
    }
    h.holds = h.max_deviation <= o.tolerance;
}

// ---- Continuity across cone boundaries ----------------------------------------------------------

constexpr double bracket_width = 1e-9;  // of the segment parameter t in [0, 1]

// Distance of S(t_mid) from the chord of S over [t_lo, t_hi]: zero (to rounding) where S is affine.
double kink(const Eigen::VectorXd& lo, const Eigen::VectorXd& mid, const Eigen::VectorXd& hi) {
    return (mid - 0.5 * (lo + hi)).norm();
}

// Narrows [lo, hi] (parameters on the segment a + t (b - a)) down to a bracket of width 1e-9
// around a kink or jump of S, always keeping the half where S is further from affine, and
// returns the change of S across it relative to the velocity scale.
struct Bracket {
    double jump;
    Eigen::VectorXd at;
};
Bracket bracket_boundary(Evaluator& eval, const Eigen::VectorXd& a, const Eigen::VectorXd& b, double lo,
                         double hi, Eigen::VectorXd s_lo, Eigen::VectorXd s_hi, Eigen::VectorXd s_mid,
                         double flat, double scale) {
    auto at = [&](double t) -> Eigen::VectorXd { return a + t * (b - a); };
    const double width = bracket_width;
    while (hi - lo > width) {
        const double mid = 0.5 * (lo + hi);
        const double q1 = 0.5 * (lo + mid), q2 = 0.5 * (mid + hi);
        Eigen::VectorXd s_q1 = eval.post(at(q1)), s_q2 = eval.post(at(q2));
        const double k1 = kink(s_lo, s_q1, s_mid), k2 = kink(s_mid, s_q2, s_hi);
        if (std::max(k1, k2) <= flat) {  // both halves affine: the boundary is at mid itself
            lo = mid - 0.5 * width;
            hi = mid + 0.5 * width;
            s_lo = eval.post(at(lo));
            s_hi = eval.post(at(hi));
            break;
        }
        if (k1 >= k2) {
            hi = mid;
            s_hi = std::move(s_mid);
            s_mid = std::move(s_q1);
        } else {
            lo = mid;
            s_lo = std::move(s_mid);
            s_mid = std::move(s_q2);
        }
    }
    return {(s_hi - s_lo).norm() / scale, at(0.5 * (lo + hi))};
}

void check_continuity(Evaluator& eval, Sampler& rng, const PropertyOptions& o, PropertyReport& r) {
    Continuity& c = r.continuous;
    const int steps = std::max(o.continuity_steps, 1);
    for (int s = 0; s < o.continuity_segments && c.boundaries < o.continuity_max_boundaries; ++s) {
        const Eigen::VectorXd a = rng.point(), b = rng.point();
        std::vector<Eigen::VectorXd> grid;
        for (int i = 0; i <= steps; ++i) grid.push_back(eval.post(a + (double(i) / steps) * (b - a)));
        for (int i = 0; i < steps && c.boundaries < o.continuity_max_boundaries; ++i) {
            const double lo = double(i) / steps, hi = double(i + 1) / steps;
            Eigen::VectorXd s_mid = eval.post(a + 0.5 * (lo + hi) * (b - a));
            const double flat = 1e-10 * (grid[i].norm() + grid[i + 1].norm() + o.velocity_scale);
            if (kink(grid[i], s_mid, grid[i + 1]) <= flat) continue;
            ++c.boundaries;
            const Bracket br = bracket_boundary(eval, a, b, lo, hi, grid[i], grid[i + 1], std::move(s_mid),
                                                flat, o.velocity_scale);
            if (c.gamma.size() == 0 || br.jump > c.max_jump) {
                c.max_jump = br.jump;
                c.gamma = br.at;
            }
        }
    }
    c.holds = c.max_jump <= o.jump_tolerance;
}

}  // namespace

PropertyReport check_properties(const ContactMap& map, const ImpactMatrices& im,
                                const PropertyOptions& options) {
    if (!(options.velocity_scale > 0) || !std::isfinite(options.velocity_scale))
        throw std::invalid_argument("properties: velocity_scale must be finite and > 0");
    Evaluator eval(map, im);
    Sampler rng(options, eval.dim);
    PropertyReport r;
    check_pairs(eval, rng, options, r);
    check_cycles(eval, rng, options, r);
    check_homogeneity(eval, rng, options, r);
    check_continuity(eval, rng, options, r);
    r.evaluations = eval.evaluations;
    return r;
}

long long evaluation_bound(const PropertyOptions& o) {
    const long long steps = std::max(o.continuity_steps, 1);
    // Halvings from 1/steps to bracket_width, two evaluations each, plus two for an early stop.
    const long long bisection = 2 * static_cast<long long>(std::ceil(std::log2(1.0 / (steps * bracket_width)))) + 2;
    return 2LL * o.pairs + 2 + 2LL * o.pair_refine_steps            // pairs, worst pair, refinement
           + o.cycle_points + 3 + o.cycle_refine_steps              // points, worst cycle, refinement
           + 5LL * o.homogeneity_points                             // x and four multiples
           + static_cast<long long>(o.continuity_segments) * (2 * steps + 1)  // grid and midpoints
           + static_cast<long long>(o.continuity_max_boundaries) * bisection;
}

double g_inverse_norm(const ImpactMatrices& im, const Eigen::VectorXd& gamma) {
    return std::sqrt(gamma.dot(im.G.ldlt().solve(gamma)));
}

double cycle_value(const ContactMap& map, const ImpactMatrices& im,
                   const std::vector<Eigen::VectorXd>& gamma_pre_cycle) {
    Evaluator eval(map, im);
    std::vector<Sample> pts;
    for (const Eigen::VectorXd& g : gamma_pre_cycle) pts.push_back(eval(g));
    std::vector<const Sample*> c;
    for (const Sample& p : pts) c.push_back(&p);
    return cycle_sum(c);
}

}  // namespace rodcollide::laws
