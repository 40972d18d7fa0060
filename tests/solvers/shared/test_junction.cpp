// Junction physics (junction.hpp): transmission and reflection at a closed contact, energy flux
// conservation, free-end reflection, and the unilateral opening rule.
#include "solvers/shared/junction.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;

TEST_CASE("invariants and (v, N) convert both ways", "[interface]") {
    const double v = 0.7, n = -3.0, z = 2.5;
    const double a = alpha_of(v, n, z), b = beta_of(v, n, z);
    CHECK(velocity_of(a, b) == Approx(v));
    CHECK(force_of(z, a, b) == Approx(n));
}

TEST_CASE("closed contact: transmission 2Z_L/(Z_L+Z_R), reflection (Z_L-Z_R)/(Z_L+Z_R)", "[interface]") {
    for (double zr : {0.25, 1.0, 3.0, 10.0}) {
        const double zl = 1.0;
        // A unit alpha front arrives from the left into a medium at rest.
        const JunctionResponse r = closed_junction(zl, 1.0, zr, 0.0);
        CHECK(r.alpha_to_right == Approx(2 * zl / (zl + zr)));
        CHECK(r.beta_to_left == Approx((zl - zr) / (zl + zr)));
        CHECK(r.velocity_left == r.velocity_right);
        // Force is the same on both sides: N = Z (beta - alpha)/2 with each side's invariants.
        CHECK(force_of(zl, 1.0, r.beta_to_left) == Approx(r.force));
        CHECK(force_of(zr, r.alpha_to_right, 0.0) == Approx(r.force));
        CHECK(r.force < 0);
    }
    // Equal impedances transmit any pair unchanged: alpha goes on to the right, beta to the left.
    const JunctionResponse same = closed_junction(2.0, 0.3, 2.0, -1.1);
    CHECK(same.alpha_to_right == Approx(0.3));
    CHECK(same.beta_to_left == Approx(-1.1));
}

TEST_CASE("a closed contact conserves energy flux: Z_L a^2 + Z_R b^2 in = out", "[interface]") {
    const double zl = 1.7, zr = 0.4, a = 0.9, b = -0.35;
    const JunctionResponse r = closed_junction(zl, a, zr, b);
    const double in = zl * a * a + zr * b * b;
    const double out = zl * r.beta_to_left * r.beta_to_left + zr * r.alpha_to_right * r.alpha_to_right;
    CHECK(out == Approx(in).epsilon(1e-15));
}

TEST_CASE("free ends reflect; an open junction sends each side its own invariant back", "[interface]") {
    CHECK(free_end_reflection(-0.5) == -0.5);
    const JunctionResponse r = open_junction(0.8, -0.2);
    CHECK(r.beta_to_left == 0.8);
    CHECK(r.alpha_to_right == -0.2);
    CHECK(r.force == 0.0);
    CHECK(r.velocity_left == 0.8);   // a free right end moves with the arriving alpha
    CHECK(r.velocity_right == -0.2);
}

TEST_CASE("unilateral contact: compression closes, tension opens, zero force is both", "[interface]") {
    const double zl = 1.0, zr = 2.0;
    // Approaching free ends (beta - alpha < 0): closed, compressive.
    const JunctionResponse c = touching_junction(zl, 1.0, zr, 0.0);
    CHECK(c.force < 0);
    CHECK(c.velocity_left == c.velocity_right);
    CHECK(stays_in_contact(1.0, 0.0, 0.0));
    // Separating ends: open, no force.
    const JunctionResponse o = touching_junction(zl, 0.0, zr, 1.0);
    CHECK(o.force == 0.0);
    CHECK_FALSE(stays_in_contact(0.0, 1.0, 1e-12));
    CHECK(free_separation_velocity(0.0, 1.0) == 1.0);
    // At N* = 0 the closed and open responses coincide.
    const JunctionResponse zc = closed_junction(zl, 0.4, zr, 0.4), zo = open_junction(0.4, 0.4);
    CHECK(zc.beta_to_left == Approx(zo.beta_to_left));
    CHECK(zc.alpha_to_right == Approx(zo.alpha_to_right));
    // A separation below the tolerance keeps the ends together.
    CHECK(stays_in_contact(0.0, 1e-13, 1e-12));
}

