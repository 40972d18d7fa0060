// Ends, loads, segments and gauges in the exact solver (docs/physics.md §8), against closed
// forms: a rod on a wall and on a fixed end, a striker on an anechoic bar (Bussac, Collet, Gary &
// Othman 2008), transmission and reflection at a section change, a force pulse into a free bar.
#include "chain_builders.hpp"
#include "closed_forms.hpp"
#include "rodcollide/case_file.hpp"
#include "solvers/exact/characteristics.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "sampling/wave_field_samples.hpp"
#include "solvers/shared/outcome_builder.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace rodcollide;
using rodcollide::testing::check_energy_balance;

namespace {

constexpr double exact = 1e-12;

/// A uniform rod touching its left neighbour, by section first (make_rod's arguments reordered).
Rod uniform(double length, double area, double velocity = 0, double density = 1, double modulus = 1) {
    return rodcollide::testing::make_rod(length, velocity, 0, area, density, modulus);
}

CharacteristicsSolution solve_exact(const Chain& chain, SolverOptions o = {}) { return solve_characteristics(chain, o); }

}  // namespace

TEST_CASE("a rod hits a wall at a gap: compressed for 2L/c, rebounds at -v exactly", "[chain-ends]") {
    const double L = 0.3, c = 5000, v = 2.5, gap = 1e-3;
    ChainEnds ends;
    ends.left = {EndKind::wall, gap};
    const Chain chain({uniform(L, 1e-4, -v, 7800, 7800 * c * c)}, ends);
    const Outcome o = solve_exact(chain).outcome;
    REQUIRE(o.settled);
    REQUIRE(o.ends.size() == 2);
    const EndOutcome& wall = o.ends[0];
    REQUIRE(wall.intervals.size() == 1);
    CHECK(wall.intervals[0].start == Approx(gap / v).epsilon(exact));
    CHECK(wall.intervals[0].end - wall.intervals[0].start == Approx(2 * L / c).epsilon(exact));
    CHECK(o.rods[0].final_velocity == Approx(v).epsilon(exact));
    CHECK(o.rods[0].vibration_energy == Approx(0).margin(exact * o.energy.initial));
    CHECK(wall.impulse == Approx(2 * chain[0].mass() * v).epsilon(exact));
    CHECK(wall.work == 0);
    CHECK(o.impact_equation_residual() < exact);
    check_energy_balance(o);
}

TEST_CASE("a rod on a right wall moving away never touches it", "[chain-ends]") {
    ChainEnds ends;
    ends.right = {EndKind::wall, 0.0};
    const Outcome o = solve_exact(Chain({uniform(1, 1, -1)}, ends)).outcome;
    CHECK(o.settled);
    CHECK(o.ends[1].intervals.empty());
    CHECK(o.rods[0].final_velocity == -1);
}

TEST_CASE("a rod held at a fixed end: compression for 2L/c, then the rod moves at -v", "[chain-ends]") {
    const double L = 1, v = 1;
    ChainEnds ends;
    ends.left.kind = EndKind::fixed;
    SolverOptions options;
    options.end_time = 2 * L;  // c = 1
    options.force_samples = 100;
    const Outcome o = solve_exact(Chain({uniform(L, 1, -v)}, ends), options).outcome;
    CHECK(o.rods[0].final_velocity == Approx(v).epsilon(exact));
    CHECK(o.ends[0].impulse == Approx(2 * v).epsilon(exact));  // m = 1
    check_energy_balance(o);
}

