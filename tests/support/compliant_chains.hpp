// Seeded random chains of rods, masses and compliant contacts for the delay network's tests
// (tests/solvers/exact/test_delay_network*.cpp; docs/physics.md §9.10).
#pragma once

#include "chain_builders.hpp"
#include "conservation.hpp"
#include "rodcollide/chain.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <random>
#include <vector>

namespace rodcollide::testing {

inline Rod cushioned(Rod r, double k, double p = 1, double c = 0) {
    r.contact_stiffness = k;
    r.contact_exponent = p;
    r.contact_damping = c;
    return r;
}

/// The exact solver (on such chains, its delay network) to `end_time` (none: to settling) at
/// `accuracy` (none: its default).
inline SolverOptions exact_method(std::optional<double> end_time = std::nullopt,
                                  std::optional<double> accuracy = std::nullopt) {
    SolverOptions o;
    o.method = Method::characteristics;
    o.end_time = end_time;
    o.accuracy = accuracy;
    return o;
}

/// A rigid mass M at V striking a rod at rest (L = Z = c = 1) whose far end is anechoic: a mass on
/// a semi-infinite rod, whose force is Z V e^(-Z t/M).
inline Chain mass_on_semi_infinite_rod(double M, double V) {
    ChainEnds ends;
    ends.right.kind = EndKind::anechoic;
    return Chain({make_mass(M, V), make_rod(1, 0)}, ends);
}

/// Chain `seed` of 3-5 elements: rods and masses, compliant contacts (linear and Hertz-like, with
/// dashpots) at small gaps, velocities that make it collide, and on every fourth seed a compliant
/// wall at a gap on the right. With `restitution`, each contact (and that wall) also draws an e in
/// [lo, 1) (§9.7); the draws come after the others, so the chains without it are unchanged.
inline Chain random_compliant_chain(unsigned seed, std::optional<std::pair<double, double>> restitution = std::nullopt) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> len(0.4, 1.5), area(0.5, 2.0), vel(-1.0, 1.0), gap(0.0, 0.05),
        stiff(2.0, 200.0), damp(0.0, 0.3), m(0.3, 3.0), u01(0, 1);
    std::vector<Rod> rods;
    const std::size_t n = 3 + seed % 3;
    for (std::size_t i = 0; i < n; ++i) {
        const bool is_mass = i > 0 && i + 1 < n && u01(rng) < 0.3 && !rods.back().is_mass();
        Rod r = is_mass ? make_mass(m(rng), vel(rng)) : make_rod(len(rng), vel(rng), 0, area(rng));
        if (i > 0) {
            r.gap = gap(rng);
            (void)u01(rng);
            r = cushioned(r, stiff(rng), u01(rng) < 0.5 ? 1.0 : 1.5, damp(rng));
        }
        rods.push_back(r);
    }
    // Velocities that make the chain collide: decreasing from left to right.
    for (std::size_t i = 0; i < n; ++i) rods[i].velocity = 1.0 - 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    ChainEnds ends;
    if (seed % 4 == 1) ends.right.kind = EndKind::wall, ends.right.contact_stiffness = 50, ends.right.gap = 0.1;
    if (restitution) {
        std::uniform_real_distribution<double> e(restitution->first, restitution->second);
        for (std::size_t i = 1; i < n; ++i) rods[i].restitution = e(rng);
        if (ends.right.kind == EndKind::wall) ends.right.restitution = e(rng);
    }
    return Chain(rods, ends);
}

/// Seeded chains of 2 to 5 rods whose lengths are multiples of 0.5 (commensurate periods), a
/// striker at 1 m/s, some rods moving back or separated by a gap, cushions of k in [3, 300].
inline Chain commensurate_chain(unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> count(2, 5), halves(1, 4);
    std::uniform_real_distribution<double> u(0, 1);
    const int n = count(g);
    std::vector<Rod> rods;
    for (int i = 0; i < n; ++i) {
        const double length = 0.5 * halves(g);
        const double velocity = i == 0 ? 1.0 : (u(g) < 0.3 ? -0.3 * u(g) : 0.0);
        const double gap = (i > 0 && u(g) < 0.3) ? 0.05 * u(g) : 0.0;
        Rod r = make_rod(length, velocity, gap);
        if (i > 0) r.contact_stiffness = std::pow(10, 0.5 + 2 * u(g));
        rods.push_back(r);
    }
    return Chain(rods);
}

