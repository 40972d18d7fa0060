// The Sequential Impact Law: eq. (23) of Winandy & Leine 2015 for three equal balls, and the
// sequence of two-ball elastic impacts that generalises it (eq. 24) to any chain.
#include "rodcollide/laws/sequential.hpp"

#include "analysis/laws/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rodcollide::laws {

std::string_view cone_name(Cone c) {
    switch (c) {
        case Cone::I: return "I";
        case Cone::IIa: return "IIa";
        case Cone::IIb: return "IIb";
        case Cone::III: return "III";
        case Cone::IVa: return "IVa";
        case Cone::IVb: return "IVb";
    }
    throw std::logic_error("cone_name: unknown cone");
}

Eigen::Matrix2d cone_matrix(Cone c) {
    Eigen::Matrix2d Q;
    switch (c) {
        case Cone::I: Q << 1, 0, 0, 1; break;
        case Cone::IIa: Q << -1, 0, 1, 1; break;
        case Cone::IIb: Q << 0, 1, -1, -1; break;
        case Cone::III: Q << 0, -1, -1, 0; break;
        case Cone::IVa: Q << 1, 1, 0, -1; break;
        case Cone::IVb: Q << -1, -1, 1, 0; break;
    }
    return Q;
}

int cone_impacts(Cone c) {
    switch (c) {
        case Cone::I: return 0;
        case Cone::IIa:
        case Cone::IVa: return 1;
        case Cone::IIb:
        case Cone::IVb: return 2;
        case Cone::III: return 3;
    }
    throw std::logic_error("cone_impacts: unknown cone");
}

Cone cone_of(const Eigen::Vector2d& gamma_pre) {
    const double a = gamma_pre[0], b = gamma_pre[1];
    if (b >= 0) {
        if (a >= 0) return Cone::I;
        return a + b >= 0 ? Cone::IIa : Cone::IIb;
    }
    if (a < 0) return Cone::III;
    return a + b >= 0 ? Cone::IVa : Cone::IVb;
}

std::string_view order_name(ImpactOrder order) {
    switch (order) {
        case ImpactOrder::left_to_right: return "left-to-right";
        case ImpactOrder::right_to_left: return "right-to-left";
        case ImpactOrder::most_negative: return "most-negative";
    }
    throw std::logic_error("order_name: unknown order");
}

std::vector<std::string> impact_order_names() {
    std::vector<std::string> names{std::string(order_name(default_impact_order))};
    for (ImpactOrder o : {ImpactOrder::left_to_right, ImpactOrder::right_to_left, ImpactOrder::most_negative})
        if (o != default_impact_order) names.emplace_back(order_name(o));
    return names;
}

ImpactOrder parse_impact_order(std::string_view name) {
    for (ImpactOrder o : {ImpactOrder::left_to_right, ImpactOrder::right_to_left, ImpactOrder::most_negative})
        if (order_name(o) == name) return o;
    throw InvalidInput("order", input::unknown("order", name, impact_order_names()));
}

namespace {

bool three_equal_masses(const Eigen::VectorXd& m) {
    return m.size() == 3 && m[0] == m[1] && m[1] == m[2];
}

// The next contact to impact, or -1 when none approaches. `hint` is the last impacted contact:
// an impact at k changes gamma only at k-1, k, k+1, so a directional scan can restart next to it.
Eigen::Index next_contact(const Eigen::VectorXd& u, double threshold, ImpactOrder order, Eigen::Index hint) {
    const Eigen::Index contacts = u.size() - 1;
    auto gamma = [&](Eigen::Index k) { return u[k + 1] - u[k]; };
    switch (order) {
        case ImpactOrder::left_to_right:
            for (Eigen::Index k = std::max<Eigen::Index>(hint - 1, 0); k < contacts; ++k)
                if (gamma(k) < threshold) return k;
            return -1;
        case ImpactOrder::right_to_left:
            for (Eigen::Index k = std::min(hint + 1, contacts - 1); k >= 0; --k)
                if (gamma(k) < threshold) return k;
            return -1;
        case ImpactOrder::most_negative: {
            Eigen::Index best = -1;
            for (Eigen::Index k = 0; k < contacts; ++k)
                if (gamma(k) < threshold && (best < 0 || gamma(k) < gamma(best))) best = k;
            return best;
        }
    }
    return -1;
}

void validate(const ImpactMatrices& im, const Eigen::VectorXd& u_pre, const SequentialOptions& options) {
    detail::require_velocities(im, u_pre);
    detail::require_max_impacts(options.max_impacts);
}

}  // namespace

LawResult sequential_impacts(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                             const SequentialOptions& options) {
    validate(im, u_pre, options);
    const Eigen::VectorXd& m = im.masses;
    const double v_ref = std::max(u_pre.lpNorm<Eigen::Infinity>(),
                                  contact_velocities(u_pre).lpNorm<Eigen::Infinity>());
    const double threshold = -1e-13 * v_ref;
    // The left-to-right scan starts at the hint - 1 and the right-to-left scan at hint + 1.
    Eigen::Index hint = options.order == ImpactOrder::right_to_left ? u_pre.size() - 2 : 0;

    Eigen::VectorXd u = u_pre;
    Eigen::VectorXd impulses = Eigen::VectorXd::Zero(u.size() - 1);
    SequentialInfo info;
    info.order = order_name(options.order);
    info.max_impacts = options.max_impacts;
    for (;;) {
        const Eigen::Index k = next_contact(u, threshold, options.order, hint);
        if (k < 0) break;
        if (info.impacts == options.max_impacts) {
            info.cap_hit = true;
            break;
        }
        // Elastic impact of balls k, k+1 alone: Lambda = -2 gamma_k / G_kk, gamma_k -> -gamma_k.
        const double P = -2 * (u[k + 1] - u[k]) / (1 / m[k] + 1 / m[k + 1]);
        u[k] -= P / m[k];
        u[k + 1] += P / m[k + 1];
        impulses[k] += P;
        ++info.impacts;
        info.sequence.push_back(k);
        hint = k;
    }
    LawResult r = make_law_result("sequential", im, u_pre, u, impulses);
    r.sequential = info;
    return r;
}

LawResult sequential_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                         const SequentialOptions& options) {
    if (!three_equal_masses(im.masses)) return sequential_impacts(im, u_pre, options);
    validate(im, u_pre, options);
    const Eigen::Vector2d gamma_pre = contact_velocities(u_pre);
    const Cone cone = cone_of(gamma_pre);
    if (cone_impacts(cone) > options.max_impacts) return sequential_impacts(im, u_pre, options);
    const Eigen::Matrix2d Q = cone_matrix(cone);
    const Eigen::VectorXd impulses =
        impulses_from_contact_velocities(im, gamma_pre, Eigen::Vector2d(Q * gamma_pre));
    LawResult r = make_law_result("sequential", im, u_pre, velocities_after(im, u_pre, impulses), impulses);
    SequentialInfo info;
    info.order = order_name(options.order);
    info.max_impacts = options.max_impacts;
    info.impacts = cone_impacts(cone);
    info.cone = std::string(cone_name(cone));
    info.cone_matrix = Q;
    r.sequential = info;
    return r;
}

}  // namespace rodcollide::laws
