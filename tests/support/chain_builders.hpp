// Small builders for chains used across tests.
#pragma once

#include "rodcollide/chain.hpp"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace rodcollide::testing {

/// A rod with unit density and Young's modulus unless given (c = sqrt(E/rho)).
inline Rod make_rod(double length, double velocity, double gap = 0, double area = 1, double density = 1,
                    double youngs_modulus = 1) {
    Rod r;
    r.length = length;
    r.area = area;
    r.density = density;
    r.youngs_modulus = youngs_modulus;
    r.velocity = velocity;
    r.gap = gap;
    return r;
}

/// A rigid mass (kind = "mass") of m [kg].
inline Rod make_mass(double m, double velocity, double gap = 0) {
    Rod r;
    r.kind = RodKind::mass;
    r.rigid_mass = m;
    r.velocity = velocity;
    r.gap = gap;
    return r;
}

/// A ball (kind = "ball"), steel unless given: its mass and Hertz law are derived by Chain.
inline Rod make_ball(double radius, double velocity, double gap = 0, double restitution = 1, double density = 7850,
                     double youngs_modulus = 210e9, double poisson_ratio = 0.3) {
    Rod r;
    r.kind = RodKind::ball;
    r.radius = radius;
    r.density = density;
    r.youngs_modulus = youngs_modulus;
    r.poisson_ratio = poisson_ratio;
    r.velocity = velocity;
    r.gap = gap;
    r.restitution = restitution;
    return r;
}

/// n identical unit rods, touching, with the given velocities.
inline Chain identical_rods(const std::vector<double>& velocities) {
    std::vector<Rod> rods;
    for (double v : velocities) rods.push_back(make_rod(1, v));
    return Chain(rods);
}

/// A random chain: mixed lengths, sections, materials, velocities and gaps.
inline Chain random_chain(std::mt19937& rng, std::size_t n) {
    std::uniform_real_distribution<double> len(0.3, 2.0), area(0.5, 2.0), rho(0.5, 3.0), e(0.5, 3.0),
        vel(-1.0, 1.0), gap(0.0, 0.2);
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i)
        rods.push_back(make_rod(len(rng), vel(rng), i == 0 ? 0.0 : gap(rng), area(rng), rho(rng), e(rng)));
    return Chain(rods);
}

/// n rods far apart, drawn from `rng`: lengths 0.3-2, sections 0.5-2, densities and moduli
/// 0.5-3, velocities -1..1, gaps of gap_min..gap_max (several rod lengths: long free flights
/// between closings). The free-flight, time-origin and sleeping tests share these chains.
inline Chain far_apart_chain(std::mt19937& rng, std::size_t n, double gap_min, double gap_max) {
    std::uniform_real_distribution<double> len(0.3, 2.0), area(0.5, 2.0), prop(0.5, 3.0), vel(-1, 1), gap(gap_min, gap_max);
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i)
        rods.push_back(make_rod(len(rng), vel(rng), i == 0 ? 0.0 : gap(rng), area(rng), prop(rng), prop(rng)));
    return Chain(rods);
}

/// n rods of integer transit times (1-4: L/c a whole number), drawn from `rng`: densities and
/// moduli 0.5-3, sections 0.3-3, velocities -1..1, and with `gaps` a gap of 0-0.3 on about half
/// the contacts. Every front then stays on a lattice of the unit transit time. `stretch` [-]
/// multiplies the lengths of even rods by 1 + stretch and of odd ones by 1 - stretch (a few units
/// in the last place: nearly commensurate, fronts ulps apart; the rounding check's perturbation).
inline Chain commensurate_chain(std::mt19937& rng, std::size_t n, bool gaps, double stretch = 0) {
    std::uniform_real_distribution<double> prop(0.5, 3.0), area(0.3, 3.0), vel(-1, 1), gap(0, 0.3), coin(0, 1);
    std::uniform_int_distribution<int> transits(1, 4);
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i) {
        const double e = prop(rng), rho = prop(rng);
        const double length = transits(rng) * std::sqrt(e / rho) * (i % 2 == 0 ? 1 + stretch : 1 - stretch);
        rods.push_back(make_rod(length, vel(rng), i > 0 && gaps && coin(rng) < 0.5 ? gap(rng) : 0.0, area(rng), rho, e));
    }
    return Chain(rods);
}

/// The families of the scaling benchmark (bench/scaling.py), drawn here from std::mt19937: rods
/// 0.05-0.5 m long, a 5 m/s striker at the left, and
enum class ScalingFamily {
    equal_gaps,      ///< steel rods of one section (20 mm), a gap of 0.1-0.5 mm on about half the contacts
    mixed_touching,  ///< steel rods of random diameter 10-30 mm, all touching
    mixed_gaps,      ///< steel, aluminium or brass of random diameter, gaps as in equal_gaps
};

inline Chain scaling_chain(ScalingFamily family, std::size_t n, unsigned seed) {
    struct Material {
        double density, youngs;
    };
    const Material steel{7850, 210e9}, materials[] = {{2700, 70e9}, {8500, 100e9}, steel};
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> length(0.05, 0.5), diameter(0.010, 0.030), gap(0.1e-3, 0.5e-3), coin(0, 1);
    std::vector<Rod> rods;
    for (std::size_t i = 0; i < n; ++i) {
        const double l = length(rng);
        Material m = steel;
        double d = 0.02;
        if (family != ScalingFamily::equal_gaps) d = diameter(rng);
        if (family == ScalingFamily::mixed_gaps) m = materials[std::uniform_int_distribution<int>(0, 2)(rng)];
        double g = 0;
        if (i > 0 && family != ScalingFamily::mixed_touching && coin(rng) < 0.5) g = gap(rng);
        rods.push_back(make_rod(l, i == 0 ? 5.0 : 0.0, g, 0.25 * std::numbers::pi * d * d, m.density, m.youngs));
    }
    return Chain(rods);
}

}  // namespace rodcollide::testing