TEST_CASE("striker on an anechoic bar: Bussac, Collet, Gary & Othman 2008 force history and transfer ratios", "[chain-ends][bussac]") {
    const double L = 0.2, V = 10, rho = 7800, c = 5000, E = rho * c * c, A2 = 2e-4;
    for (const double r : {0.5, 0.25, 2.0, 4.0}) {
        INFO("r = A1/A2 = " << r);
        ChainEnds ends;
        ends.right.kind = EndKind::anechoic;
        const Chain chain({uniform(L, r * A2, V, rho, E), uniform(3 * L, A2, 0, rho, E)}, ends);
        SolverOptions options;
        options.force_samples = 100000;
        options.end_time = 6 * 2 * L / c;
        const Outcome o = solve_exact(chain, options).outcome;
        const double R = (1 - r) / (1 + r), Z1 = chain[0].impedance(), T2 = 2 * L / c;
        // Force on [n 2L/c, (n+1) 2L/c]: (1+R)(-R)^n Z1 V / 2 as long as the contact stays closed.
        const ForceHistory& f = o.contacts[0].force_history;
        REQUIRE(f.time.size() > 4);
        for (int n = 0; n < 6; ++n) {
            const double expected = -(1 + R) * std::pow(-R, n) * Z1 * V / 2;  // N < 0: compression
            if (r < 1 && n > 0) break;  // R > 0: the second interval would pull, the contact opens
            const double t = (n + 0.5) * T2;
            double force = 0;
            for (std::size_t k = 0; k < f.time.size() && f.time[k] <= t; ++k) force = f.force[k];
            INFO("n = " << n);
            CHECK(force == Approx(expected).epsilon(1e-9).margin(1e-12 * Z1 * V));
        }
        if (r < 1) {
            REQUIRE(o.contacts[0].intervals.size() == 1);
            CHECK(o.contacts[0].intervals[0].end == Approx(T2).epsilon(exact));
            const double m1V = chain[0].mass() * V;
            CHECK(o.contacts[0].impulse / m1V == Approx(2 / (1 + r)).epsilon(exact));
            CHECK(o.energy.radiated / o.energy.initial == Approx(4 * r / ((1 + r) * (1 + r))).epsilon(exact));
        }
        check_energy_balance(o);
    }
}

TEST_CASE("an anechoic end reflects nothing: a pulse leaves and the bar comes to rest", "[chain-ends]") {
    ChainEnds ends;
    ends.right.kind = EndKind::anechoic;
    const Chain chain({uniform(1, 1, 1), uniform(2, 1)}, ends);
    const Outcome o = solve_exact(chain).outcome;
    REQUIRE(o.settled);
    CHECK(o.rods[0].final_velocity == 0);
    CHECK(o.rods[1].final_velocity == 0);
    CHECK(o.energy.radiated == Approx(o.energy.initial).epsilon(exact));
    CHECK(o.ends[1].impulse == Approx(-1).epsilon(exact));
}

TEST_CASE("a section change transmits 2 Z1/(Z1+Z2) of a velocity front and reflects (Z1-Z2)/(Z1+Z2)", "[chain-ends][segments]") {
    // A striker of impedance Z1 hits a rod whose first segment matches it and whose second has area
    // ratio a: the incident velocity front V/2 meets the step at t = T (c = 1, segment length 1).
    for (const double a : {0.5, 3.0}) {
        INFO("A2/A1 = " << a);
        Rod striker = uniform(1, 1, 1);
        Rod stepped = uniform(0, 1);
        stepped.segments = {{1, 1, 1, 1}, {2, a, 1, 1}};
        const Chain chain({striker, stepped});
        SolverOptions options;
        options.end_time = 1.8;
        const CharacteristicsSolution s = solve_exact(chain, options);
        const double incident = 0.5, z1 = 1, z2 = a;
        // Transmitted: at x = 1.5 of rod 1 (0.5 past the step) at t = 1.6.
        const PointState transmitted = s.field.state(1, 1.5, 1.6);
        CHECK(transmitted.velocity == Approx(incident * 2 * z1 / (z1 + z2)).epsilon(exact));
        // Reflected: at x = 0.5 of rod 1 at t = 1.6, the incident plus the reflected front.
        const PointState reflected = s.field.state(1, 0.5, 1.6);
        CHECK(reflected.velocity - incident == Approx(incident * (z1 - z2) / (z1 + z2)).epsilon(exact));
        // Force continuity across the joint.
        CHECK(s.field.state(1, 1.0 - 1e-9, 1.6).force == Approx(s.field.state(1, 1.0 + 1e-9, 1.6).force).epsilon(1e-9));
    }
}

TEST_CASE("a stepped rod equals the chain of rods it is made of while its joint is compressed", "[chain-ends][segments]") {
    // Before anything pulls on the joint, a welded joint and a closed contact are the same physics.
    Rod stepped = uniform(0, 1);
    stepped.segments = {{1, 1, 1, 1}, {1.5, 2, 1, 1}};
    SolverOptions options;
    options.end_time = 1.9;
    const CharacteristicsSolution welded = solve_exact(Chain({uniform(1, 1, 1), stepped}), options);
    const CharacteristicsSolution chain = solve_exact(Chain({uniform(1, 1, 1), uniform(1, 1), uniform(1.5, 2)}), options);
    for (const double x : {0.3, 1.2, 1.9, 2.4})
        for (const double t : {0.5, 1.2, 1.7}) {
            INFO("x = " << x << ", t = " << t);
            CHECK(welded.field.state_at(x, t).velocity == Approx(chain.field.state_at(x, t).velocity).margin(exact));
            CHECK(welded.field.state_at(x, t).force == Approx(chain.field.state_at(x, t).force).margin(exact));
        }
}

