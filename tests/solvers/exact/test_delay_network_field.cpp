// The wave field of the exact solver's delay network (docs/physics.md §9.10, "Fields and gauges"):
// field samples and gauge signals of chains with compliant junctions, against closed forms, and
// recorded past settling.
#include "chain_builders.hpp"
#include "compliant_chains.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace rodcollide;
using rodcollide::testing::make_mass;
using rodcollide::testing::make_rod;

namespace {

SolverOptions exact(std::optional<double> end_time = std::nullopt) { return testing::exact_method(end_time); }

}  // namespace

TEST_CASE("delay network field: a mass on a semi-infinite rod sends V exp(-Z (t - x/c)/M) down it",
          "[exact][compliant][delay_network][field][closed_form]") {
    // Z = c = 1, L = 1 (T = 1), the far end anechoic: the wave the mass sends is the only one.
    // At x, from t = x/c on: v = V e^(-Z (t - x/c)/M), N = -Z v (compressive), strain N / EA.
    const double M = 2, V = 1, Z = 1;
    const Chain chain = testing::mass_on_semi_infinite_rod(M, V);
    const auto velocity = [&](double x, double t) { return t < x ? 0.0 : V * std::exp(-Z * (t - x) / M); };
    // Samples within 1e-9 of the front (t = x/c) are left out: the field jumps there.
    const auto off_front = [](double x, double t) { return std::abs(t - x) > 1e-9; };

    SECTION("gauges (run --gauges)") {
        const std::vector<Gauge> gauges{{1, 0.0, "head"}, {1, 1.0 / 3, "third"}, {1, 1.0, "toe"}};
        const SolutionWithGauges s = solve_with_gauges(chain, exact(3.0), gauges, 301);
        REQUIRE(s.gauges.size() == 3);
        std::size_t checked = 0;
        for (const GaugeSignal& g : s.gauges) {
            REQUIRE(g.time.size() == 301);
            CHECK(g.time.back() == Approx(3.0));
            for (std::size_t i = 0; i < g.time.size(); ++i) {
                if (!off_front(g.gauge.x, g.time[i])) continue;
                const double v = velocity(g.gauge.x, g.time[i]);
                CHECK(std::abs(g.velocity[i] - v) <= 1e-8 * V);
                CHECK(std::abs(g.force[i] + Z * v) <= 1e-8 * Z * V);
                CHECK(std::abs(g.strain[i] - g.force[i]) <= 1e-15);  // E A = 1
                ++checked;
            }
        }
        CHECK(checked >= 3 * 300);
        // The same outcome as solve() gives.
        const Outcome o = solve(chain, exact(3.0));
        CHECK(s.outcome.rods[0].final_velocity == o.rods[0].final_velocity);
    }

    SECTION("the field at points (Python's field())") {
        // Material coordinate: the mass has no length, so x is the rod's own coordinate. Pairs
        // repeat times and positions, unordered; one point at t = 0.
        const std::vector<double> x{0.0, 0.5, 0.25, 0.5, 1.0, 0.25}, t{2.0, 0.75, 2.0, 2.5, 1.5, 0.0};
        const FieldAtPoints f = exact_field_at(chain, exact(3.0), x, t);
        REQUIRE(f.velocity.size() == x.size());
        CHECK(f.valid_until >= 2.5);
        for (std::size_t k = 0; k < x.size(); ++k) {
            INFO("x " << x[k] << ", t " << t[k]);
            CHECK(std::abs(f.velocity[k] - velocity(x[k], t[k])) <= 1e-8 * V);
            CHECK(std::abs(f.force[k] + Z * velocity(x[k], t[k])) <= 1e-8 * Z * V);
            CHECK(f.rod[k] == 1);
        }
        // Beyond the horizon: nothing (the network stops there; valid_until says so).
        const FieldAtPoints past = exact_field_at(chain, exact(1.0), x, t);
        CHECK(past.velocity.empty());
        CHECK(past.valid_until == 1.0);
    }

    SECTION("field samples (run --field-csv, diagram --kind velocity or force)") {
        const SolutionWithField s = solve_with_field(chain, exact(3.0), 61, 20);
        REQUIRE(s.field.t.size() == 61);
        REQUIRE(s.field.x.size() == 20);
        CHECK(s.field.t.back() == Approx(3.0));
        for (std::size_t i = 0; i < s.field.t.size(); ++i)
            for (std::size_t j = 0; j < s.field.x.size(); ++j) {
                CHECK(s.field.rod[j] == 1);
                const double x = s.field.x[j], t = s.field.t[i];
                if (!off_front(x, t)) continue;
                CHECK(std::abs(s.field.velocity(i, j) - velocity(x, t)) <= 1e-8 * V);
                CHECK(std::abs(s.field.force(i, j) + Z * velocity(x, t)) <= 1e-8 * Z * V);
            }
    }
}

