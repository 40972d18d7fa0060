// sample_contact_forces() (contact_forces.hpp): the table `run --contact-forces` writes and Python's
// Outcome.contact_forces() returns, on an outcome built by hand so that every number is known.
#include "rodcollide/contact_forces.hpp"
#include "rodcollide/errors.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace rodcollide;

namespace {

/// One contact pressing -2 N on [0.3, 0.7] (a step history, as the exact solver records one), a
/// right wall never touched, and a spring end pulling +1 N from t = 0.5 on; end_time 1.
Outcome outcome() {
    Outcome o;
    o.end_time = 1.0;
    ContactOutcome c;
    c.intervals = {{0.3, 0.7}};
    c.impulse = 0.8;
    c.force_history.time = {0.0, 0.3, 0.3, 0.7, 0.7, 1.0};
    c.force_history.force = {0.0, 0.0, -2.0, -2.0, 0.0, 0.0};
    o.contacts.push_back(c);
    EndOutcome left;
    left.side = ChainSide::left;
    left.kind = EndKind::spring;
    left.force_history.time = {0.0, 0.5};
    left.force_history.force = {0.0, 1.0};
    EndOutcome right;
    right.side = ChainSide::right;
    right.kind = EndKind::wall;
    right.intervals = {{0.9, 1.2}};  // an interval may outlast end_time: its end is not a sample
    o.ends = {left, right};
    return o;
}

}  // namespace

TEST_CASE("contact forces: the grid holds every event, each history its value from each of its times on",
          "[outcome][contact_forces]") {
    const ContactForceSamples s = sample_contact_forces(outcome(), 3);
    CHECK(s.names == std::vector<std::string>{"contact_0", "left_end", "right_wall"});
    CHECK(s.time == std::vector<double>{0.0, 0.3, 0.5, 0.7, 0.9, 1.0});
    REQUIRE(s.force.size() == 3);
    CHECK(s.force[0] == std::vector<double>{0, -2, -2, 0, 0, 0});  // at a corner: the value after it
    CHECK(s.force[1] == std::vector<double>{0, 0, 1, 1, 1, 1});
    CHECK(s.force[2] == std::vector<double>{0, 0, 0, 0, 0, 0});   // recorded nothing: 0
    // A finer grid keeps every event and adds equally spaced times: 11 + 3 events not on it (0.3 and
    // 0.7 are not exact multiples of 0.1 in binary; 0.9 is, here, or is not: at most 3).
    const ContactForceSamples fine = sample_contact_forces(outcome(), 11);
    CHECK(fine.time.size() >= 11);
    CHECK(fine.time.size() <= 14);
    for (double t : {0.3, 0.7, 0.9}) CHECK(std::find(fine.time.begin(), fine.time.end(), t) != fine.time.end());
    CHECK(contact_forces_csv(s) ==
          "time,contact_0,left_end,right_wall\n0,0,0,0\n0.29999999999999999,-2,0,0\n0.5,-2,1,0\n"
          "0.69999999999999996,0,1,0\n0.90000000000000002,0,1,0\n1,0,1,0\n");
}

TEST_CASE("contact forces: samples outside [2, largest_samples] are refused", "[outcome][contact_forces][errors]") {
    CHECK_THROWS_AS(sample_contact_forces(outcome(), 1), InvalidInput);
    CHECK_THROWS_AS(sample_contact_forces(outcome(), largest_samples + 1), InvalidInput);
    try {
        sample_contact_forces(outcome(), 0);
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "samples");
        CHECK_THAT(std::string(e.what()), Catch::Contains("must be in [2, 100000], got 0"));
    }
}
