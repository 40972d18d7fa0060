// Free flight (free_flight.hpp, docs/physics.md §6.6): the periodic end paths against direct
// integration, the closing search against closed forms, and the solver with skipping against the
// solver processing every reflection, on chains with long separations.
#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/exact/free_flight.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

using namespace rodcollide;
using rodcollide::testing::make_rod;

namespace {

/// Displacement over [0, u] of a velocity that is `first` then `second`, repeated, by summing
/// piece after piece (the reference the periodic evaluation must match).
double integrate(const ArrivalWindow& first, const ArrivalWindow& second, double half, double u) {
    double x = 0, s = 0;
    while (true) {
        for (const ArrivalWindow* w : {&first, &second}) {
            const double start = s;
            for (const ArrivalPiece& p : *w) {
                if (s + p.duration >= u) return x + p.value * (u - s);
                x += p.value * p.duration;
                s += p.duration;
            }
            s = start + half;
        }
    }
}

}  // namespace

TEST_CASE("a periodic end path matches direct integration, its ranges bracket it", "[free_flight]") {
    const ArrivalWindow a{{0.25, 1.0}, {0.5, -0.5}, {0.25, 2.0}};  // durations sum to T = 1
    const ArrivalWindow b{{0.5, 0.0}, {0.5, 1.5}};
    const PeriodicPath path(a, b, 2.0);
    // Mean velocity: (1 * 0.25 - 0.25 + 0.5 + 0.75) / 2.
    CHECK(path.mean_velocity() == Approx(1.25 / 2).epsilon(1e-15));
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> when(0, 40);
    for (int i = 0; i < 200; ++i) {
        const double u = when(rng);
        CHECK(path.position(u) == Approx(integrate(a, b, 1.0, u)).margin(1e-13));
        const double w = std::uniform_real_distribution<double>(0, 2)(rng);
        const PeriodicPath::Range r = path.range(u, u + w);
        for (int k = 0; k <= 20; ++k) {
            const double x = path.position(u + w * k / 20);
            CHECK(x >= r.lo - 1e-13);
            CHECK(x <= r.hi + 1e-13);
        }
        // The extremes are reached (at breakpoints or the window's ends).
        double lo = path.position(u), hi = lo;
        for (int k = 1; k <= 20000; ++k) {
            const double x = path.position(u + w * k / 20000);
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
        CHECK(r.lo == Approx(lo).margin(2e-4));
        CHECK(r.hi == Approx(hi).margin(2e-4));
        // pieces() are the velocity from u on: they integrate to the change of position.
        double moved = 0;
        for (const ArrivalPiece& p : path.pieces(u, 1.0)) moved += p.value * p.duration;
        CHECK(moved == Approx(path.position(u + 1.0) - path.position(u)).margin(1e-12));
    }
}

TEST_CASE("the closing search bounds the first closing from below, tightly", "[free_flight]") {
    // Left rod's right end: velocity 1 then -1 (period 2, mean 0); right rod's left end at rest.
    const PeriodicPath left({{1.0, 1.0}}, {{1.0, -1.0}}, 2.0);
    const PeriodicPath still({{1.0, 0.0}}, {{1.0, 0.0}}, 2.0);
    // The left end advances by at most 1: a gap of 2 never closes, a gap of 0.5 closes at u = 0.5.
    CHECK(closing_lower_bound(2.0, left, still, 1e6, 1e-12, 1 << 16) == 1e6);
    const double u = closing_lower_bound(0.5, left, still, 1e6, 1e-12, 1 << 16);
    CHECK(u <= 0.5);
    CHECK(u > 0.49);
    // The right rod drifts towards the left one at 0.01: g(u) = 10.5 - 0.01 u - W(u), W(u) = u - 2k
    // on [2k, 2k+1]. At the peak u = 949, g = 0.01 > 0; on [950, 951] g = 960.5 - 1.01 u reaches 0
    // at u = 960.5/1.01.
    const PeriodicPath coming({{1.0, -0.01}}, {{1.0, -0.01}}, 2.0);
    const double v = closing_lower_bound(10.5, left, coming, 1e6, 1e-12, 1 << 16);
    CHECK(v <= 960.5 / 1.01);
    CHECK(v > 960.5 / 1.01 - 1e-6);
}

TEST_CASE("an end view reads a periodic path from any phase, and bounds the closing as the path does", "[free_flight]") {
    // The end of a rod asleep since `elapsed` (docs/physics.md §6.7): the view from now is the path
    // from phase elapsed mod period, whatever the sign of elapsed (a sleeper's start moves by whole
    // periods with the time origin).
    const PeriodicPath path({{0.3, 1.0}, {0.7, -0.5}}, {{0.2, 2.0}, {0.8, 0.25}}, 2.0);
    for (double elapsed : {0.0, 0.45, 1.3, 7.45, -0.55, -6.7}) {
        const EndView v = EndView::periodic(path, elapsed);
        const double phase = periodic_phase(elapsed, 2.0);
        CHECK(phase >= 0);
        CHECK(phase < 2.0);
        CHECK(std::abs(phase - (elapsed - 2.0 * std::floor(elapsed / 2.0))) < 1e-12);
        CHECK(v.mean_velocity() == path.mean_velocity());
        for (double u : {0.0, 0.1, 0.9, 2.0, 3.3, 17.1}) {
            INFO("elapsed " << elapsed << ", u " << u);
            CHECK(v.position(u) == Approx(path.position(phase + u) - path.position(phase)).margin(1e-12));
            // The excursion bounds hold from the view's start.
            const double e = v.position(u) - v.mean_velocity() * u;
            CHECK(e >= v.lowest_excursion() - 1e-12);
            CHECK(e <= v.highest_excursion() + 1e-12);
        }
    }
    // A steady end: position v u, no excursion, no period.
    const EndView steady = EndView::steady(-0.4);
    CHECK(steady.position(2.5) == Approx(-1.0));
    CHECK(steady.lowest_excursion() == 0);
    CHECK(std::isinf(steady.period()));
    // A periodic end at phase 0 bounds a closing exactly as its path does.
    const PeriodicPath still({{1.0, 0.0}}, {{1.0, 0.0}}, 2.0);
    const PeriodicPath left({{1.0, 1.0}}, {{1.0, -1.0}}, 2.0);
    CHECK(closing_lower_bound(0.5, EndView::periodic(left, 0), EndView::periodic(still, 0), 1e6, 1e-12, 1 << 16) ==
          closing_lower_bound(0.5, left, still, 1e6, 1e-12, 1 << 16));
    // Against a steady end moving away faster than the left end can follow: never closes.
    CHECK(closing_lower_bound(0.5, EndView::periodic(left, 0.3), EndView::steady(2.0), 100.0, 1e-12, 1 << 16) == 100.0);
    // Against a steady end coming at 1 from 0.5 away while the left end advances at 1 on [0, 1): u = 0.25.
    const double u = closing_lower_bound(0.5, EndView::periodic(left, 0), EndView::steady(-1.0), 100.0, 1e-12, 1 << 16);
    CHECK(u <= 0.25);
    CHECK(u > 0.2499);
}

TEST_CASE("skipping free flight gives the outcome of processing every reflection", "[free_flight]") {
    // Two to four rods far apart (gaps of several rod lengths) closing at speeds of order V: long
    // stretches of free flight between well-conditioned closings. (Longer random chains re-close
    // at grazing speeds many times; there a closing time's rounding, 1e-14 relative, grows from
    // closing to closing, and two correct computations part after a few dozen closings.)
    std::mt19937 rng(11);
    std::size_t skipped = 0;
    for (int trial = 0; trial < 45; ++trial) {
        const std::size_t n = 2 + trial % 3;
        const Chain chain = testing::far_apart_chain(rng, n, 2, 10);
        SolverOptions step, skip;
        step.keep_history = skip.keep_history = false;
        step.skip_free_flight = false;
        const Outcome a = solve_characteristics(chain, step).outcome;
        const Outcome b = solve_characteristics(chain, skip).outcome;
        INFO("trial " << trial << ": events " << a.stats.events << " stepping, " << b.stats.events << " skipping");
        CHECK(a.stats.free_flights == 0);
        skipped += b.stats.free_flights + b.stats.sleeps;  // whole-chain flights, or rods asleep
        REQUIRE(a.settled == b.settled);
        const double v = chain.velocity_scale();
        // Trial 25 closes contact 0 at t = 29.31 at an approach speed of about 1e-3 V: the 1e-15 s
        // rounding of that closing time grows to 2e-12 V in the final velocities, in both runs alike.
        const double tol = trial == 25 ? 1e-11 : 1e-12;
        CHECK(std::abs(a.end_time - b.end_time) <= 1e-12 * a.end_time);
        CHECK(std::abs(a.last_contact_time - b.last_contact_time) <= 1e-12 * a.end_time);
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <= tol * v);
            CHECK(std::abs(a.rods[i].vibration_energy - b.rods[i].vibration_energy) <= tol * a.energy.initial);
        }
        for (std::size_t k = 0; k + 1 < n; ++k) {
            CHECK(std::abs(a.contacts[k].impulse - b.contacts[k].impulse) <= tol * v * chain[k].mass());
            REQUIRE(a.contacts[k].intervals.size() == b.contacts[k].intervals.size());
            for (std::size_t m = 0; m < a.contacts[k].intervals.size(); ++m) {
                CHECK(std::abs(a.contacts[k].intervals[m].start - b.contacts[k].intervals[m].start) <= 1e-12 * a.end_time);
                CHECK(std::abs(a.contacts[k].intervals[m].end - b.contacts[k].intervals[m].end) <= 1e-12 * a.end_time);
            }
        }
        CHECK(b.stats.events <= a.stats.events);
    }
    CHECK(skipped > 20);  // the comparison exercised skipping
}

