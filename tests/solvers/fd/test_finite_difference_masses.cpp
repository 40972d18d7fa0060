// Rigid masses in the finite-difference grid (issue 23; docs/physics.md §9.4): closed forms of a
// mass on a rod (Timoshenko & Goodier, longitudinal impact of a mass on a bar) and on a spring,
// and the balances on seeded random chains with masses. Before a reflection returns the node sees
// exactly what the closed forms assume (Courant 1), so the only error is RK4's (~1e-7 relative).
#include "chain_builders.hpp"
#include "closed_forms.hpp"
#include "conservation.hpp"
#include "rodcollide/solve.hpp"
#include "solvers/fd/finite_difference.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

using namespace rodcollide;
using rodcollide::testing::check_momentum_with_ends;
using rodcollide::testing::make_mass;
using rodcollide::testing::make_rod;
using rodcollide::testing::mass_on_fixed_bar_force;

namespace {

constexpr double ode_accuracy = 1e-7;

}  // namespace

TEST_CASE("FD masses: a mass strikes a semi-infinite rod, F = Z V exp(-Z t / M), all energy radiated",
          "[fd][compliant][masses][closed_form]") {
    const double M = 2, V = 1, Z = 1;
    ChainEnds ends;
    ends.right.kind = EndKind::anechoic;
    const Chain chain({make_mass(M, V), make_rod(1, 0)}, ends);
    const GridLayout layout = choose_grid(chain, 100);
    StaggeredGrid grid(chain, layout);
    const double dt = layout.time_step;
    double worst = 0;
    while (grid.time() < 10) {
        const double t0 = grid.time();
        grid.step();
        const double mean = M * V / dt * (std::exp(-Z * t0 / M) - std::exp(-Z * (t0 + dt) / M));
        worst = std::max(worst, std::abs(-grid.force(0).front() - mean));
    }
    CHECK(worst <= ode_accuracy * Z * V);
    SolverOptions o;
    o.method = Method::finite_difference;
    o.cells = 100;
    o.end_time = 40.0;  // e^(-20): the mass keeps 4e-18 of its energy
    const Outcome out = solve(chain, o);
    REQUIRE(out.rods.size() == 2);
    CHECK(out.rods[0].mass == M);
    CHECK(out.rods[0].vibration_energy == 0);
    CHECK(std::abs(out.rods[0].final_velocity) <= 1e-8);
    // The rod takes each step's mean force: the wave it carries has the energy of the means, less
    // than the exponential's by about its variance over a step, (Z dt / M)^2 / 12 of it (dropped).
    const double step = Z * layout.time_step / M;
    CHECK(out.energy.radiated <= 0.5 * M * V * V);
    CHECK(out.energy.radiated >= 0.5 * M * V * V * (1 - step * step / 6));
    CHECK(out.energy.radiated + out.energy.dropped == Approx(0.5 * M * V * V).epsilon(1e-10));
    check_momentum_with_ends(out);
}

TEST_CASE("FD masses: a mass strikes a bar fixed at its far end (de Saint-Venant, Boussinesq)",
          "[fd][compliant][masses][closed_form]") {
    // Bar L = Z = c = 1 (T = 1), mass M = 4 (a = Z/M = 1/4) at V = 1. At the struck end
    // F = Z V e^(-a t) for t < 2T, then, with the fixed end's reflection -2 V e^(-a (t - 2T)),
    // F = Z V e^(-a (t - 2T)) [2 + e^(-2 a T) - 2 a (t - 2T)] for 2T <= t < 4T (compressive there).
    const double M = 4, V = 1, a = 0.25;
    ChainEnds ends;
    ends.right.kind = EndKind::fixed;
    const Chain chain({make_mass(M, V), make_rod(1, 0)}, ends);
    REQUIRE(a == 1 / M);
    const auto closed = [&](double t, bool reflected) { return mass_on_fixed_bar_force(t, M, 1, 1, V, reflected); };
    std::vector<double> worst_before, worst_after;
    for (const std::size_t cells : {100u, 400u}) {
        const GridLayout layout = choose_grid(chain, cells);
        StaggeredGrid grid(chain, layout);
        const double dt = layout.time_step;
        double before = 0, after = 0;
        while (grid.time() + dt < 4 - 1e-9) {
            const double t0 = grid.time();
            grid.step();
            // The step's mean of the closed form (Simpson: its error is far below the grid's).
            const bool reflected = t0 + dt / 2 > 2;  // steps end on t = 2 (Courant 1)
            const double mean =
                (closed(t0, reflected) + 4 * closed(t0 + dt / 2, reflected) + closed(t0 + dt, reflected)) / 6;
            const double e = std::abs(-grid.force(0).front() - mean);
            (reflected ? after : before) = std::max(reflected ? after : before, e);
        }
        worst_before.push_back(before);
        worst_after.push_back(after);
    }
    CHECK(worst_before[0] <= ode_accuracy);  // nothing has come back: exact but for RK4
    CHECK(worst_before[1] <= ode_accuracy);
    // After the reflection returns the node holds it over each step: first order in dt at least.
    WARN("mass on a fixed bar, 2T < t < 4T: largest force error " << worst_after[0] << " (100 cells), "
                                                                  << worst_after[1] << " (400 cells)");
    CHECK(worst_after[1] <= worst_after[0] / 3);  // measured: order 2 (1.0e-6 -> 6.5e-8)
    CHECK(worst_after[1] <= 1e-6 * V);
}

