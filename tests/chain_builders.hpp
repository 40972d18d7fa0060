// Small builders for chains used across tests.
#pragma once

#include "rodcollide/chain.hpp"

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

}  // namespace rodcollide::testing
