// The Sequential Impact Law: Winandy & Leine 2015 eqs (23)-(24), P1-P3, Thm 1, the ABC cycle
// (45)-(49), the thin-rod outcome (36), and the generalisation by two-ball impacts for any chain.
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/laws/sequential.hpp"

#include "laws_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

using namespace rodcollide;
using namespace rodcollide::laws;
using rodcollide::testing::RandomChains;

namespace {

Eigen::Matrix2d mat(double a, double b, double c, double d) {
    Eigen::Matrix2d m;
    m << a, b, c, d;
    return m;
}

// The boundary rays between neighbouring cones, counter-clockwise from the positive gamma1 axis
// (Winandy & Leine 2015 Fig. 4): ray k separates cones[k] and cones[k+1 mod 6].
const Cone ccw_cones[] = {Cone::I, Cone::IIa, Cone::IIb, Cone::III, Cone::IVb, Cone::IVa};
const Eigen::Vector2d ccw_rays[] = {{0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {1, 0}};

ImpactMatrices equal3(double m = 1) { return impact_matrices(Eigen::Vector3d(m, m, m)); }

LawResult apply_sequential(const ImpactMatrices& im, const Eigen::VectorXd& u, ImpactOrder order = default_impact_order) {
    LawParameters p;
    p.law = "sequential";
    p.sequential.order = order;
    return apply_law(p, im, u);
}

// An interior point of a cone: a positive combination of the columns of Q^-1 (P3).
Eigen::Vector2d interior_point(Cone c, RandomChains& rnd) {
    const Eigen::Matrix2d inv = cone_matrix(c).inverse();
    return rnd.uniform(0.05, 2) * inv.col(0) + rnd.uniform(0.05, 2) * inv.col(1);
}

}  // namespace

TEST_CASE("Winandy & Leine 2015 eq. (23): the six matrices Q_i", "[laws][sequential]") {
    CHECK(cone_matrix(Cone::I) == mat(1, 0, 0, 1));
    CHECK(cone_matrix(Cone::IIa) == mat(-1, 0, 1, 1));
    CHECK(cone_matrix(Cone::IIb) == mat(0, 1, -1, -1));
    CHECK(cone_matrix(Cone::III) == mat(0, -1, -1, 0));
    CHECK(cone_matrix(Cone::IVa) == mat(1, 1, 0, -1));
    CHECK(cone_matrix(Cone::IVb) == mat(-1, -1, 1, 0));
}

TEST_CASE("Winandy & Leine 2015 eq. (24): IIb, IVb and III are sequences of the two-ball impacts IIa and IVa",
          "[laws][sequential]") {
    const Eigen::Matrix2d IIa = cone_matrix(Cone::IIa), IVa = cone_matrix(Cone::IVa);
    CHECK(cone_matrix(Cone::IIb) == IVa * IIa);
    CHECK(cone_matrix(Cone::IVb) == IIa * IVa);
    CHECK(cone_matrix(Cone::III) == IVa * IIa * IVa);
    CHECK(cone_matrix(Cone::III) == IIa * IVa * IIa);
    // IIa and IVa are the elastic impact of one pair: involutions, each leaving one contact alone.
    CHECK(IIa * IIa == Eigen::Matrix2d::Identity());
    CHECK(IVa * IVa == Eigen::Matrix2d::Identity());
}

TEST_CASE("Winandy & Leine 2015 P3: each cone is spanned by the columns of Q_i^-1 and maps onto the first quadrant",
          "[laws][sequential]") {
    RandomChains rnd(31);
    for (int k = 0; k < 6; ++k) {
        const Cone c = ccw_cones[k];
        const Eigen::Matrix2d inv = cone_matrix(c).inverse();
        // The two columns are the cone's two boundary rays (up to positive scaling).
        const Eigen::Vector2d before = ccw_rays[(k + 5) % 6], after = ccw_rays[k];
        for (const Eigen::Vector2d& ray : {before, after}) {
            const bool is_column = (inv.col(0).normalized() - ray.normalized()).norm() < 1e-15 ||
                                   (inv.col(1).normalized() - ray.normalized()).norm() < 1e-15;
            CHECK(is_column);
        }
        for (int t = 0; t < 50; ++t) {
            const Eigen::Vector2d g = interior_point(c, rnd);
            CHECK(cone_of(g) == c);
            const Eigen::Vector2d post = cone_matrix(c) * g;
            CHECK((post.array() > 0).all());  // kinematic consistency (strict inside the cone)
        }
    }
}

TEST_CASE("Winandy & Leine 2015 P1: Q_i v = Q_j v on the boundary ray between neighbouring cones", "[laws][sequential]") {
    for (int k = 0; k < 6; ++k) {
        const Eigen::Vector2d& v = ccw_rays[k];
        CHECK(cone_matrix(ccw_cones[k]) * v == cone_matrix(ccw_cones[(k + 1) % 6]) * v);
    }
}

TEST_CASE("Winandy & Leine 2015 P2: every Q_i conserves ||gamma||_{G^-1} (energy)", "[laws][sequential]") {
    const double m = 1.7;
    const Eigen::MatrixXd Ginv = equal3(m).G.inverse();
    for (Cone c : all_cones) {
        const Eigen::Matrix2d Q = cone_matrix(c);
        CHECK((Q.transpose() * Ginv * Q - Ginv).lpNorm<Eigen::Infinity>() < 1e-14);
    }
}

TEST_CASE("cone boundaries go to the cone with fewer impacts, as the impact sequence does",
          "[laws][sequential]") {
    CHECK(cone_of({0, 0}) == Cone::I);
    CHECK(cone_of({0, 1}) == Cone::I);
    CHECK(cone_of({1, 0}) == Cone::I);
    CHECK(cone_of({-1, 1}) == Cone::IIa);
    CHECK(cone_of({-1, 0}) == Cone::IIb);
    CHECK(cone_of({0, -1}) == Cone::IVb);
    CHECK(cone_of({1, -1}) == Cone::IVa);
    CHECK(cone_of({-1, -1e-300}) == Cone::III);
    for (int k = 0; k < 6; ++k) {
        const Cone c = cone_of(ccw_rays[k]);
        const int fewer = std::min(cone_impacts(ccw_cones[k]), cone_impacts(ccw_cones[(k + 1) % 6]));
        CHECK(cone_impacts(c) == fewer);
        // The impact sequence performs exactly that many impacts on the ray.
        const Eigen::VectorXd u = velocities_with_contact_velocities(ccw_rays[k]);
        CHECK(sequential_impacts(equal3(), u).sequential->impacts == fewer);
    }
}

TEST_CASE("three equal balls: u- = (1,0,0) gives (0,0,1); the rods of Winandy & Leine 2015 eq. (36)",
          "[laws][sequential]") {
    const LawResult r = apply_sequential(equal3(2.0), Eigen::Vector3d(1, 0, 0));
    CHECK((r.velocities_post - Eigen::Vector3d(0, 0, 1)).norm() < 1e-15);
    CHECK(r.sequential->cone == "IIb");
    // u- = (2v, 0, -v): cone III, gamma+ = (v, 2v), u+ = (-v, 0, 2v) (docs/physics.md §1 sign note).
    const double v = 0.3;
    const LawResult s = apply_sequential(equal3(), Eigen::Vector3d(2 * v, 0, -v));
    CHECK(s.sequential->cone == "III");
    CHECK(s.sequential->cone_matrix == cone_matrix(Cone::III));
    CHECK((s.gamma_post - Eigen::Vector2d(v, 2 * v)).norm() < 1e-15);
    CHECK((s.velocities_post - Eigen::Vector3d(-v, 0, 2 * v)).norm() < 1e-15);
}

TEST_CASE("Winandy & Leine 2015 Thm 1 sampled: the Sequential Impact Law is non-expansive in G^-1",
          "[laws][sequential]") {
    const ImpactMatrices im = equal3(0.8);
    LawParameters p;
    p.law = "sequential";
    const PropertyReport r = check_properties(contact_map(p, im), im);
    CHECK(r.non_expansive.holds);
    // Pairs are at least 1e-5 |gamma| apart, so rounding in S (~1e-16 |gamma|) moves the
    // ratio by up to ~1e-11.
    CHECK(r.non_expansive.max_ratio <= 1 + 1e-10);
    CHECK(r.non_expansive.max_ratio >= 1 - 1e-10);  // attained: e.g. any pair inside one cone (P2)
    CHECK(r.monotone.holds);
    CHECK(r.positively_homogeneous.holds);
    CHECK(r.continuous.holds);  // P1
    CHECK(r.continuous.boundaries > 0);
    // No dissipation function: the search finds cycles at least as bad as ABC (relative -1/4).
    CHECK_FALSE(r.cyclically_monotone.holds);
    CHECK(r.cyclically_monotone.worst_relative <= -0.25);
}

TEST_CASE("Winandy & Leine 2015 eqs (45)-(49): the ABC cycle gives -m v^2 / 2 with the impulses (48)",
          "[laws][sequential]") {
    const double m = 2.5, v = 0.7;
    const ImpactMatrices im = equal3(m);
    const Eigen::Vector2d A(-2 * v, v), B(-v, 0), C(0, 0);
    LawParameters p;
    p.law = "sequential";
    auto run = [&](const Eigen::Vector2d& g) { return apply_law(p, im, velocities_with_contact_velocities(g)); };
    const LawResult a = run(A), b = run(B), c = run(C);
    // (46)
    CHECK((a.gamma_post - Eigen::Vector2d(v, v)).norm() < 1e-14);
    CHECK((b.gamma_post - Eigen::Vector2d(0, v)).norm() < 1e-14);
    CHECK(c.gamma_post.isZero(0));
    // (48)
    CHECK((a.impulses - Eigen::Vector2d(2 * m * v, m * v)).norm() < 1e-14);
    CHECK((b.impulses - Eigen::Vector2d(m * v, m * v)).norm() < 1e-14);
    CHECK(c.impulses.isZero(0));
    // (49)
    CHECK(cycle_value(contact_map(p, im), im, {A, B, C}) == Approx(-m * v * v / 2).epsilon(1e-13));
}

TEST_CASE("equal masses: the sequential law sorts the velocities, in every cone and for any n",
          "[laws][sequential]") {
    RandomChains rnd(32);
    for (Cone c : all_cones)
        for (int t = 0; t < 20; ++t) {
            const double offset = rnd.uniform(-3, 3), m = rnd.uniform(0.1, 10);
            const Eigen::VectorXd u =
                velocities_with_contact_velocities(interior_point(c, rnd)).array() + offset;
            const LawResult r = apply_sequential(equal3(m), u);
            CHECK(r.sequential->cone == std::string(cone_name(c)));
            Eigen::VectorXd sorted = u;
            std::sort(sorted.data(), sorted.data() + 3);
            CHECK((r.velocities_post - sorted).lpNorm<Eigen::Infinity>() < 1e-14 * (1 + u.norm()));
        }
    for (int t = 0; t < 100; ++t) {
        const int n = rnd.integer(2, 9);
        const Eigen::VectorXd u = rnd.velocities(n);
        int inversions = 0;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) inversions += u[i] > u[j];
        for (ImpactOrder o : {ImpactOrder::left_to_right, ImpactOrder::right_to_left, ImpactOrder::most_negative}) {
            const LawResult r = apply_sequential(impact_matrices(Eigen::VectorXd::Constant(n, 1.3)), u, o);
            Eigen::VectorXd sorted = u;
            std::sort(sorted.data(), sorted.data() + n);
            CHECK((r.velocities_post - sorted).lpNorm<Eigen::Infinity>() < 1e-14);
            CHECK(r.sequential->impacts == inversions);  // the termination bound n(n-1)/2 is reached
        }
    }
}

