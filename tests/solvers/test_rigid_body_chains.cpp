// Chains of rigid bodies joined by compliant contacts (issues 23/24; docs/physics.md §9.9), by both
// paths: the exact solver (Boost.Odeint, events located to rounding) and the finite-difference
// cross-check (velocity Verlet). Closed forms (Hertz, linear cushion, spring and dashpot ends),
// power-law scale invariance, an independent RK4 integration written here, the two paths against
// each other within their stated errors, and the balances on seeded random chains with gaps.
// Tolerances are the errors each outcome states (velocity_error_bound), unless a closed form is
// held to a fixed relative figure the issue names.
#include "chain_builders.hpp"
#include "conservation.hpp"
#include "rigid_body_rk4.hpp"
#include "rodcollide/case_file.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::check_momentum_with_ends;
using rodcollide::testing::make_ball;
using rodcollide::testing::rk4_chain;

namespace {

Rod body(double m, double velocity, double gap = 0, double k = 0, double p = 1, double c = 0) {
    Rod r = testing::make_mass(m, velocity, gap);
    r.contact_stiffness = k;
    r.contact_exponent = p;
    r.contact_damping = c;
    return r;
}

SolverOptions exact() {
    SolverOptions o;
    o.method = Method::characteristics;
    return o;
}

/// The final velocities / V of a chain solved exactly at accuracy 1e-10 (two stated bounds together
/// within 1e-9), for the scale-invariance tests.
std::vector<double> scaled_final_velocities(const std::vector<Rod>& rods, double V) {
    SolverOptions o = exact();
    o.accuracy = 1e-10;
    const Outcome out = solve(Chain(rods), o);
    REQUIRE(out.settled);
    REQUIRE(out.velocity_error_bound <= 1e-10 * V);
    std::vector<double> r;
    for (const RodOutcome& ro : out.rods) r.push_back(ro.final_velocity / V);
    return r;
}

SolverOptions verlet(double accuracy = 1e-6) {
    SolverOptions o;
    o.method = Method::finite_difference;
    o.accuracy = accuracy;
    return o;
}

/// Hertz: the compression at which m* V^2 / 2 is stored, k δ^(5/2) / (5/2).
double hertz_max_overlap(double m_star, double v, double k) { return std::pow(5 * m_star * v * v / (4 * k), 0.4); }

/// 2 ∫_0^1 dx / sqrt(1 - x^(5/2)) = 2 (2/5) B(2/5, 1/2): the Hertz contact time over δ_max / V.
double hertz_time_factor() { return 2 * 0.4 * std::beta(0.4, 0.5); }

double duration(const Outcome& o, std::size_t contact) {
    REQUIRE(o.contacts.at(contact).intervals.size() == 1);
    const Interval& iv = o.contacts[contact].intervals.front();
    return iv.end - iv.start;
}

}  // namespace

TEST_CASE("rigid bodies: two equal masses through Hertz exchange velocities; the contact lasts "
          "2 (2/5) B(2/5, 1/2) δ_max / V", "[rigid_bodies][closed_form]") {
    const double m = 1.5, V = 2, k = 3e4, p = 1.5;
    const Chain chain({body(m, V), body(m, 0, 0.25, k, p)});
    const double expected = hertz_time_factor() * hertz_max_overlap(m / 2, V, k) / V;
    CHECK(std::abs(hertz_time_factor() - 2.9432) < 1e-4);  // the 5 digits (2.94328 in full)
    const Outcome e = solve(chain, exact());
    REQUIRE(e.settled);
    CHECK(e.velocity_error_bound <= 1e-9 * V);
    CHECK(std::abs(e.rods[0].final_velocity) <= e.velocity_error_bound);
    CHECK(std::abs(e.rods[1].final_velocity - V) <= e.velocity_error_bound);
    CHECK(std::abs(duration(e, 0) - expected) <= 1e-8 * expected);
    CHECK(e.contacts[0].intervals.front().start == Approx(0.25 / V).epsilon(1e-12));
    CHECK(std::abs(e.contacts[0].impulse - m * V) <= 1e-9 * m * V);

    const Outcome f = solve(chain, verlet());
    REQUIRE(f.settled);
    CHECK(f.velocity_error_bound <= 1e-6 * V);
    CHECK(std::abs(f.rods[0].final_velocity) <= f.velocity_error_bound);
    CHECK(std::abs(f.rods[1].final_velocity - V) <= f.velocity_error_bound);
    // Equal masses exchange exactly under Verlet too (time reversal), so the velocities show no
    // error; the contact time converges at the scheme's order 2 in its step.
    const Outcome f2 = solve(chain, verlet(1e-8));
    const double e1 = std::abs(duration(f, 0) - expected), e2 = std::abs(duration(f2, 0) - expected);
    const double order = std::log(e1 / e2) / std::log(f.stats.time_step / f2.stats.time_step);
    CHECK(order == Approx(2).margin(0.2));
}

