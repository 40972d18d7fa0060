// Result of a rigid impact law: contact velocities, energies and the consistency flags
// (Winandy & Leine 2015 eqs 1-11), computed in one place for every law and for black-box maps.
#include "rodcollide/laws/law_result.hpp"

#include <algorithm>
#include <limits>

namespace rodcollide::laws {

Eigen::VectorXd velocities_after(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                                 const Eigen::VectorXd& impulses) {
    return u_pre + generalized_impulse(impulses).cwiseQuotient(im.masses);
}

Eigen::VectorXd impulses_from_contact_velocities(const ImpactMatrices& im,
                                                 const Eigen::VectorXd& gamma_pre,
                                                 const Eigen::VectorXd& gamma_post) {
    return im.G.ldlt().solve(gamma_post - gamma_pre);
}

double energy_ratio(double energy_pre, double energy_post) {
    if (energy_pre > 0) return energy_post / energy_pre;
    return energy_post == 0 ? 1.0 : std::numeric_limits<double>::infinity();
}

LawResult make_law_result(std::string law, const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                          const Eigen::VectorXd& u_post, const Eigen::VectorXd& impulses,
                          double tolerance) {
    LawResult r;
    r.law = std::move(law);
    r.masses = im.masses;
    r.velocities_pre = u_pre;
    r.velocities_post = u_post;
    r.impulses = impulses;
    r.gamma_pre = contact_velocities(u_pre);
    r.gamma_post = contact_velocities(u_post);
    r.energy_pre = kinetic_energy(im.masses, u_pre);
    r.energy_post = kinetic_energy(im.masses, u_post);
    r.energy_ratio = energy_ratio(r.energy_pre, r.energy_post);

    const double v_ref = std::max({u_pre.lpNorm<Eigen::Infinity>(), u_post.lpNorm<Eigen::Infinity>(),
                                   r.gamma_pre.lpNorm<Eigen::Infinity>()});
    const double p_ref = im.masses.maxCoeff() * v_ref;
    const double tol = tolerance;
    r.consistency.kinematic = (r.gamma_post.array() >= -tol * v_ref).all();
    r.consistency.kinetic = (impulses.array() >= -tol * p_ref).all();
    r.consistency.energetic =
        r.energy_post <= r.energy_pre + tol * std::max(r.energy_pre, r.energy_post);
    const Eigen::VectorXd residual =
        im.masses.cwiseProduct(u_post - u_pre) - generalized_impulse(impulses);
    const double worst = residual.lpNorm<Eigen::Infinity>();
    r.impact_equation_residual = p_ref > 0     ? worst / p_ref
                                 : worst == 0 ? 0.0
                                              : std::numeric_limits<double>::infinity();
    return r;
}

}  // namespace rodcollide::laws
