// Finite differences read [solver] accuracy (docs/finite_difference.md, "The target"): not set,
// they aim at their own default 1e-3 V as before; set, they refine their grid until the estimate
// meets it within the work limit, or say that they could not (Outcome::accuracy_report).
#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/fd/finite_difference.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::make_rod;

namespace {

/// Two rods of incommensurate transit times with a gap (test_finite_difference.cpp's chain): off
/// the exact grid, so every grid has an error.
Chain off_grid_chain() { return Chain(std::vector<Rod>{make_rod(1.0, 1.0), make_rod(std::sqrt(2.0), 0.0, 0.05, 1.3)}); }

double largest_difference(const Outcome& a, const Outcome& b) {
    return (a.final_velocities() - b.final_velocities()).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("finite differences: accuracy unset keeps the default target 1e-3 V and its outcome", "[finite-difference][accuracy]") {
    const Chain chain = off_grid_chain();
    SolverOptions unset, explicit_default;
    unset.method = explicit_default.method = Method::finite_difference;
    explicit_default.accuracy = default_finite_difference_accuracy;
    const Outcome a = solve_finite_difference(chain, unset).outcome;
    const Outcome b = solve_finite_difference(chain, explicit_default).outcome;
    CHECK(largest_difference(a, b) == 0);  // the same computation
    CHECK(a.stats.shortest_rod_cells == b.stats.shortest_rod_cells);
    CHECK(a.accuracy_report.target == default_finite_difference_accuracy);
    CHECK(a.stats.velocity_error_target == default_finite_difference_accuracy * chain.velocity_scale());
    CHECK(a.accuracy_report.status == AccuracyStatus::met);
}

TEST_CASE("finite differences: a finer accuracy refines the grid until the estimate meets it", "[finite-difference][accuracy]") {
    const Chain chain = off_grid_chain();
    const Outcome exact = solve_characteristics(chain, {}).outcome;
    SolverOptions coarse, fine;
    coarse.method = fine.method = Method::finite_difference;
    const Outcome c = solve_finite_difference(chain, coarse).outcome;
    // A tenth of what the default run reached: within the work limit (the error falls as 1/N).
    fine.accuracy = 0.1 * c.velocity_error_bound / chain.velocity_scale();
    const Outcome f = solve_finite_difference(chain, fine).outcome;
    INFO("default: " << c.stats.shortest_rod_cells << " cells, " << c.accuracy << " V; asked for " << *fine.accuracy
                     << ": " << f.stats.shortest_rod_cells << " cells, " << f.accuracy << " V: " << f.accuracy_report.statement);
    CHECK(f.stats.shortest_rod_cells > c.stats.shortest_rod_cells);
    CHECK(f.accuracy_report.status == AccuracyStatus::met);
    CHECK(f.stats.velocity_error_target_met);
    CHECK(f.velocity_error_bound <= *fine.accuracy * chain.velocity_scale());
    CHECK(largest_difference(f, exact) <= f.velocity_error_bound);  // and the estimate holds
}

TEST_CASE("finite differences: an accuracy beyond the work limit is said to be", "[finite-difference][accuracy]") {
    const Chain chain = off_grid_chain();
    SolverOptions o;
    o.method = Method::finite_difference;
    o.accuracy = smallest_accuracy;
    const Outcome out = solve_finite_difference(chain, o).outcome;
    INFO(out.accuracy_report.statement);
    CHECK(out.accuracy_report.status == AccuracyStatus::work_budget);
    CHECK_FALSE(out.accuracy_report.met());
    CHECK_FALSE(out.stats.velocity_error_target_met);
    CHECK(out.accuracy_report.statement.starts_with("work limit: "));
    REQUIRE_FALSE(out.warnings.empty());
    CHECK_THAT(out.warnings.back(), Catch::Contains("misses the target 1e-10"));
    // With cells given the grid is not refined: the statement says they were set by hand.
    o.cells = 200;
    const Outcome set = solve_finite_difference(chain, o).outcome;
    CHECK(set.accuracy_report.status == AccuracyStatus::resolution_set);
    CHECK(set.stats.shortest_rod_cells == 200);
}
