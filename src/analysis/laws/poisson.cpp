// Generalized Poisson law (Yunt 2014 §7, docs/physics.md §3): compression LCP, then expansion LCP.
#include "analysis/laws/poisson.hpp"

#include "analysis/laws/lcp.hpp"
#include "analysis/laws/validate.hpp"

namespace rodcollide::laws {

PoissonImpulses poisson_impulses(const ImpactMatrices& im, const Eigen::VectorXd& gamma_pre,
                                 const Eigen::VectorXd& restitution) {
    detail::require_restitution(im, restitution);
    PoissonImpulses p;
    // Compression: the contacts end with gamma_c = gamma- + G Lambda_c >= 0 ⊥ Lambda_c >= 0.
    const LcpSolution compression = solve_lcp(im.G, gamma_pre);
    p.compression = compression.z;
    // Expansion: x = Lambda_e - E Lambda_c >= 0 ⊥ gamma+ = gamma_c + G E Lambda_c + G x >= 0.
    const Eigen::VectorXd minimum_expansion = restitution.cwiseProduct(p.compression);
    const LcpSolution expansion = solve_lcp(im.G, compression.w + im.G * minimum_expansion);
    p.expansion = minimum_expansion + expansion.z;
    p.pivots = compression.pivots + expansion.pivots;
    return p;
}

LawResult poisson_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                      const Eigen::VectorXd& restitution) {
    detail::require_velocities(im, u_pre);
    const PoissonImpulses p = poisson_impulses(im, contact_velocities(u_pre), restitution);
    const Eigen::VectorXd impulses = p.compression + p.expansion;
    LawResult r = make_law_result("poisson", im, u_pre, velocities_after(im, u_pre, impulses), impulses);
    r.lcp_pivots = p.pivots;
    return r;
}

}  // namespace rodcollide::laws