TEST_CASE("a chain with a load takes whole-chain flights, with the outcome of every reflection", "[free_flight]") {
    // Rods do not sleep on a chain with a load (its ends act on the rods), so the whole-chain
    // flight is what skips free flight there: a force pulse of 0.5 pushes rod 0 (mismatched with
    // its neighbours: every closing leaves them vibrating) across gaps of 2 and 3 lengths.
    ChainEnds ends;
    Load pulse;
    pulse.end = ChainSide::left;
    pulse.time = {0, 0.5};
    pulse.value = {-1, -1};
    ends.loads.push_back(pulse);
    const Chain chain({make_rod(1.0, 0.0), make_rod(0.7, 0.0, 2.0, 2.0), make_rod(1.3, 0.1, 3.0, 0.6)}, ends);
    SolverOptions step, skip;
    step.keep_history = skip.keep_history = false;
    step.skip_free_flight = false;
    const Outcome a = solve_characteristics(chain, step).outcome;
    const Outcome b = solve_characteristics(chain, skip).outcome;
    REQUIRE(a.settled);
    REQUIRE(b.settled);
    CHECK(b.stats.free_flights > 0);
    CHECK(b.stats.sleeps == 0);
    CHECK(b.stats.events < a.stats.events);
    for (std::size_t i = 0; i < chain.size(); ++i) {
        CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <= 1e-12 * chain.velocity_scale());
        CHECK(std::abs(a.rods[i].vibration_energy - b.rods[i].vibration_energy) <= 1e-12 * a.energy.supplied());
    }
    CHECK(std::abs(a.end_time - b.end_time) <= 1e-12 * a.end_time);
}

