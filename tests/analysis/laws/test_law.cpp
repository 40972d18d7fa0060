// Every law through apply_law: the impact equation M(u+ - u-) = W Lambda, momentum, Galilean
// invariance, the contact map, parameter validation, and the result's flags and energy ratio.
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/law_result.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;

namespace {

LawParameters params(const std::string& law, Eigen::VectorXd restitution = {}) {
    LawParameters p;
    p.law = law;
    p.restitution = std::move(restitution);
    return p;
}

// One parameter set of each law, with its non-default parameters for a chain of n bodies.
std::vector<LawParameters> every_law(Eigen::Index n, RandomChains& rnd) {
    std::vector<LawParameters> laws{params("sequential"), params("newton", rnd.vector(n - 1, 0, 1)),
                                    params("poisson", rnd.vector(1, 0, 1)), params("kinematic")};
    LawParameters kin = params("kinematic");
    kin.restitution_matrix = Eigen::MatrixXd::NullaryExpr(n - 1, n - 1, [&] { return rnd.uniform(-0.3, 1); });
    laws.push_back(kin);
    LawParameters seq = params("sequential");
    seq.sequential.order = ImpactOrder::left_to_right;
    laws.push_back(seq);
    return laws;
}

// Calls check(p, im, u, rnd) for every law on `chains` random chains of 2 to max_n bodies.
template <class Check>
void for_every_law(std::uint64_t seed, int chains, int max_n, Check check) {
    RandomChains rnd(seed);
    for (int t = 0; t < chains; ++t) {
        const int n = rnd.integer(2, max_n);
        const ImpactMatrices im = impact_matrices(rnd.masses(n));
        const Eigen::VectorXd u = rnd.velocities(n);
        for (const LawParameters& p : every_law(n, rnd)) {
            INFO(p.law);
            check(p, im, u, rnd);
        }
    }
}

}  // namespace

TEST_CASE("every law: M(u+ - u-) = W Lambda, momentum conserved, gamma = W^T u", "[laws][law]") {
    for_every_law(71, 200, 8, [](const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u, RandomChains&) {
        const LawResult r = apply_law(p, im, u);
        const double scale = im.masses.maxCoeff() * (1 + u.lpNorm<Eigen::Infinity>());
        CHECK((im.M * (r.velocities_post - u) - im.W * r.impulses).lpNorm<Eigen::Infinity>() < 1e-13 * scale);
        CHECK(r.impact_equation_residual < 1e-13);
        CHECK(im.masses.dot(r.velocities_post) == Approx(im.masses.dot(u)).margin(1e-13 * scale));
        CHECK((r.gamma_pre - im.W.transpose() * u).norm() < 1e-14);
        CHECK((r.gamma_post - im.W.transpose() * r.velocities_post).norm() < 1e-14);
        CHECK(r.energy_pre == Approx(0.5 * u.dot(im.M * u)));
        CHECK(r.energy_ratio == Approx(r.energy_post / r.energy_pre));
        CHECK(r.law == p.law);
    });
}

TEST_CASE("every law depends on gamma- only: a common velocity is carried along", "[laws][law]") {
    for_every_law(72, 50, 6, [](const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u, RandomChains& rnd) {
        const double drift = rnd.uniform(-5, 5);
        const LawResult a = apply_law(p, im, u);
        const LawResult b = apply_law(p, im, (u.array() + drift).matrix());
        CHECK(((b.velocities_post.array() - drift).matrix() - a.velocities_post).norm() < 1e-12);
        CHECK((b.impulses - a.impulses).norm() < 1e-12 * im.masses.maxCoeff());
        // contact_map is the same law on gamma alone.
        CHECK((contact_map(p, im)(a.gamma_pre) - a.gamma_post).norm() < 1e-12);
    });
}

TEST_CASE("velocities_with_contact_velocities inverts W^T", "[laws][law]") {
    const Eigen::Vector3d gamma(-1, 0.5, 2);
    const Eigen::VectorXd u = velocities_with_contact_velocities(gamma);
    CHECK(u[0] == 0);
    CHECK(contact_velocities(u) == gamma);
}

