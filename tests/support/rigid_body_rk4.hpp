// An independent integration of a chain of bodies with power-law contacts, written for the tests
// and sharing no solver code: classical RK4 at a fixed step (tests/solvers/test_rigid_body_chains.cpp,
// tests/analysis/test_compare_balls.cpp hold the solvers' rigid-body outcomes to it).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace rodcollide::testing {

/// A chain of bodies with power-law contacts k δ^p, as an independent integration (classical RK4
/// at a fixed step h, the force written out here), touching at t = 0: the final velocities once
/// every contact is open and separating.
inline std::vector<double> rk4_chain(const std::vector<double>& m, std::vector<double> v, double k, double p, double h) {
    const std::size_t n = m.size();
    std::vector<double> x(n, 0.0);  // touching at t = 0
    auto accel = [&](const std::vector<double>& xs, std::vector<double>& a) {
        std::fill(a.begin(), a.end(), 0.0);
        for (std::size_t i = 0; i + 1 < n; ++i) {
            const double d = xs[i] - xs[i + 1];
            if (d <= 0) continue;
            const double f = k * std::pow(d, p);
            a[i] -= f / m[i];
            a[i + 1] += f / m[i + 1];
        }
    };
    std::vector<double> a1(n), a2(n), a3(n), a4(n), xt(n), v1(n), v2(n), v3(n);
    for (std::size_t step = 0; step < 100'000'000; ++step) {
        accel(x, a1);
        for (std::size_t i = 0; i < n; ++i) xt[i] = x[i] + h / 2 * v[i], v1[i] = v[i] + h / 2 * a1[i];
        accel(xt, a2);
        for (std::size_t i = 0; i < n; ++i) xt[i] = x[i] + h / 2 * v1[i], v2[i] = v[i] + h / 2 * a2[i];
        accel(xt, a3);
        for (std::size_t i = 0; i < n; ++i) xt[i] = x[i] + h * v2[i], v3[i] = v[i] + h * a3[i];
        accel(xt, a4);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] += h / 6 * (v[i] + 2 * v1[i] + 2 * v2[i] + v3[i]);
            v[i] += h / 6 * (a1[i] + 2 * a2[i] + 2 * a3[i] + a4[i]);
        }
        bool done = true;
        for (std::size_t i = 0; i + 1 < n; ++i) done = done && x[i] < x[i + 1] && v[i] <= v[i + 1];
        if (done) return v;
    }
    FAIL("RK4 did not separate");
    return v;
}

}  // namespace rodcollide::testing
