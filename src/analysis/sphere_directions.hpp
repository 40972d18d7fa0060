// Quasi-uniform, reproducible directions on the unit sphere S^(d-1) of R^d (the directions of
// gamma- of an n-body sweep, d = n - 1, before the G^-1 metric is applied): the circle for d = 2,
// the spherical Fibonacci lattice for d = 3 (Gonzalez 2010), and above a seeded Kronecker
// sequence (Roberts' R_d, the generalised golden ratio) carried to the sphere through normal
// quantiles. All three are deterministic: direction i of N is the same on any machine and in any
// shard, so shards concatenate.
#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rodcollide::sphere {

/// Direction i of n on S^(d-1), a unit vector (d >= 2; i < n). `seed` shifts the Kronecker
/// sequence (d >= 4 only; the circle and the lattice need none).
Eigen::VectorXd direction(std::size_t i, std::size_t n, Eigen::Index d, std::uint64_t seed);

/// The standard normal quantile Phi^-1(p), p in (0, 1) (Acklam's rational approximation refined by
/// one Halley step: relative error ~1e-15).
double normal_quantile(double p);

}  // namespace rodcollide::sphere
