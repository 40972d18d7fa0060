// Restitution e < 1 in the exact solver's delay network (issue 24; docs/physics.md §9.7, §9.10): a
// mass struck onto a semi-infinite rod through a cushion against an independent integration written
// here, the balances on seeded random chains with restitution, and the example chains against finite
// differences.
#include "chain_builders.hpp"
#include "compliant_chains.hpp"
#include "conservation.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <functional>

using namespace rodcollide;
using rodcollide::testing::check_momentum_with_ends;
using rodcollide::testing::cushioned;
using rodcollide::testing::make_mass;
using rodcollide::testing::make_rod;

namespace {

/// A mass M at V strikes a semi-infinite rod at rest (impedance Z) through a cushion k δ^p with
/// energetic restitution e: the rod's end moves at F/Z, so δ' = u - F/Z and M u' = -F. Loading
/// F = k δ^p up to the maximum compression δ_m (δ' = 0); unloading F = k δ_m^p ((δ - δ_r)/(δ_m - δ_r))^p
/// down to δ_r = (1 - e^2) δ_m, where it opens (the law of §9.7, written out here). Classical RK4
/// at a fixed step; each phase's end is found by bisecting the length of its last step. Shares no
/// solver code.
struct CushionedMass {
    double u = 0;              // the mass's velocity once the contact opens [m/s]
    double max_overlap = 0;    // δ_m [m]
    bool reloaded = false;     // δ' rose past 0 while unloading (the reference does not model it)
};

CushionedMass cushioned_mass_on_rod(double M, double V, double Z, double k, double p, double e, double h) {
    using State = std::array<double, 2>;  // δ, u
    double dm = 0, dr = 0;
    bool unloading = false;
    const auto force = [&](double d) {
        if (!unloading) return d > 0 ? k * std::pow(d, p) : 0.0;
        return d > dr ? k * std::pow(dm, p) * std::pow((d - dr) / (dm - dr), p) : 0.0;
    };
    const auto rate = [&](const State& s) {
        const double f = force(s[0]);
        return State{s[1] - f / Z, -f / M};
    };
    const auto step = [&](const State& s, double dt) {
        const State k1 = rate(s);
        const State k2 = rate({s[0] + dt / 2 * k1[0], s[1] + dt / 2 * k1[1]});
        const State k3 = rate({s[0] + dt / 2 * k2[0], s[1] + dt / 2 * k2[1]});
        const State k4 = rate({s[0] + dt * k3[0], s[1] + dt * k3[1]});
        return State{s[0] + dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
                     s[1] + dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])};
    };
    // Steps until `ended` turns true; the state where it does (bisected on the last step's length).
    const auto until = [&](State s, const std::function<bool(const State&)>& ended) {
        for (int n = 0; n < 100'000'000; ++n) {
            const State next = step(s, h);
            if (!ended(next)) {
                s = next;
                continue;
            }
            double lo = 0, hi = h;
            for (int b = 0; b < 60; ++b) {
                const double mid = 0.5 * (lo + hi);
                (ended(step(s, mid)) ? hi : lo) = mid;
            }
            return step(s, hi);
        }
        FAIL("the reference integration did not end");
        return s;
    };
    CushionedMass out;
    State s = until({0.0, V}, [&](const State& x) { return rate(x)[0] < 0; });  // maximum compression
    dm = s[0];
    dr = (1 - e * e) * dm;
    unloading = true;
    s = until(s, [&](const State& x) {
        out.reloaded = out.reloaded || rate(x)[0] > 0;
        return x[0] < dr;
    });
    out.u = s[1];
    out.max_overlap = dm;
    return out;
}

SolverOptions exact() {
    SolverOptions o;
    o.method = Method::characteristics;
    return o;
}

}  // namespace