TEST_CASE("a stepped rod's outcome conserves momentum and energy and settles", "[chain-ends][segments]") {
    Rod stepped = uniform(0, 1);
    stepped.segments = {{1, 1, 1, 1}, {0.7, 2, 2, 1}, {0.4, 0.5, 1, 3}};
    const Chain chain({uniform(1, 1, 1), stepped, uniform(0.5, 1, -0.2)});
    const Outcome o = solve_exact(chain).outcome;
    CHECK(o.settled);
    CHECK(o.impact_equation_residual() < 1e-10);
    double p0 = 0, p1 = 0;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        p0 += chain[i].mass() * chain[i].velocity;
        p1 += o.rods[i].mass * o.rods[i].final_velocity;
    }
    CHECK(p1 == Approx(p0).epsilon(1e-12));
    check_energy_balance(o);
}

TEST_CASE("a rectangular force pulse into a free bar: gauge signal F, F/Z and final velocity impulse/mass", "[chain-ends][loads]") {
    const double F = -2e4, duration = 3e-5, L = 1, rho = 7800, c = 5000, A = 1e-4;
    ChainEnds ends;
    Load load;
    load.end = ChainSide::left;
    load.quantity = LoadQuantity::force;
    load.time = {0, duration};
    load.value = {F, F};
    ends.loads.push_back(load);
    const Chain chain({uniform(L, A, 0, rho, rho * c * c)}, ends);
    SolverOptions options;
    options.end_time = 1.5 * L / c;
    const CharacteristicsSolution s = solve_exact(chain, options);
    const Outcome& o = s.outcome;
    const double Z = chain[0].impedance();
    CHECK(o.rods[0].final_velocity * chain[0].mass() == Approx(-F * duration).epsilon(exact));
    CHECK(o.energy.input == Approx(F * F / Z * duration).epsilon(exact));
    check_energy_balance(o);
    // A gauge at the middle sees the pulse from L/2c to L/2c + duration: force F, velocity -F/Z.
    const std::vector<GaugeSignal> g = sample_gauges(s.field, {{0, L / 2, "mid"}}, 1.4 * L / c, 1401);
    for (std::size_t i = 0; i < g[0].time.size(); ++i) {
        const double t = g[0].time[i] - L / 2 / c;
        const bool inside = t > 1e-9 && t < duration - 1e-9, outside = t < -1e-9 || t > duration + 1e-9;
        if (inside) {
            CHECK(g[0].force[i] == Approx(F).epsilon(exact));
            CHECK(g[0].velocity[i] == Approx(-F / Z).epsilon(exact));
            CHECK(g[0].strain[i] == Approx(F / (chain[0].axial_stiffness())).epsilon(exact));
        }
        if (outside) CHECK(g[0].force[i] == Approx(0).margin(exact * std::abs(F)));
    }
}

TEST_CASE("a sloped load is applied as midpoint steps: exact impulse, stated error", "[chain-ends][loads]") {
    Load load;
    load.time = {0, 1, 3, 4};
    load.value = {0, -1, -1, 0};
    const LoadSteps steps = load_steps(load);
    double impulse = 0;
    for (std::size_t k = 0; k + 1 < steps.time.size(); ++k) impulse += steps.value[k] * (steps.time[k + 1] - steps.time[k]);
    CHECK(impulse == Approx(-3).epsilon(1e-13));
    CHECK(steps.max_error <= 1e-3);
    CHECK(steps.max_error > 0);
    ChainEnds ends;
    ends.loads.push_back(load);
    const Outcome o = solve_exact(Chain({uniform(2, 1)}, ends)).outcome;
    CHECK(o.rods[0].final_velocity * 2 == Approx(3).epsilon(1e-12));
    CHECK(o.ends[0].load_step_error == steps.max_error);
    check_energy_balance(o);
}

