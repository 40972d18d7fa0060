// Exact facets of the identified cones (see cone_facets.hpp). A linear cone is the set of gamma-
// whose run has one of its signatures and whose outcome its matrix gives; with the event times
// fixed, every decision the solver makes is a linear functional of gamma-, so the cone is convex
// and polyhedral, and a chord from one of its directions to a direction outside leaves it once.
#include "analysis/cone_facets.hpp"

#include "rodcollide/laws/identified.hpp"
#include "analysis/parallel_for.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

namespace rodcollide {

namespace {

double residual_at(const Eigen::MatrixXd& J, const Eigen::VectorXd& pre, const Eigen::VectorXd& post) {
    const double scale = pre.lpNorm<Eigen::Infinity>();
    return scale > 0 ? (J * pre - post).lpNorm<Eigen::Infinity>() / scale : 0.0;
}

/// Smallest b . gamma / |gamma| over the facets (+inf without facets: no facet excludes anything).
double depth(const std::vector<Eigen::VectorXd>& facets, const Eigen::VectorXd& gamma) {
    double m = std::numeric_limits<double>::infinity();
    for (const Eigen::VectorXd& b : facets) m = std::min(m, b.dot(gamma) / gamma.norm());
    return m;
}

/// Boundary points on a facet agree with its hyperplane to this (unit vectors): the bisection
/// locates them to ~1e-14, the fit through d-1 of them at sample spacing carries that to ~1e-12.
constexpr double on_plane = 1e-10;
/// Chord parameters closer than this end the bisection (~43 halvings).
constexpr double bisection_width = 1e-13;

/// The unit normal of the hyperplane through the origin and `points` (rows), from the smallest
/// singular vector; nullopt if the points do not span a hyperplane (d-1 dimensions).
std::optional<Eigen::VectorXd> normal_through(const Eigen::MatrixXd& points) {
    const Eigen::Index d = points.cols();
    Eigen::MatrixXd A = points;
    if (A.rows() < d) {  // pad with zero rows: the SVD's last right vector is the null direction
        A.conservativeResize(d, d);
        A.bottomRows(d - points.rows()).setZero();
    }
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
    const Eigen::VectorXd s = svd.singularValues();
    if (!(s[0] > 0) || s[d - 2] < 1e-6 * s[0]) return std::nullopt;
    return Eigen::VectorXd(svd.matrixV().col(d - 1));
}

struct ConeWork {
    std::size_t solves = 0, added = 0;
    bool exact = false;
};

}  // namespace

bool fixed_event_times(const std::vector<ContactEvent>& events, std::optional<double> unit) {
    for (const ContactEvent& e : events) {
        if (unit) {
            const double k = e.time / *unit;
            if (std::abs(k - std::round(k)) > 1e-9 * std::max(1.0, k)) return false;
        } else if (e.kind == ContactEvent::Kind::closing && e.time > 0) {
            return false;
        }
    }
    return true;
}

std::optional<double> commensurate_unit(const Eigen::VectorXd& transit_times) {
    const double shortest = transit_times.minCoeff();
    for (int k = 1; k <= 64; ++k) {
        const double u = shortest / k;
        bool all = true;
        for (Eigen::Index i = 0; i < transit_times.size() && all; ++i) {
            const double m = transit_times[i] / u;
            all = std::abs(m - std::round(m)) <= 1e-9 * m;
        }
        if (all) return u;
    }
    return std::nullopt;
}

std::vector<Eigen::VectorXd> rays_of(const std::vector<Eigen::VectorXd>& facets, Eigen::Index d,
                                     const Eigen::MatrixXd& G_inverse) {
    std::vector<Eigen::VectorXd> rays;
    const auto F = static_cast<Eigen::Index>(facets.size());
    if (F < d - 1) return rays;
    constexpr long long cap = 200'000;
    std::vector<bool> pick(static_cast<std::size_t>(F), false);
    std::fill(pick.begin(), pick.begin() + (d - 1), true);
    long long tried = 0;
    do {
        if (++tried > cap) break;
        Eigen::MatrixXd A(d - 1, d);
        Eigen::Index r = 0;
        for (Eigen::Index f = 0; f < F; ++f)
            if (pick[static_cast<std::size_t>(f)]) A.row(r++) = facets[static_cast<std::size_t>(f)].transpose();
        Eigen::VectorXd v;
        if (d == 1) {
            v = Eigen::VectorXd::Ones(1);
        } else {
            const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A, Eigen::ComputeFullV);
            const Eigen::VectorXd s = svd.singularValues();
            if (s[s.size() - 1] < 1e-9 * s[0]) continue;  // the d-1 facets meet in more than a line
            v = svd.matrixV().col(d - 1);
        }
        for (const double sign : {1.0, -1.0}) {
            const Eigen::VectorXd w = sign * v;
            bool inside = true;
            for (const Eigen::VectorXd& b : facets)
                if (b.dot(w) < -1e-9) inside = false;
            if (!inside) continue;
            const Eigen::VectorXd unit = w / std::sqrt(w.dot(G_inverse * w));
            bool known = false;
            for (const Eigen::VectorXd& q : rays) known = known || (q - unit).norm() < 1e-7 * unit.norm();
            if (!known) rays.push_back(unit);
        }
    } while (std::prev_permutation(pick.begin(), pick.end()));
    return rays;
}

