// Velocity and force fields sampled on a regular x-t grid, from either solver, for field plots.
// x is the chain's material coordinate (rods side by side, gaps not drawn).
//
// CSV format (write_field_csv / read_field_csv), one sample per line after a header:
//   # rodcollide field samples: <title>
//   t,x,rod,velocity,force
//   0,0.005,0,2,0
// Units: s, m, -, m/s, N (force positive in tension). Rows are ordered by t, then x.
#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace rodcollide {

struct FieldSamples {
    std::vector<double> t;         ///< sample times [s], increasing
    std::vector<double> x;         ///< sample positions, chain material coordinate [m], increasing
    std::vector<std::size_t> rod;  ///< rod holding each x
    Eigen::MatrixXd velocity;      ///< [m/s], rows follow t, columns follow x
    Eigen::MatrixXd force;         ///< [N], positive in tension
};

/// Largest grid a sampler will produce (rows x columns), to keep files and memory bounded.
inline constexpr std::size_t max_field_samples = 4'000'000;

/// Bounds on a sampled field history (solve_with_field; `run --field-times`, `--field-positions`).
struct FieldResolution {
    std::size_t times = 500;      ///< at most this many sample times, 2 to 2000
    std::size_t positions = 500;  ///< at most this many positions along the chain, 1 to 2000
};

/// Checks the bounds above.
/// @throws InvalidInput naming the field ("times", "positions").
void validate(const FieldResolution& resolution);

/// Writes samples as CSV (format above) to `path`, atomically (a temporary file renamed into
/// place): a failed write leaves no partial file.
/// @throws OutputPathError for a refused target; std::runtime_error naming the path when writing
///         fails.
void write_field_csv(const FieldSamples& samples, const std::string& title, const std::filesystem::path& path);

/// Reads a file written by write_field_csv.
/// @throws std::runtime_error for a file that cannot be read or is malformed.
FieldSamples read_field_csv(const std::filesystem::path& path);

}  // namespace rodcollide
