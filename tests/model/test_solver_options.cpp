// validate(SolverOptions): every limit on the solver options, each refused with the option named
// as data (its case-file key) and the one wording of its kind, and solve() applying it too.
#include "chain_builders.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/solver_options.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

using namespace rodcollide;

namespace {

/// "key: message" of the InvalidInput validate() throws for the defaults changed by `change`.
std::string refusal(const std::function<void(SolverOptions&)>& change) {
    SolverOptions o;
    change(o);
    try {
        validate(o);
    } catch (const InvalidInput& e) {
        return e.key() + ": " + e.message();
    }
    return "(accepted)";
}

constexpr double inf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("validate(SolverOptions): the defaults and the extremes of each range pass", "[solver_options]") {
    CHECK(refusal([](SolverOptions&) {}) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) {
              o.method = Method::finite_difference;
              o.end_time = 1e-300;
              o.record_until = 1e300;
              o.drop_tolerance = 0;
              o.time_resolution = 0;
              o.max_events = 1;
              o.max_fronts = largest_max_fronts;
              o.cells = largest_cells;
          }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) {
              o.drop_tolerance = largest_drop_tolerance;
              o.time_resolution = largest_time_resolution;
              o.max_events = largest_max_events;
              o.max_fronts = 1;
              o.cells = 1;
          }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) { o.cells = 0; }) == "(accepted)");  // 0: the default resolution
}

TEST_CASE("validate(SolverOptions): method, end_time and record_until", "[solver_options]") {
    CHECK(refusal([](SolverOptions& o) { o.method = static_cast<Method>(7); }) == "method: not a method");
    CHECK(refusal([](SolverOptions& o) { o.end_time = 0; }) == "end_time: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.end_time = -1; }) == "end_time: must be > 0, got -1");
    CHECK(refusal([](SolverOptions& o) { o.end_time = inf; }) == "end_time: must be finite, got inf");
    CHECK(refusal([](SolverOptions& o) { o.end_time = std::nan(""); }) == "end_time: must be finite, got nan");
    CHECK(refusal([](SolverOptions& o) { o.record_until = 0; }) == "record_until: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.record_until = -inf; }) == "record_until: must be finite, got -inf");
}

TEST_CASE("validate(SolverOptions): drop_tolerance from 0 to 0.01, where the accuracy it implies still means something",
          "[solver_options]") {
    CHECK(refusal([](SolverOptions& o) { o.drop_tolerance = 1; }) == "drop_tolerance: must be in [0, 0.01], got 1");
    CHECK(refusal([](SolverOptions& o) { o.drop_tolerance = 0.5; }) == "drop_tolerance: must be in [0, 0.01], got 0.5");
    CHECK(refusal([](SolverOptions& o) { o.drop_tolerance = std::nextafter(0.01, 1.0); }) ==
          "drop_tolerance: must be in [0, 0.01], got 0.010000000000000002");
    CHECK(refusal([](SolverOptions& o) { o.drop_tolerance = -1e-3; }) ==
          "drop_tolerance: must be in [0, 0.01], got -0.001");
    CHECK(refusal([](SolverOptions& o) { o.drop_tolerance = std::nan(""); }) ==
          "drop_tolerance: must be finite, got nan");
}

TEST_CASE("validate(SolverOptions): time_resolution from 0 (exact) to 0.25, where the coarser run of the estimate "
          "still resolves the shortest rod", "[solver_options]") {
    CHECK(refusal([](SolverOptions& o) { o.time_resolution = 0.5; }) == "time_resolution: must be in [0, 0.25], got 0.5");
    CHECK(refusal([](SolverOptions& o) { o.time_resolution = std::nextafter(0.25, 1.0); }) ==
          "time_resolution: must be in [0, 0.25], got 0.25000000000000006");
    CHECK(refusal([](SolverOptions& o) { o.time_resolution = -1e-3; }) ==
          "time_resolution: must be in [0, 0.25], got -0.001");
    CHECK(refusal([](SolverOptions& o) { o.time_resolution = inf; }) == "time_resolution: must be finite, got inf");
}

TEST_CASE("validate(SolverOptions): max_events, max_fronts and cells from 1 to their largest", "[solver_options]") {
    CHECK(refusal([](SolverOptions& o) { o.max_events = 0; }) == "max_events: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.max_events = largest_max_events + 1; }) ==
          "max_events: must be in [1, 10000000000], got 10000000001");
    CHECK(refusal([](SolverOptions& o) { o.max_fronts = 0; }) == "max_fronts: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.max_fronts = largest_max_fronts + 1; }) ==
          "max_fronts: must be in [1, 200000000], got 200000001");
    CHECK(refusal([](SolverOptions& o) { o.cells = largest_cells + 1; }) ==
          "cells: must be in [1, 100000000], got 100000001");
    CHECK(refusal([](SolverOptions& o) { o.cells = std::numeric_limits<std::size_t>::max(); }) ==
          "cells: must be in [1, 100000000], got 18446744073709551615");
}

TEST_CASE("validate(SolverOptions): accuracy from the stated rounding 1e-10 to 0.1, max_memory from 1 MB to 1 TB",
          "[solver_options]") {
    CHECK(refusal([](SolverOptions& o) {
              o.accuracy = smallest_accuracy;
              o.max_memory = 1;
          }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) {
              o.accuracy = largest_accuracy;
              o.max_memory = largest_max_memory;
          }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) { o.accuracy = 0; }) == "accuracy: must be in [1e-10, 0.1], got 0");
    CHECK(refusal([](SolverOptions& o) { o.accuracy = -1e-6; }) == "accuracy: must be in [1e-10, 0.1], got -1e-06");
    CHECK(refusal([](SolverOptions& o) { o.accuracy = 0.5; }) == "accuracy: must be in [1e-10, 0.1], got 0.5");
    CHECK(refusal([](SolverOptions& o) { o.accuracy = std::nan(""); }) == "accuracy: must be finite, got nan");
    CHECK(refusal([](SolverOptions& o) { o.max_memory = 0; }) == "max_memory: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.max_memory = largest_max_memory + 1; }) ==
          "max_memory: must be in [1, 1000000], got 1000001");
}

