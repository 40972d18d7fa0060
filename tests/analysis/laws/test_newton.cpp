// The generalized Newton law: the cradle values, the LCP against the prox forms (26) and (27) of
// Leine & Baumann 2014 computed independently, complementarity with per-contact eps, Thm 1 and Thm 3.
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "analysis/laws/newton.hpp"
#include "rodcollide/laws/properties.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;
using rodcollide::testing::enumerate_lcp;
using rodcollide::testing::subset;

namespace {

// prox^P_{R+^k}(z) = argmin_{x >= 0} |x - z|_P (Leine & Baumann 2014 eqs 36-37): x >= 0, P
// (x - z) >= 0, complementary, i.e. the LCP (P, -P z), solved here by enumerating every free set.
Eigen::VectorXd prox_orthant(const Eigen::MatrixXd& P, const Eigen::VectorXd& z) {
    return enumerate_lcp(P, -P * z);
}

// prox^M_{T_C}(u) with T_C = {v : W^T v >= 0}, by enumeration of the active constraints A:
// v = u + M^-1 W_A mu_A with W_A^T v = 0, feasible when mu_A >= 0 and W^T v >= 0.
Eigen::VectorXd prox_tangent_cone(const ImpactMatrices& im, const Eigen::VectorXd& u) {
    const int k = static_cast<int>(im.W.cols());
    const Eigen::MatrixXd Minv = im.masses.cwiseInverse().asDiagonal();
    for (unsigned mask = 0; mask < (1u << k); ++mask) {
        const Eigen::MatrixXd WA = im.W(Eigen::all, subset(mask, k));
        const Eigen::VectorXd mu = (WA.transpose() * Minv * WA).ldlt().solve(-WA.transpose() * u);
        const Eigen::VectorXd v = u + Minv * WA * mu;
        if ((mu.array() >= -1e-12).all() && ((im.W.transpose() * v).array() >= -1e-12).all()) return v;
    }
    throw std::logic_error("prox_tangent_cone: no feasible active set");
}

LawResult newton(const ImpactMatrices& im, const Eigen::VectorXd& u, double eps) {
    return newton_law(im, u, Eigen::VectorXd::Constant(im.masses.size() - 1, eps));
}

}  // namespace

TEST_CASE("three equal balls, u- = (1,0,0): eps = 1 and eps = 0", "[laws][newton]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 1, 1));
    const Eigen::Vector3d u(1, 0, 0);
    const LawResult elastic = newton(im, u, 1);
    CHECK((elastic.velocities_post - Eigen::Vector3d(-1.0 / 3, 2.0 / 3, 2.0 / 3)).norm() < 1e-15);
    CHECK(elastic.energy_ratio == Approx(1).epsilon(1e-15));
    const LawResult plastic = newton(im, u, 0);
    CHECK((plastic.velocities_post - Eigen::Vector3d(1.0 / 3, 1.0 / 3, 1.0 / 3)).norm() < 1e-15);
    CHECK(plastic.energy_ratio == Approx(1.0 / 3));
    for (const LawResult& r : {elastic, plastic}) {
        CHECK(r.consistency.kinematic);
        CHECK(r.consistency.kinetic);
        CHECK(r.consistency.energetic);
    }
}

TEST_CASE("Newton: the LCP, the prox form (26) and the Z form (27) agree on random inputs", "[laws][newton]") {
    RandomChains rnd(41);
    for (int t = 0; t < 400; ++t) {
        const int n = rnd.integer(2, 7);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        const Eigen::VectorXd u = rnd.velocities(n);  // any gamma-, also separating contacts
        const double eps = t % 4 == 0 ? double(t % 8) / 7 : rnd.uniform(0, 1);
        const LawResult lcp = newton(im, u, eps);
        const Eigen::VectorXd gamma_pre = contact_velocities(u);
        // (26): gamma+ = (1 + eps) G prox^G(-G^-1 gamma-) + gamma-
        const Eigen::VectorXd s26 =
            (1 + eps) * im.G * prox_orthant(im.G, -im.G.ldlt().solve(gamma_pre)) + gamma_pre;
        // (27): u+ = (1 + eps) prox^M_{T_C}(u-) - eps u-
        const Eigen::VectorXd z27 = (1 + eps) * prox_tangent_cone(im, u) - eps * u;
        CHECK((lcp.gamma_post - s26).lpNorm<Eigen::Infinity>() < 1e-12);
        CHECK((lcp.velocities_post - z27).lpNorm<Eigen::Infinity>() < 1e-12);
    }
}

