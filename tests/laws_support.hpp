// Random chains for the tests of the rigid impact laws (tests/test_laws_*.cpp): reproducible
// masses, velocities and restitution coefficients.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

namespace rodcollide::testing {

class RandomChains {
public:
    explicit RandomChains(std::uint64_t seed) : rng_(seed) {}

    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

    /// Entries uniform in [lo, hi].
    Eigen::VectorXd vector(Eigen::Index n, double lo, double hi) {
        Eigen::VectorXd v(n);
        for (Eigen::Index i = 0; i < n; ++i) v[i] = uniform(lo, hi);
        return v;
    }
    /// Masses spread over two decades around 1 kg.
    Eigen::VectorXd masses(Eigen::Index n) { return vector(n, -1, 1).unaryExpr([](double x) { return std::pow(10.0, x); }); }
    /// Velocities in [-1, 1] m/s.
    Eigen::VectorXd velocities(Eigen::Index n) { return vector(n, -1, 1); }
    /// Velocities with every contact approaching or at rest (u decreasing): gamma- <= 0.
    Eigen::VectorXd approaching_velocities(Eigen::Index n) {
        Eigen::VectorXd u = velocities(n);
        std::sort(u.data(), u.data() + n, std::greater<double>());
        return u;
    }

private:
    std::mt19937_64 rng_;
};

}  // namespace rodcollide::testing