FacetRefinement refine_facets(std::vector<IdentifiedCone>& cones, const std::vector<Eigen::VectorXd>& pre,
                              const std::vector<Eigen::VectorXd>& post, const std::vector<std::string>& signatures,
                              const std::vector<std::size_t>& events, const std::vector<char>& fixed,
                              const std::vector<std::ptrdiff_t>& assignment, const Eigen::MatrixXd& G,
                              double tolerance, const WaveOracle& oracle, unsigned threads,
                              std::vector<char>& exact, std::size_t max_rounds) {
    FacetRefinement out;
    exact.assign(cones.size(), 0);
    const std::size_t n = pre.size();
    if (n == 0) return out;
    const Eigen::Index d = pre.front().size();
    const Eigen::MatrixXd G_inverse = G.inverse();
    // Neighbours are taken in the G^-1 metric, in which the swept directions are quasi-uniform.
    const Eigen::LLT<Eigen::MatrixXd> llt(G);
    std::vector<Eigen::VectorXd> white(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Eigen::VectorXd x = llt.matrixL().solve(pre[i]);
        white[i] = x.norm() > 0 ? Eigen::VectorXd(x.normalized()) : x;
    }
    std::vector<std::size_t> linear;
    for (std::size_t c = 0; c < cones.size(); ++c)
        if (cones[c].linear) linear.push_back(c);
    std::vector<ConeWork> work(cones.size());

    auto refine = [&](std::size_t li) {
        const std::size_t c = linear[li];
        IdentifiedCone& cone = cones[c];
        ConeWork& w = work[c];
        const std::set<std::string> own(cone.signatures.begin(), cone.signatures.end());
        std::vector<std::size_t> members, starts;  // starts: members of the cone's own signatures
        for (std::size_t i = 0; i < n; ++i)
            if (assignment[i] == static_cast<std::ptrdiff_t>(c)) {
                members.push_back(i);
                if (own.count(signatures[i])) starts.push_back(i);
            }
        // A run of the cone takes about as many event groups as its directions took: one that
        // takes many more (re-contacts going on) is outside, and is stopped there.
        std::size_t most_events = 0;
        for (std::size_t m : starts) most_events = std::max(most_events, events[m]);
        const std::size_t event_cap = 2 * most_events + 100;
        auto member = [&](const Eigen::VectorXd& g) {
            ++w.solves;
            const std::optional<WaveSample> s = oracle(g, event_cap);
            // The law is right wherever the matrix gives the outcome, whatever the signature (a
            // merged cone's signatures, or one no swept direction had): that is the test.
            return s && residual_at(cone.matrix, g, s->gamma_post) <= tolerance;
        };
        // The point where the chord from a (inside) to v (outside) leaves the cone.
        auto boundary = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& v) {
            double in = 0, out = 1;
            while (out - in > bisection_width) {
                const double mid = 0.5 * (in + out);
                (member(a + mid * (v - a)) ? in : out) = mid;
            }
            return Eigen::VectorXd((a + in * (v - a)).normalized());
        };
        // Only a run whose events all happen at times fixed by the transit times (no gap closing
        // at a time that moves with gamma-) makes every decision of the solver linear in gamma-,
        // its region a convex polyhedral cone; after a closing at a moving time the boundary may
        // be curved (though not always: identical rods exchange velocities whenever they meet).
        // So facets are fitted through boundary points only for a cone with such a run; any other
        // must be bounded exactly by the facets its matrix gives, or is left out of the law.
        const bool may_fit = std::any_of(starts.begin(), starts.end(), [&](std::size_t i) { return fixed[i] != 0; });
        // An interior point: the mean of the cone's own directions (the cone is convex).
        Eigen::VectorXd centre = Eigen::VectorXd::Zero(d);
        for (std::size_t m : starts) centre += pre[m].normalized();
        for (std::size_t round = 0; round <= max_rounds; ++round) {
            // A sample inside the facets on which the matrix does not hold (unsettled ones included).
            std::size_t violator = n;
            double nearest = std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i < n; ++i) {
                if (assignment[i] == static_cast<std::ptrdiff_t>(c) || pre[i].norm() == 0) continue;
                if (depth(cone.facets, pre[i]) < -laws::facet_slack) continue;
                if (residual_at(cone.matrix, pre[i], post[i]) <= tolerance) continue;  // NaN: a violator
                for (std::size_t m : starts) {
                    const double dist = (white[m] - white[i]).squaredNorm();
                    if (dist < nearest) {
                        nearest = dist;
                        violator = i;
                    }
                }
            }
            Eigen::VectorXd v, v_white;
            if (violator < n) {
                v = pre[violator];
                v_white = white[violator];
            } else {
                // No sample left inside: the facets are complete if every generating ray of the
                // cone they bound is in the cone's closure (were one outside, the facets would
                // claim a region the cone does not hold; the cone being convex, if every ray is in
                // it, so is all they generate). Each ray is tested just inside, towards the centre.
                // The facets must bound a pointed cone (their normals span gamma space).
                Eigen::MatrixXd B(static_cast<Eigen::Index>(cone.facets.size()), d);
                for (std::size_t f = 0; f < cone.facets.size(); ++f) B.row(static_cast<Eigen::Index>(f)) = cone.facets[f].transpose();
                if (cone.facets.empty() || Eigen::FullPivLU<Eigen::MatrixXd>(B).rank() < d || starts.empty()) return;
                for (const Eigen::VectorXd& ray : rays_of(cone.facets, d, G_inverse)) {
                    const Eigen::VectorXd x = ray.normalized() + 1e-6 * (centre.normalized() - ray.normalized());
                    if (!member(x)) {
                        v = x;
                        v_white = llt.matrixL().solve(x).normalized();
                        break;
                    }
                }
                if (v.size() == 0) {
                    w.exact = true;
                    return;
                }
            }
            if (round == max_rounds || starts.empty() || !may_fit) return;
            // Boundary points on chords into v from the cone's directions nearest it, and from the
            // nearest one into points around v (across the chord), which spreads the points along
            // the facet; a second, wider round if they give no facet. Points closer than 1e-4 to
            // one found are dropped (they would verify nothing).
            std::vector<std::size_t> order = starts;
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return (white[a] - v_white).squaredNorm() < (white[b] - v_white).squaredNorm();
            });
            const Eigen::VectorXd& a0 = pre[order.front()];
            std::vector<Eigen::VectorXd> across;  // unit vectors orthogonal to a0 and v
            {
                Eigen::MatrixXd span(d, 2);
                span << a0.normalized(), v.normalized();
                const Eigen::HouseholderQR<Eigen::MatrixXd> qr(span);
                const Eigen::MatrixXd Q = qr.householderQ();
                for (Eigen::Index k = 2; k < d; ++k) across.push_back(Q.col(k));
            }
            std::vector<Eigen::VectorXd> points;
            auto add_point = [&](const Eigen::VectorXd& from, const Eigen::VectorXd& to) {
                const Eigen::VectorXd p = boundary(from, to);
                for (const Eigen::VectorXd& q : points)
                    if ((q - p).norm() < 1e-4) return;
                points.push_back(p);
            };
            std::optional<Eigen::VectorXd> facet;
            std::size_t next_start = 0;
            for (const double spread : {0.3, 0.7}) {
                const std::size_t want = spread < 0.5 ? (static_cast<std::size_t>(d) + 1) / 2 : 4 * static_cast<std::size_t>(d);
                for (; next_start < std::min(want, order.size()); ++next_start) add_point(pre[order[next_start]], v);
                const double reach = spread * (v.normalized() - a0.normalized()).norm() * v.norm();
                for (const Eigen::VectorXd& e : across)
                    for (const double sign : {1.0, -1.0}) {
                        const Eigen::VectorXd target = v + sign * reach * e;
                        if (!member(target)) add_point(a0, target);
                    }
                const auto P = static_cast<Eigen::Index>(points.size());
                if (P < d - 1) break;
                // Every d-1 of the points: the hyperplane with the most points on it (at least one
                // more than made it) that keeps the cone's directions and cuts off v.
                std::size_t best_inliers = static_cast<std::size_t>(d) - 1;
                std::vector<bool> pick(static_cast<std::size_t>(P), false);
                std::fill(pick.begin(), pick.begin() + (d - 1), true);
                do {
                    Eigen::MatrixXd A(d - 1, d);
                    Eigen::Index r = 0;
                    for (Eigen::Index k = 0; k < P; ++k)
                        if (pick[static_cast<std::size_t>(k)]) A.row(r++) = points[static_cast<std::size_t>(k)].transpose();
                    std::optional<Eigen::VectorXd> b = normal_through(A);
                    if (!b) continue;
                    std::vector<Eigen::Index> inliers;
                    for (Eigen::Index k = 0; k < P; ++k)
                        if (std::abs(b->dot(points[static_cast<std::size_t>(k)])) <= on_plane) inliers.push_back(k);
                    if (inliers.size() <= best_inliers) continue;
                    // Refit through all of them, orient into the cone, check both sides.
                    Eigen::MatrixXd I(static_cast<Eigen::Index>(inliers.size()), d);
                    for (std::size_t k = 0; k < inliers.size(); ++k)
                        I.row(static_cast<Eigen::Index>(k)) = points[static_cast<std::size_t>(inliers[k])].transpose();
                    b = normal_through(I);
                    if (!b) continue;
                    bool on_all = true;
                    for (Eigen::Index k = 0; k < I.rows(); ++k) on_all = on_all && std::abs(b->dot(I.row(k).transpose())) <= on_plane;
                    if (!on_all) continue;
                    if (b->dot(v) > 0) *b = -*b;
                    if (!(b->dot(v) / v.norm() < -laws::facet_slack)) continue;
                    bool keeps = true;
                    for (std::size_t m : members) keeps = keeps && b->dot(pre[m]) / pre[m].norm() >= -laws::facet_slack;
                    if (!keeps) continue;
                    best_inliers = inliers.size();
                    facet = b;
                } while (std::prev_permutation(pick.begin(), pick.end()));
                if (facet) break;
            }
            if (!facet) return;  // v cannot be cut off: the cone stays inexact
            cone.facets.push_back(*facet);
            ++w.added;
        }
    };
    parallel_for(linear.size(), worker_threads(threads, linear.size()), refine, nullptr);

    for (std::size_t c : linear) {
        IdentifiedCone& cone = cones[c];
        out.solves += work[c].solves;
        out.facets_added += work[c].added;
        exact[c] = work[c].exact;
        out.inexact += !work[c].exact;
        cone.facets_exact = work[c].exact;
        cone.bisected_facets = work[c].added;
        if (work[c].added == 0) continue;
        cone.rays = rays_of(cone.facets, d, G_inverse);
        // The most central direction: the largest smallest distance to a facet.
        double best = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i) {
            if (assignment[i] != static_cast<std::ptrdiff_t>(c)) continue;
            const double m = depth(cone.facets, pre[i]);
            if (m > best) {
                best = m;
                cone.representative = pre[i];
            }
        }
    }
    return out;
}

}  // namespace rodcollide
