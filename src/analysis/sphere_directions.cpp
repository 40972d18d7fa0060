// Directions on S^(d-1) (see sphere_directions.hpp).
#include "analysis/sphere_directions.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace rodcollide::sphere {

namespace {

/// splitmix64: the seed spread over 64 bits, so that seeds 1, 2, ... shift the sequence unrelatedly.
std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The generalised golden ratio phi_d: the positive root of x^(d+1) = x + 1 (Roberts 2018).
double generalised_golden_ratio(Eigen::Index d) {
    double x = 2;
    for (int k = 0; k < 60; ++k) x = std::pow(1 + x, 1.0 / static_cast<double>(d + 1));
    return x;
}

}  // namespace

double normal_quantile(double p) {
    // Acklam's coefficients.
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                   1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01,  -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double e[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    constexpr double low = 0.02425;
    double x;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((e[0] * q + e[1]) * q + e[2]) * q + e[3]) * q + 1);
    } else if (p <= 1 - low) {
        const double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((e[0] * q + e[1]) * q + e[2]) * q + e[3]) * q + 1);
    }
    // One Halley step on Phi(x) - p.
    const double err = 0.5 * std::erfc(-x / std::numbers::sqrt2) - p;
    const double u = err * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

Eigen::VectorXd direction(std::size_t i, std::size_t n, Eigen::Index d, std::uint64_t seed) {
    if (d < 2 || i >= n) throw std::invalid_argument("sphere::direction: needs d >= 2 and i < n");
    const double fi = static_cast<double>(i), fn = static_cast<double>(n);
    Eigen::VectorXd v(d);
    if (d == 2) {
        const double theta = 2 * std::numbers::pi * fi / fn;
        v << std::cos(theta), std::sin(theta);
        return v;
    }
    if (d == 3) {
        // Spherical Fibonacci lattice: equal-area bands in z, golden-angle longitudes.
        const double z = 1 - (2 * fi + 1) / fn;
        const double r = std::sqrt(std::max(0.0, 1 - z * z));
        const double phi = 2 * std::numbers::pi * std::fmod(fi * (std::numbers::phi - 1), 1.0);
        v << r * std::cos(phi), r * std::sin(phi), z;
        return v;
    }
    // R_d Kronecker sequence in the unit cube, shifted by the seed, then normal quantiles: the
    // Gaussian vector's direction is uniform on the sphere, and the low discrepancy carries over.
    const double g = generalised_golden_ratio(d);
    std::uint64_t s = splitmix(seed);
    double alpha = 1;
    for (Eigen::Index k = 0; k < d; ++k) {
        alpha /= g;
        s = splitmix(s);
        const double shift = static_cast<double>(s >> 11) * 0x1.0p-53;
        double x = std::fmod(shift + (fi + 1) * alpha, 1.0);
        x = std::clamp(x, 1e-12, 1 - 1e-12);
        v[k] = normal_quantile(x);
    }
    const double norm = v.norm();
    if (!(norm > 0)) v = Eigen::VectorXd::Unit(d, 0);
    else v /= norm;
    return v;
}

}  // namespace rodcollide::sphere