TEST_CASE("delay network, restitution: a mass struck onto a semi-infinite rod through a cushion matches an "
          "independent integration",
          "[exact][compliant][delay_network][restitution][closed_form]") {
    const double M = 1, V = 1, Z = 1, k = 0.5;  // rods of unit Z and c; k < 4 Z^2/M: the mass rebounds
    for (const double p : {1.0, 1.5}) {
        for (const double e : {0.5, 0.8, 1.0}) {
            INFO("p = " << p << ", e = " << e);
            const CushionedMass ref = cushioned_mass_on_rod(M, V, Z, k, p, e, 1e-3);
            REQUIRE_FALSE(ref.reloaded);
            REQUIRE(ref.u < 0);
            Rod rod = cushioned(make_rod(1, 0), k, p);
            rod.restitution = e;
            ChainEnds ends;
            ends.right.kind = EndKind::anechoic;  // nothing returns: the rod is semi-infinite
            const Outcome o = solve(Chain({make_mass(M, V), rod}, ends), exact());
            REQUIRE(o.settled);
            CHECK(std::abs(o.rods[0].final_velocity - ref.u) <= 1e-8 * V);
            CHECK(o.velocity_error_bound <= 1e-9 * V);
            REQUIRE(o.contacts.size() == 1);
            CHECK(o.contacts[0].impulse == Approx(M * (V - ref.u)).epsilon(1e-8));
            // The hysteresis loss (1 - e^2) of the energy stored at δ_m; the rest is radiated.
            const double stored = k * std::pow(ref.max_overlap, p + 1) / (p + 1);
            CHECK(std::abs(o.energy.dissipated - (1 - e * e) * stored) <= 1e-8 * o.energy.initial);
            CHECK(o.energy.contact == 0);
            CHECK(o.energy.radiated == Approx(0.5 * M * (V * V - ref.u * ref.u) - (1 - e * e) * stored).epsilon(1e-8));
            check_momentum_with_ends(o);
            CHECK(std::abs(o.energy.dropped) <= 1e-10 * o.energy.initial);
        }
    }
}

TEST_CASE("delay network, restitution: seeded random chains balance momentum and energy; the bound covers a 100x "
          "finer run",
          "[exact][compliant][delay_network][restitution][random]") {
    // The chains of the elastic test (test_delay_network.cpp), every contact with an e in [0.3, 1).
    testing::check_random_compliant_chains(std::pair{0.3, 1.0});
}

TEST_CASE("delay network, restitution: a ball on a rod and a rod on a compliant wall agree with finite differences",
          "[exact][compliant][delay_network][restitution]") {
    // The classroom experiment of cases/balls/steel_ball_on_rod.toml with e = 0.6 (Hertz: the
    // ball's contact is curved), and two rods (a cushion between them) struck onto a linear spring wall with e = 0.5.
    Rod ball;
    ball.kind = RodKind::ball;
    ball.radius = 0.0125;
    ball.density = 7850;
    ball.youngs_modulus = 210e9;
    ball.poisson_ratio = 0.3;
    ball.velocity = 1;
    Rod bar = make_rod(1.0, 0, 0, 3.1416e-4, 7850, 210e9);
    bar.restitution = 0.6;
    ChainEnds wall;
    wall.right.kind = EndKind::wall;
    wall.right.contact_stiffness = 5;
    wall.right.restitution = 0.5;
    for (const Chain& chain : {Chain({ball, bar}), Chain({make_rod(1, 1), cushioned(make_rod(0.6, 0.2, 0.05, 2.0), 20)}, wall)}) {
        SolverOptions fd;
        fd.method = Method::finite_difference;
        const Outcome a = solve(chain, exact()), b = solve(chain, fd);
        REQUIRE(a.settled);
        REQUIRE(b.settled);
        REQUIRE(a.rods.size() == b.rods.size());
        for (std::size_t i = 0; i < a.rods.size(); ++i)
            CHECK(std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) <=
                  a.velocity_error_bound + b.velocity_error_bound);
        CHECK(a.energy.dissipated > 0.05 * a.energy.initial);  // the hysteresis loss is there
        check_momentum_with_ends(a);
        CHECK(std::abs(a.energy.dropped) <= 1e-10 * a.energy.initial);
    }
}