TEST_CASE("rigid bodies: a linear cushion lasts pi sqrt(m*/k) and exchanges velocities", "[rigid_bodies][closed_form]") {
    const double m = 0.2, V = -0.5, k = 800;
    const Chain chain({body(m, 0), body(m, V, 0, k, 1)});
    const double expected = std::numbers::pi * std::sqrt(m / 2 / k);
    for (const SolverOptions& o : {exact(), verlet()}) {
        const Outcome out = solve(chain, o);
        INFO(to_string(o.method));
        REQUIRE(out.settled);
        CHECK(std::abs(out.rods[0].final_velocity - V) <= out.velocity_error_bound);
        CHECK(std::abs(out.rods[1].final_velocity) <= out.velocity_error_bound);
        CHECK(std::abs(duration(out, 0) - expected) <= std::max(1e-9, out.velocity_error_bound / std::abs(V)) * expected);
    }
}

TEST_CASE("rigid bodies: a mass on a spring end oscillates with period 2 pi sqrt(M/k)", "[rigid_bodies][closed_form]") {
    const double M = 3, V = 0.7, k = 12;
    const double w = std::sqrt(k / M);
    ChainEnds ends;
    ends.right.kind = EndKind::spring;
    ends.right.stiffness = k;
    const Chain chain({body(M, V)}, ends);
    for (double periods : {0.3, 1.0, 2.75}) {
        for (SolverOptions o : {exact(), verlet()}) {
            INFO(to_string(o.method) << " at " << periods << " periods");
            const double t = periods * 2 * std::numbers::pi / w;
            o.end_time = t;
            const Outcome out = solve(chain, o);
            CHECK_FALSE(out.settled);
            CHECK(out.end_time == Approx(t).epsilon(1e-14));
            CHECK(std::abs(out.rods[0].final_velocity - V * std::cos(w * t)) <= out.velocity_error_bound);
            // The spring holds the rest of the energy; its impulse is the momentum taken.
            const double stored = 0.5 * M * V * V * std::pow(std::sin(w * t), 2);
            CHECK(std::abs(out.energy.contact - stored) <= 3 * out.velocity_error_bound / V * 0.5 * M * V * V);
            check_momentum_with_ends(out, 1e-12);
        }
    }
}

TEST_CASE("rigid bodies: a mass on a dashpot end decays as V exp(-c t / M)", "[rigid_bodies][closed_form]") {
    const double M = 2, V = 1.25, c = 0.8;
    ChainEnds ends;
    ends.left.kind = EndKind::dashpot;
    ends.left.damping = c;
    const Chain chain({body(M, -V)}, ends);
    for (SolverOptions o : {exact(), verlet()}) {
        INFO(to_string(o.method));
        const double t = 3 * M / c;
        o.end_time = t;
        const Outcome out = solve(chain, o);
        const double v = -V * std::exp(-c * t / M);
        CHECK(std::abs(out.rods[0].final_velocity - v) <= out.velocity_error_bound);
        CHECK(std::abs(out.energy.dissipated - 0.5 * M * (V * V - v * v)) <= 3 * out.velocity_error_bound / V * 0.5 * M * V * V);
        check_momentum_with_ends(out, 1e-12);
    }
}