TEST_CASE("three equal masses: every order of two-ball impacts gives eq. (23)", "[laws][sequential]") {
    RandomChains rnd(33);
    const ImpactMatrices im = equal3(1.1);
    std::vector<Eigen::Vector2d> samples(std::begin(ccw_rays), std::end(ccw_rays));
    for (Cone c : all_cones)
        for (int t = 0; t < 30; ++t) samples.push_back(interior_point(c, rnd));
    for (const Eigen::Vector2d& g : samples) {
        const Eigen::VectorXd u = velocities_with_contact_velocities(g);
        const LawResult cone_law = apply_sequential(im, u);
        REQUIRE(cone_law.sequential->cone);
        for (ImpactOrder o : {ImpactOrder::left_to_right, ImpactOrder::right_to_left, ImpactOrder::most_negative}) {
            SequentialOptions opt;
            opt.order = o;
            const LawResult seq = sequential_impacts(im, u, opt);
            CHECK_FALSE(seq.sequential->cone);
            CHECK((seq.velocities_post - cone_law.velocities_post).norm() < 1e-14);
            CHECK((seq.impulses - cone_law.impulses).norm() < 1e-14);
            CHECK(seq.sequential->impacts == cone_impacts(cone_of(g)));
        }
    }
}

TEST_CASE("any masses: energy and momentum conserved, consistent, and three balls need at most "
          "ceil(pi/theta) impacts",
          "[laws][sequential]") {
    RandomChains rnd(34);
    int largest = 0;
    for (int t = 0; t < 500; ++t) {
        const int n = t < 250 ? 3 : rnd.integer(2, 8);
        const ImpactMatrices im = impact_matrices(t % 5 ? rnd.masses(n) : rnd.masses(n).array().pow(3).matrix());
        const Eigen::VectorXd u = rnd.velocities(n);
        for (ImpactOrder o : {ImpactOrder::left_to_right, ImpactOrder::right_to_left, ImpactOrder::most_negative}) {
            const LawResult r = apply_sequential(im, u, o);
            CHECK(r.energy_post == Approx(r.energy_pre).epsilon(1e-12));
            CHECK(im.masses.dot(r.velocities_post) == Approx(im.masses.dot(u)).margin(1e-12));
            CHECK(r.consistency.kinematic);
            CHECK(r.consistency.kinetic);
            CHECK(r.consistency.energetic);
            CHECK_FALSE(r.sequential->cap_hit);
            if (n == 3) {
                // Billiard in the wedge of the kinetic angle theta (Brogliato, Zhang & Liu 2012 eq. 9).
                const double cosine = im.G(0, 1) / std::sqrt(im.G(0, 0) * im.G(1, 1));
                const double theta = M_PI - std::acos(cosine);
                CHECK(r.sequential->impacts <= std::ceil(M_PI / theta - 1e-12));
                largest = std::max<int>(largest, r.sequential->impacts);
            }
        }
    }
    CHECK(largest > 3);  // unequal masses do need more than the three of cone III
}

