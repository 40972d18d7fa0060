// The generalized Poisson law: both phases' complementarity conditions, agreement with Newton
// where theory says so (one contact; global eps with gamma- <= 0; eps = 0), and where it differs.
#include "rodcollide/impact_matrices.hpp"
#include "analysis/laws/newton.hpp"
#include "analysis/laws/poisson.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;

TEST_CASE("Poisson: compression and expansion phases satisfy their complementarity conditions",
          "[laws][poisson]") {
    RandomChains rnd(51);
    for (int t = 0; t < 400; ++t) {
        const auto [im, u, eps] = rnd.impact(t, 8);
        const Eigen::VectorXd gamma_pre = contact_velocities(u);
        const PoissonImpulses p = poisson_impulses(im, gamma_pre, eps);
        const double tol = 1e-12 * im.masses.maxCoeff();
        // Compression: 0 <= Lambda_c ⊥ gamma_c = gamma- + G Lambda_c >= 0.
        const Eigen::VectorXd gamma_c = gamma_pre + im.G * p.compression;
        CHECK((p.compression.array() >= -tol).all());
        CHECK((gamma_c.array() >= -1e-12).all());
        CHECK(std::abs(p.compression.dot(gamma_c)) <= tol);
        // Expansion: 0 <= Lambda_e - E Lambda_c ⊥ gamma+ >= 0.
        const Eigen::VectorXd excess = p.expansion - eps.cwiseProduct(p.compression);
        const LawResult r = poisson_law(im, u, eps);
        CHECK((excess.array() >= -tol).all());
        CHECK((r.gamma_post.array() >= -1e-12).all());
        CHECK(std::abs(excess.dot(r.gamma_post)) <= tol);
        CHECK((r.impulses - (p.compression + p.expansion)).norm() <= tol);
        CHECK(r.consistency.kinematic);  // gamma+ >= 0 by construction, for any gamma-
        CHECK(r.consistency.kinetic);
    }
}

TEST_CASE("Poisson equals Newton for one contact, for eps = 0, and for a global eps when gamma- <= 0",
          "[laws][poisson]") {
    // Global eps, gamma- <= 0: x = 0 solves the expansion LCP, since its q = gamma- + (1+eps) G
    // Lambda_c is eps(-gamma-) >= 0 where compression is active and gamma_c - gamma- >= 0 elsewhere;
    // so Lambda = (1 + eps) Lambda_c, which solves Newton's LCP by positive homogeneity.
    RandomChains rnd(52);
    for (int t = 0; t < 300; ++t) {
        const int kind = t % 3;
        const int n = kind == 0 ? 2 : rnd.integer(3, 8);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        const Eigen::VectorXd u = kind == 2 ? rnd.approaching_velocities(n) : rnd.velocities(n);
        const Eigen::VectorXd eps = kind == 1 ? Eigen::VectorXd::Zero(n - 1)
                                              : Eigen::VectorXd::Constant(n - 1, rnd.uniform(0, 1));
        const LawResult p = poisson_law(im, u, eps);
        const LawResult q = newton_law(im, u, eps);
        CHECK((p.velocities_post - q.velocities_post).lpNorm<Eigen::Infinity>() < 1e-12);
        CHECK((p.impulses - q.impulses).lpNorm<Eigen::Infinity>() < 1e-12 * im.masses.maxCoeff());
    }
}

TEST_CASE("Poisson with different eps per contact differs from Newton", "[laws][poisson]") {
    // Two coupled contacts with eps = (0.1, 0.6): Poisson keeps balls 1 and 2 together.
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1.2, 0.6, 2.0));
    const Eigen::Vector3d u(0.4, 0.2, -0.3);
    const Eigen::Vector2d eps(0.1, 0.6);
    const LawResult p = poisson_law(im, u, eps);
    const LawResult q = newton_law(im, u, eps);
    CHECK(p.gamma_post[0] == Approx(0).margin(1e-14));
    CHECK((p.velocities_post - q.velocities_post).norm() > 0.01);
    // Newton: gamma+_k = -eps_k gamma-_k at both (active) contacts.
    CHECK((q.gamma_post + eps.cwiseProduct(q.gamma_pre)).norm() < 1e-14);
    CHECK(p.consistency.energetic);
}

TEST_CASE("Poisson: three equal balls, u- = (1,0,0)", "[laws][poisson]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 1, 1));
    // Compression impulse G^-1 (1, 0) = (2/3, 1/3); the total is (1 + eps) times it.
    const LawResult r = poisson_law(im, Eigen::Vector3d(1, 0, 0), Eigen::Vector2d(0.5, 0.5));
    CHECK((r.impulses - Eigen::Vector2d(1.0, 0.5)).norm() < 1e-15);
    CHECK((r.velocities_post - Eigen::Vector3d(0, 0.5, 0.5)).norm() < 1e-15);
    CHECK_THROWS_AS(poisson_law(im, Eigen::Vector3d(1, 0, 0), Eigen::Vector2d(1.5, 0.5)), std::invalid_argument);
}