TEST_CASE("rigid bodies: monodisperse Hertz chains struck by one scale with k, m and V", "[rigid_bodies][scaling]") {
    for (std::size_t n : {3u, 5u}) {
        std::vector<std::vector<double>> ratios;
        for (const auto& [k, m, V] : {std::tuple{1.0, 1.0, 1.0}, std::tuple{2.5e5, 0.03, 0.2}, std::tuple{7e-3, 40.0, 6.0}}) {
            std::vector<Rod> rods{body(m, V)};
            for (std::size_t i = 1; i < n; ++i) rods.push_back(body(m, 0, 0, k, 1.5));
            ratios.push_back(scaled_final_velocities(rods, V));
        }
        for (std::size_t s = 1; s < ratios.size(); ++s)
            for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(ratios[s][i] - ratios[0][i]) <= 1e-9);
        // Not the rigid exchange: Hertz chains leave the striker and the others moving.
        CHECK(ratios[0][n - 1] < 1 - 1e-3);
    }
}

TEST_CASE("rigid bodies: an independent RK4 integration agrees with both paths within their stated errors",
          "[rigid_bodies][independent]") {
    const std::vector<double> m{1.0, 0.7, 1.3, 1.0};
    const std::vector<double> v0{1.0, 0.0, 0.0, -0.2};
    const double k = 50, p = 1.5;
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < m.size(); ++i) rods.push_back(body(m[i], v0[i], 0, i == 0 ? 0 : k, i == 0 ? 1 : p));
    const Chain chain(rods);
    // RK4's own error: the difference from a run at half the step (fourth order: 1/15 of it,
    // taken whole).
    const double h = 2e-5;
    const std::vector<double> coarse = rk4_chain(m, v0, k, p, 2 * h), fine = rk4_chain(m, v0, k, p, h);
    double rk4_error = 0;
    for (std::size_t i = 0; i < m.size(); ++i) rk4_error = std::max(rk4_error, std::abs(fine[i] - coarse[i]));
    CHECK(rk4_error <= 1e-9);
    const Outcome e = solve(chain, exact());
    const Outcome f = solve(chain, verlet());
    for (std::size_t i = 0; i < m.size(); ++i) {
        INFO("body " << i);
        CHECK(std::abs(e.rods[i].final_velocity - fine[i]) <= e.velocity_error_bound + rk4_error);
        CHECK(std::abs(f.rods[i].final_velocity - fine[i]) <= f.velocity_error_bound + rk4_error);
        CHECK(std::abs(f.rods[i].final_velocity - e.rods[i].final_velocity) <= f.velocity_error_bound + e.velocity_error_bound);
    }
}

TEST_CASE("rigid bodies: random chains with gaps, dashpots and compliant walls: momentum to 1e-12, energy to "
          "1e-10, the two paths within their stated errors", "[rigid_bodies][balances]") {
    std::mt19937_64 rng(20261127);
    std::uniform_real_distribution<double> u(0, 1);
    for (int trial = 0; trial < 12; ++trial) {
        const std::size_t n = 2 + static_cast<std::size_t>(u(rng) * 5);
        std::vector<Rod> rods;
        for (std::size_t i = 0; i < n; ++i) {
            const double p = u(rng) < 0.5 ? 1.5 : 1.0;
            const double c = u(rng) < 0.3 ? 0.5 * u(rng) : 0.0;
            rods.push_back(i == 0 ? body(0.5 + 1.5 * u(rng), 2 * u(rng) - 1)
                                  : body(0.5 + 1.5 * u(rng), 2 * u(rng) - 1, 0.2 * u(rng), 20 + 200 * u(rng), p, c));
        }
        ChainEnds ends;
        if (u(rng) < 0.5) {
            ends.right.kind = EndKind::wall;
            ends.right.gap = 0.3 * u(rng);
            ends.right.contact_stiffness = 100;
            ends.right.contact_exponent = 1.5;
        }
        const Chain chain(rods, ends);
        INFO("trial " << trial << ", " << n << " bodies");
        const Outcome e = solve(chain, exact());
        REQUIRE(e.settled);
        check_momentum_with_ends(e, 1e-12);
        const EnergyBalance& b = e.energy;
        CHECK(std::abs(b.initial - (b.final_rigid + b.contact + b.dissipated)) <= 1e-10 * b.initial);
        CHECK(b.contact == 0);  // settled: every contact open
        const Outcome f = solve(chain, verlet(1e-5));
        REQUIRE(f.settled);
        check_momentum_with_ends(f, 1e-12);
        for (std::size_t i = 0; i < n; ++i)
            CHECK(std::abs(f.rods[i].final_velocity - e.rods[i].final_velocity) <=
                  f.velocity_error_bound + e.velocity_error_bound);
    }
}

