// The generalized Newton (Moreau) impact law, Leine & Baumann 2014 eqs (7)-(9): at every closed contact
// 0 <= Lambda_k ⊥ gamma+_k + eps_k gamma-_k >= 0, i.e. the LCP 0 <= Lambda ⊥ G Lambda + (I+E) gamma- >= 0
// with E = diag(eps_k), solved exactly (lcp.hpp). Global eps: the prox forms (26)-(27).
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law_result.hpp"

#include <Eigen/Dense>

namespace rodcollide::laws {

/// The generalized Newton law. restitution: eps_k in [0, 1] for each of the n-1 contacts
/// (dimensionless); a global eps is a constant vector. Throws std::invalid_argument naming
/// "restitution" for a wrong size or an eps outside [0, 1].
LawResult newton_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                     const Eigen::VectorXd& restitution);

}  // namespace rodcollide::laws
