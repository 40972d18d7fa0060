// Preconditions shared by the law implementations (library boundary checks; the CLI reports the
// same problems earlier, naming its options).
#pragma once

#include "rodcollide/impact_matrices.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <stdexcept>

namespace rodcollide::laws::detail {

/// u- must have one finite entry per mass.
inline void require_velocities(const ImpactMatrices& im, const Eigen::VectorXd& u_pre) {
    if (u_pre.size() != im.masses.size())
        throw std::invalid_argument(fmt::format("velocities: {} entries for {} masses", u_pre.size(),
                                                im.masses.size()));
    if (!u_pre.allFinite()) throw std::invalid_argument("velocities: must be finite");
}

/// Newton and Poisson: one eps_k in [0, 1] per contact.
inline void require_restitution(const ImpactMatrices& im, const Eigen::VectorXd& restitution) {
    const Eigen::Index contacts = im.masses.size() - 1;
    if (restitution.size() != contacts)
        throw std::invalid_argument(fmt::format("restitution: {} entries for {} contacts",
                                                restitution.size(), contacts));
    for (Eigen::Index k = 0; k < contacts; ++k)
        if (!(restitution[k] >= 0 && restitution[k] <= 1))
            throw std::invalid_argument(
                fmt::format("restitution: must be in [0, 1], got {} at contact {}", restitution[k], k + 1));
}

}  // namespace rodcollide::laws::detail
