// The generalized kinematic restitution law of Brogliato, Zhang & Liu 2012 §2.2 eq. (12) and §7:
// normalised contact velocities v_n = D^-1 gamma with D = diag(sqrt(G_kk)), v_n+ = -E_n v_n- for
// any m x m matrix E_n, Lambda = G^-1 D (v_n+ - v_n-). No LCP: consistency is only checked
// (docs/physics.md §3-4).
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law_result.hpp"

#include <Eigen/Dense>

namespace rodcollide::laws {

/// D = diag(sqrt(G_kk)) [1/sqrt(kg)]: gamma_k / D_kk is Brogliato, Zhang & Liu's q_norm,k (for
/// equal masses sqrt(m/2) gamma_k; the paper's 1/sqrt(2m) is a misprint, docs/physics.md §4).
Eigen::VectorXd kinematic_normalisation(const ImpactMatrices& im);

/// The kinematic law with restitution matrix E_n ((n-1) x (n-1), dimensionless, any finite
/// entries). E_n = e I is Moreau's law with global e wherever Moreau keeps every contact active
/// (then both give gamma+ = -e gamma-); elsewhere this law is flagged kinetically inconsistent.
/// Throws std::invalid_argument naming "restitution-matrix" for a wrong size or a non-finite entry.
LawResult kinematic_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                        const Eigen::MatrixXd& restitution_matrix);

}  // namespace rodcollide::laws
