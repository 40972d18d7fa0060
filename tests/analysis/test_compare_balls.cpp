// compare on chains of balls and masses alone (issue 24 item 5; docs/physics.md §9.11): the rigid
// laws at the same pre-impact state, every contact closed, beside the compliant outcome of the
// contacts (the exact ODE solver). Physics asserted: momentum by every law and by the compliant
// outcome; two Hertz balls are Newton's law with e = 1 to the solver's bound; the 3-ball Hertz
// cradle is not the rigid cradle (the last ball leaves with less than V), against an independent RK4
// written for the tests; a dashpot's or the restitution's loss is the effective restitution's
// deficit; two balls with restitution e are Newton's (and Poisson's, and the kinematic) law with that
// e, in both solver paths, to the solver's bound; gaps make separate two-ball exchanges; the sampled
// map of the Hertz cradle is positively homogeneous; rods with compliant parts stay refused.
#include "rodcollide/compare.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"

#include "chain_builders.hpp"
#include "rigid_body_rk4.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

using namespace rodcollide;
using rodcollide::testing::make_ball;
using rodcollide::testing::rk4_chain;

namespace {

constexpr double steel_density = 7850, steel_modulus = 210e9, steel_poisson = 0.3;

Rod steel_ball(double radius, double velocity, double gap = 0) {
    return make_ball(radius, velocity, gap, 1, steel_density, steel_modulus, steel_poisson);
}

Rod mass(double m, double velocity, double k = 0, double p = 1, double c = 0) {
    Rod r = testing::make_mass(m, velocity);
    r.contact_stiffness = k;
    r.contact_exponent = p;
    r.contact_damping = c;
    return r;
}

const LawComparison& law(const Comparison& c, const std::string& name) {
    for (const LawComparison& l : c.laws)
        if (l.parameters.law == name) return l;
    throw std::logic_error("no such law in the comparison: " + name);
}

double momentum(const Eigen::VectorXd& m, const Eigen::VectorXd& u) { return m.dot(u); }

CompareOptions without_properties() {
    CompareOptions o;
    o.wave_map_properties = false;
    return o;
}

}  // namespace

TEST_CASE("compare, 3-ball Hertz cradle: momentum by every law and the compliant outcome; the last ball leaves "
          "with less than V, as an independent RK4 gives", "[compare][balls]") {
    const double R = 0.01, V = 1.0;
    const Chain chain({steel_ball(R, V), steel_ball(R, 0), steel_ball(R, 0)});
    const Comparison c = compare("cradle", chain, SolverOptions{}, without_properties());
    REQUIRE(c.rigid_bodies);
    REQUIRE(c.wave.settled);
    const Eigen::VectorXd& m = c.matrices.masses;
    const double m_ball = steel_density * 4 * std::numbers::pi * R * R * R / 3;
    for (Eigen::Index i = 0; i < 3; ++i) CHECK(m[i] == Approx(m_ball).epsilon(1e-14));
    const double p0 = momentum(m, c.velocities_pre), scale = m.sum() * V;
    const Eigen::VectorXd u = c.wave.final_velocities();
    CHECK(std::abs(momentum(m, u) - p0) <= 1e-12 * scale);
    REQUIRE(c.laws.size() == 4);
    for (const LawComparison& l : c.laws) {
        INFO(l.parameters.law);
        CHECK(std::abs(momentum(m, l.result.velocities_post) - p0) <= 1e-12 * scale);
        CHECK(std::isfinite(l.distance));
    }
    // The rigid cradle: the sequential law passes V on whole; Newton (e = 1, every contact at once)
    // gives (-1/3, 2/3, 2/3) V.
    CHECK((law(c, "sequential").result.velocities_post - Eigen::Vector3d(0, 0, V)).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((law(c, "newton").result.velocities_post - Eigen::Vector3d(-V / 3, 2 * V / 3, 2 * V / 3)).cwiseAbs().maxCoeff() <=
          1e-12);

    // The independent integration, with Hertz's k = (4/3) E* sqrt(R*) written out: E* = E / (2 (1 - nu^2)),
    // R* = R / 2.
    const double k = 4.0 / 3 * steel_modulus / (2 * (1 - steel_poisson * steel_poisson)) * std::sqrt(R / 2);
    const double delta_max = std::pow(5 * (m_ball / 2) * V * V / (4 * k), 0.4);  // the contact's time scale δ_max / V
    const double h = 1e-4 * delta_max / V;
    const std::vector<double> masses(3, m_ball), v0{V, 0, 0};
    const std::vector<double> coarse = rk4_chain(masses, v0, k, 1.5, 2 * h), fine = rk4_chain(masses, v0, k, 1.5, h);
    double rk4_error = 0;
    for (std::size_t i = 0; i < 3; ++i) rk4_error = std::max(rk4_error, std::abs(fine[i] - coarse[i]));
    CHECK(rk4_error <= 1e-9 * V);
    const double bound = c.wave.velocity_error_bound;
    CHECK(bound <= 1e-9 * V);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO("ball " << i);
        CHECK(std::abs(u[static_cast<Eigen::Index>(i)] - fine[i]) <= bound + rk4_error);
    }
    // Not the rigid cradle: the two contacts overlap in time, the last ball leaves with less than V
    // and the striker rebounds (Hinch & Saint-Jean 1999: the Hertz cradle spreads the pulse).
    CHECK(u[2] < V - 1e-3 * V);
    CHECK(u[0] < -bound);
    // Elastic contacts: no energy lost, so the effective energetic restitution is 1 (to the bound:
    // T is quadratic in u, its relative error about 2 bound / V).
    REQUIRE(c.effective_restitution);
    CHECK(std::abs(*c.effective_restitution - 1) <= 10 * bound / V);
    CHECK(c.rigid_energy_share == 1);
    // Ball 1 alone strikes the others, touching: the implied first column of E_n is gamma+ / V.
    REQUIRE(c.restitution_column);
    CHECK(std::abs((*c.restitution_column)[0] - (u[1] - u[0]) / V) <= 1e-12);
    CHECK(std::abs((*c.restitution_column)[1] - (u[2] - u[1]) / V) <= 1e-12);
    // The closest law is the one nearest the compliant u+ in the kinetic metric.
    REQUIRE(c.closest);
    for (const LawComparison& l : c.laws) CHECK(c.laws[*c.closest].distance <= l.distance);
}