TEST_CASE("Newton with one eps per contact: complementarity 0 <= Lambda ⊥ gamma+ + E gamma- >= 0",
          "[laws][newton]") {
    RandomChains rnd(42);
    for (int t = 0; t < 400; ++t) {
        const auto [im, u, eps] = rnd.impact(t, 9);
        const LawResult r = newton_law(im, u, eps);
        const Eigen::VectorXd xi = r.gamma_post + eps.cwiseProduct(r.gamma_pre);
        const double p = im.masses.maxCoeff();
        CHECK((r.impulses.array() >= -1e-13 * p).all());
        CHECK((xi.array() >= -1e-13).all());
        CHECK(std::abs(r.impulses.dot(xi)) <= 1e-12 * p);
        if (t % 2 == 0) {  // gamma- <= 0: Newton is kinematically and energetically consistent
            CHECK(r.consistency.kinematic);
            CHECK(r.consistency.energetic);
        }
    }
}

TEST_CASE("Newton with a separating contact that gets pushed: flagged kinematically inconsistent",
          "[laws][newton]") {
    // gamma- = (-1, 0.01): the impact at contact 1 pushes ball 2 into ball 3, contact 2 carries an
    // impulse and Newton's rule gamma+_2 = -eps gamma-_2 makes it approach (Leine & Baumann 2014 after eq. 9).
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 1, 1));
    const LawResult r = newton(im, Eigen::Vector3d(1, 0, 0.01), 1);
    CHECK(r.impulses[1] > 0);
    CHECK(r.gamma_post[1] == Approx(-0.01));
    CHECK_FALSE(r.consistency.kinematic);
    CHECK(r.consistency.kinetic);
}

TEST_CASE("Leine & Baumann 2014: global eps is maximal monotone and cyclically monotone (sampled)", "[laws][newton]") {
    RandomChains rnd(43);
    for (double eps : {0.0, 0.4, 1.0}) {
        const ImpactMatrices im = impact_matrices(rnd.masses(4));
        LawParameters p;
        p.law = "newton";
        p.restitution = Eigen::VectorXd::Constant(1, eps);
        const PropertyReport r = check_properties(contact_map(p, im), im);
        CHECK(r.non_expansive.holds);
        CHECK(r.monotone.holds);
        CHECK(r.cyclically_monotone.holds);  // dissipation function (28)
        CHECK(r.positively_homogeneous.holds);
        CHECK(r.continuous.holds);
    }
}

TEST_CASE("Leine & Baumann 2014 Thm 3: Delta G positive semi-definite gives monotone; strongly coupled contacts "
          "with very different eps are expansive",
          "[laws][newton]") {
    auto report = [](const Eigen::VectorXd& masses, const Eigen::VectorXd& eps) {
        const ImpactMatrices im = impact_matrices(masses);
        LawParameters p;
        p.law = "newton";
        p.restitution = eps;
        return check_properties(contact_map(p, im), im);
    };
    auto delta_g_psd = [](const Eigen::VectorXd& masses, const Eigen::VectorXd& eps) {
        const ImpactMatrices im = impact_matrices(masses);
        const Eigen::VectorXd delta = (1 - eps.array()) / (1 + eps.array());
        const Eigen::MatrixXd DG = delta.asDiagonal() * im.G;
        return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (DG + DG.transpose())).eigenvalues().minCoeff() >= 0;
    };
    const Eigen::Vector3d equal(1, 1, 1);
    const Eigen::Vector2d close(0.5, 0.6);
    REQUIRE(delta_g_psd(equal, close));
    const PropertyReport ok = report(equal, close);
    CHECK(ok.non_expansive.holds);
    CHECK(ok.monotone.holds);

    // A light ball between two heavy ones: G nearly singular (kinetic angle near pi).
    const Eigen::Vector3d coupled(10, 0.1, 10);
    const Eigen::Vector2d apart(0, 1);
    REQUIRE_FALSE(delta_g_psd(coupled, apart));
    const PropertyReport bad = report(coupled, apart);
    CHECK_FALSE(bad.non_expansive.holds);
    CHECK(bad.non_expansive.max_ratio > 2);
    CHECK_FALSE(bad.monotone.holds);
}

TEST_CASE("Newton refuses eps outside [0, 1] and a wrong number of coefficients", "[laws][newton]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 1, 1));
    CHECK_THROWS_AS(newton_law(im, Eigen::Vector3d(1, 0, 0), Eigen::Vector2d(1.1, 0)), std::invalid_argument);
    CHECK_THROWS_AS(newton_law(im, Eigen::Vector3d(1, 0, 0), Eigen::Vector2d(-0.1, 0)), std::invalid_argument);
    CHECK_THROWS_AS(newton_law(im, Eigen::Vector3d(1, 0, 0), Eigen::VectorXd::Ones(1)), std::invalid_argument);
    CHECK_THROWS_AS(newton_law(im, Eigen::Vector2d(1, 0), Eigen::Vector2d(1, 1)), std::invalid_argument);
}
