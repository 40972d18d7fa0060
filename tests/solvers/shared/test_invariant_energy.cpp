// Energy from the Riemann invariants (invariant_energy.hpp) against the kinetic and strain
// energies of simple states: rigid motion, a uniformly strained rod, and half of each.
#include "solvers/shared/invariant_energy.hpp"

#include <catch2/catch.hpp>

using namespace rodcollide;

TEST_CASE("rigid motion: (Z/4) int (a^2 + b^2) = m v^2 / 2, and nothing about its mean", "[invariant_energy]") {
    // Element: rho A = 2, c = 3, L = 6 -> T = 2, Z = rho A c = 6, m = 12. Moving at v = 0.5.
    const double z = 6, T = 2, m = 12, v = 0.5;
    const ArrivalWindow alpha = {{T, v}}, beta = {{T, v}};
    CHECK(invariant_energy(z, alpha, beta) == Approx(0.5 * m * v * v));
    CHECK(invariant_mean(alpha, beta, T) == v);
    CHECK(invariant_energy(z, alpha, beta, v) == 0.0);
}

TEST_CASE("a strained rod at rest holds N^2 L / (2 E A)", "[invariant_energy]") {
    // v = 0 and N = -3 everywhere: alpha = v - N/Z = 3/Z, beta = -3/Z. E A = Z c.
    const double z = 6, c = 3, T = 2, n = -3, length = c * T;
    const ArrivalWindow alpha = {{T, -n / z}}, beta = {{T, n / z}};
    CHECK(invariant_mean(alpha, beta, T) == 0.0);
    CHECK(invariant_energy(z, alpha, beta) == Approx(n * n * length / (2 * z * c)));
}

TEST_CASE("half moving, half at rest: total energy, mean and vibration", "[invariant_energy]") {
    // Unit element (Z = 1, T = 1, m = 1), unstrained: its left half moves at 1, its right half
    // rests. The alpha reaching the right end comes first from the right half, then the left; the
    // beta reaching the left end first from the left half, then the right.
    const ArrivalWindow alpha = {{0.5, 0.0}, {0.5, 1.0}}, beta = {{0.5, 1.0}, {0.5, 0.0}};
    CHECK(invariant_energy(1.0, alpha, beta) == Approx(0.25));            // (m/2) 1^2 / 2
    const double mean = invariant_mean(alpha, beta, 1.0);
    CHECK(mean == Approx(0.5));                                           // momentum / mass
    CHECK(invariant_energy(1.0, alpha, beta, mean) == Approx(0.125));     // 0.25 - m mean^2 / 2
}

TEST_CASE("emitting the wrong invariant changes the energy flux by (Z/4)(e^2 - x^2)", "[invariant_energy]") {
    CHECK(emitted_energy_excess(4.0, 1.5, 1.0) == Approx(1.25));
    CHECK(emitted_energy_excess(4.0, 1.0, 1.0) == 0.0);
    CHECK(emitted_energy_excess(4.0, 0.5, 1.0) < 0);
}