TEST_CASE("rigid bodies: the exact solver's bound holds against a run at a 100x tighter accuracy", "[rigid_bodies][accuracy]") {
    const Chain chain({body(1, 1), body(1, 0, 0.05, 300, 1.5), body(2, -0.3, 0.1, 80, 1.0, 0.2), body(0.5, 0, 0, 500, 1.5)});
    SolverOptions loose = exact();
    loose.accuracy = 1e-6;
    SolverOptions tight = exact();
    tight.accuracy = 1e-8;
    const Outcome a = solve(chain, loose), b = solve(chain, tight);
    CHECK(a.velocity_error_bound <= 1e-6 * 1.3);  // the velocity scale: 1 - (-0.3)
    for (std::size_t i = 0; i < a.rods.size(); ++i)
        CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <= a.velocity_error_bound + b.velocity_error_bound);
}

TEST_CASE("rigid bodies: force histories hold every event time and the sample grid", "[rigid_bodies][forces]") {
    const double m = 1, V = 1, k = 100;
    const Chain chain({body(m, V), body(m, 0, 0.5, k, 1.5)});
    SolverOptions o = exact();
    o.force_samples = 11;
    const Outcome out = solve(chain, o);
    const ForceHistory& h = out.contacts.at(0).force_history;
    REQUIRE(h.time.size() == h.force.size());
    CHECK(std::is_sorted(h.time.begin(), h.time.end()));
    const Interval& iv = out.contacts[0].intervals.at(0);
    CHECK(std::find(h.time.begin(), h.time.end(), iv.start) != h.time.end());
    CHECK(std::find(h.time.begin(), h.time.end(), iv.end) != h.time.end());
    // At most --samples points: the events, and the grid for the rest.
    CHECK(h.time.size() <= 11);
    REQUIRE(out.stats.events == 2);
    const std::size_t grid = 11 - out.stats.events;
    for (std::size_t i = 0; i < grid; ++i) {
        const double t = i + 1 == grid ? out.end_time : out.end_time * static_cast<double>(i) / static_cast<double>(grid - 1);
        CHECK(std::find(h.time.begin(), h.time.end(), t) != h.time.end());
    }
    // Compressive force (N < 0) only inside the interval; its integral is the impulse m V.
    double impulse = 0;
    for (std::size_t j = 0; j < h.time.size(); ++j) {
        if (h.time[j] < iv.start || h.time[j] > iv.end) CHECK(h.force[j] == 0);
        else CHECK(h.force[j] <= 0);
        if (j + 1 < h.time.size()) impulse -= 0.5 * (h.force[j] + h.force[j + 1]) * (h.time[j + 1] - h.time[j]);
    }
    CHECK(impulse > 0);
}

