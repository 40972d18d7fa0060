// The sweep: identical rods give the Sequential Impact Law in every cone with Winandy & Leine's
// cones and matrices; the lift is Galilean invariant; shards concatenate; unequal rods depart as de
// Saint-Venant says; the empirical cone map refuses maps that are not cone-wise linear.
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"
#include "analysis/wave_map.hpp"

#include "chain_builders.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

using namespace rodcollide;
using rodcollide::testing::identical_rods;
using rodcollide::testing::make_rod;

namespace {

SweepOptions with_directions(std::size_t n) {
    SweepOptions o;
    o.directions = n;
    return o;
}

/// Winandy & Leine 2015 Fig. 4a boundaries, read from the cones spanned by the columns of Q_i^-1.
const double seed_boundaries[] = {0, 90, 135, 180, 270, 315};

void check_seed_cone_map(const SweepResult& r, double tolerance) {
    REQUIRE(r.cone_map.size() == 6);
    for (std::size_t k = 0; k < 6; ++k) {
        const EmpiricalCone& c = r.cone_map[k];
        INFO("empirical cone " << k << ": [" << c.begin << ", " << c.end << "]");
        CHECK(c.linear);
        CHECK(c.begin == Approx(seed_boundaries[k]).margin(tolerance));
        CHECK(c.end == Approx(k + 1 < 6 ? seed_boundaries[k + 1] : 360).margin(tolerance));
        CHECK(c.begin_located);
        CHECK(c.end_located);
        CHECK(c.seed_boundaries_match);
        CHECK(c.seed_matrix_deviation <= 1e-12);
        CHECK((c.matrix - laws::cone_matrix(c.seed_cone)).cwiseAbs().maxCoeff() <= 1e-12);
    }
}

}  // namespace

TEST_CASE("sweep: Winandy & Leine's cones are the ones spanned by the columns of Q_i^-1", "[sweep]") {
    const std::pair<double, double> expected[] = {{0, 90}, {90, 135}, {135, 180}, {180, 270}, {315, 360}, {270, 315}};
    for (std::size_t k = 0; k < 6; ++k) {
        const auto [b, e] = seed_cone_range(laws::all_cones[k]);
        CHECK(b == Approx(expected[k].first).margin(1e-12));
        CHECK(e == Approx(expected[k].second).margin(1e-12));
    }
}

TEST_CASE("sweep: identical rods give the Sequential Impact Law all around the circle", "[sweep][seed000]") {
    SweepOptions o = with_directions(3600);
    o.laws = {"sequential", "newton"};
    const SweepResult r = sweep("identical", identical_rods({0, 0, 0}), o);
    REQUIRE(r.points.size() == 3600);
    for (std::size_t c = 0; c < 6; ++c) {
        INFO("cone " << laws::cone_name(laws::all_cones[c]));
        CHECK(r.cone_directions[c] > 400);
        CHECK(r.laws[0].cone_max_error[c] <= 1e-12);
    }
    // Newton agrees only where a single two-ball impact happens (I, IIa, IVa).
    CHECK(r.laws[1].cone_max_error[2] > 0.5);  // IIb
    CHECK(r.laws[1].cone_max_error[3] > 0.5);  // III
    CHECK(r.laws[1].cone_max_error[1] <= 1e-12);  // IIa
    // Every boundary is a swept direction here (3600 is a multiple of 8).
    check_seed_cone_map(r, 1e-9);
}

TEST_CASE("sweep: cone boundaries between swept directions are located from the matrices", "[sweep][seed000]") {
    // 1001 directions: 90, 135, 180, 270 and 315 degrees fall between directions.
    const SweepResult r = sweep("identical", identical_rods({0, 0, 0}), with_directions(1001));
    for (std::size_t c = 0; c < 6; ++c) CHECK(r.laws[0].cone_max_error[c] <= 1e-12);
    check_seed_cone_map(r, 1e-9);
}

TEST_CASE("sweep: the wave map is Galilean invariant and positively homogeneous", "[sweep][wave_map]") {
    const Chain rods({make_rod(1, 0), make_rod(2, 0), make_rod(0.7, 0, 0, 2, 1.5)});
    const laws::ContactMap map = wave_contact_map(rods, {});
    for (int k = 0; k < 24; ++k) {
        const double theta = 2 * std::numbers::pi * (k + 0.3) / 24;
        const Eigen::Vector2d g(std::cos(theta), std::sin(theta));
        const Eigen::VectorXd lifted = map(g);
        // The same gamma- from velocities shifted by a constant: the same gamma+.
        Chain shifted = touching_chain_with_contact_velocities(rods, g);
        std::vector<Rod> moved = shifted.rods();
        for (Rod& r : moved) r.velocity += 3.7;
        const Eigen::VectorXd u = solve(Chain(moved), {}).final_velocities();
        CHECK((contact_velocities(u) - lifted).cwiseAbs().maxCoeff() <= 1e-12);
        CHECK((map(Eigen::Vector2d(2.5 * g)) - 2.5 * lifted).cwiseAbs().maxCoeff() <= 1e-12);
    }
}

