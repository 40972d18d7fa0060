// Finite differences on segments, fixed, wall and anechoic ends, loads and gauges (docs/physics.md
// §8; docs/finite_difference.md "Ends, loads, segments and gauges"). At Courant 1 with every event
// on a grid time the grid is the method of characteristics, so it must give the closed forms
// (Graff 1975 ch. 2; Bussac, Collet, Gary & Othman 2008) and the exact solver's outcome to
// rounding; otherwise its own error estimate must cover its difference from the exact solver, and
// it must converge. Every validation case and every example in cases/ends is run through both.
#include "chain_builders.hpp"
#include "closed_forms.hpp"
#include "convergence_study.hpp"
#include "rodcollide/case_file.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/fd/finite_difference.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

using namespace rodcollide;
using rodcollide::testing::check_energy_balance;
using rodcollide::testing::make_rod;

namespace {

constexpr double exact = 1e-12;

/// A rod of welded segments {length, area} (unit density and modulus: c = 1), touching its left
/// neighbour.
Rod stepped_rod(double velocity, std::initializer_list<std::pair<double, double>> segments) {
    Rod r = make_rod(0, velocity);
    for (const auto& [length, area] : segments) r.segments.push_back({length, area, 1, 1});
    return r;
}

FiniteDifferenceSolution grid(const Chain& chain, SolverOptions o = {}, const std::vector<std::size_t>& rods = {}) {
    o.method = Method::finite_difference;
    return solve_finite_difference(chain, o, std::nullopt, rods);
}

/// A run keeping force histories of up to `samples` points, on an exact grid, settled.
FiniteDifferenceSolution exact_grid_with_forces(const Chain& chain, std::size_t samples) {
    SolverOptions o;
    o.force_samples = samples;
    FiniteDifferenceSolution s = grid(chain, o);
    CHECK(s.exact());
    REQUIRE(s.outcome.settled);
    return s;
}

Outcome exact_outcome(const Chain& chain, SolverOptions o = {}) {
    o.method = Method::characteristics;
    return solve(chain, o);
}

/// Two outcomes agree within `tol` of the chain's scales: velocities (V), contact and end impulses
/// (largest m V), energies (initial + input), compression intervals and the end time (end time).
void check_same_outcome(const Outcome& a, const Outcome& b, const Chain& chain, double tol) {
    const double V = chain.velocity_scale();
    double p_scale = 0;
    for (const Rod& r : chain.rods()) p_scale = std::max(p_scale, r.mass() * V);
    const double e_scale = std::max(b.energy.initial + b.energy.input, 1e-300);
    const double t_scale = std::max(b.end_time, 1e-300);
    REQUIRE(a.rods.size() == b.rods.size());
    for (std::size_t i = 0; i < a.rods.size(); ++i) {
        INFO("rod " << i);
        CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <= tol * V);
        CHECK(std::abs(a.rods[i].vibration_energy - b.rods[i].vibration_energy) <= tol * e_scale);
    }
    const auto same_intervals = [&](const std::vector<Interval>& x, const std::vector<Interval>& y) {
        REQUIRE(x.size() == y.size());
        for (std::size_t m = 0; m < x.size(); ++m) {
            CHECK(std::abs(x[m].start - y[m].start) <= tol * t_scale);
            CHECK(std::abs(x[m].end - y[m].end) <= tol * t_scale);
        }
    };
    REQUIRE(a.contacts.size() == b.contacts.size());
    for (std::size_t k = 0; k < a.contacts.size(); ++k) {
        INFO("contact " << k);
        CHECK(std::abs(a.contacts[k].impulse - b.contacts[k].impulse) <= tol * p_scale);
        same_intervals(a.contacts[k].intervals, b.contacts[k].intervals);
    }
    REQUIRE(a.ends.size() == b.ends.size());
    for (std::size_t k = 0; k < a.ends.size(); ++k) {
        INFO("end " << k);
        CHECK(std::abs(a.ends[k].impulse - b.ends[k].impulse) <= tol * p_scale);
        CHECK(std::abs(a.ends[k].work - b.ends[k].work) <= tol * e_scale);
        CHECK(a.ends[k].load_step_error == b.ends[k].load_step_error);
        same_intervals(a.ends[k].intervals, b.ends[k].intervals);
    }
    CHECK(std::abs(a.energy.radiated - b.energy.radiated) <= tol * e_scale);
    CHECK(std::abs(a.energy.input - b.energy.input) <= tol * e_scale);
    CHECK(std::abs(a.energy.dropped) <= tol * e_scale);
    CHECK(a.settled == b.settled);
    CHECK(std::abs(a.end_time - b.end_time) <= tol * t_scale);
}