/// `chain` with about half of its rod-rod contacts made rigid (flat ends, no cushion), drawn from `seed`.
inline Chain with_rigid_rod_contacts(const Chain& chain, unsigned seed) {
    std::vector<Rod> rods = chain.rods();
    std::mt19937 rng(1000 + seed);
    std::uniform_real_distribution<double> u01(0, 1);
    for (std::size_t i = 1; i < rods.size(); ++i)
        if (!rods[i].is_mass() && !rods[i - 1].is_mass() && u01(rng) < 0.5) {
            rods[i].contact_stiffness = 0;
            rods[i].contact_damping = 0;
            rods[i].contact_exponent = 1;
            rods[i].restitution = 1;
        }
    return Chain(rods, chain.ends());
}

/// `chain` with each rod cut into 2 or 3 segments of its material, at random places, their sections
/// drawn in [0.5, 2] times the rod's, drawn from `seed` (rods of segments, docs/physics.md §9.10).
inline Chain with_segments(const Chain& chain, unsigned seed) {
    std::vector<Rod> rods = chain.rods();
    std::mt19937 rng(2000 + seed);
    std::uniform_real_distribution<double> u01(0, 1), scale(0.5, 2.0);
    for (Rod& r : rods) {
        if (r.is_mass()) continue;
        const int n = u01(rng) < 0.5 ? 2 : 3;
        // Cut k near k/n (within a fifth of a segment): no segment is shorter than 3/5 of L/n, so no
        // grid of finite differences needs a tiny cell.
        std::vector<double> cuts{0.0};
        for (int k = 1; k < n; ++k) cuts.push_back((k + 0.4 * (u01(rng) - 0.5)) / n);
        cuts.push_back(1.0);
        for (int k = 0; k < n; ++k)
            r.segments.push_back({(cuts[k + 1] - cuts[k]) * r.length, r.area * scale(rng), r.density, r.youngs_modulus});
    }
    return Chain(rods, chain.ends());
}

/// Chains 1-20 of random_compliant_chain() at accuracy 1e-7 and 1e-9 in the exact solver: momentum
/// with the ends' impulses (to 1e-12 at 1e-9), the energy defect to 1e-10 of the initial energy, both settle, and the
/// coarse run's bound covers its difference from the fine one. All 20 must solve: until stop 43 the
/// stall of docs/physics.md §9.10 stopped seed 17 at max_work, and an open contact between two rods
/// now sends back exactly what arrives instead of refitting it (§9.10, "Junctions").
inline void check_random_compliant_chains(std::optional<std::pair<double, double>> restitution) {
    std::size_t solved = 0;
    std::vector<unsigned> stalled;
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const Chain chain = random_compliant_chain(seed, restitution);
        INFO("seed " << seed);
        SolverOptions coarse_options, fine_options;
        coarse_options.method = fine_options.method = Method::characteristics;
        coarse_options.accuracy = 1e-7;
        fine_options.accuracy = 1e-9;
        coarse_options.max_work = fine_options.max_work = 1'000'000;
        try {
            const Outcome coarse = solve(chain, coarse_options);
            const Outcome fine = solve(chain, fine_options);
            check_momentum_with_ends(fine, 1e-12);  // rounding: 2.5e-15 measured (issue 24 asks 1e-12)
            CHECK(std::abs(fine.energy.dropped) <= 1e-10 * fine.energy.initial);
            check_momentum_with_ends(coarse);
            CHECK(coarse.settled);
            CHECK(fine.settled);
            for (std::size_t i = 0; i < chain.size(); ++i)
                CHECK(std::abs(coarse.rods[i].final_velocity - fine.rods[i].final_velocity) <= coarse.velocity_error_bound);
            ++solved;
        } catch (const SolverLimitExceeded&) {
            stalled.push_back(seed);
        }
    }
    std::string which;
    for (unsigned s : stalled) which.append(" ").append(std::to_string(s));
    WARN(solved << " of 20 random chains solved; stopped at max_work (a known defect, docs/physics.md §9.10):" << which);
    CHECK(solved == 20);
}

}  // namespace rodcollide::testing
