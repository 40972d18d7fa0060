// Preconditions of the rigid laws, each written once: validate_law_parameters() (law.cpp) and the
// law implementations (library boundary checks) both use them, and the CLI and validation files
// get their messages through InvalidInput, naming the parameter.
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/errors.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <limits>

namespace rodcollide::laws::detail {

/// u- must have one finite entry per mass (validate_velocities).
inline void require_velocities(const ImpactMatrices& im, const Eigen::VectorXd& u_pre) {
    validate_velocities(im.masses, u_pre);
}

/// Newton and Poisson: each eps in [0, 1].
inline void require_unit_restitution(const Eigen::VectorXd& restitution) {
    input::require_each("restitution", restitution, [](double e) { return input::within(e, {0, 1}); }, "value");
}

/// Newton and Poisson: one eps_k in [0, 1] per contact.
inline void require_restitution(const ImpactMatrices& im, const Eigen::VectorXd& restitution) {
    const Eigen::Index contacts = im.masses.size() - 1;
    if (restitution.size() != contacts)
        throw InvalidInput("restitution",
                           input::wrong_count(contacts, "one per contact", restitution.size()));
    require_unit_restitution(restitution);
}

/// Kinematic: E_n is contacts x contacts, with finite entries.
inline void require_restitution_matrix(Eigen::Index contacts, const Eigen::MatrixXd& matrix) {
    if (matrix.rows() != contacts || matrix.cols() != contacts)
        throw InvalidInput("restitution_matrix", fmt::format("must be {0}x{0} for {0} contacts, got {1}x{2}", contacts,
                                                             matrix.rows(), matrix.cols()));
    for (Eigen::Index r = 0; r < contacts; ++r)
        for (Eigen::Index c = 0; c < contacts; ++c)
            if (const input::Problem p = input::finite(matrix(r, c)))
                throw InvalidInput("restitution_matrix", fmt::format("{} (row {}, column {})", *p, r + 1, c + 1));
}

/// Sequential: a cap on two-ball impacts > 0.
inline void require_max_impacts(long long max_impacts) {
    input::require("max_impacts", input::integer_within(max_impacts, 1, std::numeric_limits<long long>::max()));
}

}  // namespace rodcollide::laws::detail