TEST_CASE("compare, two Hertz balls: the compliant outcome is Newton's law with e = 1 to the solver's bound",
          "[compare][balls]") {
    // Unequal balls meeting head on: every law (two bodies, one contact, e = 1) is the elastic
    // exchange u1+ = u1 - 2 m2 (u1 - u2) / (m1 + m2), u2+ = u2 + 2 m1 (u1 - u2) / (m1 + m2).
    const Chain chain({steel_ball(0.01, 1.0), steel_ball(0.015, -0.5)});
    const Comparison c = compare("two balls", chain, SolverOptions{}, without_properties());
    const Eigen::VectorXd& m = c.matrices.masses;
    const double u1 = 1.0, u2 = -0.5, M = m[0] + m[1];
    const Eigen::Vector2d elastic(u1 - 2 * m[1] * (u1 - u2) / M, u2 + 2 * m[0] * (u1 - u2) / M);
    const Eigen::VectorXd u = c.wave.final_velocities();
    const double bound = c.wave.velocity_error_bound;
    REQUIRE(bound > 0);
    CHECK(bound <= 1.5e-9);  // 1e-9 of the velocity scale 1.5 m/s
    CHECK((u - elastic).cwiseAbs().maxCoeff() <= bound);
    const LawComparison& newton = law(c, "newton");
    CHECK((newton.result.velocities_post - elastic).cwiseAbs().maxCoeff() <= 1e-14);
    // The distance is ||u+_law - u+||_M / ||u- - u_cm||_M: within the bound over the relative speed.
    CHECK(newton.distance <= 2 * bound / (u1 - u2));
    REQUIRE(c.restitution_column);
    CHECK(std::abs((*c.restitution_column)[0] - 1) <= 2 * bound / (u1 - u2));
}

TEST_CASE("compare, balls with a dashpot: the effective restitution's deficit is the energy dissipated",
          "[compare][balls]") {
    // T+_rel = T-_rel - D once settled (rigid bodies: no vibration; energy.contact 0), so
    // e_eff^2 = 1 - D / T-_rel.
    const Chain chain({mass(1.0, 1.0), mass(0.6, 0, 400, 1.5, 3), mass(1.4, -0.3, 250, 1.5, 1)});
    const Comparison c = compare("damped", chain, SolverOptions{}, without_properties());
    REQUIRE(c.wave.settled);
    const double D = c.wave.energy.dissipated;
    REQUIRE(D > 1e-3);
    const Eigen::VectorXd& m = c.matrices.masses;
    const Eigen::VectorXd rel = c.velocities_pre.array() - m.dot(c.velocities_pre) / m.sum();
    const double T_rel = 0.5 * m.dot(rel.cwiseProduct(rel));
    REQUIRE(c.effective_restitution);
    CHECK(*c.effective_restitution < 1);
    CHECK(*c.effective_restitution * *c.effective_restitution == Approx(1 - D / T_rel).epsilon(1e-8));
    CHECK(std::abs(momentum(m, c.wave.final_velocities()) - momentum(m, c.velocities_pre)) <= 1e-12 * m.sum());
}

