// The rigid-body impact equations of a chain of n bodies with n-1 contacts (Winandy & Leine 2015
// eqs 1-6, docs/physics.md §3): M(u+ - u-) = W*Lambda, gamma = W^T u, G = W^T M^-1 W (the Delassus
// matrix, tridiagonal). Contact k sits between bodies k and k+1; gamma_k = u_{k+1} - u_k; column k
// of W is -e_k + e_{k+1}. This is the one place these matrices are built; the laws, the comparison
// module and the solvers' outcome checks all use it.
#pragma once

#include "rodcollide/errors.hpp"

#include <Eigen/Dense>

namespace rodcollide {

/// M, W and G for bodies with the given masses [kg] (dense: meant for chains of modest size).
struct ImpactMatrices {
    Eigen::VectorXd masses;  ///< m_i [kg], all > 0
    Eigen::MatrixXd M;       ///< diag(m) [kg], n x n
    Eigen::MatrixXd W;       ///< generalized force directions, n x (n-1)
    Eigen::MatrixXd G;       ///< Delassus matrix W^T M^-1 W [1/kg], (n-1) x (n-1)
};

/// The one check of the bodies' masses [kg] (for the laws, `rodcollide laws` and validation
/// files): at least 2, each finite and > 0, with 1/m finite (G must be representable).
/// @throws InvalidInput("masses", ...).
void validate_masses(const Eigen::VectorXd& masses);

/// The one check of pre-impact velocities [m/s] for these masses: one finite value per body and
/// a kinetic energy a double can hold.
/// @pre validate_masses(masses) passes.
/// @throws InvalidInput("velocities", ...).
void validate_velocities(const Eigen::VectorXd& masses, const Eigen::VectorXd& velocities);

/// Builds M, W, G.
/// @throws InvalidInput for masses validate_masses refuses.
ImpactMatrices impact_matrices(const Eigen::VectorXd& masses);

/// gamma = W^T u: contact velocities u_{k+1} - u_k [m/s] (matrix-free, any n).
Eigen::VectorXd contact_velocities(const Eigen::VectorXd& u);

/// W*Lambda: generalized impulse on each body from contact impulses Lambda [N*s] (matrix-free).
Eigen::VectorXd generalized_impulse(const Eigen::VectorXd& impulses);

/// T = u^T M u / 2 [J]. @pre u.size() == masses.size()
double kinetic_energy(const Eigen::VectorXd& masses, const Eigen::VectorXd& u);

/// Centre-of-mass velocity sum(m u)/sum(m) [m/s]. @pre u.size() == masses.size()
double centre_of_mass_velocity(const Eigen::VectorXd& masses, const Eigen::VectorXd& u);

}  // namespace rodcollide