/// Largest |u_grid - u_exact| over the rods [m/s].
double velocity_difference(const Outcome& a, const Outcome& b) {
    return (a.final_velocities() - b.final_velocities()).cwiseAbs().maxCoeff();
}

/// The case files of a directory, sorted.
std::vector<std::filesystem::path> case_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("grid: a rod hits a wall at a gap, compressed for 2L/c, rebounds at -v, to rounding", "[finite-difference][chain-ends]") {
    // L = 1, c = 1, gap 0.5 at v = 1: the gap closes at t = 0.5, a grid time.
    ChainEnds ends;
    ends.left = {EndKind::wall, 0.5};
    const Chain chain({make_rod(1, -1)}, ends);
    const FiniteDifferenceSolution s = exact_grid_with_forces(chain, 100);
    const Outcome& g = s.outcome;
    REQUIRE(g.ends[0].intervals.size() == 1);
    CHECK(g.ends[0].intervals[0].start == Approx(0.5).epsilon(exact));
    CHECK(g.ends[0].intervals[0].end == Approx(2.5).epsilon(exact));
    CHECK(g.rods[0].final_velocity == Approx(1).epsilon(exact));
    CHECK(g.rods[0].vibration_energy == Approx(0).margin(exact));
    CHECK(g.ends[0].impulse == Approx(2).epsilon(exact));
    CHECK(std::abs(g.ends[0].work) <= exact);
    CHECK(g.velocity_error_bound == characteristics_rounding * chain.velocity_scale());
    // The wall's force history: -Z v while compressed.
    for (std::size_t k = 0; k < g.ends[0].force_history.time.size(); ++k) {
        const double t = g.ends[0].force_history.time[k], f = g.ends[0].force_history.force[k];
        if (t > 0.5 + 1e-9 && t < 2.5 - 1e-9) CHECK(f == Approx(-1).epsilon(exact));
    }
    SolverOptions o;
    o.force_samples = 100;
    check_same_outcome(g, exact_outcome(chain, o), chain, exact);
    check_energy_balance(g);
}

TEST_CASE("grid: a rod held at a fixed end gets 2 m v over 2L/c, then moves at -v", "[finite-difference][chain-ends]") {
    ChainEnds ends;
    ends.left.kind = EndKind::fixed;
    const Chain chain({make_rod(1, -1)}, ends);
    SolverOptions o;
    o.end_time = 2;
    const FiniteDifferenceSolution s = grid(chain, o);
    CHECK(s.exact());
    CHECK(s.outcome.rods[0].final_velocity == Approx(1).epsilon(exact));
    CHECK(s.outcome.ends[0].impulse == Approx(2).epsilon(exact));
    CHECK(s.outcome.ends[0].work == 0);
    check_energy_balance(s.outcome);
}

TEST_CASE("grid: settling inside a step reads a held rod there, as the exact solver does", "[finite-difference][chain-ends]") {
    // A rod struck against a held rod; the settling bound (from the held rod's energy) is not a grid
    // time, and the held rod keeps changing: its state at the bound comes from the last step's
    // end forces and the end values emitted up to the bound.
    ChainEnds ends;
    ends.left.kind = EndKind::fixed;
    const Chain chain({make_rod(1, 0), make_rod(0.5, -1, 0, 2)}, ends);
    const FiniteDifferenceSolution s = grid(chain);
    REQUIRE(s.exact());
    const double steps = s.outcome.end_time / s.grid.time_step;
    CHECK(std::abs(steps - std::round(steps)) > 0.01);  // inside a step
    check_same_outcome(s.outcome, exact_outcome(chain), chain, exact);
}

