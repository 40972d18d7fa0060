// M, W, G of a chain (Winandy & Leine 2015 eqs 1-6) and their matrix-free counterparts.
#include "rodcollide/impact_matrices.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace rodcollide {

void validate_masses(const Eigen::VectorXd& masses) {
    if (masses.size() < 2)
        throw InvalidInput("masses", input::wrong_count("at least 2 values (one per ball)", masses.size()));
    input::require_each("masses", masses, input::positive, "ball");
    input::require_each("masses", masses, [](double m) -> input::Problem {
        if (!std::isfinite(1 / m)) return fmt::format("too small: 1/m overflows, got {}", m);
        return std::nullopt;
    }, "ball");
}

void validate_velocities(const Eigen::VectorXd& masses, const Eigen::VectorXd& velocities) {
    if (velocities.size() != masses.size())
        throw InvalidInput("velocities", input::wrong_count(masses.size(), "one per ball", velocities.size()));
    input::require_each("velocities", velocities, input::finite, "ball");
    if (!std::isfinite(kinetic_energy(masses, velocities)))
        throw InvalidInput("velocities", "the kinetic energy overflows; choose smaller units");
}

ImpactMatrices impact_matrices(const Eigen::VectorXd& masses) {
    validate_masses(masses);
    const Eigen::Index n = masses.size();
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
