// Generalized Newton law (Leine & Baumann 2014 eqs 7-9): one LCP in Lambda with the Delassus matrix G.
#include "analysis/laws/newton.hpp"

#include "analysis/laws/lcp.hpp"
#include "analysis/laws/validate.hpp"

namespace rodcollide::laws {

LawResult newton_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                     const Eigen::VectorXd& restitution) {
    detail::require_velocities(im, u_pre);
    detail::require_restitution(im, restitution);
    const Eigen::VectorXd gamma_pre = contact_velocities(u_pre);
    // xi = gamma+ + E gamma- = G Lambda + (I + E) gamma-.
    const LcpSolution lcp =
        solve_lcp(im.G, (Eigen::VectorXd::Ones(gamma_pre.size()) + restitution).cwiseProduct(gamma_pre));
    LawResult r = make_law_result("newton", im, u_pre, velocities_after(im, u_pre, lcp.z), lcp.z);
    r.lcp_pivots = lcp.pivots;
    return r;
}

}  // namespace rodcollide::laws
