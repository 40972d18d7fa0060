// Brogliato, Zhang & Liu's kinematic restitution law with a restitution matrix E_n and normalisation
// D (§2.2, §7).
#include "analysis/laws/kinematic.hpp"

#include "analysis/laws/validate.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rodcollide::laws {

Eigen::VectorXd kinematic_normalisation(const ImpactMatrices& im) {
    return im.G.diagonal().cwiseSqrt();
}

LawResult kinematic_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                        const Eigen::MatrixXd& restitution_matrix) {
    detail::require_velocities(im, u_pre);
    detail::require_restitution_matrix(im.masses.size() - 1, restitution_matrix);
    const Eigen::VectorXd D = kinematic_normalisation(im);
    const Eigen::VectorXd gamma_pre = contact_velocities(u_pre);
    const Eigen::VectorXd normal_pre = gamma_pre.cwiseQuotient(D);
    const Eigen::VectorXd normal_post = -restitution_matrix * normal_pre;
    const Eigen::VectorXd impulses =
        impulses_from_contact_velocities(im, gamma_pre, D.cwiseProduct(normal_post));
    return make_law_result("kinematic", im, u_pre, velocities_after(im, u_pre, impulses), impulses);
}

}  // namespace rodcollide::laws
