// What a figure is drawn from (figures.hpp): one exact solve that carries the case's outcome and
// records through the diagram's end, and field samples over exactly [0, t_end], from either solver.
#include "chain_builders.hpp"
#include "figures/diagram.hpp"
#include "figures/solved_figure.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace rodcollide;
using rodcollide::testing::make_rod;

namespace {

const Chain chain({make_rod(1, 1), make_rod(0.7, 0, 0.05, 2), make_rod(1.3, -0.2, 0, 1, 1, 2)});

FigureRequest request(FigureKind kind, std::optional<double> t_end = std::nullopt) {
    FigureRequest r;
    r.kind = kind;
    r.t_end = t_end;
    return r;
}

}  // namespace

TEST_CASE("figure source: one exact solve holds the case's outcome and one transit past settling", "[figures]") {
    // A figure keeps the whole history, so its solve keeps absolute times and processes every
    // reflection (docs/physics.md §6.6-6.7): it is the same computation, bit for bit, as an
    // outcome-only solve without the moving origin and free-flight skipping, and differs from the
    // default one by rounding only.
    SolverOptions stepwise;
    stepwise.rebase_times = false;
    stepwise.skip_free_flight = false;
    const Outcome o = solve(chain, stepwise), rebased = solve(chain, {});
    REQUIRE(o.settled);
    for (std::size_t i = 0; i < chain.size(); ++i)
        CHECK(std::abs(rebased.final_velocities()[i] - o.final_velocities()[i]) <= 1e-14 * chain.velocity_scale());
    for (FigureKind kind : {FigureKind::characteristics, FigureKind::displacement}) {
        const FigureSource s = solve_figure(chain, {}, request(kind));
        REQUIRE(s.solved->exact);
        CHECK_FALSE(s.solved->field);
        const Outcome& e = s.solved->exact->outcome;
        CHECK(s.exact_outcome() == &e);
        CHECK(e.final_velocities() == o.final_velocities());
        CHECK(e.impulses() == o.impulses());
        CHECK(e.end_time == o.end_time);
        CHECK(e.energy.final_vibration == o.energy.final_vibration);
        CHECK(e.stats.events == o.stats.events);
        CHECK(s.t_end == default_diagram_end_time(o, chain));
        CHECK(s.t_end == o.end_time + chain.longest_transit_time());
        CHECK(s.solved->exact->field.valid_until() >= s.t_end);
    }
}

TEST_CASE("figure source: a requested end is checked before solving and recorded", "[figures]") {
    const FigureSource s = solve_figure(chain, {}, request(FigureKind::characteristics, 0.5));
    CHECK(s.t_end == 0.5);
    CHECK(s.solved->exact->field.valid_until() >= 0.5);
    CHECK_THROWS_AS(solve_figure(chain, {}, request(FigureKind::characteristics, 0.0)), std::invalid_argument);
    SolverOptions horizon;
    horizon.end_time = 1.0;
    CHECK_THROWS_AS(solve_figure(chain, horizon, request(FigureKind::velocity, 2.0)), std::invalid_argument);
}

TEST_CASE("figure source: velocity and force samples span exactly [0, t_end]", "[figures]") {
    const FigureSource exact = solve_figure(chain, {}, request(FigureKind::velocity));
    REQUIRE(exact.solved->field);
    CHECK_FALSE(exact.solved->exact);
    CHECK(exact.exact_outcome() == nullptr);
    // The same computation as the figure's solve (whole history: absolute times, every reflection).
    SolverOptions stepwise;
    stepwise.rebase_times = false;
    stepwise.skip_free_flight = false;
    CHECK(exact.t_end == default_diagram_end_time(solve(chain, stepwise), chain));
    CHECK(exact.solved->field->t.size() == figure_field_times);
    CHECK(exact.solved->field->t.back() == exact.t_end);
    CHECK(exact.solved->field->velocity(0, 0) == 1.0);  // the striker at t = 0, x near its left end
    SolverOptions grid;
    grid.method = Method::finite_difference;
    grid.cells = 20;
    const FigureSource fd = solve_figure(chain, grid, request(FigureKind::force));
    CHECK(fd.t_end == default_diagram_end_time(solve(chain, grid), chain));
    CHECK(fd.solved->field->t.back() <= fd.t_end * (1 + 1e-12));
    CHECK(fd.solved->field->t.size() <= figure_field_times);
}

TEST_CASE("figure source: the front tracker's kinds refuse chains without fronts, naming what can be drawn",
          "[figures][errors]") {
    // A chain of balls alone has no rods, so no waves; rods with a cushion have smooth waves, which
    // the front tracker does not draw. Each refusal names what does work, never a method that
    // would be refused in turn.
    Rod cushioned = make_rod(0.7, 0);
    cushioned.contact_stiffness = 10;
    const Chain compliant({make_rod(1, 1), cushioned});
    const Chain balls({testing::make_ball(0.01, 1), testing::make_ball(0.01, 0)});
    for (FigureKind kind : {FigureKind::characteristics, FigureKind::displacement}) {
        INFO(to_string(kind));
        try {
            (void)solve_figure(compliant, {}, request(kind));
            FAIL("a compliant chain was drawn from fronts");
        } catch (const UnsupportedMethod& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("--kind " + to_string(kind)) &&
                                                  Catch::Contains("the waves are smooth") &&
                                                  Catch::Contains("--kind velocity, force or gauges (by either method)"));
        }
        try {
            (void)solve_figure(balls, {}, request(kind));
            FAIL("a chain of balls was drawn from fronts");
        } catch (const UnsupportedMethod& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains("no wave field") && Catch::Contains("run --contact-forces"));
        }
    }
    // What the message advises does draw: the velocity field by finite differences, and by the exact
    // solver's delay network (since stop 43), with its gauges.
    SolverOptions grid;
    grid.method = Method::finite_difference;
    grid.cells = 40;
    CHECK(solve_figure(compliant, grid, request(FigureKind::velocity)).solved->field);
    SolverOptions exact;
    exact.method = Method::characteristics;
    const FigureSource field = solve_figure(compliant, exact, request(FigureKind::velocity));
    REQUIRE(field.solved->field);
    CHECK(field.solved->field->t.back() == Approx(field.t_end));
    FigureRequest gauges = request(FigureKind::gauges);
    gauges.gauges = {{1, 0.35, "middle"}};
    const FigureSource signals = solve_figure(compliant, exact, gauges);
    REQUIRE(signals.solved->gauge_signals);
    CHECK(signals.solved->gauge_signals->front().time.back() == Approx(signals.t_end));
}