TEST_CASE("compare refuses rods with compliant contacts, masses or balls, naming the key", "[compare][balls][errors]") {
    Rod rod;
    rod.length = 0.1;
    rod.area = 1e-4;
    rod.density = steel_density;
    rod.youngs_modulus = steel_modulus;
    const Chain mixed({steel_ball(0.01, 1.0), rod});
    try {
        check_compare_chain(mixed);
        FAIL("a ball on a rod was accepted");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "rod");
        CHECK_THAT(std::string(e.what()), Catch::Contains("chains of balls and masses alone"));
    }
    CHECK_NOTHROW(check_compare_chain(Chain({steel_ball(0.01, 1.0), steel_ball(0.01, 0)})));
    // Rods alone with one compliant contact (a cushion), and rods beside a mass: refused by compare
    // and by sweep alike, before any work, naming the key "rod".
    Rod cushioned = rod;
    cushioned.contact_stiffness = 1e7;
    Rod lump;
    lump.kind = RodKind::mass;
    lump.rigid_mass = 0.05;
    lump.contact_stiffness = 1e8;
    for (const Chain& chain : {Chain({rod, cushioned, rod}), Chain({rod, lump, rod})}) {
        for (int which = 0; which < 2; ++which) {
            try {
                if (which == 0)
                    (void)compare("rods with a compliant part", chain, SolverOptions{}, without_properties());
                else
                    check_sweep_chain(chain);
                FAIL("rods with a compliant part were accepted");
            } catch (const InvalidInput& e) {
                CHECK(e.key() == "rod");
                // It names what carries the chain (run) and no method: compare refuses either.
                CHECK_THAT(std::string(e.what()), Catch::Contains("chains of balls and masses alone") &&
                                                      Catch::Contains("run carries them") &&
                                                      !Catch::Contains("use --method"));
            }
        }
    }
}

TEST_CASE("compare, two balls with restitution e: the compliant outcome is Newton's law with that e to the solver's "
          "bound, in both paths", "[compare][balls][restitution]") {
    // Energetic restitution (docs/physics.md §9.7): two bodies alone separate at -e times their
    // approach speed, so u+ is the two-body law u1+ = u1 - (1 + e) m2 g / M, u2+ = u2 + (1 + e) m1 g / M
    // (g = u1 - u2), which Newton's, Poisson's and the kinematic law all give for one contact.
    for (const double e : {0.5, 0.9}) {
        const Chain chain({make_ball(0.01, 1.0), make_ball(0.015, -0.5, 0, e)});
        CompareOptions o = without_properties();
        o.restitution = e;
        for (const Method method : {Method::characteristics, Method::finite_difference}) {
            INFO("e = " << e << ", " << to_string(method));
            SolverOptions solver;
            solver.method = method;
            const Comparison c = compare("two balls", chain, solver, o);
            REQUIRE(c.rigid_bodies);
            REQUIRE(c.wave.settled);
            const Eigen::VectorXd& m = c.matrices.masses;
            const double u1 = 1.0, u2 = -0.5, g = u1 - u2, M = m[0] + m[1];
            const Eigen::Vector2d expected(u1 - (1 + e) * m[1] * g / M, u2 + (1 + e) * m[0] * g / M);
            const Eigen::VectorXd u = c.wave.final_velocities();
            const double bound = c.wave.velocity_error_bound;
            REQUIRE(bound > 0);
            // The exact path's bound is 1e-9 of the velocity scale 1.5 m/s; Verlet's its estimate.
            if (method == Method::characteristics) CHECK(bound <= 1.5e-9);
            CHECK((u - expected).cwiseAbs().maxCoeff() <= bound);
            for (const char* name : {"newton", "poisson", "kinematic"}) {
                INFO(name);
                const LawComparison& l = law(c, name);
                CHECK((l.result.velocities_post - expected).cwiseAbs().maxCoeff() <= 1e-14);
                // The distance ||u+_law - u+||_M / ||u- - u_cm||_M: within the bound over g.
                CHECK(l.distance <= 2 * bound / g);
            }
            // The elastic sequential law misses by the restitution's deficit: |1 - e| of the motion
            // (two bodies: ||u+_seq - u+||_M / ||u- - u_cm||_M = (1 - e)).
            CHECK(std::abs(law(c, "sequential").distance - (1 - e)) <= 2 * bound / g);
            REQUIRE(c.closest);
            CHECK(c.laws[*c.closest].parameters.law != "sequential");
            // The effective energetic coefficient is e, and so is the implied first column of E_n.
            REQUIRE(c.effective_restitution);
            CHECK(std::abs(*c.effective_restitution - e) <= 2 * bound / g);
            REQUIRE(c.restitution_column);
            CHECK(std::abs((*c.restitution_column)[0] - e) <= 2 * bound / g);
            // The loss, 1 - e^2 of the relative kinetic energy m* g^2 / 2, is energy.dissipated.
            const double T_rel = 0.5 * m[0] * m[1] / M * g * g;
            CHECK(std::abs(c.wave.energy.dissipated - (1 - e * e) * T_rel) <= 4 * bound / g * T_rel + 1e-6 * T_rel);
        }
    }
}

