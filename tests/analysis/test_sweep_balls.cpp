// sweep on three balls or masses with power-law contacts (issue 24 item 5; docs/physics.md §9.11).
// The circle of directions is the whole map only if the map gamma- -> gamma+ is positively
// homogeneous: shown here for p = 1 and p = 3/2, elastic (e = 1) and with restitution e < 1, at
// s = 0.1, 1, 10 to 1e-9 of |gamma-|. A dashpot beside k δ^p (p != 1) and contacts of two exponents
// break homogeneity (shown, the defect above 1e-4): sweep refuses them, naming the key; linear contacts
// with dashpots keep it (a linear ODE) and are swept. Over the swept circle an elastic chain keeps
// its relative kinetic energy, gamma^T G^-1 gamma / 2, at every direction, and a lossy one loses it;
// where only contact 1 ever closes, the map is the two-body law with restitution e.
#include "rodcollide/sweep.hpp"

#include "analysis/wave_map.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

using namespace rodcollide;

namespace {

constexpr double mass_1 = 1.0, mass_2 = 0.7, mass_3 = 1.3;

/// Three masses (1, 0.7, 1.3) kg with contacts k δ^p (restitution e, dashpot c).
Chain three_masses(double k, double p, double e = 1, double c = 0) {
    std::vector<Rod> rods;
    for (double m : {mass_1, mass_2, mass_3}) {
        Rod r;
        r.kind = RodKind::mass;
        r.rigid_mass = m;
        if (!rods.empty()) {
            r.contact_stiffness = k;
            r.contact_exponent = p;
            r.restitution = e;
            r.contact_damping = c;
        }
        rods.push_back(r);
    }
    rods[0].velocity = 1;
    return Chain(rods);
}

/// Directions around the circle, off the cone boundaries, and two on them.
std::vector<Eigen::Vector2d> test_directions() {
    std::vector<Eigen::Vector2d> d;
    for (int i = 0; i < 16; ++i) {
        const double theta = 2 * std::numbers::pi * (i + 0.3) / 16;
        d.emplace_back(std::cos(theta), std::sin(theta));
    }
    d.emplace_back(-1, 0);  // body 1 strikes the other two, touching
    d.emplace_back(-1, 1);  // the Winandy & Leine IIa|IIb boundary of equal masses
    return d;
}

/// gamma+(s gamma-) - s gamma+(gamma-), largest over the directions and s = 0.1, 1, 10, relative to
/// s |gamma-|. (s = 1 holds the map to itself: a solve is deterministic.)
double homogeneity_defect(const Chain& chain, const SolverOptions& o) {
    double worst = 0;
    for (const Eigen::Vector2d& g : test_directions()) {
        const Eigen::VectorXd at_one = contact_velocities(wave_outcome_for(chain, g, o).final_velocities());
        for (double s : {0.1, 1.0, 10.0}) {
            const Eigen::VectorXd at_s = contact_velocities(wave_outcome_for(chain, s * g, o).final_velocities());
            worst = std::max(worst, (at_s - s * at_one).cwiseAbs().maxCoeff() / (s * g.norm()));
        }
    }
    return worst;
}

SolverOptions exact(double accuracy) {
    SolverOptions o;
    o.method = Method::characteristics;
    o.accuracy = accuracy;
    return o;
}

/// gamma^T G^-1 gamma: twice the kinetic energy of the motion relative to the centre of mass.
double relative_energy(const Eigen::Matrix2d& G_inverse, const Eigen::Vector2d& gamma) {
    return gamma.dot(G_inverse * gamma);
}

}  // namespace

TEST_CASE("sweep, 3 masses with power-law contacts: the map is positively homogeneous, p = 1 and 3/2, e = 1 and e < 1",
          "[sweep][balls][homogeneity]") {
    // docs/physics.md §9.11: with δ = a Δ(t/T), a/T = s and a/T^2 = a^p, the motion at s gamma- is
    // the one at gamma- stretched in time, so gamma+ scales with s; the unloading law of §9.7 is the
    // loading law scaled with δ_m, so restitution keeps it. Each solve is within its accuracy
    // (1e-10 of the velocity scale), so the defect is at most about 2e-10.
    for (double p : {1.0, 1.5}) {
        for (double e : {1.0, 0.8, 0.4}) {
            INFO("p = " << p << ", e = " << e);
            const Chain chain = three_masses(300, p, e);
            CHECK_NOTHROW(check_sweep_chain(chain));
            const double defect = homogeneity_defect(chain, exact(1e-10));
            WARN("p = " << p << ", e = " << e << ": homogeneity defect " << defect << " of s |gamma-|");
            CHECK(defect <= 1e-9);
        }
    }
}

TEST_CASE("sweep, 3 masses: a dashpot beside Hertz is refused (it breaks homogeneity), naming the key",
          "[sweep][balls][errors]") {
    // The dashpot's c δ' against k δ^p: at s gamma- its share of the force changes as s^((1-p)/(1+p)),
    // so the map is not homogeneous: shown here before the refusal is checked.
    const Chain damped = three_masses(300, 1.5, 1, 5);
    const double defect = homogeneity_defect(damped, exact(1e-10));
    WARN("a dashpot beside Hertz: homogeneity defect " << defect << " of s |gamma-|");
    CHECK(defect > 1e-4);
    try {
        check_sweep_chain(damped);
        FAIL("a dashpot beside Hertz was accepted");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "rod[1].contact_damping");
        CHECK_THAT(std::string(e.what()), Catch::Contains("a dashpot (contact_damping = 5) beside k delta^1.5"));
        CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line
    }
    SweepOptions o;
    o.directions = 8;
    CHECK_THROWS_AS(sweep("damped", damped, o), InvalidInput);
}

