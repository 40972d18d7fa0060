// Cones of a sampled cone-wise linear map from combinatorial signatures (see cone_sweep.hpp):
// one matrix per signature from n-1 independent samples, verified at every other; equal matrices
// merged; facets from the rank-one differences of neighbouring matrices (a continuous piecewise
// linear map changes across a facet b . gamma = 0 by a b^T), rays from the facets.
#include "rodcollide/cone_sweep.hpp"

#include "analysis/cone_facets.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <unordered_map>

namespace rodcollide {

namespace {

/// Relative residual of J at one sample.
double residual_at(const Eigen::MatrixXd& J, const Eigen::VectorXd& pre, const Eigen::VectorXd& post) {
    const double scale = pre.lpNorm<Eigen::Infinity>();
    return scale > 0 ? (J * pre - post).lpNorm<Eigen::Infinity>() / scale : 0.0;
}

/// Up to d samples of `members`, greedily the most independent (largest component orthogonal to
/// those chosen, of the unit vectors); fewer if the members span less than d dimensions.
std::vector<std::size_t> independent_samples(const std::vector<std::size_t>& members,
                                             const std::vector<Eigen::VectorXd>& pre, Eigen::Index d) {
    std::vector<std::size_t> chosen;
    std::vector<Eigen::VectorXd> basis;
    constexpr double independent = 1e-6;  // sine of the angle to the span of those chosen
    while (static_cast<Eigen::Index>(chosen.size()) < d) {
        double best = independent;
        std::size_t best_i = members.size();
        for (std::size_t m = 0; m < members.size(); ++m) {
            Eigen::VectorXd v = pre[members[m]].normalized();
            for (const Eigen::VectorXd& q : basis) v -= q.dot(v) * q;
            const double r = v.norm();
            if (r > best) {
                best = r;
                best_i = m;
            }
        }
        if (best_i == members.size()) break;
        Eigen::VectorXd v = pre[members[best_i]].normalized();
        for (const Eigen::VectorXd& q : basis) v -= q.dot(v) * q;
        basis.push_back(v.normalized());
        chosen.push_back(members[best_i]);
    }
    return chosen;
}

struct Group {
    std::string signature;
    std::vector<std::size_t> members;
    bool full_rank = false;
    bool linear = false;
    Eigen::MatrixXd J;
    double residual = 0;
};

bool same_matrix(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tolerance) {
    const double scale = std::max({1.0, a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff()});
    return (a - b).cwiseAbs().maxCoeff() <= tolerance * scale;
}

/// The facet between cones a and b, oriented into a, if J_a - J_b has rank one and its null
/// hyperplane separates the two cones' samples.
std::optional<Eigen::VectorXd> facet_between(const IdentifiedCone& a, const std::vector<std::size_t>& a_members,
                                             const IdentifiedCone& b, const std::vector<std::size_t>& b_members,
                                             const std::vector<Eigen::VectorXd>& pre) {
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a.matrix - b.matrix, Eigen::ComputeFullV);
    const Eigen::VectorXd s = svd.singularValues();
    if (!(s[0] > 1e-9)) return std::nullopt;
    if (s.size() > 1 && s[1] > 1e-7 * s[0]) return std::nullopt;
    Eigen::VectorXd v = svd.matrixV().col(0);
    constexpr double side = 1e-9;
    double a_min = INFINITY, a_max = -INFINITY, b_min = INFINITY, b_max = -INFINITY;
    for (std::size_t i : a_members) {
        const double x = v.dot(pre[i]) / pre[i].norm();
        a_min = std::min(a_min, x);
        a_max = std::max(a_max, x);
    }
    for (std::size_t i : b_members) {
        const double x = v.dot(pre[i]) / pre[i].norm();
        b_min = std::min(b_min, x);
        b_max = std::max(b_max, x);
    }
    if (a_min >= -side && b_max <= side) return v;
    if (a_max <= side && b_min >= -side) return Eigen::VectorXd(-v);
    return std::nullopt;
}

/// A group whose samples are on no one matrix (a signature that does not fix the map: after a
/// re-contact only the order of events is kept) split into linear pieces: from the first sample
/// left, a matrix from it and its nearest independent neighbours, and the piece is every sample the
/// matrix holds at, if that is more than the d that made it (so that it is verified somewhere).
/// Samples that start no piece are returned in `rest`.
std::vector<Group> split_group(const Group& g, const std::vector<Eigen::VectorXd>& pre,
                               const std::vector<Eigen::VectorXd>& post, Eigen::Index d, double tolerance,
                               std::vector<std::size_t>& rest) {
    std::vector<Group> pieces;
    std::vector<std::size_t> left = g.members;
    constexpr std::size_t neighbours = 64;
    while (!left.empty()) {
        const std::size_t seed = left.front();
        const Eigen::VectorXd s = pre[seed].normalized();
        std::vector<std::size_t> order = left;
        const std::size_t k = std::min(neighbours, order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                          [&](std::size_t a, std::size_t b) { return pre[a].normalized().dot(s) > pre[b].normalized().dot(s); });
        order.resize(k);
        // The seed and, nearest first, each neighbour that adds a dimension: likely all in the seed's cone.
        std::vector<std::size_t> basis;
        std::vector<Eigen::VectorXd> span;
        for (std::size_t i : order) {
            if (static_cast<Eigen::Index>(basis.size()) == d) break;
            Eigen::VectorXd v = pre[i].normalized();
            for (const Eigen::VectorXd& q : span) v -= q.dot(v) * q;
            if (v.norm() < 1e-3) continue;
            span.push_back(v.normalized());
            basis.push_back(i);
        }
        std::vector<std::size_t> inliers;
        Eigen::MatrixXd J;
        if (static_cast<Eigen::Index>(basis.size()) == d && std::find(basis.begin(), basis.end(), seed) != basis.end()) {
            Eigen::MatrixXd P(d, d), Q(d, d);
            for (Eigen::Index c = 0; c < d; ++c) {
                P.col(c) = pre[basis[static_cast<std::size_t>(c)]];
                Q.col(c) = post[basis[static_cast<std::size_t>(c)]];
            }
            J = P.transpose().fullPivLu().solve(Q.transpose()).transpose();
            for (std::size_t i : left)
                if (residual_at(J, pre[i], post[i]) <= tolerance) inliers.push_back(i);
        }
        if (static_cast<Eigen::Index>(inliers.size()) > d) {
            Group piece{g.signature, inliers, true, true, J, 0};
            for (std::size_t i : inliers) piece.residual = std::max(piece.residual, residual_at(J, pre[i], post[i]));
            pieces.push_back(std::move(piece));
            std::vector<std::size_t> next;
            std::set_difference(left.begin(), left.end(), inliers.begin(), inliers.end(), std::back_inserter(next));
            left = std::move(next);
        } else {
            rest.push_back(seed);
            left.erase(left.begin());
        }
    }
    return pieces;
}

}  // namespace

