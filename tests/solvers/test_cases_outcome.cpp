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