TEST_CASE("grid: striker on an anechoic bar, Bussac, Collet, Gary & Othman 2008", "[finite-difference][chain-ends][bussac]") {
    // Dimensionless (c = 1): striker of length 1 and section r, bar of length 3 and section 1.
    for (const double r : {0.5, 0.25, 2.0, 4.0}) {
        INFO("r = A1/A2 = " << r);
        ChainEnds ends;
        ends.right.kind = EndKind::anechoic;
        const Chain chain({make_rod(1, 1, 0, r), make_rod(3, 0)}, ends);
        const FiniteDifferenceSolution s = exact_grid_with_forces(chain, 100000);
        const Outcome& g = s.outcome;
        const double R = (1 - r) / (1 + r), Z1 = chain[0].impedance();
        // Force on [2n, 2(n+1)]: (1+R)(-R)^n Z1 V/2 in compression while the contact is closed.
        const ForceHistory& f = g.contacts[0].force_history;
        for (int n = 0; n < 6; ++n) {
            if (r < 1 && n > 0) break;  // R > 0: the second interval would pull, the contact opens
            const double t = 2 * n + 1;
            double force = 0;
            for (std::size_t k = 0; k < f.time.size() && f.time[k] <= t; ++k) force = f.force[k];
            INFO("n = " << n);
            CHECK(force == Approx(-(1 + R) * std::pow(-R, n) * Z1 / 2).epsilon(exact));
        }
        const double m1V = chain[0].mass();
        if (r < 1) {
            REQUIRE(g.contacts[0].intervals.size() == 1);
            CHECK(g.contacts[0].intervals[0].end == Approx(2).epsilon(exact));
            CHECK(g.contacts[0].impulse / m1V == Approx(2 / (1 + r)).epsilon(exact));
            CHECK(g.energy.radiated / g.energy.initial == Approx(4 * r / ((1 + r) * (1 + r))).epsilon(exact));
            check_same_outcome(g, exact_outcome(chain), chain, exact);
        } else {
            // The force decays geometrically and the contact never pulls: everything passes. The
            // grid releases the contact once its force is within the contact rule's band (1e-10 V
            // of the free separation velocity), the exact solver once the next front is below its
            // drop tolerance: both leave at most that much behind.
            CHECK(g.contacts[0].impulse / m1V == Approx(1).epsilon(1e-9));
            CHECK(g.energy.radiated / g.energy.initial == Approx(1).epsilon(1e-9));
        }
        check_energy_balance(g);
    }
}

TEST_CASE("grid: a section change transmits 2 Z1/(Z1+Z2) of a velocity front and reflects (Z1-Z2)/(Z1+Z2)", "[finite-difference][segments]") {
    for (const double a : {0.5, 3.0}) {
        INFO("A2/A1 = " << a);
        const Chain chain({make_rod(1, 1), stepped_rod(0, {{1, 1}, {2, a}})});
        SolverOptions o;
        o.end_time = 1.8;
        const FiniteDifferenceSolution s = grid(chain, o, {1});
        CHECK(s.exact());
        const WaveField& field = s.wave_field.value();
        const double incident = 0.5, z1 = 1, z2 = a;
        CHECK(field.state(1, 1.5, 1.6).velocity == Approx(incident * 2 * z1 / (z1 + z2)).epsilon(exact));
        CHECK(field.state(1, 0.5, 1.6).velocity - incident == Approx(incident * (z1 - z2) / (z1 + z2)).epsilon(exact));
        CHECK(field.state(1, 1.5, 1.6).force == Approx(-incident * 2 * z2 / (z1 + z2)).epsilon(exact));
    }
}

