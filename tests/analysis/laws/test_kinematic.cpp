// Brogliato, Zhang & Liu's kinematic law: formulas (59) and (63) of §7, the errata counterexample
// of docs/physics.md §4, the normalisation D, and Moreau's law as E_n = e I.
#include "rodcollide/impact_matrices.hpp"
#include "analysis/laws/kinematic.hpp"
#include "analysis/laws/newton.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;

namespace {

ImpactMatrices four_balls(double m) { return impact_matrices(Eigen::Vector4d(m, m, m, m)); }

Eigen::Matrix3d restitution_matrix(RandomChains& rnd) {
    return Eigen::Matrix3d::NullaryExpr([&] { return rnd.uniform(-0.5, 1.2); });
}

}  // namespace

TEST_CASE("Brogliato, Zhang & Liu 2012 §7.1 formula (59) for several restitution matrices", "[laws][kinematic]") {
    RandomChains rnd(61);
    std::vector<Eigen::Matrix3d> matrices{Eigen::Matrix3d::Identity(), Eigen::Matrix3d::Zero()};
    Eigen::Matrix3d first_column = Eigen::Matrix3d::Zero();
    first_column.col(0) << 0.2, 0.5, 0.8;
    matrices.push_back(first_column);
    for (int t = 0; t < 20; ++t) matrices.push_back(restitution_matrix(rnd));
    const double m = 1.7;
    for (const Eigen::Matrix3d& E : matrices) {
        const double e1 = E(0, 0), e21 = E(1, 0), e31 = E(2, 0);
        const LawResult r = kinematic_law(four_balls(m), Eigen::Vector4d(1, 0, 0, 0), E);
        const Eigen::Vector4d u59((1 - 3 * e1 - 2 * e21 - e31) / 4, (1 + e1 - 2 * e21 - e31) / 4,
                                  (1 + e1 + 2 * e21 - e31) / 4, (1 + e1 + 2 * e21 + 3 * e31) / 4);
        const Eigen::Vector3d p59(m * (3 + 3 * e1 + 2 * e21 + e31) / 4, m * (1 + e1 + 2 * e21 + e31) / 2,
                                  m * (1 + e1 + 2 * e21 + 3 * e31) / 4);
        CHECK((r.velocities_post - u59).lpNorm<Eigen::Infinity>() < 1e-14);
        CHECK((r.impulses - p59).lpNorm<Eigen::Infinity>() < 1e-14);
        // (57): the normalised post-impact velocity is the first column of E_n (times sqrt(m/2)).
        CHECK((r.gamma_post - E.col(0)).lpNorm<Eigen::Infinity>() < 1e-14);
        // Energy from the velocities: 16 T+/T- = 4 + 12 e1^2 + 16 e21^2 + 12 e31^2 + 16 e1 e21
        // + 8 e1 e31 + 16 e21 e31, i.e. the G^-1 form of gamma+ = E e_1 (docs/physics.md §4), not (60).
        const double ratio = (4 + 12 * e1 * e1 + 16 * e21 * e21 + 12 * e31 * e31 + 16 * e1 * e21 + 8 * e1 * e31 +
                              16 * e21 * e31) / 16;
        CHECK(r.energy_ratio == Approx(ratio).epsilon(1e-13));
        if (std::abs(ratio - 1) > 1e-9) CHECK(r.consistency.energetic == (ratio < 1));
        CHECK(r.consistency.kinematic == (e1 >= 0 && e21 >= 0 && e31 >= 0));
    }
}

