// Every example in cases/ solved exactly: momentum and total energy conserved to 1e-12 relative,
// M(u+ - u-) = W Lambda, Lambda >= 0, and settled (docs/physics.md §2).
#include "closed_forms.hpp"
#include "rodcollide/case_file.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace rodcollide;
using rodcollide::testing::load_example_cases;

TEST_CASE("every case conserves momentum and energy and satisfies the impact equation", "[cases][characteristics]") {
    for (const Case& c : load_example_cases()) {
        INFO(c.path.filename().string());
        SolverOptions options = c.solver;
        options.method = Method::characteristics;
        const Outcome o = solve(c.chain, options);
        CHECK(o.settled);
        const Eigen::VectorXd m = o.masses();
        const double momentum_scale = m.dot(o.initial_velocities().cwiseAbs());
        CHECK(std::abs(m.dot(o.final_velocities()) - m.dot(o.initial_velocities())) <= 1e-12 * momentum_scale);
        const double e_final = o.energy.final_rigid + o.energy.final_vibration;
        CHECK(std::abs(e_final - o.energy.initial) <= 1e-12 * o.energy.initial);
        CHECK(o.energy.dropped == 0.0);
        CHECK(o.impact_equation_residual() <= 1e-12);
        for (const ContactOutcome& k : o.contacts) CHECK(k.impulse >= 0);
        // Settled means no pair is still approaching.
        CHECK(contact_velocities(o.final_velocities()).minCoeff() >= -1e-12 * c.chain.velocity_scale());
    }
}

TEST_CASE("the example cases give the outcomes their comments promise", "[cases][characteristics]") {
    auto final_velocities = [](const char* name) {
        const Case c = load_case(std::filesystem::path(RODCOLLIDE_SOURCE_DIR) / "cases" / name);
        return solve(c.chain, c.solver).final_velocities();
    };
    CHECK(final_velocities("seed000_two_rods.toml").isApprox(Eigen::Vector2d(0, 1)));
    CHECK(final_velocities("seed000_three_rods.toml").isApprox(Eigen::Vector3d(-1, 0, 2)));
    Eigen::VectorXd cradle(5);
    cradle << 0, 0, 0, 1, 1;
    CHECK((final_velocities("steel_cradle_5.toml") - cradle).cwiseAbs().maxCoeff() < 1e-12);
    Eigen::Vector4d gaps(1.0 / 3, 4.0 / 9, 16.0 / 27, 64.0 / 27);
    CHECK(final_velocities("chain_with_gaps.toml").isApprox(gaps, 1e-14));
}

TEST_CASE("the ball cases give the outcomes their comments promise, in both rigid-body paths", "[cases][balls]") {
    // cases/balls/: chains of balls alone, one ODE system (docs/physics.md §9.9). Each comment's
    // figures to the digits it gives (6 significant: 5e-7 m/s on velocities of order 1); the two
    // paths within their stated errors; momentum and energy (with the hysteresis loss) kept.
    const std::filesystem::path dir = std::filesystem::path(RODCOLLIDE_SOURCE_DIR) / "cases" / "balls";
    const std::vector<std::pair<const char*, std::vector<double>>> promised{
        {"steel_cradle_3.toml", {-0.070952, 0.076403, 0.994549}},
        {"steel_cradle_5.toml", {-0.071085, -0.030274, -0.014464, 0.127045, 0.988777}},
        {"steel_cradle_3_two_strikers.toml", {0.005451, 0.923597, 1.070952}},
        {"steel_cradle_5_two_strikers.toml", {-0.112615, -0.041960, 0.214486, 0.800367, 1.139722}},
        {"steel_cradle_5_restitution.toml", {-0.008671, 0.023777, 0.033066, 0.124263, 0.827566}},
        {"tapered_chain.toml", {0.233133, 0.411679, 0.633487, 0.925773, 1.36191, 2.14071, 3.23394, 4.18506}},
    };
    for (const auto& [name, u] : promised) {
        INFO(name);
        const Case c = load_case(dir / name);
        SolverOptions options = c.solver;
        options.method = Method::characteristics;
        const Outcome e = solve(c.chain, options);
        REQUIRE(e.settled);
        REQUIRE(e.rods.size() == u.size());
        for (std::size_t i = 0; i < u.size(); ++i) CHECK(std::abs(e.rods[i].final_velocity - u[i]) <= 6e-6 * std::abs(u[i]) + 5e-7);
        const Eigen::VectorXd m = e.masses();
        CHECK(std::abs(m.dot(e.final_velocities()) - m.dot(e.initial_velocities())) <= 1e-12 * m.dot(e.initial_velocities().cwiseAbs()));
        CHECK(std::abs(e.energy.initial - (e.energy.final_rigid + e.energy.contact + e.energy.dissipated)) <= 1e-10 * e.energy.initial);
        // Every contact carried force over one interval from t = 0 (touching balls), none flickering.
        for (const ContactOutcome& k : e.contacts) CHECK(k.intervals.size() == 1);
        options.method = Method::finite_difference;
        options.accuracy = 1e-5;
        const Outcome f = solve(c.chain, options);
        REQUIRE(f.settled);
        for (std::size_t i = 0; i < u.size(); ++i)
            CHECK(std::abs(f.rods[i].final_velocity - e.rods[i].final_velocity) <= f.velocity_error_bound + e.velocity_error_bound);
    }
    // The restitution case loses 29.8% of its energy to the hysteresis (its comment's figure).
    const Outcome lossy = solve(load_case(dir / "steel_cradle_5_restitution.toml").chain, {});
    CHECK(lossy.energy.dissipated / lossy.energy.initial == Approx(0.298).margin(5e-4));
}