TEST_CASE("sweep: lengths (1,2,1) depart from the sequential law; rod 1 on rod 2 is de Saint-Venant", "[sweep][saint-venant]") {
    const Chain rods({make_rod(1, 0), make_rod(2, 0), make_rod(1, 0)});
    const SweepResult r = sweep("121", rods, with_directions(3600));
    // In the direction gamma- = (-1, 2)/sqrt(5) only rods 1 and 2 meet: de Saint-Venant with L1/L2
    // = 1/2 gives gamma+ = (1/2, 3/2)/sqrt(5) (see test_compare.cpp). The cone holding it is linear
    // with a matrix J that maps (-1, 2) there.
    const double theta = std::atan2(2.0, -1.0) * 180 / std::numbers::pi;
    const EmpiricalCone* holding = nullptr;
    for (const EmpiricalCone& c : r.cone_map)
        if (theta > c.begin && theta < c.end) holding = &c;
    REQUIRE(holding);
    REQUIRE(holding->linear);
    CHECK((holding->matrix * Eigen::Vector2d(-1, 2) - Eigen::Vector2d(0.5, 1.5)).cwiseAbs().maxCoeff() <= 1e-9);
    // The first quadrant is no impact, as for any rods; elsewhere the sequential law is off.
    CHECK(r.laws[0].cone_max_error[0] <= 1e-12);
    for (std::size_t c = 1; c < 6; ++c) CHECK(r.laws[0].cone_max_error[c] > 0.1);
}

TEST_CASE("sweep: shards concatenate into the full CSV, for any thread count", "[sweep][shard]") {
    const Chain rods({make_rod(1, 0), make_rod(1.5, 0), make_rod(1, 0)});
    SweepOptions o = with_directions(97);
    o.laws = {"sequential", "poisson"};
    const std::string full = sweep_csv(sweep("s", rods, o));
    REQUIRE(std::count(full.begin(), full.end(), '\n') == 98);  // header + 97 lines
    for (std::size_t n : {2, 3, 7}) {
        std::string joined;
        for (std::size_t k = 1; k <= n; ++k) {
            SweepOptions part = o;
            part.shard = {k, n};
            part.threads = static_cast<unsigned>(k % 3);  // 0 (hardware), 1, 2
            joined += sweep_csv(sweep("s", rods, part));
        }
        INFO(n << " shards");
        CHECK(joined == full);
    }
}

TEST_CASE("sweep: progress is reported up to the total", "[sweep]") {
    SweepOptions o = with_directions(200);
    std::size_t last_done = 0, total = 0;
    o.progress = [&](std::size_t done, std::size_t all) {
        CHECK(done >= last_done);
        last_done = done;
        total = all;
    };
    sweep("p", identical_rods({0, 0, 0}), o);
    CHECK(total == 200);
    CHECK(last_done == 200);
}

TEST_CASE("sweep: options are validated with the option's name", "[sweep][errors]") {
    CHECK_THROWS_WITH(check_sweep_chain(identical_rods({0, 0})), Catch::StartsWith("rods: a sweep needs exactly 3 rods"));
    CHECK_THROWS_WITH(check_sweep_chain(identical_rods({0, 0, 0, 0})), Catch::Contains("the case has 4"));
    CHECK_THROWS_WITH(validate(with_directions(0)), Catch::StartsWith("directions:"));
    CHECK_THROWS_WITH(validate(with_directions(max_sweep_directions + 1)), Catch::Contains("directions: must be in [1, 1000000], got 1000001"));
    SweepOptions o = with_directions(10);
    o.shard = {3, 2};
    CHECK_THROWS_WITH(validate(o), Catch::StartsWith("shard:"));
    o.shard = {1, 11};
    CHECK_THROWS_WITH(validate(o), Catch::StartsWith("shard:"));
    o = with_directions(10);
    o.laws = {"sequential", "bogus"};
    CHECK_THROWS_WITH(validate(o), Catch::StartsWith("laws:"));
    o = with_directions(10);
    o.linear_tolerance = 0;
    CHECK_THROWS_WITH(validate(o), Catch::StartsWith("linear_tolerance: must be in (0, 1)"));
}

