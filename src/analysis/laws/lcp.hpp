// Exact solver of the linear complementarity problem 0 <= z ⊥ w = A z + q >= 0 for a P-matrix A
// (every principal minor > 0; e.g. the Delassus matrix G of Leine & Baumann 2014 eq. 5, which is
// symmetric positive definite). The solution is unique for a P-matrix; it is found by principal pivoting.
#pragma once

#include <Eigen/Dense>

namespace rodcollide::laws {

/// Solution of 0 <= z ⊥ w = A z + q >= 0. Complementarity is exact by construction: z_i = 0 is
/// stored exactly where w_i may be > 0, and w_i = 0 exactly where z_i may be > 0; only the signs
/// of the remaining entries carry rounding (relative to |q|, see solve_lcp).
struct LcpSolution {
    Eigen::VectorXd z;  ///< the unknown (an impulse in this project) [same unit as q / A]
    Eigen::VectorXd w;  ///< A z + q [same unit as q]
    int pivots = 0;     ///< pivoting steps (a block step exchanges several indices at once)
};

/// Solves the LCP by block principal pivoting (Judice & Pires 1994): each step exchanges every
/// infeasible index between the basic (z free, w = 0) and non-basic (z = 0) sets; when that
/// fails to reduce the number of infeasibilities three times running, it falls back to Murty's
/// least-index single pivot, which terminates for every P-matrix (at most 2^n pivots). Each step
/// solves one principal subsystem with LU, so the answer is an exact complementary basis, not an
/// iterate. An entry counts as negative below -1e-13 |q|_inf (for z: divided by |A_ii|).
/// Preconditions: A square, the size of q, a P-matrix. Throws std::invalid_argument on a size
/// mismatch or a non-finite entry, std::runtime_error if a principal submatrix is singular or
/// the pivot count exceeds its bound (both impossible for a P-matrix).
LcpSolution solve_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& q);

}  // namespace rodcollide::laws