TEST_CASE("grid: a rectangular force pulse into a free bar, gauge -F/Z and final velocity impulse/mass", "[finite-difference][loads]") {
    const double F = -2, duration = 0.5;
    ChainEnds ends;
    ends.loads.push_back({ChainSide::left, LoadQuantity::force, {0, duration}, {F, F}});
    const Chain chain({make_rod(1, 0)}, ends);
    SolverOptions o;
    o.method = Method::finite_difference;
    o.end_time = 1.4;
    const SolutionWithGauges s = solve_with_gauges(chain, o, {{0, 0.5, "mid"}}, 1401);
    const Outcome& g = s.outcome;
    const double Z = chain[0].impedance();
    CHECK(g.rods[0].final_velocity * chain[0].mass() == Approx(-F * duration).epsilon(exact));
    CHECK(g.ends[0].impulse == Approx(-F * duration).epsilon(exact));
    CHECK(g.energy.input == Approx(F * F / Z * duration).epsilon(exact));
    CHECK(g.ends[0].load_step_error == 0);
    check_energy_balance(g);
    // The gauge at the middle sees the pulse from 0.5 to 1.0: force F, velocity -F/Z.
    const GaugeSignal& mid = s.gauges.at(0);
    REQUIRE(mid.time.size() == 1401);
    for (std::size_t i = 0; i < mid.time.size(); ++i) {
        const double t = mid.time[i] - 0.5;
        if (t > 1e-9 && t < duration - 1e-9) {
            CHECK(mid.force[i] == Approx(F).epsilon(exact));
            CHECK(mid.velocity[i] == Approx(-F / Z).epsilon(exact));
            CHECK(mid.strain[i] == Approx(F / chain[0].axial_stiffness()).epsilon(exact));
        }
        if (t < -1e-9 || t > duration + 1e-9) CHECK(mid.force[i] == Approx(0).margin(exact));
    }
    // Settled when the load ends, as in the exact solver.
    o.end_time.reset();
    const Outcome settled = solve(chain, o);
    CHECK(settled.settled);
    CHECK(settled.end_time == Approx(duration).epsilon(exact));
}

TEST_CASE("grid: a velocity load drives its end at the prescribed velocity", "[finite-difference][loads]") {
    ChainEnds ends;
    ends.loads.push_back({ChainSide::right, LoadQuantity::velocity, {0, 0.5}, {-1, -1}});
    const Chain chain({make_rod(1, 0)}, ends);
    SolverOptions o;
    o.end_time = 0.8;
    const FiniteDifferenceSolution s = grid(chain, o, {0});
    CHECK(s.wave_field->state(0, 1, 0.25).velocity == Approx(-1).epsilon(exact));
    CHECK(s.wave_field->state(0, 0.8, 0.25).velocity == Approx(-1).epsilon(exact));
    CHECK(s.outcome.rods[0].final_velocity == Approx(-0.5).epsilon(exact));
    check_energy_balance(s.outcome);
}

TEST_CASE("grid: a sloped load acts through the exact solver's steps: same impulse, same stated error", "[finite-difference][loads]") {
    // A trapezoid: its sloped pieces are midpoint steps (chain_ends.hpp) whose times fall inside
    // grid steps; the grid averages them over each step, which keeps each step's impulse.
    ChainEnds ends;
    ends.loads.push_back({ChainSide::left, LoadQuantity::force, {0, 0.7, 2.9, 4}, {0, -1, -1, 0}});
    const Chain chain({make_rod(2, 0)}, ends);
    const FiniteDifferenceSolution s = grid(chain);
    const Outcome e = exact_outcome(chain);
    CHECK_FALSE(s.exact());
    CHECK(s.off_grid_load_steps > 0);
    CHECK(s.outcome.ends[0].impulse == Approx(e.ends[0].impulse).epsilon(exact));
    CHECK(s.outcome.ends[0].impulse == Approx(0.5 * 0.7 + 2.2 + 0.5 * 1.1).epsilon(exact));
    CHECK(s.outcome.rods[0].final_velocity == Approx(e.rods[0].final_velocity).epsilon(exact));
    CHECK(s.outcome.ends[0].load_step_error == e.ends[0].load_step_error);
    CHECK(s.outcome.ends[0].load_step_error > 0);
    CHECK(s.outcome.end_time == Approx(4).epsilon(exact));
    // The work differs: averaging a step of the load's (jumps of 2 x load_step_error) over the
    // grid step it falls in lowers int N^2/Z dt by at most jump^2 dt / (4 Z) per such step.
    const double jump = 2 * e.ends[0].load_step_error, Z = chain[0].impedance();
    CHECK(std::abs(s.outcome.energy.input - e.energy.input) <=
          static_cast<double>(s.off_grid_load_steps) * jump * jump * s.grid.time_step / (4 * Z));
    check_energy_balance(s.outcome);
}