TEST_CASE("Brogliato, Zhang & Liu 2012 §7.2 velocities (63); the p23 printed there is a misprint", "[laws][kinematic]") {
    RandomChains rnd(62);
    const double m = 0.9;
    for (int t = 0; t < 20; ++t) {
        const Eigen::Matrix3d E = restitution_matrix(rnd);
        const double e1 = E(0, 0), e13 = E(0, 2), e21 = E(1, 0), e23 = E(1, 2), e31 = E(2, 0), e3 = E(2, 2);
        const double a = e1 + 2 * e13, b = e21 + 2 * e23, c = e31 + 2 * e3;
        const LawResult r = kinematic_law(four_balls(m), Eigen::Vector4d(1, 0, 0, -2), E);
        const Eigen::Vector4d u63((-1 - 3 * a - 2 * b - c) / 4, (-1 + a - 2 * b - c) / 4, (-1 + a + 2 * b - c) / 4,
                                  (-1 + a + 2 * b + 3 * c) / 4);
        CHECK((r.velocities_post - u63).lpNorm<Eigen::Infinity>() < 1e-14);
        CHECK(r.impulses[0] == Approx(m * (5 + 3 * a + 2 * b + c) / 4).epsilon(1e-13));
        CHECK(r.impulses[2] == Approx(m * (7 + a + 2 * b + 3 * c) / 4).epsilon(1e-13));
        CHECK(r.impulses[1] == Approx(m * (3 + a + 2 * b + c) / 2).epsilon(1e-13));  // corrected p23
    }
}

TEST_CASE("Brogliato, Zhang & Liu 2012 condition (60) is not the energy balance: first column (0, 1, 0) gains energy",
          "[laws][kinematic]") {
    Eigen::Matrix3d E = Eigen::Matrix3d::Zero();
    E(1, 0) = 1;  // e1^2 + e21^2 + e31^2 = 1: conservative according to (60)
    const LawResult r = kinematic_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), E);
    CHECK(r.energy_ratio == Approx(1.25).epsilon(1e-14));
    CHECK_FALSE(r.consistency.energetic);
    // Whereas (1, 0, 0) (Moreau, e = 1) does conserve it.
    CHECK(kinematic_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), Eigen::Matrix3d::Identity()).energy_ratio ==
          Approx(1).epsilon(1e-14));
}

TEST_CASE("errata counterexample: e12 = e21 = 1 gains energy, T+/T- = 1.25, flagged", "[laws][kinematic]") {
    Eigen::Matrix3d E = Eigen::Matrix3d::Zero();
    E(0, 1) = E(1, 0) = 1;
    // E is symmetric with eigenvalues -1, 0, 1: it passes Brogliato, Zhang & Liu 2012 Prop. 1 ...
    CHECK(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(E).eigenvalues().cwiseAbs().maxCoeff() <= 1);
    const LawResult r = kinematic_law(four_balls(1.3), Eigen::Vector4d(1, 0, 0, 0), E);
    // ... yet energy is gained.
    CHECK((r.velocities_post - Eigen::Vector4d(-0.25, -0.25, 0.75, 0.75)).lpNorm<Eigen::Infinity>() < 1e-15);
    CHECK(r.energy_ratio == Approx(1.25).epsilon(1e-14));
    CHECK_FALSE(r.consistency.energetic);
    CHECK(r.consistency.kinematic);
    CHECK(r.consistency.kinetic);
}

TEST_CASE("the normalisation D = diag(sqrt(G_kk)) scales off-diagonal restitution", "[laws][kinematic]") {
    // Equal masses: gamma / D = sqrt(m/2) gamma (the corrected factor of
    // Brogliato, Zhang & Liu 2012 §7).
    const double m = 3.0;
    CHECK(kinematic_normalisation(four_balls(m)).isApprox(Eigen::Vector3d::Constant(std::sqrt(2 / m))));
    // Masses (1, 2, 4): D = (sqrt(3/2), sqrt(3/4)). With E_n = [0 1; 0 0] and gamma- = (0, -1),
    // v_n+ = (1/sqrt(3/4), 0), so gamma+ = (sqrt(3/2)/sqrt(3/4), 0) = (sqrt(2), 0): the factor
    // D_1/D_2 that a law on raw gamma would miss.
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 2, 4));
    Eigen::Matrix2d E;
    E << 0, 1, 0, 0;
    const LawResult r = kinematic_law(im, Eigen::Vector3d(0, 0, -1), E);
    CHECK((r.gamma_post - Eigen::Vector2d(std::sqrt(2.0), 0)).norm() < 1e-15);
    // Scaling every mass leaves velocities unchanged and scales impulses.
    const LawResult scaled = kinematic_law(impact_matrices(Eigen::Vector3d(7, 14, 28)), Eigen::Vector3d(0, 0, -1), E);
    CHECK((scaled.velocities_post - r.velocities_post).norm() < 1e-14);
    CHECK((scaled.impulses - 7 * r.impulses).norm() < 1e-13);
}

