// M, W, G of Winandy & Leine 2015 eq. (3) and (6), and the matrix-free forms against the dense ones.
#include "rodcollide/impact_matrices.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>

using namespace rodcollide;

TEST_CASE("impact matrices of three equal balls match Winandy & Leine 2015 eq. (3)", "[impact_matrices]") {
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

TEST_CASE("the one check of masses and velocities names them as data", "[impact_matrices][errors]") {
    auto refusal = [](const std::function<void()>& check) -> std::string {
        try {
            check();
        } catch (const InvalidInput& e) {
            return e.key() + ": " + e.message();
        }
        return "(accepted)";
    };
    const Eigen::Vector3d ones(1, 1, 1);
    CHECK(refusal([&] { validate_masses(ones); }) == "(accepted)");
    CHECK(refusal([] { validate_masses(Eigen::VectorXd::Ones(1)); }) ==
          "masses: must have at least 2 values (one per ball), got 1");
    CHECK(refusal([] { validate_masses(Eigen::Vector3d(1, 0, 1)); }) == "masses: must be > 0, got 0 (ball 2)");
    CHECK(refusal([] { validate_masses(Eigen::Vector2d(std::nan(""), 1)); }) == "masses: must be finite, got nan (ball 1)");
    CHECK(refusal([] { validate_masses(Eigen::Vector2d(1, 1e-320)); }) ==
          "masses: too small: 1/m overflows, got 1e-320 (ball 2)");
    CHECK(refusal([&] { validate_velocities(ones, Eigen::Vector3d(1, 0, -1)); }) == "(accepted)");
    CHECK(refusal([&] { validate_velocities(ones, Eigen::Vector2d(1, 0)); }) ==
          "velocities: must have 3 values (one per ball), got 2");
    CHECK(refusal([&] { validate_velocities(ones, Eigen::Vector3d(1, INFINITY, 0)); }) ==
          "velocities: must be finite, got inf (ball 2)");
    CHECK(refusal([&] { validate_velocities(ones, Eigen::Vector3d(1e200, 0, 0)); }) ==
          "velocities: the kinetic energy overflows; choose smaller units");
    // impact_matrices() makes the same check.
    CHECK(refusal([] { impact_matrices(Eigen::Vector3d(1, -2, 1)); }) == "masses: must be > 0, got -2 (ball 2)");
}
