// M, W, G of a chain (seed 000 eqs 1-6) and their matrix-free counterparts.
#include "rodcollide/impact_matrices.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace rodcollide {

ImpactMatrices impact_matrices(const Eigen::VectorXd& masses) {
    const Eigen::Index n = masses.size();
    if (n < 2) throw std::invalid_argument(fmt::format("masses: need at least 2 bodies, got {}", n));
    for (Eigen::Index i = 0; i < n; ++i)
        if (!std::isfinite(masses[i]) || masses[i] <= 0)
            throw std::invalid_argument(
                fmt::format("masses[{}]: must be finite and > 0, got {}", i, masses[i]));
    ImpactMatrices r;
    r.masses = masses;
    r.M = masses.asDiagonal();
    r.W = Eigen::MatrixXd::Zero(n, n - 1);
    for (Eigen::Index k = 0; k + 1 < n; ++k) {
        r.W(k, k) = -1;
        r.W(k + 1, k) = 1;
    }
    r.G = r.W.transpose() * masses.cwiseInverse().asDiagonal() * r.W;
    return r;
}

Eigen::VectorXd contact_velocities(const Eigen::VectorXd& u) {
    const Eigen::Index n = u.size();
    return u.tail(n - 1) - u.head(n - 1);
}

Eigen::VectorXd generalized_impulse(const Eigen::VectorXd& impulses) {
    const Eigen::Index k = impulses.size();
    Eigen::VectorXd f = Eigen::VectorXd::Zero(k + 1);
    f.head(k) -= impulses;
    f.tail(k) += impulses;
    return f;
}

double kinetic_energy(const Eigen::VectorXd& masses, const Eigen::VectorXd& u) {
    return 0.5 * masses.dot(u.cwiseProduct(u));
}

double centre_of_mass_velocity(const Eigen::VectorXd& masses, const Eigen::VectorXd& u) {
    return masses.dot(u) / masses.sum();
}

}  // namespace rodcollide