double g_inverse_operator_norm(const Eigen::MatrixXd& J, const Eigen::MatrixXd& G) {
    // ||gamma||_{G^-1} = |L^-1 gamma| with G = L L^T, so ||J||_{G^-1} = |L^-1 J L|_2.
    const Eigen::LLT<Eigen::MatrixXd> llt(G);
    const Eigen::MatrixXd L = llt.matrixL();
    const Eigen::MatrixXd K = L.triangularView<Eigen::Lower>().solve(J * L);
    return Eigen::JacobiSVD<Eigen::MatrixXd>(K).singularValues()[0];
}

std::string impact_signature(const std::vector<ContactEvent>& events, double time_unit, bool& recontact) {
    // Openings happen at front arrivals, at times fixed by the transit times: they are part of the
    // signature (to 1e-6 of the shortest transit time). A closing after t = 0 happens when a gap
    // closes, at a time that moves with u-: from then on only the order of events is kept, and the
    // run is flagged (its group is linear only if the verification says so).
    recontact = false;
    std::string s;
    for (const ContactEvent& e : events) {
        const bool closing = e.kind == ContactEvent::Kind::closing;
        if (closing && e.time > 1e-9 * time_unit) recontact = true;
        if (!s.empty()) s += ' ';
        s += fmt::format("{}{}", closing ? 'c' : 'o', e.contact + 1);
        if (!recontact) s += fmt::format("@{}", std::llround(e.time / time_unit * 1e6));
    }
    return s.empty() ? "-" : s;
}