TEST_CASE("dispatch: a touching contact answers the closed-contact formulas v* and N*", "[interface][dispatch]") {
    // Z_L = 2, Z_R = 3, alpha_in = 1.5 (approaching from the left), beta_in = -0.5.
    const JunctionArrivals in{2.0, 1.5, 3.0, -0.5};
    const JunctionResponse r = junction_response(JunctionKind::contact, true, in);
    const double v_star = (2.0 * 1.5 + 3.0 * -0.5) / 5.0;       // (Z_L a + Z_R b)/(Z_L + Z_R) = 0.3
    const double n_star = 2.0 * 3.0 * (-0.5 - 1.5) / 5.0;       // Z_L Z_R (b - a)/(Z_L + Z_R) = -2.4
    CHECK(r.velocity_left == Approx(v_star));
    CHECK(r.velocity_right == Approx(v_star));
    CHECK(r.force == Approx(n_star));
    // Outgoing invariants carry v* and N* on each side: beta_L = v* + N*/Z_L, alpha_R = v* - N*/Z_R.
    CHECK(r.beta_to_left == Approx(v_star + n_star / 2.0));
    CHECK(r.alpha_to_right == Approx(v_star - n_star / 3.0));
    CHECK(stays_touching(JunctionKind::contact, in, 0.0));
}

TEST_CASE("dispatch: a contact in tension or apart carries nothing; a free end reflects", "[interface][dispatch]") {
    const JunctionArrivals separating{2.0, -1.0, 3.0, 1.0};  // beta - alpha = 2 > 0: tension if bonded
    const JunctionResponse t = junction_response(JunctionKind::contact, true, separating);
    CHECK(t.force == 0.0);
    CHECK(t.beta_to_left == -1.0);
    CHECK(t.alpha_to_right == 1.0);
    CHECK_FALSE(stays_touching(JunctionKind::contact, separating, 1e-12));
    // Ends apart (not touching): both free whatever arrives, even approaching.
    const JunctionArrivals approaching{2.0, 1.5, 3.0, -0.5};
    const JunctionResponse apart = junction_response(JunctionKind::contact, false, approaching);
    CHECK(apart.force == 0.0);
    CHECK(apart.velocity_left == 1.5);
    CHECK(apart.velocity_right == -0.5);
    // Free ends of the chain: the right end of the last element sends back beta = alpha (N = 0),
    // the left end of the first alpha = beta; they never carry force or have a gap.
    const JunctionResponse right_end = junction_response(JunctionKind::free_end, false, {2.0, 0.7, 0, 0});
    CHECK(right_end.beta_to_left == 0.7);
    CHECK(right_end.velocity_left == 0.7);
    CHECK(force_of(2.0, 0.7, right_end.beta_to_left) == 0.0);
    const JunctionResponse left_end = junction_response(JunctionKind::free_end, true, {0, 0, 3.0, -0.4});
    CHECK(left_end.alpha_to_right == -0.4);
    CHECK(left_end.force == 0.0);
    CHECK_FALSE(has_gap(JunctionKind::free_end));
    CHECK(has_gap(JunctionKind::contact));
    CHECK_FALSE(stays_touching(JunctionKind::free_end, approaching, 1.0));
}

TEST_CASE("dispatch: the rounding band keeps force-free touching ends free", "[interface][dispatch]") {
    // A compression of 1e-13 m/s in free separation velocity is rounding noise within a 1e-12 band.
    const JunctionArrivals noisy{1.0, 0.5, 1.0, 0.5 - 1e-13};
    CHECK(junction_response(JunctionKind::contact, true, noisy, 1e-12).force == 0.0);
    CHECK(junction_response(JunctionKind::contact, true, noisy, 0.0).force < 0.0);
}
