// The outcome builder (outcome_builder.hpp): velocities from momenta, the energy balance, impulses
// and intervals from the contact records, M(u+ - u-) = W Lambda, last contact time and settling.
#include "chain_builders.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "solvers/shared/outcome_builder.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;
using rodcollide::testing::make_rod;

namespace {

/// Masses (1, 2, 1), u- = (2, 0, -1); contact 0 transmits 3 N s over [0, 1], contact 1 1 N s over
/// [0.5, 1]: then u+ = (-1, 1, 0) by M(u+ - u-) = W Lambda.
struct Scripted {
    Chain chain{{make_rod(1, 2), make_rod(2, 0), make_rod(1, -1)}};
    ContactHistory contacts{chain};
    SolverReport report;

    Scripted() {
        contacts[0].set_force(-3, 0.0);
        contacts[0].set_force(0, 1.0);
        contacts[1].set_force(-2, 0.5);
        contacts[1].set_force(0, 1.0);
        report.method = Method::characteristics;
        report.end_time = 4;
        report.settled = true;
        report.rods = {{-1.0, 0.6}, {2.0, 0.4}, {0.0, 0.0}};  // momenta, vibration energies
        report.accuracy = 1e-10;
        report.stats.events = 7;
    }
};

}  // namespace

TEST_CASE("builder: velocities, energies, impulses and the impact equation", "[outcome_builder]") {
    Scripted s;
    const Outcome o = build_outcome(s.chain, s.contacts, s.report);
    CHECK(o.final_velocities() == Eigen::Vector3d(-1, 1, 0));
    CHECK(o.initial_velocities() == Eigen::Vector3d(2, 0, -1));
    CHECK(o.masses() == Eigen::Vector3d(1, 2, 1));
    CHECK(o.impulses() == Eigen::Vector2d(3, 1));
    CHECK((o.masses().cwiseProduct(o.final_velocities() - o.initial_velocities()) - generalized_impulse(o.impulses()))
              .isZero(0));
    CHECK(o.impact_equation_residual() == 0.0);
    CHECK(o.energy.initial == 2.5);
    CHECK(o.energy.final_rigid == 1.5);  // (1 + 2 + 0)/2
    CHECK(o.energy.final_vibration == Approx(1.0));
    CHECK(o.energy.dropped == Approx(0.0).margin(1e-15));  // the balance: nothing lost
    REQUIRE(o.contacts.size() == 2);
    CHECK(o.contacts[1].left_rod == 1);
    REQUIRE(o.contacts[1].intervals.size() == 1);
    CHECK(o.contacts[1].intervals[0].start == 0.5);
    CHECK(o.last_contact_time == 1.0);
    CHECK(o.settled);
    CHECK(o.end_time == 4);
    CHECK(o.accuracy == 1e-10);
    CHECK(o.stats.events == 7);
    CHECK(o.warnings.empty());
}

TEST_CASE("builder: accounted dropped energy, and the warning of an unsettled outcome", "[outcome_builder]") {
    Scripted s;
    // Dropped fronts took 0.25 J away from the vibration (the outcome checks that it balances).
    s.report.energy_created = -0.25;
    s.report.rods[0].vibration_energy -= 0.25;
    s.report.settled = false;
    s.report.warnings = {"solver note"};
    // A contact still compressed at the end: its interval and impulse run to end_time.
    s.contacts[1].set_force(-1, 3.0);
    const Outcome o = build_outcome(s.chain, s.contacts, s.report);
    CHECK(o.energy.dropped == 0.25);
    CHECK(o.contacts[1].impulse == 2.0);
    REQUIRE(o.contacts[1].intervals.size() == 2);
    CHECK(o.contacts[1].intervals[1].end == 4.0);
    CHECK(o.last_contact_time == 4.0);
    REQUIRE(o.warnings.size() == 2);
    CHECK(o.warnings[0] == "solver note");
    CHECK_THAT(o.warnings[1], Catch::StartsWith("not settled at t = 4:"));
    // Nothing dropped is reported as +0, not -0.
    s.report.energy_created = 0.0;
    s.report.rods[0].vibration_energy += 0.25;
    CHECK(!std::signbit(build_outcome(s.chain, s.contacts, s.report).energy.dropped));
}

TEST_CASE("rigid energy", "[outcome_builder]") { CHECK(rigid_energy(4.0, -0.5) == 0.5); }
