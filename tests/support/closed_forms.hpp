// Closed-form outcomes every solver must reproduce (docs/physics.md §2), checked the same way for each:
// de Saint-Venant's striker and target, and the rigid elastic two-body result for equal transit
// times; Winandy & Leine's simultaneous opening. Also the example case files, for tests that run
// every one.
#pragma once

#include "chain_builders.hpp"
#include "rodcollide/case_file.hpp"
#include "rodcollide/outcome.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

namespace rodcollide::testing {

/// A rigid mass M at V strikes a bar (impedance Z, transit time T) fixed at its far end (de
/// Saint-Venant, Boussinesq; Timoshenko & Goodier's longitudinal impact of a mass on a bar). With
/// a = Z/M, the compressive force at the struck end is F = Z V e^(-a t) for t < 2T, then, with the
/// fixed end's reflection -2 V e^(-a (t - 2T)) arriving, F = Z V e^(-a (t - 2T)) [2 + e^(-2 a T) -
/// 2 a (t - 2T)] for 2T <= t < 4T. `reflected` picks the branch (a grid step straddling 2T holds one).
inline double mass_on_fixed_bar_force(double t, double M, double Z, double T, double V, bool reflected) {
    const double a = Z / M;
    return !reflected ? Z * V * std::exp(-a * t)
                      : Z * V * std::exp(-a * (t - 2 * T)) * (2 + std::exp(-2 * a * T) - 2 * a * (t - 2 * T));
}

/// de Saint-Venant (1867): same material and section, a striker of length L1 at V strikes a
/// target of length L2 at rest. L1 <= L2: the striker stops, the target leaves with V L1/L2 and
/// the rigid share of the energy is L1/L2. L1 > L2: the target leaves with V, unstrained, and
/// the striker keeps V (L1 - L2)/L1.
inline void check_saint_venant(const Outcome& o, double L1, double L2, double V) {
    if (L1 <= L2) {
        CHECK(o.rods[0].final_velocity == Approx(0).margin(1e-14));
        CHECK(o.rods[1].final_velocity == Approx(V * L1 / L2).epsilon(1e-14));
        CHECK(o.energy.final_rigid / o.energy.initial == Approx(L1 / L2).epsilon(1e-13));
        CHECK(o.rods[0].vibration_energy == Approx(0).margin(1e-14));
    } else {
        CHECK(o.rods[1].final_velocity == Approx(V).epsilon(1e-14));
        CHECK(o.rods[0].final_velocity == Approx(V * (L1 - L2) / L1).epsilon(1e-14));
        CHECK(o.rods[1].vibration_energy == Approx(0).margin(1e-13));
    }
}

/// Equal transit times, target/striker impedance (and mass) ratios r from 0.2 to 7.5 (same
/// material and length, section ratio r), striker at V = 1.5: each solved with `solve` must give
/// exactly the rigid elastic two-body impact, u+ = ((1 - r) V, 2 V)/(1 + r), no vibration left.
/// Returns the outcomes for further checks.
template <class Solve>
std::vector<Outcome> check_rigid_two_body(Solve solve) {
    std::vector<Outcome> outcomes;
    for (double r : {0.2, 0.5, 1.0, 2.0, 3.0, 7.5}) {
        INFO("impedance ratio " << r);
        const double V = 1.5;
        const Outcome o = solve(Chain({make_rod(1, V, 0, 1.0), make_rod(1, 0, 0, r)}));
        CHECK(o.rods[0].final_velocity == Approx((1 - r) / (1 + r) * V).margin(1e-14));
        CHECK(o.rods[1].final_velocity == Approx(2 / (1 + r) * V).epsilon(1e-14));
        CHECK(o.energy.final_vibration == Approx(0).margin(1e-14));
        outcomes.push_back(o);
    }
    return outcomes;
}

/// Winandy & Leine 2015 Fig. 6(b), points B and C: the two contacts of three identical rods open at
/// the same instant t, which a solver handling arrivals one at a time would miss.
inline void check_simultaneous_openings(const std::vector<ContactEvent>& events, double t) {
    std::vector<double> openings;
    for (const ContactEvent& e : events)
        if (e.kind == ContactEvent::Kind::opening) openings.push_back(e.time);
    REQUIRE(openings.size() == 2);
    CHECK(openings[0] == Approx(t).epsilon(1e-15));
    CHECK(openings[1] == openings[0]);
}

/// The energy balance with ends (docs/physics.md §8.4): initial + input = rigid + vibration +
/// dropped + radiated, to rounding.
inline void check_energy_balance(const Outcome& o) {
    const EnergyBalance& e = o.energy;
    const double scale = std::max({e.initial + e.input, 1e-300});
    CHECK(std::abs(e.initial + e.input - (e.final_rigid + e.final_vibration + e.dropped + e.radiated)) <= 1e-12 * scale);
}

/// Every example case in cases/, loaded, in file-name order (there are at least 7).
inline std::vector<Case> load_example_cases() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(RODCOLLIDE_SOURCE_DIR) / "cases"))
        if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 7);
    std::vector<Case> cases;
    for (const auto& f : files) cases.push_back(load_case(f));
    return cases;
}

}  // namespace rodcollide::testing
