// The generalized Poisson impact law (Yunt 2014 §7, Glocker 2001; docs/physics.md §3): a
// compression LCP 0 <= Lambda_c ⊥ gamma- + G Lambda_c >= 0, then an expansion LCP for Lambda_e with
// 0 <= Lambda_e - E Lambda_c ⊥ gamma+ = gamma- + G (Lambda_c + Lambda_e) >= 0, E = diag(eps_k).
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law_result.hpp"

#include <Eigen/Dense>

namespace rodcollide::laws {

/// The two phases of the Poisson law, for checks; Lambda = compression + expansion.
struct PoissonImpulses {
    Eigen::VectorXd compression;  ///< Lambda_c [N*s]
    Eigen::VectorXd expansion;    ///< Lambda_e [N*s], >= E Lambda_c
    int pivots = 0;               ///< LCP pivots of both phases
};

/// The two LCPs. restitution: eps_k in [0, 1] per contact (n-1 entries, dimensionless).
/// Throws std::invalid_argument naming "restitution" for a wrong size or an eps outside [0, 1].
PoissonImpulses poisson_impulses(const ImpactMatrices& im, const Eigen::VectorXd& gamma_pre,
                                 const Eigen::VectorXd& restitution);

/// The generalized Poisson law (Lambda = Lambda_c + Lambda_e, u+ = u- + M^-1 W Lambda).
LawResult poisson_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                      const Eigen::VectorXd& restitution);

}  // namespace rodcollide::laws