TEST_CASE("grid gauges at Courant 1 equal the exact solver's on every sample", "[finite-difference][chain-ends][gauges]") {
    // A striker on a stepped rod with an anechoic end: welded joint, radiation, fronts split.
    ChainEnds ends;
    ends.right.kind = EndKind::anechoic;
    const Chain chain({make_rod(1, 1), stepped_rod(0, {{1, 1}, {2, 3}, {1, 0.5}})}, ends);
    const std::vector<Gauge> gauges = {{0, 0.3, "striker"}, {1, 1.7, "second"}, {1, 3.4, "third"}};
    SolverOptions o;
    o.end_time = 20;
    SolverOptions fd = o;
    fd.method = Method::finite_difference;
    const SolutionWithGauges a = solve_with_gauges(chain, fd, gauges, 997);
    const SolutionWithGauges b = solve_with_gauges(chain, o, gauges, 997);
    REQUIRE(a.gauges.size() == 3);
    for (std::size_t g = 0; g < gauges.size(); ++g) {
        INFO(gauges[g].name);
        REQUIRE(a.gauges[g].time.size() == b.gauges[g].time.size());
        for (std::size_t i = 0; i < a.gauges[g].time.size(); ++i) {
            INFO("sample " << i << ", t = " << b.gauges[g].time[i]);
            CHECK(a.gauges[g].time[i] == Approx(b.gauges[g].time[i]).epsilon(exact));
            CHECK(a.gauges[g].velocity[i] == Approx(b.gauges[g].velocity[i]).margin(exact));
            CHECK(a.gauges[g].force[i] == Approx(b.gauges[g].force[i]).margin(exact));
            CHECK(a.gauges[g].strain[i] == Approx(b.gauges[g].strain[i]).margin(exact));
        }
    }
    check_same_outcome(a.outcome, b.outcome, chain, exact);
}

TEST_CASE("every validation case and every example in cases/ends: the grid agrees with the exact solver", "[finite-difference][chain-ends][cases]") {
    // Exact to rounding on an exact grid (Courant 1 in every element, every event on a grid time);
    // otherwise within the grid's own error estimate. cases/*.toml: test_finite_difference_convergence.cpp.
    namespace fs = std::filesystem;
    std::vector<fs::path> files = case_files(fs::path(RODCOLLIDE_SOURCE_DIR) / "validation" / "cases");
    for (const fs::path& f : case_files(fs::path(RODCOLLIDE_SOURCE_DIR) / "cases" / "ends")) files.push_back(f);
    REQUIRE(files.size() >= 14);
    for (const fs::path& f : files) {
        INFO(f.filename().string());
        const Case c = load_case(f);
        // A chain of rigid bodies only (the balls of validation/cases/) has no grid: velocity Verlet
        // runs it through solve(), against the exact solver in validation/balls.toml and
        // tests/solvers/test_rigid_body_chains.cpp.
        if (c.chain.elements().empty()) continue;
        SolverOptions options = c.solver;
        const FiniteDifferenceSolution s = grid(c.chain, options);
        const Outcome e = exact_outcome(c.chain, options);
        const Outcome& g = s.outcome;
        INFO("exact grid " << s.exact() << ", estimate " << g.velocity_error_bound << ", difference "
                           << velocity_difference(g, e));
        CHECK(velocity_difference(g, e) <= g.velocity_error_bound);
        CHECK(g.impact_equation_residual() <= 1e-12);
        check_energy_balance(g);
        CHECK(g.settled == e.settled);
        if (f.filename() == "bussac_r_two.toml") {
            // The contact's force decays geometrically; the solvers release it at 1e-10 V and at
            // the drop tolerance (see the Bussac test above): 1e-10 of the scales apart.
            CHECK(s.exact());
            CHECK(velocity_difference(g, e) <= 2e-10 * c.chain.velocity_scale());
        } else if (s.exact()) {
            check_same_outcome(g, e, c.chain, exact);
        }
    }
}