TEST_CASE("rigid bodies: a 10-ball Hertz chain settles though neighbours leave at equal velocities, and both paths "
          "agree", "[rigid_bodies][settling]") {
    // Behind the wave the first balls leave touching at (nearly) the same velocity: such a contact
    // stays closed at a rounding-sized force and must not keep the run from settling.
    std::vector<Rod> rods{body(0.032882, 1)};
    for (int i = 1; i < 10; ++i) rods.push_back(body(0.032882, 0, 0, 1.0878e10, 1.5));
    const Chain chain(rods);
    const Outcome e = solve(chain, exact());
    const Outcome f = solve(chain, verlet(1e-4));
    REQUIRE(e.settled);
    REQUIRE(f.settled);
    CHECK(e.velocity_error_bound <= 1e-9);
    check_momentum_with_ends(e, 1e-12);
    CHECK(std::abs(e.energy.initial - (e.energy.final_rigid + e.energy.contact + e.energy.dissipated)) <= 1e-10 * e.energy.initial);
    for (std::size_t i = 0; i < rods.size(); ++i)
        CHECK(std::abs(f.rods[i].final_velocity - e.rods[i].final_velocity) <= f.velocity_error_bound + e.velocity_error_bound);
}


TEST_CASE("rigid bodies with restitution: two balls separate at -e times their approach speed and lose 1 - e^2 "
          "of the relative kinetic energy, in both paths", "[rigid_bodies][restitution]") {
    // Energetic restitution (docs/physics.md §9.7) between two bodies alone: the relative velocity
    // after is -e times before, whatever the masses and the law; the loss is 1 - e^2 of m* g^2 / 2.
    for (double e : {0.3, 0.7, 0.95}) {
        // Unequal balls, the second moving towards the first, a gap to close.
        const Chain chain({make_ball(0.01, 1.2), make_ball(0.007, -0.4, 1e-3, e, 7800, 200e9, 0.29)});
        const double m1 = chain.rods()[0].mass(), m2 = chain.rods()[1].mass(), g0 = 1.2 - (-0.4);
        const double m_star = m1 * m2 / (m1 + m2);
        const double relative_energy = 0.5 * m_star * g0 * g0;
        INFO("e = " << e);
        const Outcome x = solve(chain, exact());
        REQUIRE(x.settled);
        const double g = x.rods[0].final_velocity - x.rods[1].final_velocity;
        // The exact path to its stated bound, which is <= 1e-8 relative: each velocity within the bound.
        CHECK(x.velocity_error_bound <= 1e-8 * g0);
        CHECK(std::abs(g + e * g0) <= 2 * x.velocity_error_bound);
        CHECK(std::abs(x.energy.dissipated / relative_energy - (1 - e * e)) <= 4 * x.velocity_error_bound / g0);
        check_momentum_with_ends(x, 1e-12);
        CHECK(x.energy.contact == 0);
        CHECK(std::abs(x.energy.initial - (x.energy.final_rigid + x.energy.dissipated)) <= 1e-10 * x.energy.initial);
        // One contact interval: the restitution ends when the unloading branch reaches δ_r.
        CHECK(x.contacts.at(0).intervals.size() == 1);
        const Outcome f = solve(chain, verlet(1e-6));
        REQUIRE(f.settled);
        const double gf = f.rods[0].final_velocity - f.rods[1].final_velocity;
        CHECK(std::abs(gf + e * g0) <= 2 * f.velocity_error_bound);
        CHECK(std::abs(f.energy.dissipated / relative_energy - (1 - e * e)) <= 4 * f.velocity_error_bound / g0 + 1e-6);
        check_momentum_with_ends(f, 1e-12);
        for (std::size_t i = 0; i < 2; ++i)
            CHECK(std::abs(f.rods[i].final_velocity - x.rods[i].final_velocity) <= f.velocity_error_bound + x.velocity_error_bound);
    }
}

