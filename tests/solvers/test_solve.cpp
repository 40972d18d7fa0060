// The method dispatch (solve.hpp): both solvers answer the same questions, and solve_with_field,
// the one entry point for field samples, covers the recorded run or exactly [0, t_end].
#include "chain_builders.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;
using rodcollide::testing::identical_rods;

TEST_CASE("solve_with_field: the outcome of solve(), samples over the recorded run", "[solve][field]") {
    const Chain chain = identical_rods({1, 0});  // settles at t = 2 (Winandy & Leine 2015 eq. 33)
    const SolutionWithField s = solve_with_field(chain, {}, 21, 10);
    CHECK(s.outcome.final_velocities() == solve(chain, {}).final_velocities());
    CHECK(s.field.t.back() == s.outcome.end_time);
    CHECK(s.field.t.size() == 21);
    SolverOptions longer;
    longer.record_until = 3;
    CHECK(solve_with_field(chain, longer, 21, 10).field.t.back() == 3.0);
    SolverOptions after;
    after.record_after_settling = 0.5;
    CHECK(solve_with_field(chain, after, 21, 10).field.t.back() == 2.5);
}

TEST_CASE("solve_with_field: a given end bounds the samples of either solver", "[solve][field]") {
    const Chain chain = identical_rods({1, 0});
    const SolutionWithField exact = solve_with_field(chain, {}, 11, 10, 1.0);
    CHECK(exact.field.t.back() == 1.0);
    // Inside region 3 (Winandy & Leine 2015 Table 1: both rods at v/2 next to the contact) at t = 1.
    CHECK(exact.field.velocity(10, 9) == 0.5);
    SolverOptions grid;
    grid.method = Method::finite_difference;
    grid.cells = 10;
    const SolutionWithField fd = solve_with_field(chain, grid, 50, 10, 1.0);
    CHECK(fd.field.t.back() == Approx(1.0));
    CHECK(fd.field.t.back() <= 1.0 + 1e-12);
    CHECK(fd.outcome.final_velocities().isApprox(exact.outcome.final_velocities(), 1e-14));
    CHECK_THROWS_AS(solve_with_field(chain, {}, 1, 10), std::invalid_argument);
}
