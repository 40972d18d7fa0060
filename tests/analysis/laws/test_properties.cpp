// The sampled property checks on maps with known answers: each verdict must be able to fail.
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "analysis/laws/newton.hpp"
#include "rodcollide/laws/properties.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;

namespace {

const ImpactMatrices& chain() {
    static const ImpactMatrices im = impact_matrices(Eigen::Vector4d(1, 2, 0.5, 1));
    return im;
}

PropertyOptions small() {
    PropertyOptions o;
    o.pairs = 400;
    o.cycle_points = 16;
    o.continuity_segments = 10;
    return o;
}

}  // namespace

TEST_CASE("properties: the identity (no impact) passes everything, with zero impulses", "[laws][properties]") {
    const PropertyReport r = check_properties([](const Eigen::VectorXd& g) { return g; }, chain(), small());
    CHECK(r.non_expansive.holds);
    CHECK(r.non_expansive.max_ratio == Approx(1).epsilon(1e-12));
    CHECK(r.monotone.holds);
    CHECK(r.monotone.min_value == Approx(0).margin(1e-12));
    CHECK(r.cyclically_monotone.holds);
    CHECK(r.positively_homogeneous.holds);
    CHECK(r.continuous.holds);
    CHECK(r.continuous.boundaries == 0);  // linear: nothing to locate
}

TEST_CASE("properties: an expansive linear map is reported with its ratio", "[laws][properties]") {
    const PropertyReport r = check_properties([](const Eigen::VectorXd& g) { return Eigen::VectorXd(-2 * g); },
                                              chain(), small());
    CHECK_FALSE(r.non_expansive.holds);
    CHECK(r.non_expansive.max_ratio == Approx(2).epsilon(1e-12));
    CHECK(r.non_expansive.gamma_a.size() == 3);
    // Thm 1: monotonicity fails with it, value (1 - 2^2)/2.
    CHECK_FALSE(r.monotone.holds);
    CHECK(r.monotone.min_value == Approx(-1.5).epsilon(1e-9));
    CHECK(r.positively_homogeneous.holds);
}

TEST_CASE("properties: a jump is found by continuity, an offset by homogeneity", "[laws][properties]") {
    // Positively homogeneous but discontinuous across gamma_1 = 0.
    const ContactMap jump = [](const Eigen::VectorXd& g) -> Eigen::VectorXd {
        Eigen::VectorXd s = Eigen::VectorXd::Zero(g.size());
        s[0] = g[0] >= 0 ? g.norm() : 0.0;
        return s;
    };
    const PropertyReport j = check_properties(jump, chain(), small());
    CHECK(j.positively_homogeneous.holds);
    CHECK_FALSE(j.continuous.holds);
    CHECK(j.continuous.max_jump > 0.01);
    CHECK(std::abs(j.continuous.gamma[0]) < 1e-6);  // located on gamma_1 = 0
    // Continuous but not homogeneous.
    const ContactMap offset = [](const Eigen::VectorXd& g) -> Eigen::VectorXd { return (g.array() + 0.1).matrix(); };
    const PropertyReport o = check_properties(offset, chain(), small());
    CHECK_FALSE(o.positively_homogeneous.holds);
    CHECK(o.continuous.holds);
}

TEST_CASE("Leine & Baumann 2014 Thm 1: 2 (dgamma_bar)^T dLambda = |dgamma+|^2 - |dgamma-|^2 in G^-1, any law",
          "[laws][properties]") {
    RandomChains rnd(81);
    const ImpactMatrices& im = chain();
    const Eigen::MatrixXd Ginv = im.G.inverse();
    for (int t = 0; t < 200; ++t) {
        const Eigen::VectorXd eps = rnd.vector(3, 0, 1);
        const LawResult a = newton_law(im, rnd.velocities(4), eps), b = newton_law(im, rnd.velocities(4), eps);
        const Eigen::VectorXd dmean = 0.5 * (a.gamma_pre + a.gamma_post - b.gamma_pre - b.gamma_post);
        const Eigen::VectorXd dpost = a.gamma_post - b.gamma_post, dpre = a.gamma_pre - b.gamma_pre;
        CHECK(2 * dmean.dot(a.impulses - b.impulses) ==
              Approx(dpost.dot(Ginv * dpost) - dpre.dot(Ginv * dpre)).margin(1e-12));
    }
}

TEST_CASE("properties: bounded, reproducible, domain respected, bad maps refused", "[laws][properties]") {
    LawParameters p;
    p.law = "newton";
    const ContactMap map = contact_map(p, chain());
    long long calls = 0;
    const ContactMap counted = [&](const Eigen::VectorXd& g) {
        ++calls;
        return map(g);
    };
    PropertyOptions o;
    o.approaching_only = true;
    const PropertyReport a = check_properties(counted, chain(), o);
    CHECK(a.evaluations == calls);
    CHECK(a.evaluations <= evaluation_bound(o));
    CHECK(evaluation_bound(PropertyOptions{}) == 13245);
    CHECK((a.non_expansive.gamma_a.array() <= 0).all());
    for (const Eigen::VectorXd& g : a.cyclically_monotone.cycle) CHECK((g.array() <= 0).all());
    const PropertyReport b = check_properties(map, chain(), o);
    CHECK(a.non_expansive.max_ratio == b.non_expansive.max_ratio);
    CHECK(a.cyclically_monotone.worst_value == b.cyclically_monotone.worst_value);

    CHECK_THROWS_AS(check_properties([](const Eigen::VectorXd&) { return Eigen::VectorXd::Zero(2); }, chain()),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        check_properties([](const Eigen::VectorXd& g) { return Eigen::VectorXd(g / 0.0); }, chain()),
        std::invalid_argument);
}