std::vector<IdentifiedCone> identify_cones(const std::vector<Eigen::VectorXd>& pre,
                                           const std::vector<Eigen::VectorXd>& post,
                                           const std::vector<std::string>& signatures, const Eigen::MatrixXd& G,
                                           double tolerance, std::vector<std::ptrdiff_t>& assignment,
                                           std::vector<char>& on_boundary, std::size_t& merged) {
    const std::size_t n = pre.size();
    assignment.assign(n, -1);
    on_boundary.assign(n, 0);
    merged = 0;
    if (n == 0) return {};
    const Eigen::Index d = pre.front().size();

    std::vector<IdentifiedCone> cones;
    std::vector<std::vector<std::size_t>> members;
    std::vector<std::size_t> boundary_count;
    std::vector<Group> non_linear;  // full-rank groups whose samples are on no one matrix

    // Level 0 groups by the full signature; the samples a level leaves unplaced (groups of too few
    // independent directions whose matrix no cone has) are grouped again by a coarser key: the
    // signature without times, then all together. Every matrix is verified at every sample of its
    // group, so a coarser key can only fail to find a cone, never accept a wrong one.
    std::vector<std::size_t> pending;
    for (std::size_t i = 0; i < n; ++i)
        if (pre[i].norm() > 0) pending.push_back(i);
    auto coarse = [&](std::size_t i, int level) -> std::string {
        if (level == 0) return signatures[i];
        if (level == 2) return "*";
        std::string k;
        bool skip = false;
        for (char ch : signatures[i]) {
            if (ch == '@') skip = true;
            else if (ch == ' ') skip = false;
            if (!skip) k += ch;
        }
        return k;
    };
    for (int level = 0; level < 3 && !pending.empty(); ++level) {
        std::vector<Group> groups;
        std::unordered_map<std::string, std::size_t> group_of;
        for (std::size_t i : pending) {
            auto [it, added] = group_of.try_emplace(coarse(i, level), groups.size());
            if (added) groups.push_back({signatures[i], {}, false, false, {}, 0});
            groups[it->second].members.push_back(i);
        }
        pending.clear();
        for (Group& g : groups) {
            const std::vector<std::size_t> basis = independent_samples(g.members, pre, d);
            g.full_rank = static_cast<Eigen::Index>(basis.size()) == d;
            if (!g.full_rank) continue;
            Eigen::MatrixXd P(d, d), Q(d, d);
            for (Eigen::Index k = 0; k < d; ++k) {
                P.col(k) = pre[basis[static_cast<std::size_t>(k)]];
                Q.col(k) = post[basis[static_cast<std::size_t>(k)]];
            }
            g.J = P.transpose().fullPivLu().solve(Q.transpose()).transpose();  // J P = Q
            for (std::size_t i : g.members) g.residual = std::max(g.residual, residual_at(g.J, pre[i], post[i]));
            g.linear = g.residual <= tolerance;
        }
        {  // groups on no one matrix: their linear pieces; the rest is placed like boundary samples or stays not linear
            std::vector<Group> pieces;
            for (Group& g : groups) {
                if (g.linear || !g.full_rank) continue;
                std::vector<std::size_t> rest;
                for (Group& piece : split_group(g, pre, post, d, tolerance, rest)) pieces.push_back(std::move(piece));
                g.members = rest;
                g.full_rank = false;  // what is left is placed like a boundary's samples, or stays not linear
            }
            for (Group& piece : pieces) groups.push_back(std::move(piece));
        }
        // Linear groups become cones; a group with the matrix of an earlier cone is merged into it.
        for (const Group& g : groups) {
            if (!g.linear) continue;
            std::size_t c = 0;
            while (c < cones.size() && !same_matrix(cones[c].matrix, g.J, 1e3 * tolerance)) ++c;
            if (c == cones.size()) {
                IdentifiedCone cone;
                cone.matrix = g.J;
                cones.push_back(cone);
                members.emplace_back();
                boundary_count.push_back(0);
            } else {
                ++merged;
            }
            for (std::size_t i : g.members) {
                const std::string& sig = signatures[i];
                if (std::find(cones[c].signatures.begin(), cones[c].signatures.end(), sig) == cones[c].signatures.end())
                    cones[c].signatures.push_back(sig);
            }
            cones[c].residual = std::max(cones[c].residual, g.residual);
            members[c].insert(members[c].end(), g.members.begin(), g.members.end());
        }
        // Samples of lower-dimensional groups (boundaries) go to the cone whose matrix holds there.
        for (Group& g : groups) {
            if (g.linear) continue;
            if (g.full_rank && level == 0) {  // its samples are not on one matrix: not linear
                if (!g.members.empty()) non_linear.push_back(g);
                continue;
            }
            for (std::size_t i : g.members) {
                std::size_t best = cones.size();
                double best_residual = tolerance;
                for (std::size_t c = 0; c < cones.size(); ++c) {
                    const double r = residual_at(cones[c].matrix, pre[i], post[i]);
                    if (r <= best_residual) {
                        best_residual = r;
                        best = c;
                    }
                }
                if (best == cones.size()) {
                    pending.push_back(i);
                } else {
                    members[best].push_back(i);
                    on_boundary[i] = !g.full_rank;
                    if (!g.full_rank) ++boundary_count[best];
                    cones[best].residual = std::max(cones[best].residual, best_residual);
                }
            }
        }
    }
    std::vector<Group> left_over = std::move(non_linear);
    std::unordered_map<std::string, std::size_t> unplaced;  // what no level placed, by signature
    for (std::size_t i : pending) {
        auto [it, added] = unplaced.try_emplace(signatures[i], left_over.size());
        if (added) left_over.push_back({signatures[i], {}, false, false, {}, INFINITY});
        left_over[it->second].members.push_back(i);
    }
    const std::size_t linear_cones = cones.size();
    Eigen::MatrixXd G_inverse = G.inverse();
    for (std::size_t c = 0; c < linear_cones; ++c) {
        IdentifiedCone& cone = cones[c];
        cone.directions = members[c].size();
        cone.boundary_directions = boundary_count[c];
        cone.norm = g_inverse_operator_norm(cone.matrix, G);
        for (std::size_t i : members[c]) assignment[i] = static_cast<std::ptrdiff_t>(c);
    }
    // Facets and rays.
    for (std::size_t a = 0; a < linear_cones; ++a) {
        for (std::size_t b = 0; b < linear_cones; ++b) {
            if (a == b) continue;
            const std::optional<Eigen::VectorXd> f = facet_between(cones[a], members[a], cones[b], members[b], pre);
            if (!f) continue;
            bool known = false;
            for (const Eigen::VectorXd& q : cones[a].facets) known = known || (q - *f).norm() < 1e-7;
            if (!known) cones[a].facets.push_back(*f);
        }
        cones[a].rays = rays_of(cones[a].facets, d, G_inverse);
        // The most central sample: the largest smallest distance to a facet.
        double best = -INFINITY;
        for (std::size_t i : members[a]) {
            double m = INFINITY;
            for (const Eigen::VectorXd& f : cones[a].facets) m = std::min(m, f.dot(pre[i]) / pre[i].norm());
            if (cones[a].facets.empty()) m = 0;
            if (m > best) {
                best = m;
                cones[a].representative = pre[i];
            }
        }
    }
    // What is left is not linear: one region per signature.
    for (const Group& g : left_over) {
        IdentifiedCone region;
        region.linear = false;
        region.directions = g.members.size();
        region.signatures = {g.signature};
        region.residual = g.full_rank ? g.residual : INFINITY;
        region.representative = pre[g.members.front()];
        cones.push_back(region);
    }
    return cones;
}

}  // namespace rodcollide