TEST_CASE("FD masses: a mass on a spring end oscillates at sqrt(k/M)", "[fd][compliant][masses][closed_form]") {
    // The mass never reaches the rod (a gap larger than its swing V/ω): a mass on a spring alone.
    const double M = 3, k = 12, V = 0.5;  // ω = 2
    ChainEnds ends;
    ends.right.kind = EndKind::spring;
    ends.right.stiffness = k;
    const Chain chain({make_rod(1, 0), make_mass(M, V, 10.0)}, ends);
    const GridLayout layout = choose_grid(chain, 50);
    StaggeredGrid grid(chain, layout);
    const double dt = layout.time_step, omega = std::sqrt(k / M);
    double worst = 0;
    while (grid.time() < 20) {
        grid.step();
        const double t = grid.time();
        worst = std::max(worst, std::abs(grid.mass_velocity(1) - V * std::cos(omega * t)));
    }
    // RK4's phase error over substeps of f = contact_substep_fraction of 1/ω: ω t f^4 / 120 of V.
    CHECK(worst <= V * omega * grid.time() * std::pow(contact_substep_fraction, 4) / 120);
    (void)dt;
}

TEST_CASE("FD masses: seeded random chains with masses, cushions and gaps balance momentum and energy",
          "[fd][compliant][masses][conservation]") {
    std::mt19937 rng(2324);
    std::uniform_real_distribution<double> stiffness(5, 100), damping(0, 0.2), m(0.3, 3), vel(-1, 1), gap(0, 0.1),
        coin(0, 1);
    for (int trial = 0; trial < 4; ++trial) {
        INFO("trial " << trial);
        std::vector<Rod> rods = testing::random_chain(rng, 3).rods();
        // A hammer in front (rigid or cushioned contact with the rod after it) and an anvil
        // between two rods through cushions.
        rods.insert(rods.begin(), make_mass(m(rng), vel(rng) + 1));
        rods[1].gap = gap(rng);
        if (coin(rng) < 0.5) rods[1].contact_stiffness = stiffness(rng), rods[1].contact_damping = damping(rng);
        Rod anvil = make_mass(m(rng), vel(rng), gap(rng));
        anvil.contact_stiffness = stiffness(rng);
        anvil.contact_exponent = coin(rng) < 0.5 ? 1.0 : 1.5;
        rods.insert(rods.begin() + 2, anvil);
        rods[3].contact_stiffness = stiffness(rng);
        rods[3].contact_damping = damping(rng);
        const Chain chain(rods);
        SolverOptions o;
        o.method = Method::finite_difference;
        o.cells = 400;
        const Outcome fine = solve(chain, o);
        o.cells = 100;
        const Outcome out = solve(chain, o);
        WARN("trial " << trial << ": energy lost to the scheme " << out.energy.dropped / out.energy.initial
                      << " (100 cells), " << fine.energy.dropped / fine.energy.initial << " (400 cells)");
        CHECK(fine.energy.dropped <= out.energy.dropped / 2);
        REQUIRE(out.settled);
        REQUIRE(out.rods.size() == rods.size());
        REQUIRE(out.contacts.size() == rods.size() - 1);
        for (std::size_t k = 0; k < out.contacts.size(); ++k) CHECK(out.contacts[k].left_rod == k);
        CHECK(out.rods[0].vibration_energy == 0);
        CHECK(out.rods[2].vibration_energy == 0);
        check_momentum_with_ends(out);
        const EnergyBalance& e = out.energy;
        CHECK(e.contact == 0);
        CHECK(e.dissipated >= 0);
        CHECK(std::abs(e.supplied() - e.accounted()) <= 1e-10 * e.scale());
        CHECK(e.dropped >= -1e-10 * e.scale());
    }
}

TEST_CASE("FD masses: a mass on a spring stiff against the rod takes substeps of the spring's time z / k",
          "[fd][compliant][masses][regression]") {
    // A mass of 1.5 at 1 m/s on a spring of k against a rod of impedance z = 0.66 (0.77 long):
    // the overlap relaxes at k / z = 1.5e4/s for k = 1e4, far faster than the mass moves on the
    // spring (sqrt(k / M) = 82/s), which alone set the node's substeps. RK4 at 6 times its
    // stability limit made the rod take up energy the mass never gave: 4.8 % of it at the default
    // resolution, 40 % on 1414 cells, refused by the energy balance. The outcome must now balance
    // with nothing created, give the exact solver's vibration energy, and state a bound that covers
    // its error (or state none).
    for (double k : {1e4, 1e5}) {
        Rod rod = make_rod(0.77, 0.0, 0, 0.66);
        rod.contact_stiffness = k;
        const Chain chain({make_mass(1.5, 1.0), rod});
        const Outcome exact = solve(chain, SolverOptions{});
        REQUIRE(exact.velocity_error_bound < 1e-10);
        for (std::size_t cells : {std::size_t{0}, std::size_t{1414}}) {
            INFO("k = " << k << ", cells " << cells << " (0: default)");
            SolverOptions o;
            o.method = Method::finite_difference;
            o.cells = cells;
            const Outcome grid = solve(chain, o);
            const EnergyBalance& e = grid.energy;
            CHECK(e.dropped >= -1e-4 * e.scale());  // none created (4.8 % of it was)
            CHECK(e.final_vibration == Approx(exact.energy.final_vibration).epsilon(1e-3));
            check_momentum_with_ends(grid);
            const double error = (grid.final_velocities() - exact.final_velocities()).cwiseAbs().maxCoeff();
            CHECK(error < 1e-4);
            if (std::isfinite(grid.velocity_error_bound)) CHECK(error <= grid.velocity_error_bound);
        }
    }
}