TEST_CASE("sweep, 3 masses: linear contacts with dashpots stay homogeneous (a linear ODE) and are swept",
          "[sweep][balls][homogeneity]") {
    // p = 1: T = 1, a = s, and c δ' scales as a/T = s like k δ: the equations are linear.
    for (double e : {1.0, 0.8}) {
        INFO("e = " << e);
        const Chain damped = three_masses(300, 1.0, e, 5);
        CHECK(homogeneity_defect(damped, exact(1e-10)) <= 1e-9);
        CHECK_NOTHROW(check_sweep_chain(damped));
    }
}

TEST_CASE("sweep, 3 masses: contacts of two exponents are refused (they break homogeneity), naming the key",
          "[sweep][balls][errors]") {
    std::vector<Rod> rods = three_masses(300, 1.0).rods();
    rods[2].contact_exponent = 1.5;
    const Chain mixed(rods);
    CHECK(homogeneity_defect(mixed, exact(1e-10)) > 1e-4);
    try {
        check_sweep_chain(mixed);
        FAIL("contacts of two exponents were accepted");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "rod[2].contact_exponent");
    }
}

TEST_CASE("sweep, 3 Hertz masses: every direction keeps its relative kinetic energy; separating directions are "
          "untouched", "[sweep][balls]") {
    SweepOptions o;
    o.directions = 48;
    o.laws = {"sequential", "newton"};
    o.threads = 1;
    const Chain chain = three_masses(300, 1.5);
    const SweepResult r = sweep("three masses", chain, o);
    CHECK(r.rigid_bodies);
    REQUIRE(r.points.size() == 48);
    const Eigen::Matrix2d G_inverse = impact_matrices(chain.masses()).G.inverse();
    for (const SweepPoint& p : r.points) {
        INFO("theta = " << p.theta);
        // Elastic contacts: T_rel is kept (to the solve's accuracy, times 2: T is quadratic).
        const double before = relative_energy(G_inverse, p.gamma_pre), after = relative_energy(G_inverse, p.gamma_post);
        CHECK(std::abs(after - before) <= 4 * p.accuracy * before + 1e-14);
        // Both contacts separating (or resting, touching at zero force): nothing acts.
        if (p.gamma_pre[0] >= 0 && p.gamma_pre[1] >= 0) {
            CHECK((p.gamma_post - p.gamma_pre).cwiseAbs().maxCoeff() <= 1e-15);
            for (const SweepLaw& l : r.laws) CHECK(l.error[static_cast<std::size_t>(&p - r.points.data())] <= 1e-15);
        }
    }
    // Not the rigid laws: somewhere in the approaching cones the Hertz map differs from them.
    for (const SweepLaw& l : r.laws) CHECK(*std::max_element(l.error.begin(), l.error.end()) > 1e-3);
}

TEST_CASE("sweep, 3 Hertz masses with restitution e < 1: swept; every approaching direction loses energy, and where "
          "only contact 1 closes the map is the two-body law with e", "[sweep][balls][restitution]") {
    const double e = 0.7;
    const Chain chain = three_masses(300, 1.5, e);
    SweepOptions o;
    o.directions = 48;
    o.laws = {"newton"};
    o.restitution = e;
    o.threads = 1;
    const SweepResult r = sweep("lossy masses", chain, o);
    REQUIRE(r.points.size() == 48);
    const Eigen::Matrix2d G_inverse = impact_matrices(chain.masses()).G.inverse();
    for (const SweepPoint& p : r.points) {
        INFO("theta = " << p.theta);
        const double before = relative_energy(G_inverse, p.gamma_pre), after = relative_energy(G_inverse, p.gamma_post);
        CHECK(after <= before * (1 + 4 * p.accuracy));
        // A contact that approaches is compressed and gives back e^2 = 0.49 of what it stored at
        // most; a direction with an approaching contact loses energy.
        if (p.gamma_pre.minCoeff() < -0.2) CHECK(after < (1 - 1e-3) * before);
    }
    // gamma- = (-0.6, 0.8): body 2 gains at most (1 + e) m1 / (m1 + m2) 0.6 = 0.60 < 0.8, so contact 2
    // never closes: gamma1+ = 0.6 e, and gamma2+ = 0.8 - (1 + e) m1 0.6 / (m1 + m2).
    const Eigen::Vector2d g(-0.6, 0.8);
    const Outcome out = wave_outcome_for(chain, g, exact(1e-10));
    REQUIRE(out.settled);
    const Eigen::VectorXd gp = contact_velocities(out.final_velocities());
    const double dv2 = (1 + e) * mass_1 * 0.6 / (mass_1 + mass_2);
    CHECK(std::abs(gp[0] - 0.6 * e) <= 2 * out.velocity_error_bound);
    CHECK(std::abs(gp[1] - (0.8 - dv2)) <= 2 * out.velocity_error_bound);
    CHECK(out.contacts.at(1).intervals.empty());
}

TEST_CASE("sweep refuses a chain of rods with compliant contacts", "[sweep][balls][errors]") {
    std::vector<Rod> rods(3);
    for (Rod& r : rods) r.length = 1, r.area = 1, r.density = 1, r.youngs_modulus = 1;
    rods[0].velocity = 1;
    rods[1].contact_stiffness = 10;
    try {
        check_sweep_chain(Chain(rods));
        FAIL("rods with a compliant contact were accepted");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "rod");
        CHECK_THAT(std::string(e.what()), Catch::Contains("chains of balls and masses alone"));
    }
}