TEST_CASE("Moreau with a global e is E_n = e I: always for approaching contacts; otherwise equal "
          "exactly where the kinematic result is kinetically consistent",
          "[laws][kinematic]") {
    RandomChains rnd(63);
    // gamma- <= 0: Lambda = -(1+e) G^-1 gamma- >= 0 because the chain's G is a Stieltjes matrix
    // (positive definite, off-diagonal <= 0), so G^-1 >= 0 entrywise: every contact is active.
    for (int t = 0; t < 200; ++t) {
        const int n = rnd.integer(2, 7);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        CHECK((im.G.inverse().array() >= 0).all());
        const Eigen::VectorXd u = rnd.approaching_velocities(n);
        const double e = rnd.uniform(0, 1);
        const LawResult kin = kinematic_law(im, u, e * Eigen::MatrixXd::Identity(n - 1, n - 1));
        const LawResult moreau = newton_law(im, u, Eigen::VectorXd::Constant(n - 1, e));
        CHECK((kin.velocities_post - moreau.velocities_post).lpNorm<Eigen::Infinity>() < 1e-12);
        CHECK(kin.consistency.kinetic);
    }
    // Any gamma-: the kinematic result has xi = gamma+ + e gamma- = 0, so with Lambda >= 0 it
    // solves Moreau's LCP, whose solution is unique; and where they differ Lambda_k < 0 is flagged.
    int equal = 0, differ = 0;
    for (int t = 0; t < 400; ++t) {
        const int n = rnd.integer(2, 7);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        const Eigen::VectorXd u = rnd.velocities(n);
        const double e = rnd.uniform(0, 1);
        const LawResult kin = kinematic_law(im, u, e * Eigen::MatrixXd::Identity(n - 1, n - 1));
        const LawResult moreau = newton_law(im, u, Eigen::VectorXd::Constant(n - 1, e));
        CHECK((kin.gamma_post + e * kin.gamma_pre).norm() < 1e-13);
        const bool same = (kin.velocities_post - moreau.velocities_post).lpNorm<Eigen::Infinity>() < 1e-12;
        if (kin.consistency.kinetic) CHECK(same);  // then it solves Moreau's LCP, whose solution is unique
        if (!same) CHECK_FALSE(kin.consistency.kinetic);
        (same ? equal : differ)++;
    }
    CHECK(equal > 50);
    CHECK(differ > 50);
    // Brogliato, Zhang & Liu 2012 §7.1 input: every contact active, the two laws agree (Remark 10).
    const LawResult kin = kinematic_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), 0.7 * Eigen::Matrix3d::Identity());
    const LawResult moreau = newton_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), Eigen::Vector3d::Constant(0.7));
    CHECK((kin.velocities_post - moreau.velocities_post).norm() < 1e-15);
}

TEST_CASE("kinematic law refuses a matrix of the wrong size or with non-finite entries", "[laws][kinematic]") {
    CHECK_THROWS_AS(kinematic_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), Eigen::Matrix2d::Identity()),
                    std::invalid_argument);
    Eigen::Matrix3d E = Eigen::Matrix3d::Identity();
    E(1, 2) = std::nan("");
    CHECK_THROWS_AS(kinematic_law(four_balls(1), Eigen::Vector4d(1, 0, 0, 0), E), std::invalid_argument);
}
