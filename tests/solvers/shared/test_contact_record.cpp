// A contact's history (contact_record.hpp): the impulse is the integral of -N dt of the force
// history it was given, the compression intervals and the closings and openings follow a scripted
// sequence, and the gap moves at its rate and closes when it reaches 0.
#include "chain_builders.hpp"
#include "solvers/shared/contact_record.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace rodcollide;
using rodcollide::testing::make_rod;

TEST_CASE("event-driven force history: impulse = integral of -N dt, intervals of compression", "[contact_record]") {
    // N = -2 on [0.5, 1.5), -1 on [1.5, 2), 0 on [2, 3), -3 from 3 on.
    ContactRecord c(0.0);
    c.set_force(-2, 0.5);
    CHECK(c.impulse(1.0) == 1.0);  // the current force counts up to the time asked for
    c.set_force(-1, 1.5);
    c.set_force(0, 2.0);
    CHECK(c.impulse(2.5) == 2.5);  // 2 x 1 + 1 x 0.5
    c.set_force(-3, 3.0);
    CHECK(c.impulse(3.25) == 3.25);  // + 3 x 0.25
    CHECK(c.force() == -3);
    const std::vector<Interval> iv = c.intervals(3.25);
    REQUIRE(iv.size() == 2);
    CHECK(iv[0].start == 0.5);
    CHECK(iv[0].end == 2.0);  // one interval across the change of compression at 1.5
    CHECK(iv[1].start == 3.0);
    CHECK(iv[1].end == 3.25);  // still compressed: closed at the time asked for
    // Tension is never recorded as compression.
    ContactRecord pulled(0.0);
    pulled.set_force(1, 0.0);
    pulled.set_force(0, 1.0);
    CHECK(pulled.impulse(2.0) == -1.0);
    CHECK(pulled.intervals(2.0).empty());
}

TEST_CASE("stepping force history: a million steps sum to the exact impulse", "[contact_record]") {
    // N(t) = -t sampled at mid-steps over [0, 1]: the midpoint rule is exact for a linear force,
    // so Lambda = 1/2. A plain sum of 10^6 terms drifts by ~1e-13; the compensated one does not.
    ContactRecord c(0.0);
    const std::size_t steps = 1'000'000;
    const double dt = 1.0 / static_cast<double>(steps);
    double plain = 0;
    for (std::size_t n = 0; n < steps; ++n) {
        const double t = static_cast<double>(n) * dt, force = -(t + 0.5 * dt);
        c.add_step(force, t, dt, t);
        plain += -force * dt;
    }
    CHECK(std::abs(c.impulse(1.0) - 0.5) <= 2e-16);
    CHECK(std::abs(c.impulse(1.0) - 0.5) <= std::abs(plain - 0.5));
    const std::vector<Interval> iv = c.intervals(1.0);
    REQUIRE(iv.size() == 1);
    CHECK(iv[0].start == 0.0);
    CHECK(iv[0].end == 1.0);
}

TEST_CASE("stepping: a gap closing inside a step starts the compression there", "[contact_record]") {
    ContactRecord c(0.0);
    c.add_step(0.0, 0.0, 0.1, 0.0);
    c.add_step(-4.0, 0.1, 0.1, 0.125);  // closed a quarter into the step: the blended force
    c.add_step(0.0, 0.2, 0.1, 0.2);
    CHECK(c.impulse(0.3) == Approx(0.4));
    const std::vector<Interval> iv = c.intervals(0.3);
    REQUIRE(iv.size() == 1);
    CHECK(iv[0].start == 0.125);
    CHECK(iv[0].end == 0.2);
}

TEST_CASE("gap: moves at its rate, closes at gap / -rate, never negative", "[contact_record]") {
    const double inf = std::numeric_limits<double>::infinity();
    ContactRecord c(0.3);
    CHECK(c.gap_at(0.0) == 0.3);
    CHECK(c.closing_time() == inf);  // not moving
    CHECK_FALSE(c.touching());
    c.advance_gap(0.0, 0.0);
    c.set_gap_rate(-0.2);
    CHECK(c.closing_time() == Approx(1.5));
    CHECK(c.gap_at(1.0) == Approx(0.1));
    CHECK(c.gap_at(2.0) == 0.0);
    // A closing due within the tolerance of now counts as reached.
    c.advance_gap(1.5 - 1e-12, 1e-11);
    CHECK(c.gap_at(1.5) == 0.0);
    CHECK(c.touching());
    CHECK(c.set_closed(true));
    CHECK_FALSE(c.set_closed(true));
    CHECK(c.closing_time() == inf);
    // Opening: the gap grows from the time of the last update.
    CHECK(c.set_closed(false));
    c.advance_gap(2.0, 0.0);
    c.set_gap_rate(0.5);
    CHECK(c.gap_at(3.0) == Approx(0.5));
    // A stepping solver sets the gap itself; it holds until set again.
    c.set_gap(0.25, 3.0);
    CHECK(c.gap_at(3.0) == 0.25);
}

TEST_CASE("gap arithmetic", "[contact_record]") {
    CHECK(gap_after(0.25, -0.5, 0.1) == Approx(0.2));
    CHECK(closing_delay(0.25, -0.5) == Approx(0.5));
    CHECK(closing_delay(0.25, 0.0) == std::numeric_limits<double>::infinity());
    CHECK(closing_delay(0.25, 1.0) == std::numeric_limits<double>::infinity());
}

TEST_CASE("contact history: one record per contact, events in the order decided", "[contact_record]") {
    const Chain chain({make_rod(1, 1), make_rod(1, 0, 0.1), make_rod(1, 0, 0.2)});
    ContactHistory h(chain);
    REQUIRE(h.size() == 2);
    CHECK(h.contact_at(0) == -1);  // free ends have no record
    CHECK(h.contact_at(1) == 0);
    CHECK(h.contact_at(2) == 1);
    CHECK(h.contact_at(3) == -1);
    CHECK(h.junction(1) == 2);
    CHECK(h.gaps(0.0) == std::vector<double>{0.1, 0.2});
    h.set_closed(0, true, 1.0);
    h.set_closed(0, true, 1.5);  // no change, no event
    h.set_closed(1, true, 1.5);
    h.set_closed(0, false, 2.0);
    const std::vector<ContactEvent>& e = h.events();
    REQUIRE(e.size() == 3);
    CHECK((e[0].contact == 0 && e[0].time == 1.0 && e[0].kind == ContactEvent::Kind::closing));
    CHECK((e[1].contact == 1 && e[1].time == 1.5 && e[1].kind == ContactEvent::Kind::closing));
    CHECK((e[2].contact == 0 && e[2].time == 2.0 && e[2].kind == ContactEvent::Kind::opening));
    CHECK(h.gaps(2.0)[1] == 0.0);  // closed
}