TEST_CASE("the velocity error is a bound of 0 when nothing is dropped and an estimate after a drop", "[free_flight]") {
    // Mismatched impedances and incommensurate transit times multiply fronts until some are weak
    // enough to drop (the chain of the energy-balance test of dropping, test_characteristics.cpp).
    const Chain chain({make_rod(1.0, 1.0, 0, 1.0), make_rod(0.37, 0, 0, 2.9), make_rod(1.61, 0, 0, 0.45),
                       make_rod(0.23, -0.3, 0, 1.7), make_rod(0.71, 0, 0, 1.3), make_rod(0.53, 0, 0, 0.8)});
    SolverOptions coarse, exact;
    coarse.drop_tolerance = 1e-2;
    coarse.time_resolution = exact.time_resolution = 0;  // dropping only
    // Equal impedances never split a front: nothing to drop.
    const Outcome a = solve_characteristics(rodcollide::testing::identical_rods({1, 0, 0, -0.5}), {}).outcome;
    const Outcome b = solve_characteristics(chain, coarse).outcome;
    CHECK(a.stats.dropped_fronts == 0);
    CHECK(a.velocity_error_bound == 0);
    CHECK(a.velocity_error_kind == Outcome::ErrorKind::bound);
    REQUIRE(b.stats.dropped_fronts > 0);
    CHECK(b.stats.merged_fronts == 0);
    CHECK(b.velocity_error_kind == Outcome::ErrorKind::estimate);
    REQUIRE(std::isfinite(b.velocity_error_bound));
    // The estimate (from a run at twice the drop tolerance) covers the error against the exact run.
    const Outcome c = solve_characteristics(chain, exact).outcome;
    REQUIRE(c.velocity_error_bound == 0);
    CHECK((b.final_velocities() - c.final_velocities()).cwiseAbs().maxCoeff() <= b.velocity_error_bound);
}
