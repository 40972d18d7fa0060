// The exact solver's tolerance loop (tolerance_refinement.hpp), shared by the delay network and the
// chains of rigid bodies: on a model run whose error is proportional to its tolerance, where it
// stops, what it keeps when a finer run exceeds a budget, and what the report says.
#include "solvers/shared/tolerance_refinement.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace rodcollide;

namespace {

/// A run at step tolerance tol whose one velocity is off by 1000 tol (V = 1).
struct ModelRun {
    std::vector<double> velocity;
    double tol = 0;
};

ModelRun model_run(double tol) { return {{1.0 + 1000 * tol}, tol}; }

double model_bound(const ModelRun& a, const ModelRun& b) { return pair_bound(a.velocity, b.velocity, true, true, 0, 1.0); }

}  // namespace

TEST_CASE("tolerance refinement: tightens by 100 until the bound meets the target", "[settling][accuracy]") {
    std::vector<double> tried;
    const auto run_at = [&](double tol) { tried.push_back(tol); return model_run(tol); };
    const RefinedRuns<ModelRun> r = refine_tolerance<ModelRun>(1e-6, 1.0, 1e-14, run_at, model_bound);
    // Bounds: 1000 (1e-6 - 1e-8) = 9.9e-4, then 9.9e-6, then 9.9e-8 <= 1e-6.
    REQUIRE(tried.size() == 4);
    CHECK(tried[0] == 1e-6);
    CHECK(r.tol == Approx(1e-12));
    CHECK(r.coarse.tol == Approx(1e-10));
    CHECK(r.bound == Approx(1000 * (1e-10 - 1e-12)).epsilon(1e-6));
    CHECK(r.stopped.empty());
}

TEST_CASE("tolerance refinement: stops at the smallest tolerance", "[settling][accuracy]") {
    const RefinedRuns<ModelRun> r = refine_tolerance<ModelRun>(1e-6, 1.0, 1e-9, model_run, model_bound);
    CHECK(r.tol == 1e-9);
    CHECK(r.coarse.tol == Approx(1e-8));
    CHECK(r.bound > 1e-6);  // missed, at the floor
    CHECK(r.stopped.empty());
    std::vector<std::string> warnings;
    const AccuracyReport a = refined_accuracy_report("ODE", "rigid bodies", r.bound, 1.0, 1e-6, r.tol, r.stopped, warnings);
    CHECK(a.status == AccuracyStatus::work_budget);
    CHECK_THAT(a.statement, Catch::Contains("smallest step tolerance 1e-09"));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("rigid bodies: velocity error bound") && Catch::Contains("misses the target"));
}

TEST_CASE("tolerance refinement: a finer run over its budget ends the loop with the pair before it",
          "[settling][accuracy]") {
    for (const char* cap : {"max_work", "max_events"}) {
        INFO(cap);
        const auto run_at = [&](double tol) {
            if (tol < 1e-9) throw SolverLimitExceeded(std::string("more than ") + cap + " = 10 (bounded work)");
            return model_run(tol);
        };
        const RefinedRuns<ModelRun> r = refine_tolerance<ModelRun>(1e-6, 1.0, 1e-14, run_at, model_bound);
        CHECK(r.tol == Approx(1e-8));  // the pair (1e-6, 1e-8): the run at 1e-10 stopped
        CHECK(r.coarse.tol == Approx(1e-6));
        CHECK(r.bound == Approx(1000 * (1e-6 - 1e-8)).epsilon(1e-6));
        CHECK_THAT(r.stopped, Catch::Contains(cap));
        std::vector<std::string> warnings;
        const AccuracyReport a =
            refined_accuracy_report("delay network", "delay network", r.bound, 1.0, 1e-6, r.tol, r.stopped, warnings);
        CHECK(a.status == (std::string(cap) == "max_work" ? AccuracyStatus::work_budget : AccuracyStatus::event_budget));
        CHECK_THAT(a.statement, Catch::Contains("next finer run stopped") && Catch::Contains(cap));
        CHECK(warnings.size() == 1);
    }
    // The first two runs' budgets are the caller's: their failure is the solve's.
    const auto failing = [](double) -> ModelRun { throw SolverLimitExceeded("max_work"); };
    CHECK_THROWS_AS(refine_tolerance<ModelRun>(1e-6, 1.0, 1e-14, failing, model_bound), SolverLimitExceeded);
}

TEST_CASE("tolerance refinement: a met target is stated, without a warning; one run settled and the other not is no bound",
          "[settling][accuracy]") {
    std::vector<std::string> warnings;
    const AccuracyReport a = refined_accuracy_report("ODE", "rigid bodies", 5e-7, 1.0, 1e-6, 1e-8, "", warnings);
    CHECK(a.status == AccuracyStatus::met);
    CHECK(a.target == 1e-6);
    CHECK(warnings.empty());
    CHECK(pair_bound({1.0}, {1.0}, true, false, 10, 1.0) == std::numeric_limits<double>::infinity());
    CHECK(pair_bound({1.0, 2.0}, {1.0, 2.5}, true, true, 0, 1.0) == Approx(0.5).epsilon(1e-12));
}
