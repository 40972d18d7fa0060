// Impact-map sweeps for three-rod chains (docs/sweep.md; Winandy & Leine 2015 §3-4, Fig. 4a): the
// rods of a case, touching, start with the velocities of gamma- = (cos theta, sin theta) for N
// directions theta around the whole circle (lifted as u = (0, gamma1, gamma1+gamma2): the wave map
// is Galilean invariant). Each is solved with the wave solver, and gamma+ is compared with the
// Sequential Impact Law (and other laws on request). The sweep reports the largest error in each of
// the six cones of Winandy & Leine 2015 Fig. 4a, and the empirical cone map: the angular ranges
// where the wave map is linear, with their matrices, compared with Winandy & Leine's cones and Q
// matrices (eq. 23).
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/laws/sequential.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rodcollide {

// ---- Options ----------------------------------------------------------------------------------

/// Most directions a sweep accepts: bounded work (a few seconds for three identical rods on two
/// cores) and memory (~100 bytes per direction and law).
inline constexpr std::size_t max_sweep_directions = 1'000'000;

/// Part k of n of a sweep (1 <= k <= n <= directions): the contiguous block of direction indices
/// [(k-1) N / n, k N / n). The CSVs of shards 1..n, concatenated in order, are the full CSV (only
/// shard 1 writes the header).
struct Shard {
    std::size_t index = 1;  ///< k, from 1
    std::size_t count = 1;  ///< n
};

/// The default linear tolerance of a sweep, in units of its wave outcomes' accuracy.
inline constexpr double linear_tolerance_factor = 10;

struct SweepOptions {
    std::size_t directions = 360;  ///< N, >= 1
    /// Laws compared with the wave map (laws::law_names()); the first is the reference of the
    /// cone errors' summary. Default: the Sequential Impact Law.
    std::vector<std::string> laws = {"sequential"};
    /// newton, poisson: global eps; kinematic: E_n = e I (default 1); sequential: none.
    std::optional<double> restitution;
    Shard shard;
    /// Worker threads; 0 = one per hardware thread; at most largest_sweep_threads.
    unsigned threads = 0;
    /// Two secant matrices of the wave map agree when max |J_a - J_b| <= tolerance * max(1, |J|).
    /// Unset: ten times the largest Outcome::accuracy of the wave solves, linear_tolerance_factor
    /// (1e-9 for the exact solver, whose rounding amplified by 1/sin(2 pi / N) stays far below;
    /// 1e-2 for finite differences).
    std::optional<double> linear_tolerance;
    /// The wave solver; its gaps are irrelevant (the rods touch).
    SolverOptions solver;
    /// Called from the calling thread now and then with (directions done, directions in shard).
    std::function<void(std::size_t, std::size_t)> progress;
};

/// Most worker threads a sweep starts (SweepOptions::threads).
inline constexpr unsigned largest_sweep_threads = 1024;

/// Checks the options.
/// @throws InvalidInput naming the option as its key() ("directions", "threads", "shard", "laws",
///         "restitution", "linear_tolerance") if the options do not fit.
void validate(const SweepOptions& options);

/// Checks that the chain can be swept: its ends free and unloaded, exactly three rods (gamma- lives
/// in a plane).
/// @throws InvalidInput naming the key ("ends"; "rods" for the count).
void check_sweep_chain(const Chain& chain);

/// The cone of Winandy & Leine 2015 Fig. 4a as an angular range [begin, end] [deg], begin in
/// [0, 360), end > begin: the cone spanned by the columns of Q_i^-1 (eq. 23, property P3).
std::pair<double, double> seed_cone_range(laws::Cone c);

/// The checks every sweep makes of its directions, threads and shard (three-rod and cone sweeps).
/// @throws InvalidInput naming "directions", "threads" or "shard".
void validate_sweep_work(std::size_t directions, unsigned threads, const Shard& shard);

/// The same checks of any batch of `count` items split into shards (ensemble members, `count_key`
/// "members"), at most `largest` items.
/// @throws InvalidInput naming count_key, "threads" or "shard".
void validate_sweep_work(std::size_t count, unsigned threads, const Shard& shard, std::string_view count_key,
                         std::size_t largest);

/// First and one-past-last direction index of a shard.
/// @pre 1 <= shard.index <= shard.count (validate(SweepOptions) checks it).
std::pair<std::size_t, std::size_t> shard_range(std::size_t directions, const Shard& shard);

/// gamma- of direction i of N: (cos, sin) of 2 pi i / N, exact at quarter turns.
Eigen::Vector2d sweep_direction(std::size_t i, std::size_t directions);

// ---- Result -----------------------------------------------------------------------------------

struct SweepPoint {
    std::size_t index = 0;          ///< i of N
    double theta = 0;               ///< [deg], 360 i / N
    Eigen::Vector2d gamma_pre;      ///< [m/s]
    Eigen::Vector2d gamma_post;     ///< wave [m/s]
    laws::Cone cone = laws::Cone::I;  ///< of gamma- (Winandy & Leine 2015 Fig. 4a)
    std::size_t events = 0;         ///< solver event groups
    double accuracy = 0;            ///< Outcome::accuracy of the wave solve [-]
};

/// One law over the sweep: gamma+ per direction and its error against the wave map,
/// relative_distance (compare.hpp) = ||gamma+_law - gamma+_wave||_{G^-1} / ||gamma-||_{G^-1}.
struct SweepLaw {
    std::string law;
    std::vector<Eigen::Vector2d> gamma_post;  ///< per point
    std::vector<double> error;                ///< per point [-]
    /// Per cone of Winandy & Leine 2015 Fig. 4a (all_cones order): largest error and where (-1 if no direction).
    std::array<double, 6> cone_max_error{};
    std::array<double, 6> cone_worst_theta{};
};

/// A range of directions where the wave map is linear, gamma+ = matrix gamma- (or, if !linear, a
/// stretch between linear cones where it is not linear at the sweep's resolution).
struct EmpiricalCone {
    double begin = 0, end = 0;  ///< [deg], begin in [0, 360), end > begin (may exceed 360)
    /// The boundary is where the neighbouring matrices agree (null vector of J_a - J_b, exact for a
    /// continuous map); otherwise it is the nearest swept direction.
    bool begin_located = false, end_located = false;
    bool linear = true;
    Eigen::Matrix2d matrix = Eigen::Matrix2d::Zero();  ///< linear only
    std::size_t directions = 0;  ///< swept directions inside
    /// The Winandy & Leine 2015 cone holding the middle direction, whether its boundaries coincide
    /// with this range's (to 1e-6 deg), and max |matrix - Q| (linear only).
    laws::Cone seed_cone = laws::Cone::I;
    bool seed_boundaries_match = false;
    double seed_matrix_deviation = 0;
};

struct SweepResult {
    std::string title;
    Eigen::Vector3d masses, lengths, impedances, transit_times;  ///< of the three rods (SI)
    /// Three balls or masses with power-law contacts (docs/physics.md §9.11): the map is their
    /// compliant outcome's (lengths, impedances and transit times are 0).
    bool rigid_bodies = false;
    std::size_t directions = 0;
    Shard shard;
    std::size_t first = 0, last = 0;  ///< direction indices [first, last)
    Method method = Method::characteristics;
    double linear_tolerance = 0;
    std::vector<SweepPoint> points;   ///< in index order
    std::vector<SweepLaw> laws;
    std::vector<EmpiricalCone> cone_map;  ///< in angular order
    std::size_t cone_directions[6] = {};  ///< swept directions per Winandy & Leine cone
};

/// Runs the sweep on the chain's three rods (gaps ignored: the rods touch). Uses options.threads
/// threads.
/// @throws InvalidInput for a chain or options check_sweep_chain() or validate() refuse (checked
///         before solving).
/// @throws what solve() throws (the first error of any direction).
SweepResult sweep(const std::string& title, const Chain& chain, const SweepOptions& options);

/// The whole sweep from its shards 1..n, in order (each computed with the same chain and options
/// but its own SweepOptions::shard): the points and the laws' values joined, the errors per cone,
/// the linear tolerance and the empirical cone map computed as sweep() computes them, so that the
/// result is the one run's (`mpirun -n P rodcollide sweep`).
/// @throws std::invalid_argument if the parts are not shards 1..n of one sweep, in order.
SweepResult merge_sweeps(std::vector<SweepResult> parts, std::optional<double> linear_tolerance);

/// The empirical cone map of points p[0..n) in angular order (`closed`: they cover the whole
/// circle, so the last secant joins the last point to the first).
/// @pre the points are in angular order (a SweepResult's are).
std::vector<EmpiricalCone> empirical_cone_map(const std::vector<SweepPoint>& points, bool closed, double tolerance);

// ---- As `rodcollide sweep` writes it (docs/sweep.md) ---------------------------------------

/// CSV, one line per direction: index, theta_deg, gamma1_pre, gamma2_pre, gamma1_wave, gamma2_wave,
/// cone, events, then per law <law>_gamma1, <law>_gamma2, <law>_error; numbers with 17 digits.
/// The header line comes only with shard 1, so shard files concatenate into the full CSV.
std::string sweep_csv(const SweepResult& r);

/// Readable report: the errors per cone and the empirical cone map.
std::string sweep_table(const SweepResult& r);

/// Summary as JSON (no per-direction data; that is the CSV).
nlohmann::ordered_json sweep_json(const SweepResult& r);

}  // namespace rodcollide