TEST_CASE("rigid bodies with restitution: a ball dropped on a Hertz wall rebounds at -e V", "[rigid_bodies][restitution]") {
    for (double e : {0.5, 0.9}) {
        ChainEnds ends;
        ends.right.kind = EndKind::wall;  // a rigid wall met by a ball: Hertz with the ball's E*, R*
        ends.right.gap = 2e-3;
        ends.right.restitution = e;
        const double V = 3;
        const Chain chain({make_ball(0.01, V)}, ends);
        INFO("e = " << e);
        const Outcome x = solve(chain, exact());
        REQUIRE(x.settled);
        CHECK(std::abs(x.rods[0].final_velocity + e * V) <= x.velocity_error_bound);
        CHECK(x.velocity_error_bound <= 1e-8 * V);
        const double m = chain.rods()[0].mass();
        CHECK(std::abs(x.energy.dissipated - (1 - e * e) * 0.5 * m * V * V) <= 1e-8 * 0.5 * m * V * V);
        check_momentum_with_ends(x, 1e-12);
        const Outcome f = solve(chain, verlet(1e-6));
        REQUIRE(f.settled);
        CHECK(std::abs(f.rods[0].final_velocity + e * V) <= f.velocity_error_bound);
    }
}

TEST_CASE("rigid bodies with restitution: the exact bound covers a run at 100x tighter accuracy on seeded random "
          "chains with e < 1", "[rigid_bodies][restitution][accuracy]") {
    std::mt19937_64 rng(24012027);
    std::uniform_real_distribution<double> u(0, 1);
    for (int trial = 0; trial < 8; ++trial) {
        const std::size_t n = 3 + static_cast<std::size_t>(u(rng) * 4);
        std::vector<Rod> rods;
        for (std::size_t i = 0; i < n; ++i)
            rods.push_back(make_ball(0.005 + 0.015 * u(rng), 2 * u(rng) - 1, i == 0 ? 0 : 2e-3 * u(rng),
                                i > 0 && u(rng) < 0.6 ? 0.3 + 0.7 * u(rng) : 1.0));
        const Chain chain(rods);
        INFO("trial " << trial << ", " << n << " balls");
        SolverOptions loose = exact(), tight = exact();
        loose.accuracy = 1e-7;
        tight.accuracy = 1e-9;
        const Outcome a = solve(chain, loose), b = solve(chain, tight);
        REQUIRE(a.settled);
        REQUIRE(b.settled);
        CHECK(a.velocity_error_bound <= 1e-7 * chain.velocity_scale());
        for (std::size_t i = 0; i < n; ++i)
            CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <= a.velocity_error_bound);
    }
}

namespace {

/// A seeded random chain of 3-8 balls of random radii and materials, gaps and velocities, about half
/// their contacts with restitution e < 1, and sometimes a Hertz wall on the right (issue 24,
/// "Balances").
Chain random_ball_chain(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0, 1);
    struct Material {
        double density, youngs_modulus, poisson_ratio;
    };
    const Material materials[] = {{7850, 210e9, 0.3}, {2700, 70e9, 0.33}, {8500, 100e9, 0.34}, {2500, 63e9, 0.22}};
    const std::size_t n = 3 + static_cast<std::size_t>(u(rng) * 6);
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i) {
        const Material& m = materials[static_cast<std::size_t>(u(rng) * 4) % 4];
        const double e = i > 0 && u(rng) < 0.5 ? 0.4 + 0.6 * u(rng) : 1.0;
        rods.push_back(make_ball(0.003 + 0.017 * u(rng), 2 * u(rng) - 1, i > 0 && u(rng) < 0.6 ? 1e-3 * u(rng) : 0.0, e,
                            m.density, m.youngs_modulus, m.poisson_ratio));
    }
    ChainEnds ends;
    if (u(rng) < 0.3) {
        ends.right.kind = EndKind::wall;
        ends.right.gap = 2e-3 * u(rng);
        ends.right.restitution = 0.5 + 0.5 * u(rng);
    }
    return Chain(rods, ends);
}

}  // namespace