TEST_CASE("law parameters are validated with the parameter named", "[laws][law]") {
    auto message = [](const LawParameters& p, Eigen::Index balls) -> std::string {
        try {
            validate_law_parameters(p, balls);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    CHECK(message(params("newton"), 3).empty());
    CHECK(message(params("bogus"), 3).rfind("law:", 0) == 0);
    CHECK(message(params("newton", Eigen::Vector2d(0.5, 1.5)), 3).rfind("restitution:", 0) == 0);
    CHECK(message(params("poisson", Eigen::VectorXd::Constant(1, -0.1)), 3).rfind("restitution:", 0) == 0);
    CHECK(message(params("newton", Eigen::Vector3d(1, 1, 1)), 3).rfind("restitution:", 0) == 0);
    CHECK(message(params("newton", Eigen::VectorXd::Constant(1, std::nan(""))), 3).rfind("restitution:", 0) == 0);
    CHECK(message(params("sequential", Eigen::VectorXd::Ones(1)), 3).rfind("restitution:", 0) == 0);
    CHECK(message(params("kinematic", Eigen::Vector2d(1.5, -0.5)), 3).empty());  // any finite E_n
    LawParameters kin = params("kinematic");
    kin.restitution_matrix = Eigen::Matrix3d::Identity();
    CHECK(message(kin, 3).rfind("restitution_matrix:", 0) == 0);
    kin.restitution_matrix = Eigen::Matrix2d::Identity();
    CHECK(message(kin, 3).empty());
    kin.restitution = Eigen::VectorXd::Ones(1);
    CHECK(message(kin, 3).rfind("restitution:", 0) == 0);
    LawParameters newton = params("newton");
    newton.restitution_matrix = Eigen::Matrix2d::Identity();
    CHECK(message(newton, 3).rfind("restitution_matrix:", 0) == 0);
    CHECK_THROWS_AS(apply_law(params("bogus"), impact_matrices(Eigen::Vector2d(1, 1)), Eigen::Vector2d(1, 0)),
                    std::invalid_argument);
}

TEST_CASE("defaults: restitution 1 for newton and poisson, E_n = I for kinematic", "[laws][law]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector4d(1, 2, 1, 3));
    const Eigen::Vector4d u(1, 0.2, 0, -0.5);
    const LawResult newton = apply_law(params("newton"), im, u);
    CHECK(newton.velocities_post == apply_law(params("newton", Eigen::VectorXd::Ones(1)), im, u).velocities_post);
    CHECK(newton.energy_ratio == Approx(1));
    CHECK(apply_law(params("poisson"), im, u).velocities_post.isApprox(newton.velocities_post));
    // All contacts approach, so E_n = I gives Moreau with e = 1 (test_laws_kinematic.cpp).
    CHECK(apply_law(params("kinematic"), im, u).velocities_post.isApprox(newton.velocities_post));
}

TEST_CASE("result: the flags allow rounding only, and T- = 0 gives the ratio 1", "[laws][law]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector3d(1, 1, 1));
    const Eigen::Vector3d u(1, 0, 0);
    // The exact elastic Newton outcome, then tiny and real perturbations of it.
    const Eigen::Vector2d lambda(4.0 / 3, 2.0 / 3);
    const LawResult exact = make_law_result("test", im, u, velocities_after(im, u, lambda), lambda);
    CHECK(exact.consistency.kinematic);
    CHECK(exact.consistency.kinetic);
    CHECK(exact.consistency.energetic);
    CHECK(exact.impact_equation_residual < 1e-15);

    const Eigen::Vector2d rounding(0, -1e-14);
    CHECK(make_law_result("test", im, u, velocities_after(im, u, rounding), rounding).consistency.kinetic);
    const Eigen::Vector2d pulls(0, -1e-6);
    const LawResult bad = make_law_result("test", im, u, velocities_after(im, u, pulls), pulls);
    CHECK_FALSE(bad.consistency.kinetic);
    CHECK_FALSE(bad.consistency.kinematic);  // gamma+_1 = -1 + ... < 0 too
    // Too large an impulse gains energy.
    const Eigen::Vector2d strong = 1.1 * lambda;
    CHECK_FALSE(make_law_result("test", im, u, velocities_after(im, u, strong), strong).consistency.energetic);
    // u+ that does not follow from Lambda shows in the residual.
    CHECK(make_law_result("test", im, u, u, lambda).impact_equation_residual > 0.1);

    const LawResult rest = apply_law(params("newton"), im, Eigen::Vector3d::Zero());
    CHECK(rest.energy_ratio == 1.0);
    CHECK(rest.consistency.energetic);
    CHECK(energy_ratio(0, 0) == 1.0);
    CHECK(energy_ratio(0, 1e-30) == std::numeric_limits<double>::infinity());
    CHECK(energy_ratio(2, 1) == 0.5);
}

TEST_CASE("law parameters: the offending parameter is data, with one wording per mistake", "[laws][law]") {
    auto refusal = [](const LawParameters& p, Eigen::Index balls) -> std::string {
        try {
            validate_law_parameters(p, balls);
        } catch (const InvalidInput& e) {
            return e.key() + ": " + e.message();
        }
        return "(accepted)";
    };
    CHECK(refusal(params("bogus"), 3) == "law: unknown law \"bogus\"; valid: sequential, newton, poisson, kinematic");
    CHECK(refusal(params("newton", Eigen::Vector2d(0.5, 1.5)), 3) == "restitution: must be in [0, 1], got 1.5 (value 2)");
    CHECK(refusal(params("newton", Eigen::Vector3d(1, 1, 1)), 3) ==
          "restitution: must have 1 value or one per contact (2), got 3");
    CHECK(refusal(params("kinematic", Eigen::VectorXd::Constant(1, INFINITY)), 3) ==
          "restitution: must be finite, got inf (value 1)");
    LawParameters kin = params("kinematic");
    kin.restitution_matrix = Eigen::Matrix2d::Identity();
    kin.restitution_matrix(0, 1) = std::nan("");
    CHECK(refusal(kin, 3) == "restitution_matrix: must be finite, got nan (row 1, column 2)");
    LawParameters seq = params("sequential");
    seq.sequential.max_impacts = 0;
    CHECK(refusal(seq, 3) == "max_impacts: must be > 0, got 0");
    // The law implementations make the same checks at the library boundary.
    CHECK_THROWS_WITH(apply_law(params("poisson", Eigen::VectorXd::Constant(1, 2.0)), impact_matrices(Eigen::Vector2d(1, 1)),
                                Eigen::Vector2d(1, 0)),
                      "restitution: must be in [0, 1], got 2 (value 1)");
}