TEST_CASE("compare, a 3-ball cradle with restitution: momentum by every law and the compliant outcome; the effective "
          "restitution's deficit is the hysteresis loss", "[compare][balls][restitution]") {
    const double e = 0.8;
    const Chain chain({make_ball(0.01, 1.0), make_ball(0.01, 0, 0, e), make_ball(0.01, 0, 0, e)});
    CompareOptions o = without_properties();
    o.restitution = e;
    const Comparison c = compare("lossy cradle", chain, SolverOptions{}, o);
    REQUIRE(c.wave.settled);
    const Eigen::VectorXd& m = c.matrices.masses;
    const double p0 = momentum(m, c.velocities_pre), scale = m.sum();
    CHECK(std::abs(momentum(m, c.wave.final_velocities()) - p0) <= 1e-12 * scale);
    for (const LawComparison& l : c.laws) CHECK(std::abs(momentum(m, l.result.velocities_post) - p0) <= 1e-12 * scale);
    // T+_rel = T-_rel - D: e_eff^2 = 1 - D / T-_rel, D the hysteresis loss (no vibration, no dashpot).
    const double D = c.wave.energy.dissipated;
    const Eigen::VectorXd rel = c.velocities_pre.array() - p0 / m.sum();
    const double T_rel = 0.5 * m.dot(rel.cwiseProduct(rel));
    REQUIRE(D > 0.05 * T_rel);
    REQUIRE(c.effective_restitution);
    CHECK(*c.effective_restitution * *c.effective_restitution == Approx(1 - D / T_rel).epsilon(1e-8));
    // Newton's law with e = 0.8 on three equal balls, every contact at once, is dissipative too.
    CHECK(law(c, "newton").result.energy_ratio < 1);
}

TEST_CASE("compare, balls with gaps: the laws close every contact at once, and say so", "[compare][balls][gaps]") {
    const Chain chain({steel_ball(0.01, 1.0), steel_ball(0.01, 0), steel_ball(0.01, 0, 1e-4)});
    const Comparison c = compare("gaps", chain, SolverOptions{}, without_properties());
    CHECK(c.has_gaps);
    CHECK_FALSE(c.restitution_column);
    // The laws see the same u- (gaps play no part in them): the sequential law is still (0, 0, V).
    CHECK((law(c, "sequential").result.velocities_post - Eigen::Vector3d(0, 0, 1)).cwiseAbs().maxCoeff() <= 1e-12);
    // The gap before ball 3 (0.1 mm at about 1 m/s: 100 us; the Hertz contact lasts about 60 us, in
    // which ball 2 moves less than 50 um) lets the first impact end before the second begins: two
    // separate two-ball exchanges, so the compliant outcome is the sequential law's, to the bound.
    CHECK((c.wave.final_velocities() - Eigen::Vector3d(0, 0, 1)).cwiseAbs().maxCoeff() <= c.wave.velocity_error_bound);
}

TEST_CASE("compare, the 3-ball Hertz cradle's map, sampled: positively homogeneous, and the note says how far the "
          "verdicts can be trusted", "[compare][balls][properties]") {
    const Chain chain({steel_ball(0.01, 1.0), steel_ball(0.01, 0), steel_ball(0.01, 0)});
    const Comparison c = compare("cradle", chain, SolverOptions{});
    REQUIRE(c.wave_map_properties);
    // Power-law contacts: positively homogeneous (docs/physics.md §9.11).
    CHECK(c.wave_map_properties->positively_homogeneous.holds);
    CHECK_THAT(c.wave_map_note, Catch::Contains("each sample is an ODE solve within 1e-09 of |gamma-|"));
}
