// Helpers for the tests of the rigid impact laws (tests/test_laws_*.cpp): reproducible random
// chains, and a brute-force LCP solution to check the pivoting solver and the prox forms against.
#pragma once

#include "rodcollide/impact_matrices.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <stdexcept>
#include <vector>

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

    /// A chain of 2 to max_n bodies with eps_k in [0, 1] per contact; on even `t` every contact
    /// approaches, on odd `t` the velocities are arbitrary.
    struct Impact {
        ImpactMatrices im;
        Eigen::VectorXd u, eps;
    };
    Impact impact(int t, int max_n) {
        const int n = integer(2, max_n);
        Impact c{impact_matrices(masses(n)), {}, {}};
        c.u = t % 2 ? velocities(n) : approaching_velocities(n);
        c.eps = vector(n - 1, 0, 1);
        return c;
    }

private:
    std::mt19937_64 rng_;
};

/// The indices i < n whose bit is set in mask: one subset for enumerations over all 2^n.
inline std::vector<int> subset(unsigned mask, int n) {
    std::vector<int> s;
    for (int i = 0; i < n; ++i)
        if (mask & (1u << i)) s.push_back(i);
    return s;
}

/// The unique solution of a P-matrix LCP, found by trying every basis (2^n linear solves).
inline Eigen::VectorXd enumerate_lcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& q) {
    const int n = static_cast<int>(q.size());
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        const std::vector<int> b = subset(mask, n);
        Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
        if (!b.empty()) z(b) = Eigen::VectorXd(A(b, b).fullPivLu().solve(-q(b)));
        const Eigen::VectorXd w = A * z + q;
        if ((z.array() >= -1e-12).all() && (w.array() >= -1e-12).all()) return z;
    }
    throw std::logic_error("enumerate_lcp: no complementary basis is feasible");
}

}  // namespace rodcollide::testing