TEST_CASE("rigid bodies: seeded random ball chains with restitution: momentum to 1e-12, energy to 1e-10, the two "
          "paths within their stated errors", "[rigid_bodies][restitution][balances]") {
    std::mt19937_64 rng(24242424);
    int lossy = 0;
    for (int seed = 0; seed < 20; ++seed) {
        const Chain chain = random_ball_chain(rng);
        const std::size_t n = chain.size();
        for (std::size_t i = 1; i < n; ++i) lossy += chain[i].restitution < 1;
        INFO("seed " << seed << ", " << n << " balls");
        const Outcome e = solve(chain, exact());
        REQUIRE(e.settled);
        check_momentum_with_ends(e, 1e-12);
        const EnergyBalance& b = e.energy;
        CHECK(std::abs(b.initial - (b.final_rigid + b.final_vibration + b.contact + b.dissipated)) <= 1e-10 * b.initial);
        CHECK(b.contact == 0);  // settled: every contact open
        CHECK(e.velocity_error_bound <= 1e-9 * chain.velocity_scale());
        const Outcome f = solve(chain, verlet(1e-5));
        REQUIRE(f.settled);
        check_momentum_with_ends(f, 1e-12);
        // Velocity Verlet's energy defect is its stated scheme drift (energy.dropped): the balance
        // holds with it to 1e-10, and the drift itself is within what its stated velocity error
        // allows (energies are quadratic in the velocities: 2 |v| δv per unit mass, summed).
        const EnergyBalance& fb = f.energy;
        CHECK(std::abs(fb.initial - (fb.final_rigid + fb.final_vibration + fb.contact + fb.dissipated + fb.dropped)) <=
              1e-10 * fb.initial);
        double allowed = 0;
        for (const RodOutcome& r : f.rods) allowed += r.mass * (std::abs(r.final_velocity) + f.velocity_error_bound) * f.velocity_error_bound;
        CHECK(std::abs(fb.dropped) <= allowed + 1e-10 * fb.initial);
        for (std::size_t i = 0; i < n; ++i)
            CHECK(std::abs(f.rods[i].final_velocity - e.rods[i].final_velocity) <=
                  f.velocity_error_bound + e.velocity_error_bound);
    }
    CHECK(lossy >= 20);  // the draw does exercise restitution
}

TEST_CASE("rigid bodies: monodisperse ball chains (kind = \"ball\", Hertz derived) scale with radius, material and "
          "speed, elastic or with restitution", "[rigid_bodies][scaling][restitution]") {
    // Hertz's law is positively homogeneous, and so is the unloading branch (§9.7): the final
    // velocities / V of a monodisperse chain struck by one depend on neither k, m nor V.
    for (double e : {1.0, 0.8}) {
        for (std::size_t n : {3u, 5u}) {
            std::vector<std::vector<double>> ratios;
            for (const auto& [R, rho, E, V] : {std::tuple{0.01, 7850.0, 210e9, 1.0}, std::tuple{0.003, 2700.0, 70e9, 0.2},
                                               std::tuple{0.05, 19300.0, 79e9, 6.0}}) {
                std::vector<Rod> rods{make_ball(R, V, 0, 1, rho, E, 0.3)};
                for (std::size_t i = 1; i < n; ++i) rods.push_back(make_ball(R, 0, 0, e, rho, E, 0.3));
                ratios.push_back(scaled_final_velocities(rods, V));
            }
            INFO("e = " << e << ", " << n << " balls");
            for (std::size_t s = 1; s < ratios.size(); ++s)
                for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(ratios[s][i] - ratios[0][i]) <= 1e-9);
            CHECK(ratios[0][n - 1] < 1 - 1e-3);
            if (e < 1) CHECK(ratios[0][n - 1] < 0.95);  // lossy: less passed on than elastic
        }
    }
}