TEST_CASE("a velocity load drives its end at the prescribed velocity", "[chain-ends][loads]") {
    ChainEnds ends;
    Load load;
    load.end = ChainSide::right;
    load.quantity = LoadQuantity::velocity;
    load.time = {0, 0.5};
    load.value = {-1, -1};
    ends.loads.push_back(load);
    SolverOptions options;
    options.end_time = 0.8;
    const CharacteristicsSolution s = solve_exact(Chain({uniform(1, 1)}, ends), options);
    CHECK(s.field.state(0, 1, 0.25).velocity == Approx(-1).epsilon(exact));
    CHECK(s.field.state(0, 0.8, 0.25).velocity == Approx(-1).epsilon(exact));
    CHECK(s.outcome.rods[0].final_velocity == Approx(-0.5).epsilon(exact));  // impulse Z v t = 0.5
    check_energy_balance(s.outcome);
}

TEST_CASE("every case in cases/ends balances momentum and energy through its ends", "[chain-ends][cases]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(RODCOLLIDE_SOURCE_DIR) / "cases" / "ends";
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".toml") continue;
        ++count;
        INFO(entry.path().filename().string());
        const Case c = load_case(entry.path());
        const std::string readme = [] {
            std::ifstream in(fs::path(RODCOLLIDE_SOURCE_DIR) / "cases" / "README.md");
            return std::string(std::istreambuf_iterator<char>(in), {});
        }();
        CHECK(readme.find("`ends/" + entry.path().filename().string() + "`") != std::string::npos);
        for (const Method method : all_methods) {
            INFO(to_string(method));
            SolverOptions options = c.solver;
            options.method = method;
            const Outcome o = solve(c.chain, options);
            REQUIRE(o.ends.size() == 2);
            double momentum_change = 0, scale = 0;
            for (std::size_t i = 0; i < c.chain.size(); ++i) {
                momentum_change += o.rods[i].mass * (o.rods[i].final_velocity - o.rods[i].initial_velocity);
                scale += o.rods[i].mass * std::abs(o.rods[i].initial_velocity);
            }
            CHECK(momentum_change == Approx(o.ends[0].impulse + o.ends[1].impulse).margin(1e-12 * scale));
            CHECK(o.impact_equation_residual() < 1e-12);
            check_energy_balance(o);
        }
    }
    CHECK(count >= 1);
}

TEST_CASE("a rod held at a fixed end reports its mean motion once settled, its state at a horizon", "[chain-ends][held]") {
    // A striker (Z = 1) on a stiffer held rod (Z = 2): it rebounds and leaves the held rod vibrating,
    // with a momentum that oscillates about 0 for ever (docs/physics.md §8.2).
    ChainEnds ends;
    ends.right.kind = EndKind::fixed;
    const Chain chain({uniform(1, 1, 1), uniform(0.7, 2)}, ends);
    const Outcome settled = solve_exact(chain).outcome;
    REQUIRE(settled.settled);
    const double m0 = chain[0].mass(), m1 = chain[1].mass();
    CHECK(settled.rods[1].final_velocity == 0);
    CHECK(settled.rods[0].final_velocity < -0.5);
    CHECK(settled.rods[1].vibration_energy > 0.2 * settled.energy.initial);
    // The end's impulse is the mean of its oscillation: what balances the rods' momenta.
    CHECK(settled.ends[1].impulse ==
          Approx(m0 * (settled.rods[0].final_velocity - 1) + m1 * settled.rods[1].final_velocity).epsilon(exact));
    check_energy_balance(settled);

    SolverOptions later;
    later.end_time = 10.3;  // after the last contact, the held rod mid-oscillation
    const Outcome at = solve_exact(chain, later).outcome;
    CHECK(std::abs(at.rods[1].final_velocity) > 1e-3);  // its momentum at that instant
    CHECK(at.rods[0].final_velocity == Approx(settled.rods[0].final_velocity).epsilon(exact));
    const auto total = [&](const Outcome& o) {
        return rigid_energy(m1, o.rods[1].final_velocity) + o.rods[1].vibration_energy;
    };
    CHECK(total(at) == Approx(total(settled)).epsilon(exact));
    CHECK(at.ends[1].impulse - m1 * at.rods[1].final_velocity == Approx(settled.ends[1].impulse).epsilon(exact));
    check_energy_balance(at);

    // A lone held rod: it settles at once, and its whole energy is vibration about rest.
    ChainEnds left;
    left.left.kind = EndKind::fixed;
    const Outcome alone = solve_exact(Chain({uniform(1, 1, -1)}, left)).outcome;
    CHECK(alone.rods[0].final_velocity == 0);
    CHECK(alone.rods[0].vibration_energy == Approx(0.5).epsilon(exact));
    CHECK(alone.ends[0].impulse == Approx(1).epsilon(exact));
}