TEST_CASE("unequal masses: the order of simultaneous impacts matters", "[laws][sequential]") {
    const ImpactMatrices im = impact_matrices(Eigen::Vector4d(1, 3, 2, 5));
    const Eigen::Vector4d u(1, 0, 0, -1);
    const LawResult l = apply_sequential(im, u, ImpactOrder::left_to_right);
    const LawResult r = apply_sequential(im, u, ImpactOrder::right_to_left);
    CHECK((l.velocities_post - r.velocities_post).norm() > 0.1);
    CHECK(l.energy_post == Approx(r.energy_post));
    CHECK(l.sequential->order == "left-to-right");
    CHECK(r.sequential->order == "right-to-left");
}

TEST_CASE("the impact cap is reported when hit", "[laws][sequential]") {
    SequentialOptions opt;
    opt.max_impacts = 2;
    const Eigen::Vector3d u(1, 0, -1);  // cone III: three impacts
    for (const LawResult& r : {sequential_impacts(equal3(), u, opt), sequential_law(equal3(), u, opt)}) {
        CHECK(r.sequential->cap_hit);
        CHECK(r.sequential->impacts == 2);
        CHECK(r.sequential->max_impacts == 2);
        CHECK_FALSE(r.consistency.kinematic);  // one contact still approaches
    }
    opt.max_impacts = 3;
    CHECK_FALSE(sequential_law(equal3(), u, opt).sequential->cap_hit);
}

TEST_CASE("impact orders: names, parsing and the default", "[laws][sequential]") {
    CHECK(default_impact_order == ImpactOrder::most_negative);
    CHECK(impact_order_names().front() == "most-negative");
    for (const std::string& name : impact_order_names()) CHECK(order_name(parse_impact_order(name)) == name);
    CHECK_THROWS_AS(parse_impact_order("leftmost"), std::invalid_argument);
}