TEST_CASE("rigid bodies: both paths stop at max_work integration steps with the cap named, and not before",
          "[rigid_bodies][bounded_work]") {
    // fuzz/regressions/verlet_mass_ratio_1e87.toml: a ball of 4e-71 kg beside one of 1.6e16 kg made
    // Verlet's fixed step (set by the lightest body) take 2e7 steps per run. max_work caps every
    // integrating path's steps; here a 3-ball steel cradle.
    const Chain chain({make_ball(0.01, 1), make_ball(0.01, 0), make_ball(0.01, 0)});
    for (SolverOptions o : {exact(), verlet()}) {
        const Outcome free_run = solve(chain, o);
        REQUIRE(free_run.settled);
        REQUIRE(free_run.stats.steps > 10);
        o.max_work = 5;
        CHECK_THROWS_WITH(solve(chain, o), Catch::Contains("max_work"));
        // A cap that the finest run fits changes nothing (stats.steps: that run's steps).
        o.max_work = free_run.stats.steps + 1;
        const Outcome capped = solve(chain, o);
        for (std::size_t i = 0; i < 3; ++i) CHECK(capped.rods[i].final_velocity == free_run.rods[i].final_velocity);
    }
}

TEST_CASE("rigid bodies: the steps that redo an interval up to an event count against max_work too",
          "[rigid_bodies][bounded_work]") {
    // fuzz/regressions/ode_stiff_dashpot_redo.toml: a dashpot of 2.1e11 N s/m on a ball of 4e-71 kg.
    // The dense stepper crossed the interval up to an event in one step; the controlled stepper
    // that redoes it so that no step spans the kink took steps without bound (20 s under the
    // sanitizers, over a minute without). Those steps are counted against the same cap.
    const Case c = load_case(std::filesystem::path(RODCOLLIDE_SOURCE_DIR) / "fuzz" / "regressions" /
                             "ode_stiff_dashpot_redo.toml");
    SolverOptions o = exact();
    o.max_work = 20'000;
    CHECK_THROWS_WITH(solve(c.chain, o), Catch::Contains("max_work"));
}

TEST_CASE("rigid bodies: a long chain struck from both ends, integrated on its active set, agrees with an "
          "independent RK4 of every body", "[rigid_bodies][independent][active_set]") {
    // The exact solver integrates only the bodies near a loaded contact (body_ode.hpp): bodies ahead
    // of a wave wait outside the ODE until the force they would feel passes a threshold, and bodies
    // behind it leave. Two waves that cross, on seeded unequal masses, make bodies leave and come
    // back; RK4 integrates every body all the time.
    std::mt19937_64 rng(20261128);
    std::uniform_real_distribution<double> u(0.8, 1.25);
    const std::size_t n = 24;
    std::vector<double> m(n), v0(n, 0.0);
    for (double& mi : m) mi = u(rng);
    v0.front() = 1.0;
    v0.back() = -0.6;
    const double k = 50, p = 1.5;
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i) rods.push_back(body(m[i], v0[i], 0, i == 0 ? 0 : k, i == 0 ? 1 : p));
    const Chain chain(rods);
    // RK4's own error: the difference from a run at twice the step (fourth order: 1/15 of it, taken
    // whole; measured 3e-11, against differences from the exact solver of up to 5e-11).
    const double h = 5e-5;
    const std::vector<double> coarse = rk4_chain(m, v0, k, p, 2 * h), fine = rk4_chain(m, v0, k, p, h);
    double rk4_error = 0;
    for (std::size_t i = 0; i < n; ++i) rk4_error = std::max(rk4_error, std::abs(fine[i] - coarse[i]));
    CHECK(rk4_error <= 1e-10);
    SolverOptions o = exact();
    o.accuracy = 1e-9;
    const Outcome e = solve(chain, o);
    REQUIRE(e.settled);
    check_momentum_with_ends(e, 1e-12);
    const EnergyBalance& b = e.energy;
    CHECK(std::abs(b.initial - (b.final_rigid + b.contact + b.dissipated)) <= 1e-10 * b.initial);
    for (std::size_t i = 0; i < n; ++i) {
        INFO("body " << i);
        CHECK(std::abs(e.rods[i].final_velocity - fine[i]) <= e.velocity_error_bound + rk4_error);
    }
}