TEST_CASE("delay network field: a settled chain's field is recorded past settling and holds its momenta",
          "[exact][compliant][delay_network][field]") {
    // A mass M = 1 strikes a free bar (m = 1, T = 1) and leaves at 2T (Saint-Venant); the bar then
    // vibrates freely. Without t_end the field runs to the outcome's end time plus
    // record_after_settling: the network goes on past where it proved settling. At every sample
    // time after the last contact the bar's momentum, the midpoint sum of its velocity samples, is
    // its final momentum (to the midpoint rule's error on a field with two jumps: 2 V / 400 each).
    const Chain chain({make_mass(1, 1), make_rod(1, 0)});
    SolverOptions o = exact();
    o.record_after_settling = 3.0;
    const SolutionWithField s = solve_with_field(chain, o, 200, 400);
    REQUIRE(s.outcome.settled);
    CHECK(s.field.t.back() == Approx(s.outcome.end_time + 3.0));
    const double p = s.outcome.rods[1].final_velocity;  // m = 1
    std::size_t after = 0;
    for (std::size_t i = 0; i < s.field.t.size(); ++i) {
        if (s.field.t[i] <= 2.0 + 1e-9) continue;  // the contact opens at 2T
        double sum = 0;
        for (std::size_t j = 0; j < s.field.x.size(); ++j) sum += s.field.velocity(i, j);
        CHECK(std::abs(sum / 400 - p) <= 2 * 2.0 / 400);
        ++after;
    }
    CHECK(after >= 100);
}

TEST_CASE("delay network field: gauges converge to it by finite differences",
          "[exact][compliant][delay_network][field][gauges]") {
    // A hammer (L = 1) strikes a pile (L = 2) through a cushion with a dashpot, to t = 12, gauges in
    // the hammer and in the pile. The dashpot makes the force jump where the cushion closes and
    // opens, which the grid smears over a few cells: its largest difference from the delay
    // network's field shrinks when its cells are refined 4x (0.0116 -> 0.0051 V measured).
    const Chain chain({make_rod(1, 1), rodcollide::testing::cushioned(make_rod(2, 0), 20, 1, 0.5)});
    const std::vector<Gauge> gauges{{0, 0.5, "hammer"}, {1, 1.0, "pile"}};
    const SolutionWithGauges e = solve_with_gauges(chain, exact(12.0), gauges, 200);
    double previous = std::numeric_limits<double>::infinity();
    for (const std::size_t cells : {100, 400}) {
        SolverOptions fd;
        fd.method = Method::finite_difference;
        fd.end_time = 12.0;
        fd.cells = cells;
        const SolutionWithGauges f = solve_with_gauges(chain, fd, gauges, 200);
        double difference = 0;
        for (std::size_t k = 0; k < gauges.size(); ++k)
            for (std::size_t i = 0; i < e.gauges[k].time.size(); ++i) {
                REQUIRE(f.gauges[k].time[i] == Approx(e.gauges[k].time[i]).margin(1e-12));
                difference = std::max(difference, std::abs(f.gauges[k].velocity[i] - e.gauges[k].velocity[i]));
            }
        INFO(cells << " cells: largest velocity difference " << difference);
        CHECK(difference < 0.6 * previous);
        CHECK(difference <= 0.05);
        previous = difference;
    }
}
