// The work budget of a run to a horizon (SolverOptions::max_work, docs/physics.md §5.1): a run to
// end_time whose fronts outgrow the memory budget's share stores what half of max_work pays for
// before merging and merges at the resolution the other half pays for. A larger budget buys a
// finer resolution and a more accurate outcome; a budget below what the coarsest resolution
// costs is stated; the attempt without merging that is abandoned is counted in
// stats.abandoned_events; and the statement says what the user can change.
#include "chain_builders.hpp"
#include "conservation.hpp"
#include "run_cli.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/exact/front_budget.hpp"
#include "rodcollide/outcome_report.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace rodcollide;
using rodcollide::testing::check_conservation;
using rodcollide::testing::scaling_chain;
using rodcollide::testing::ScalingFamily;

namespace {

SolverOptions to_horizon(const Chain& chain, double transits) {
    SolverOptions o;
    o.keep_history = false;
    o.end_time = transits * chain.longest_transit_time();
    return o;
}

double largest_difference(const Outcome& a, const Outcome& b) {
    return (a.final_velocities() - b.final_velocities()).cwiseAbs().maxCoeff();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a larger max_work merges at a finer resolution and comes closer to the exact outcome",
          "[characteristics][accuracy][work]") {
    // Touching rods of mixed sections, 15 of them, to 15 transits of the longest rod, in a memory
    // budget of 8 MB (50,000 fronts): these four draws store 28,000-129,000 fronts without
    // merging, more than the budget's share of 25,000, so a work budget of 1e5 or 5e5 event groups
    // sizes the run (both coarser than the memory budget's resolution), while the run without
    // merging (the reference) fits in the default max_fronts. Five times the budget merges about
    // five times finer (the bound is linear in 1/delta) and, by the square-root law, comes about
    // 2.2 times closer; measured: 5 to 60 times (0.0106 -> 0.00063 V on seed 4, 0.022 -> 0.0042 V
    // on seed 5).
    double coarse_error = 0, fine_error = 0;
    for (const unsigned seed : {1u, 4u, 5u, 12u}) {
        const Chain chain = scaling_chain(ScalingFamily::mixed_touching, 15, seed);
        SolverOptions exact = to_horizon(chain, 15);
        exact.time_resolution = 0;
        const Outcome reference = solve_characteristics(chain, exact).outcome;
        REQUIRE(reference.stats.merged_fronts == 0);
        SolverOptions o = to_horizon(chain, 15);
        o.max_memory = 8;
        REQUIRE(reference.stats.peak_stored_fronts > front_budget(o) / 2);
        double coarse_resolution = 0, coarse = 0;
        for (const std::size_t work : {100'000, 500'000}) {
            INFO("seed " << seed << ", max_work " << work);
            o.max_work = work;
            const FrontBudgetPlan plan = plan_front_budget(chain, front_budget(o), o.end_time, horizon_event_budget(o));
            REQUIRE(plan.work_set);
            REQUIRE(plan.work_exact_fronts > 0);
            const Outcome out = solve_characteristics(chain, o).outcome;
            INFO(out.accuracy_report.statement);
            CHECK(out.stats.merged_fronts > 0);
            CHECK(out.accuracy_report.status == AccuracyStatus::work_budget);
            CHECK(out.accuracy_report.time_resolution == plan.finest);
            // Within its budget: the bound counts both halves (the estimate's run at twice the
            // resolution costs about half again, within max_events).
            CHECK(static_cast<double>(out.stats.events) <= 0.5 * static_cast<double>(work));
            CHECK(out.stats.abandoned_events > 0);  // the attempt without merging outgrew plan.exact_fronts
            check_conservation(out, 1e-10);
            const double error = largest_difference(out, reference) / chain.velocity_scale();
            INFO("error " << error << " V, estimate " << out.velocity_error_bound / chain.velocity_scale() << " V");
            if (coarse_resolution == 0) {
                coarse_resolution = out.accuracy_report.time_resolution;
                coarse = error;
                coarse_error += error;
            } else {
                CHECK(out.accuracy_report.time_resolution < 0.25 * coarse_resolution);
                CHECK(error < 0.5 * coarse);
                fine_error += error;
            }
        }
    }
    INFO("summed errors " << coarse_error << " V at 1e5, " << fine_error << " V at 5e5");
    CHECK(fine_error < 0.25 * coarse_error);
}

TEST_CASE("a work budget below what the coarsest resolution costs is stated", "[characteristics][accuracy][work]") {
    const Chain chain = scaling_chain(ScalingFamily::mixed_touching, 15, 1);
    SolverOptions o = to_horizon(chain, 15);
    o.max_memory = 8;
    o.max_work = 1000;
    const FrontBudgetPlan plan = plan_front_budget(chain, front_budget(o), o.end_time, horizon_event_budget(o));
    REQUIRE(plan.work_set);
    REQUIRE(plan.coarsest_work > 1000);
    CHECK(plan.finest == largest_time_resolution);
    const Outcome out = solve_characteristics(chain, o).outcome;
    INFO(out.accuracy_report.statement);
    CHECK(out.accuracy_report.status == AccuracyStatus::work_budget);
    CHECK(out.accuracy_report.time_resolution == largest_time_resolution);
    CHECK(contains(out.accuracy_report.statement, "max_work = 1e+03"));
    CHECK(contains(out.accuracy_report.statement, "even the coarsest resolution costs by the bound"));
    check_conservation(out, 1e-10);
}

TEST_CASE("a run of 1000 rods whose work budget set the fronts stored exactly says work_budget and what to raise",
          "[characteristics][accuracy][work]") {
    // At 1,000 rods the memory budget's resolution, sized on every element, is coarser than the
    // work budget's: the work budget set the fronts stored before merging (the run was solved
    // again merging beyond them), and that, not the memory budget, is what limited it.
    const Chain chain = scaling_chain(ScalingFamily::mixed_touching, 1000, 0);
    const SolverOptions o = to_horizon(chain, 50);
    const FrontBudgetPlan plan = plan_front_budget(chain, front_budget(o), o.end_time, horizon_event_budget(o));
    REQUIRE_FALSE(plan.work_set);
    REQUIRE(plan.work_exact_fronts > 0);
    const Outcome out = solve_characteristics(chain, o).outcome;
    const std::string& statement = out.accuracy_report.statement;
    INFO(statement);
    CHECK(out.accuracy_report.status == AccuracyStatus::work_budget);
    CHECK(contains(statement, fmt::format("merging beyond {} stored fronts", plan.work_exact_fronts)));
    CHECK(contains(statement, "raise max_work (--max-work)"));
    CHECK(contains(statement, "max_memory (--max-memory)"));
    CHECK_FALSE(contains(statement, "would need about"));
    CHECK(out.stats.abandoned_events > 0);
    check_conservation(out, 1e-10);
    // The abandoned attempt's events are in the JSON under their own key, and only there.
    const nlohmann::ordered_json j = outcome_json("thousand", out);
    CHECK(j["stats"]["abandoned_events"] == out.stats.abandoned_events);
    CHECK(j["stats"]["events"] == out.stats.events);
}

TEST_CASE("a run that abandons no attempt has no abandoned_events key", "[characteristics][work][cli]") {
    const auto r = rodcollide::testing::run_cli("run cases/seed000_three_rods.toml --json --end-time 1");
    REQUIRE(r.status == 0);
    CHECK_FALSE(nlohmann::json::parse(r.out)["stats"].contains("abandoned_events"));
}
