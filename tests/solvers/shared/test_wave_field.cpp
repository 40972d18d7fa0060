// StepFunction and WaveField: piecewise-constant histories, integrals, discarding, point states
// and front segments (Winandy & Leine 2015 Fig. 6a geometry).
#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/shared/wave_field.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace rodcollide;

TEST_CASE("StepFunction: values, integrals, and forgetting old pieces", "[wave_field]") {
    StepFunction f(1.0);
    f.push(1.0, 3.0);
    f.push(2.5, -1.0);
    CHECK(f.at(0.0) == 1.0);
    CHECK(f.at(1.0) == 3.0);  // a jump belongs to the piece it starts
    CHECK(f.at(2.4) == 3.0);
    CHECK(f.at(7.0) == -1.0);
    CHECK(f.integral(0.5, 3.0) == Approx(0.5 * 1 + 1.5 * 3 + 0.5 * -1));
    CHECK(f.integral_of_square(0.5, 3.0) == Approx(0.5 * 1 + 1.5 * 9 + 0.5 * 1));
    CHECK_THROWS(f.push(2.0, 0.0));
    CHECK(f.discard_before(1) == 1);
    CHECK(f.first() == 1);
    CHECK(f.size() == 3);
    CHECK(f.value(2) == -1.0);
    CHECK(f.at(-10.0) == 3.0);  // the oldest kept piece now extends to -inf
    CHECK(f.index_at(3.0) == 2);
}

TEST_CASE("StepFunction::merge_last keeps the integral and loses d1 d2 (v1 - v2)^2 / (d1 + d2) of the square",
          "[wave_field][merge]") {
    StepFunction f(0.0);
    f.push(1.0, 2.0);   // [1, 4): 2
    f.push(4.0, -1.0);  // [4, 4.5): -1, ended by a front at 4.5
    const double square_before = f.integral_of_square(1.0, 4.5);
    const double lost = f.merge_last(4.5);
    CHECK(f.size() == 2);
    CHECK(f.time(1) == 1.0);
    CHECK(f.value(1) == Approx((3 * 2.0 + 0.5 * -1.0) / 3.5).epsilon(1e-15));
    f.push(4.5, 7.0);
    CHECK(f.integral(1.0, 4.5) == Approx(3 * 2.0 + 0.5 * -1.0).epsilon(1e-15));
    CHECK(lost == Approx(3 * 0.5 * 9.0 / 3.5).epsilon(1e-15));
    CHECK(f.integral_of_square(1.0, 4.5) == Approx(square_before - lost).epsilon(1e-14));
    // Equal values stay exactly equal; the piece from -inf is never merged into.
    StepFunction g(1.0);
    g.push(1.0, 0.3);
    g.push(1.25, 0.3);
    CHECK(g.merge_last(2.0) == 0.0);
    CHECK(g.value(1) == 0.3);
    StepFunction h(1.0);
    h.push(1.0, 2.0);
    CHECK_THROWS(h.merge_last(1.5));
}

TEST_CASE("fronts of Winandy & Leine 2015 Fig. 6(a): endpoints in the x-t plane", "[wave_field][seed000]") {
    const auto s = solve_characteristics(testing::identical_rods({1, 0}), {});
    const auto fronts = s.field.fronts(2.0);
    // At t = 0 the contact at x = 1 emits a front into each rod; they reflect at the free ends
    // x = 0 and x = 2 at t = 1 and come back to the contact at t = 2.
    auto has = [&](double x0, double t0, double x1, double t1) {
        for (const FrontSegment& f : fronts)
            if (std::abs(f.x0 - x0) < 1e-12 && std::abs(f.t0 - t0) < 1e-12 && std::abs(f.x1 - x1) < 1e-12 &&
                std::abs(f.t1 - t1) < 1e-12)
                return true;
        return false;
    };
    CHECK(has(1, 0, 0, 1));
    CHECK(has(1, 0, 2, 1));
    CHECK(has(0, 1, 1, 2));
    CHECK(has(2, 1, 1, 2));
    CHECK(fronts.size() == 4);
    // With a visual threshold above every jump, nothing is drawn.
    CHECK(s.field.fronts(2.0, 10.0).empty());
}

TEST_CASE("state_at uses the right rod at a rod boundary and rod-local states inside", "[wave_field]") {
    const auto s = solve_characteristics(testing::identical_rods({1, 0}), {});
    CHECK(s.field.rod_at(0.999) == 0);
    CHECK(s.field.rod_at(1.0) == 1);
    CHECK(s.field.state(0, 0.9, 0.5).velocity == Approx(0.5));
    CHECK(s.field.state_at(1.9, 0.5).velocity == 0.0);
    // Momentum and energy of the rods from their histories.
    CHECK(s.field.momentum(0, 0.0) == Approx(1.0));
    CHECK(s.field.energy(1, 0.5) == Approx(0.5 * 0.5 * 0.5 * 0.5 + 0.5 * 0.25 * 0.5));
}

TEST_CASE("StepFunction: its ring wraps, grows and shrinks without losing a piece", "[wave_field]") {
    // A reference copy of every piece ever pushed, against the ring under a reader that forgets
    // what it has passed (as the solver does without history) and an occasional truncation.
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> step(0.0, 1.0), value(-2.0, 2.0);
    StepFunction f(0.5);
    std::vector<double> times{-std::numeric_limits<double>::infinity()}, values{0.5};
    double t = 0;
    std::size_t largest = 0;
    for (int round = 0; round < 400; ++round) {
        const int pushes = std::uniform_int_distribution<int>(0, round % 50 < 25 ? 40 : 3)(rng);
        for (int i = 0; i < pushes; ++i) {
            t += step(rng);
            const double v = value(rng);
            f.push(t, v);
            times.push_back(t);
            values.push_back(v);
        }
        largest = std::max(largest, f.size() - f.first());
        // Half of the time the reader lags (the ring fills), half of the time it catches up.
        if (round % 50 >= 25 || round % 7 == 0) {
            const std::size_t keep = std::uniform_int_distribution<std::size_t>(f.first(), f.size() - 1)(rng);
            f.discard_before(keep);
        }
        if (round % 97 == 96 && f.size() > f.first() + 2) {
            f.truncate(f.size() - 1);
            times.pop_back();
            values.pop_back();
            t = times.back();
        }
        REQUIRE(f.size() == times.size());
        for (std::size_t k = f.first(); k < f.size(); ++k) {
            CHECK(f.value(k) == values[k]);
            if (k > f.first()) CHECK(f.time(k) == times[k]);
        }
        CHECK(f.time(f.first()) == -std::numeric_limits<double>::infinity());
        // Queries from the oldest kept jump on see the same function as the reference.
        const double from = f.size() > f.first() + 1 ? f.time(f.first() + 1) : t;
        const double s = from + step(rng) * (t - from + 1);
        const std::size_t k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), s) - times.begin()) - 1;
        CHECK(f.index_at(s) == k);
        // Memory follows the stored pieces: at most 4 times as many slots, or the 128 kept.
        CHECK(f.capacity() <= std::max<std::size_t>(128, 4 * (f.size() - f.first())));
    }
    CHECK(largest > 256);  // the ring grew beyond what it keeps, and shrank back
}
