// Block principal pivoting for the P-matrix LCP (Judice & Pires 1994, with Murty's least-index
// rule as the finite fallback). Used by the Newton and Poisson laws with A = G.
#include "analysis/laws/lcp.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace rodcollide::laws {

namespace {

// Block steps allowed without a new minimum of infeasibilities before a single Murty pivot.
constexpr int block_tries = 3;

// Murty's rule needs at most 2^n pivots; each of the at most n+1 new minima adds block_tries.
long long pivot_cap(Eigen::Index n) {
    if (n <= 20) return (static_cast<long long>(n) + 1) * ((1LL << n) + block_tries);
    return 10'000'000;
}

}  // namespace

LcpSolution solve_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& q) {
    const Eigen::Index n = q.size();
    if (A.rows() != n || A.cols() != n)
        throw std::invalid_argument(fmt::format("solve_lcp: A is {}x{} but q has {} entries",
                                                A.rows(), A.cols(), n));
    if (!A.allFinite() || !q.allFinite())
        throw std::invalid_argument("solve_lcp: A and q must be finite");

    LcpSolution s;
    s.z = Eigen::VectorXd::Zero(n);
    s.w = q;
    const double scale = n ? q.lpNorm<Eigen::Infinity>() : 0.0;
    if (scale == 0) return s;
    const double tol = 1e-13 * scale;

    std::vector<bool> basic(n);
    // Warm start: z free wherever q <= 0. Exact at once when A^-1 >= 0 entrywise and q <= 0, as
    // for a chain's Delassus matrix (a Stieltjes matrix) with every contact approaching or at rest.
    for (Eigen::Index i = 0; i < n; ++i) basic[i] = q[i] <= 0;
    std::size_t best = static_cast<std::size_t>(n) + 1;
    int tries = 0;
    const long long cap = pivot_cap(n);
    for (;;) {
        std::vector<Eigen::Index> b;
        for (Eigen::Index i = 0; i < n; ++i)
            if (basic[i]) b.push_back(i);
        s.z.setZero();
        if (!b.empty()) s.z(b) = Eigen::VectorXd(A(b, b).partialPivLu().solve(-q(b)));
        if (!s.z.allFinite())
            throw std::runtime_error("solve_lcp: singular principal submatrix (A is not a P-matrix)");
        s.w = A * s.z + q;
        for (Eigen::Index i : b) s.w[i] = 0;

        std::vector<Eigen::Index> infeasible;
        for (Eigen::Index i = 0; i < n; ++i) {
            const double z_tol = A(i, i) != 0 ? tol / std::abs(A(i, i)) : 0.0;  // z ~ w / A_ii
            if (basic[i] ? s.z[i] < -z_tol : s.w[i] < -tol) infeasible.push_back(i);
        }
        if (infeasible.empty()) return s;

        if (s.pivots >= cap)
            throw std::runtime_error(
                fmt::format("solve_lcp: no solution after {} pivots (A is not a P-matrix)", cap));
        ++s.pivots;
        if (infeasible.size() < best) {
            best = infeasible.size();
            tries = 0;
        } else if (tries < block_tries) {
            ++tries;
        } else {
            basic[infeasible.front()] = !basic[infeasible.front()];  // Murty's least-index pivot
            continue;
        }
        for (Eigen::Index i : infeasible) basic[i] = !basic[i];
    }
}

}  // namespace rodcollide::laws
