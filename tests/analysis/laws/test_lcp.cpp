// The exact P-matrix LCP solver against brute-force enumeration of all complementary bases.
#include "rodcollide/impact_matrices.hpp"
#include "analysis/laws/lcp.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>


using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;
using rodcollide::testing::enumerate_lcp;

namespace {

void check_solution(const Eigen::MatrixXd& A, const Eigen::VectorXd& q, const LcpSolution& s) {
    const double scale = q.lpNorm<Eigen::Infinity>();
    CHECK((s.z.array() >= -1e-12 * scale).all());
    CHECK((s.w.array() >= -1e-12 * scale).all());
    CHECK((s.w - (A * s.z + q)).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
    for (Eigen::Index i = 0; i < q.size(); ++i) CHECK(s.z[i] * s.w[i] == 0.0);  // exact by construction
}

}  // namespace

TEST_CASE("LCP solution matches enumeration for Delassus matrices of random chains", "[laws][lcp]") {
    RandomChains rnd(11);
    for (int t = 0; t < 300; ++t) {
        const int n = rnd.integer(2, 9);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        const Eigen::VectorXd q = rnd.vector(n - 1, -1, 1);
        const LcpSolution s = solve_lcp(im.G, q);
        check_solution(im.G, q, s);
        CHECK((s.z - enumerate_lcp(im.G, q)).lpNorm<Eigen::Infinity>() <= 1e-10 * (1 + s.z.lpNorm<Eigen::Infinity>()));
    }
}

TEST_CASE("LCP solution matches enumeration for dense SPD and non-symmetric P-matrices", "[laws][lcp]") {
    RandomChains rnd(12);
    for (int t = 0; t < 300; ++t) {
        const int n = rnd.integer(1, 8);
        Eigen::MatrixXd A;
        if (t % 2) {
            const Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return rnd.uniform(-1, 1); });
            A = B.transpose() * B + 0.05 * Eigen::MatrixXd::Identity(n, n);
        } else {  // strictly diagonally dominant with a positive diagonal: a P-matrix
            A = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return rnd.uniform(-1, 1); });
            for (int i = 0; i < n; ++i) A(i, i) = A.row(i).cwiseAbs().sum() + 0.1;
        }
        const Eigen::VectorXd q = rnd.vector(n, -1, 1);
        const LcpSolution s = solve_lcp(A, q);
        check_solution(A, q, s);
        CHECK((s.z - enumerate_lcp(A, q)).lpNorm<Eigen::Infinity>() <= 1e-9 * (1 + s.z.lpNorm<Eigen::Infinity>()));
    }
}

TEST_CASE("LCP: Murty's exponential example is solved exactly", "[laws][lcp]") {
    // Upper triangular, 1 on the diagonal and 2 above: a P-matrix on which least-index pivoting
    // from z = 0 needs 2^n - 1 pivots. The solution is z = e_n (w = (1, ..., 1, 0)).
    const int n = 12;
    Eigen::MatrixXd A = Eigen::MatrixXd::Identity(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) A(i, j) = 2;
    const Eigen::VectorXd q = -Eigen::VectorXd::Ones(n);
    const LcpSolution s = solve_lcp(A, q);
    check_solution(A, q, s);
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(n);
    expected[n - 1] = 1;
    CHECK(s.z.isApprox(expected));
    CHECK(s.pivots < 1000);
}

TEST_CASE("LCP: degenerate and trivial right-hand sides", "[laws][lcp]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector4d(1, 1, 1, 1));
    const LcpSolution zero = solve_lcp(im.G, Eigen::Vector3d::Zero());
    CHECK(zero.z.isZero(0));
    CHECK(zero.pivots == 0);
    // q = 0 at a contact that must carry an impulse.
    const Eigen::Vector3d q(-1, 0, 0);
    const LcpSolution s = solve_lcp(im.G, q);
    check_solution(im.G, q, s);
    CHECK(s.z.isApprox(im.G.ldlt().solve(-q)));  // G^-1 (1,0,0) = (3,2,1)/4 > 0: all active
}

TEST_CASE("LCP: refuses bad sizes and reports matrices that are not P-matrices", "[laws][lcp]") {
    CHECK_THROWS_AS(solve_lcp(Eigen::MatrixXd::Identity(2, 2), Eigen::VectorXd::Ones(3)), std::invalid_argument);
    CHECK_THROWS_AS(solve_lcp(Eigen::MatrixXd::Identity(1, 1), Eigen::VectorXd::Constant(1, std::nan(""))),
                    std::invalid_argument);
    // -I has no solution for q < 0: the pivot cap stops the search.
    CHECK_THROWS_AS(solve_lcp(-Eigen::MatrixXd::Identity(1, 1), -Eigen::VectorXd::Ones(1)), std::runtime_error);
}