TEST_CASE("the grid's error estimate covers its error on incommensurate chains with ends", "[finite-difference][chain-ends][accuracy]") {
    const double sqrt2 = std::sqrt(2.0), pi = std::numbers::pi;
    ChainEnds wall, anechoic, held, loaded;
    wall.left = {EndKind::wall, 0.1};
    anechoic.right.kind = EndKind::anechoic;
    held.right.kind = EndKind::fixed;
    loaded.loads.push_back({ChainSide::left, LoadQuantity::force, {0, 0.3, 0.9, 1.3}, {0, -1, -1, 0}});
    struct Named {
        const char* name;
        Chain chain;
    };
    const Named chains[] = {
        {"stepped rod on a wall at a gap", Chain({stepped_rod(-1, {{1, 1}, {sqrt2, 2}})}, wall)},
        {"striker on an anechoic bar of length 3 pi", Chain({make_rod(1, 1, 0, 0.5), make_rod(3 * pi, 0)}, anechoic)},
        {"striker on a stepped rod held at its far end", Chain({make_rod(1, 1), stepped_rod(0, {{sqrt2, 1}, {1, 2}})}, held)},
        {"trapezoid force on a stepped rod, then a gap", Chain({stepped_rod(0, {{1, 1}, {pi / 2, 0.5}}), make_rod(1, 0, 0.2)}, loaded)},
    };
    for (const Named& n : chains) {
        INFO(n.name);
        const FiniteDifferenceSolution s = grid(n.chain);
        const Outcome e = exact_outcome(n.chain);
        CHECK_FALSE(s.exact());
        CHECK(s.outcome.settled);
        CHECK(s.outcome.stats.velocity_error_target_met);
        const double difference = velocity_difference(s.outcome, e);
        INFO("difference " << difference << ", estimate " << s.outcome.velocity_error_bound);
        CHECK(difference <= s.outcome.velocity_error_bound);
        CHECK(difference <= finite_difference_accuracy * n.chain.velocity_scale());
        CHECK(s.outcome.impact_equation_residual() <= 1e-12);
        check_energy_balance(s.outcome);
    }
}

TEST_CASE("convergence with segments and a wall: observed order of the final velocities", "[finite-difference][chain-ends][convergence]") {
    // Phase-averaged errors over N = 100..800 (convergence_study.hpp; the table in
    // docs/finite_difference.md comes from build/rodcollide_convergence_table). Measured orders 2.0
    // (dispersion only, a joint between elements at Courant 1 and 0.9999) and 0.99 (closings and
    // openings between grid times); bounds with margin.
    const double lower_bound[] = {1.6, 0.8};
    const std::vector<std::size_t> cells = {100, 200, 400, 800};
    const auto chains = rodcollide::testing::end_study_chains();
    for (std::size_t c = 0; c < chains.size(); ++c) {
        INFO(chains[c].name);
        const Outcome e = exact_outcome(chains[c].chain);
        std::vector<double> errors;
        for (std::size_t n : cells) errors.push_back(rodcollide::testing::error_at(chains[c].chain, e, n).mean);
        const double order = rodcollide::testing::observed_order(cells, errors);
        INFO("errors " << errors[0] << " ... " << errors.back() << ", observed order " << order);
        CHECK(order >= lower_bound[c]);
        CHECK(errors.back() < 1e-4);
    }
}