TEST_CASE("empirical cone map: maps that are not cone-wise linear are not reported as linear", "[sweep][cone_map]") {
    auto points_of = [](auto map, std::size_t n) {
        std::vector<SweepPoint> p(n);
        for (std::size_t i = 0; i < n; ++i) {
            p[i].index = i;
            p[i].theta = 360.0 * static_cast<double>(i) / static_cast<double>(n);
            p[i].gamma_pre = sweep_direction(i, n);
            p[i].gamma_post = map(p[i].gamma_pre);
        }
        return p;
    };
    // Rotation by twice the angle: homogeneous, nowhere linear.
    const auto doubled = points_of([](const Eigen::Vector2d& g) {
        const double a = 2 * std::atan2(g[1], g[0]);
        return Eigen::Vector2d(g.norm() * std::cos(a), g.norm() * std::sin(a));
    }, 360);
    const auto curved = empirical_cone_map(doubled, true, 1e-9);
    REQUIRE(curved.size() == 1);
    CHECK_FALSE(curved[0].linear);
    // A discontinuous cone-wise linear map: two linear cones, boundaries not located (A - B has
    // full rank) but at the right swept directions.
    const auto jump = points_of([](const Eigen::Vector2d& g) {
        return g[1] >= 0 ? Eigen::Vector2d(g) : Eigen::Vector2d(2 * g);
    }, 360);
    const auto split = empirical_cone_map(jump, true, 1e-9);
    REQUIRE(split.size() >= 2);
    bool found_linear_halves = false;
    for (const EmpiricalCone& c : split)
        if (c.linear && c.directions > 150) {
            found_linear_halves = true;
            CHECK_FALSE(c.end_located);
        }
    CHECK(found_linear_halves);
    // The identity: one linear map all around.
    const auto same = empirical_cone_map(points_of([](const Eigen::Vector2d& g) { return g; }, 36), true, 1e-9);
    REQUIRE(same.size() == 1);
    CHECK(same[0].linear);
    CHECK(same[0].end - same[0].begin == Approx(360));
}

TEST_CASE("sweep: the offending option is data, for the CLI's flags and validation files", "[sweep][errors]") {
    auto key_of = [](const Chain& chain, const SweepOptions& o) -> std::string {
        try {
            check_sweep_chain(chain);
            validate(o);
        } catch (const InvalidInput& e) {
            return e.key();
        }
        return "(accepted)";
    };
    const Chain three = identical_rods({0, 0, 0});
    CHECK(key_of(three, with_directions(10)) == "(accepted)");
    CHECK(key_of(identical_rods({0, 0}), with_directions(10)) == "rods");
    CHECK(key_of(three, with_directions(0)) == "directions");
    SweepOptions o = with_directions(10);
    o.linear_tolerance = 1;
    CHECK(key_of(three, o) == "linear_tolerance");
    o = with_directions(10);
    o.restitution = 1.5;
    CHECK(key_of(three, o) == "restitution");
    CHECK_THROWS_WITH(validate(o), "restitution: must be in [0, 1], got 1.5");  // the options alone
}

TEST_CASE("sweep: the default linear tolerance is ten times the wave outcomes' accuracy", "[sweep][accuracy]") {
    const Chain chain = identical_rods({0, 0, 0});
    SweepOptions o = with_directions(12);
    o.threads = 1;
    const SweepResult exact = sweep("exact", chain, o);
    CHECK(exact.linear_tolerance == 1e-9);  // 10 x rounding
    for (const SweepPoint& p : exact.points) CHECK(p.accuracy == 1e-10);
    o.solver.method = Method::finite_difference;
    o.solver.cells = 10;
    // The grid's accuracy is each run's own error estimate, at least rounding; on 10 cells it must
    // cover the grid's real error in gamma+ (a contact that reopens and recloses off the grid).
    const SweepResult grid = sweep("grid", chain, o);
    double worst = 0;
    for (std::size_t i = 0; i < grid.points.size(); ++i) {
        const SweepPoint& p = grid.points[i];
        CHECK(p.accuracy >= 1e-10);
        CHECK((p.gamma_post - exact.points[i].gamma_post).cwiseAbs().maxCoeff() <= 3 * p.accuracy);  // gamma+ takes two velocities, V <= sqrt(2) |gamma-|
        worst = std::max(worst, p.accuracy);
    }
    CHECK(grid.linear_tolerance == 10 * worst);
    o.linear_tolerance = 0.05;
    CHECK(sweep("given", chain, o).linear_tolerance == 0.05);
}
