// M, W, G of seed 000 eq. (3) and (6), and the matrix-free forms against the dense ones.
#include "rodcollide/impact_matrices.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;

TEST_CASE("impact matrices of three equal balls match seed 000 eq. (3)", "[impact_matrices]") {
    const double m = 2.0;
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(m, m, m));
    Eigen::MatrixXd W(3, 2);
    W << -1, 0, 1, -1, 0, 1;
    CHECK(im.W.isApprox(W));
    CHECK(im.M.isApprox(m * Eigen::Matrix3d::Identity()));
    Eigen::Matrix2d G;
    G << 2 / m, -1 / m, -1 / m, 2 / m;
    CHECK(im.G.isApprox(G));
}

TEST_CASE("matrix-free W^T u and W Lambda agree with the dense matrices", "[impact_matrices]") {
    Eigen::VectorXd masses(5);
    masses << 1, 2, 0.5, 3, 7;
    const ImpactMatrices im = impact_matrices(masses);
    Eigen::VectorXd u(5);
    u << 0.3, -1, 2, 0.25, -0.5;
    Eigen::VectorXd lambda(4);
    lambda << 1, 0.5, 0, 2;
    CHECK(contact_velocities(u).isApprox(im.W.transpose() * u));
    CHECK(generalized_impulse(lambda).isApprox(im.W * lambda));
    // G is tridiagonal and symmetric positive definite.
    CHECK(im.G.isApprox(im.G.transpose()));
    CHECK(im.G.llt().info() == Eigen::Success);
    CHECK(im.G(0, 2) == 0.0);
    // Contact impulses never change the total momentum: 1^T W = 0.
    CHECK(generalized_impulse(lambda).sum() == Approx(0).margin(1e-15));
}

TEST_CASE("impact matrices refuse fewer than two bodies and bad masses", "[impact_matrices]") {
    CHECK_THROWS_AS(impact_matrices(Eigen::VectorXd::Ones(1)), std::invalid_argument);
    CHECK_THROWS_AS(impact_matrices(Eigen::Vector2d(1, 0)), std::invalid_argument);
    CHECK_THROWS_AS(impact_matrices(Eigen::Vector2d(1, std::nan(""))), std::invalid_argument);
}