TEST_CASE("validate(SolverOptions): max_work from 1 event group to the largest max_events", "[solver_options]") {
    CHECK(SolverOptions{}.max_work == default_max_work);
    CHECK(refusal([](SolverOptions& o) { o.max_work = 1; }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) { o.max_work = largest_max_events; }) == "(accepted)");
    CHECK(refusal([](SolverOptions& o) { o.max_work = 0; }) == "max_work: must be > 0, got 0");
    CHECK(refusal([](SolverOptions& o) { o.max_work = largest_max_events + 1; }) ==
          "max_work: must be in [1, 10000000000], got 10000000001");
}

TEST_CASE("method_named: the method, or the valid names", "[solver_options]") {
    CHECK(method_named("finite-difference") == Method::finite_difference);
    try {
        method_named("rk4");
        FAIL("accepted rk4");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "method");
        CHECK(e.message() == "unknown method \"rk4\"; valid: characteristics, finite-difference");
    }
}

TEST_CASE("solve() and solve_with_field() refuse options validate() refuses, before any work", "[solver_options]") {
    const Chain chain = testing::identical_rods({1, 0});
    SolverOptions o;
    o.drop_tolerance = 1;
    CHECK_THROWS_AS(solve(chain, o), InvalidInput);
    CHECK_THROWS_WITH(solve(chain, o), "drop_tolerance: must be in [0, 0.01], got 1");
    o = SolverOptions{};
    o.method = Method::finite_difference;
    o.cells = largest_cells + 1;
    CHECK_THROWS_WITH(solve(chain, o), "cells: must be in [1, 100000000], got 100000001");
    CHECK_THROWS_WITH(solve_with_field(chain, o, 10, 10), "cells: must be in [1, 100000000], got 100000001");
    CHECK_THROWS_WITH(solve_with_field(chain, SolverOptions{}, 1, 10), "times: must be in [2, 2000], got 1");
    CHECK_THROWS_WITH(solve_with_field(chain, SolverOptions{}, 10, 2001), "positions: must be in [1, 2000], got 2001");
    CHECK(solve(chain, SolverOptions{}).final_velocities()[1] == 1.0);  // valid options still solve
}
