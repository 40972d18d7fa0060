// Impact maps of n >= 3 touching bodies (docs/sweep.md "Four and more bodies"): gamma- runs over
// quasi-uniform directions of the unit sphere S^(n-2) in the G^-1 metric (plus the coordinate
// directions and the rays of the equal-mass sequential law's cones), each direction is solved with
// the exact wave solver, and the cones of the wave map are identified exactly: directions whose
// runs have the same combinatorial signature (the contacts' openings and closings, in order, at
// their times: Outcome::contact_events) share one matrix J, gamma+ = J gamma-, computed from n-1
// independent directions and verified at every other. Cones whose matrices agree are merged.
// The sequential law's cones are identified the same way (its impact sequences) and compared.
// The identified law (laws/identified.hpp) is the cones with their facets and rays.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/laws/identified.hpp"
#include "rodcollide/laws/law_result.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"
#include "rodcollide/sweep.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rodcollide {

/// Relative residual below which a direction is on a cone's matrix: max_k |(J g- - g+)_k| <=
/// tolerance * max_k |g-_k|. The exact solver's outcomes are linear in u- to rounding (~1e-15 of
/// the velocities): 1e-11 leaves room for the conditioning of n-1 directions of a narrow cone.
inline constexpr double cone_verification_tolerance = 1e-11;

/// Most event groups one direction's solve may take in a cone sweep (unless [solver] max_events is
/// lower): touching rods of unequal lengths can re-contact for a very long time in some directions
/// (chains with gaps are chaotic, docs/physics.md §5.4). A direction that reaches it is reported as
/// unsettled and left out of the cones, so that a sweep's work stays bounded.
inline constexpr std::size_t cone_sweep_max_events = 20'000;

struct ConeSweepOptions {
    std::size_t directions = 2000;  ///< quasi-uniform directions N (>= 1), before the boundary rays
    bool boundary_rays = true;      ///< add the coordinate directions and the equal-mass law's cone rays
    std::vector<std::string> laws = {"sequential"};  ///< compared with the wave map
    std::optional<double> restitution;
    Shard shard;
    unsigned threads = 0;           ///< 0: one per hardware thread
    std::uint64_t seed = 1;         ///< the Kronecker sequence's shift (n >= 5)
    double tolerance = cone_verification_tolerance;
    /// Sampled checks of the identified map (properties.hpp) with this many pairs etc.; 0 skips them.
    bool properties = true;
    SolverOptions solver;
    std::function<void(std::size_t, std::size_t)> progress;
};

/// Throws InvalidInput naming the option ("directions", "threads", "shard", "laws", "restitution").
void validate(const ConeSweepOptions& options);

/// A chain a cone sweep accepts: free unloaded ends, 3 to max_cone_sweep_rods rods. Throws
/// InvalidInput ("rods").
void check_cone_sweep_chain(const Chain& chain);
inline constexpr std::size_t max_cone_sweep_rods = 8;

struct ConeSweepPoint {
    std::size_t index = 0;      ///< i of the sweep's directions (quasi-uniform first, then rays)
    bool ray = false;           ///< a coordinate direction or sequential-law ray
    Eigen::VectorXd gamma_pre;  ///< ||gamma-||_{G^-1} = 1 [m/s]
    Eigen::VectorXd gamma_post; ///< wave
    std::string signature;      ///< the run's combinatorial signature
    bool recontact = false;     ///< some contact closed again: the outcome may not be linear
    bool fixed_times = false;   ///< every contact event at a time fixed by the transit times (cone_facets.hpp)
    bool unsettled = false;     ///< the solve reached cone_sweep_max_events: no gamma+ (NaN), in no cone
    std::size_t events = 0;
    double accuracy = 0;
    std::ptrdiff_t cone = -1;   ///< index in ConeSweepResult::cone_map, -1 if in no linear cone
    std::ptrdiff_t sequential_cone = -1;  ///< index in ConeSweepResult::sequential_cones
    std::vector<Eigen::VectorXd> law_post;  ///< per law
    std::vector<double> law_error;          ///< per law, relative_distance (compare.hpp)
};

/// A cone of a map identified from signatures: linear (matrix verified at every direction) or a
/// region where it is not.
struct IdentifiedCone {
    bool linear = true;
    Eigen::MatrixXd matrix;            ///< (n-1) x (n-1), gamma+ = matrix gamma- (linear only)
    std::size_t directions = 0;        ///< swept directions inside (boundary ones included)
    std::size_t boundary_directions = 0;  ///< of them, on a lower-dimensional signature (a boundary)
    Eigen::VectorXd representative;    ///< one direction inside (the most central)
    std::vector<std::string> signatures;  ///< the signatures merged into it (several: merged by matrix)
    double residual = 0;               ///< largest verification residual over its directions
    double norm = 0;                   ///< ||matrix||_{G^-1} (operator norm in the G^-1 metric)
    std::vector<Eigen::VectorXd> facets;  ///< inward normals b: the cone is {b . gamma >= 0}
    std::vector<Eigen::VectorXd> rays;    ///< its generating rays, from the facets
    /// Wave cones: no swept direction of another matrix lies inside the facets (those between two
    /// linear cones from their matrices, the rest located with the wave solver); only these enter
    /// the identified law.
    bool facets_exact = false;
    std::size_t bisected_facets = 0;      ///< of the facets, found by bisection with the wave solver
    std::string label;                 ///< sequential cones: the impact sequence ("1,2,1", contacts from 1)
    // Wave cones only: the sequential-law cone it coincides with.
    std::ptrdiff_t sequential_cone = -1;     ///< the one sequential cone of all its directions, else -1
    bool sequential_same_directions = false; ///< and the two cones hold the same swept directions
    double sequential_matrix_deviation = 0;  ///< max |J - J_seq|
    std::optional<laws::Cone> seed_cone;     ///< three equal masses: Winandy & Leine's cone
    /// The restitution matrix E_n of Brogliato, Zhang & Liu's kinematic law (eq. 12, docs/physics.md
    /// §3.5) that gives this cone's map: v+ = -E_n v- with v = D^-1 gamma, D = diag(sqrt(G_kk)), so
    /// E_n = -D^-1 J D (linear wave cones only).
    Eigen::MatrixXd restitution_matrix;
};

/// Measured properties of the identified map (the wave map where it is linear).
struct ConeMapProperties {
    double largest_cone_norm = 0;        ///< max over linear cones of ||J||_{G^-1}
    std::size_t energetic_violations = 0, kinematic_violations = 0, kinetic_violations = 0;  ///< of the swept directions
    laws::PropertyReport sampled;        ///< check_properties on the identified map
    bool sampled_done = false;
    std::string sampled_note;            ///< why they were not measured (empty if they were)
};

struct ConeSweepResult {
    std::string title;
    std::size_t bodies = 0;
    Eigen::VectorXd masses, lengths, impedances, transit_times;
    std::size_t directions = 0, rays = 0;  ///< quasi-uniform, boundary rays
    Shard shard;
    std::size_t first = 0, last = 0;
    std::uint64_t seed = 1;
    Method method = Method::characteristics;
    double tolerance = 0;
    std::vector<std::string> laws;
    std::vector<double> law_max_error;   ///< per law, over every direction
    std::vector<ConeSweepPoint> points;
    std::vector<IdentifiedCone> cone_map;         ///< the wave map's
    std::size_t merged_cones = 0;                 ///< signature groups merged into others (same matrix)
    std::size_t non_linear_directions = 0;        ///< directions in no linear cone (unsettled ones included)
    std::size_t unsettled_directions = 0;         ///< solves that reached cone_sweep_max_events
    std::vector<IdentifiedCone> sequential_cones; ///< the sequential law's (its impact sequences)
    std::size_t sequential_merged = 0;
    ConeMapProperties properties;
    laws::IdentifiedLaw law;                      ///< the identified law
    std::vector<std::size_t> law_cone_of;         ///< cone_map index of each of the law's cones
    /// The facets located with the wave solver: solves spent, facets found, linear cones whose
    /// facets could not be made exact (left out of the law).
    std::size_t facet_solves = 0, bisected_facets = 0, inexact_cones = 0;
    /// The law at every swept direction: directions answered, largest |law - wave| / |gamma-|,
    /// directions it answered although they lie in no linear cone.
    std::size_t law_answered = 0, law_in_non_linear = 0;
    double identified_max_error = 0;
};

/// Direction i of a cone sweep of this chain (G^-1-normalised gamma-; the rays after the
/// quasi-uniform ones); total_directions() of them.
std::vector<Eigen::VectorXd> cone_sweep_directions(const Chain& chain, const ConeSweepOptions& options);

/// Runs the sweep (validates first); throws what solve() throws. It is
/// join_cone_sweep(title, chain, options, {solve_cone_sweep_shard(chain, options)}).
ConeSweepResult cone_sweep(const std::string& title, const Chain& chain, const ConeSweepOptions& options);

/// The wave solves of a cone sweep's shard (options.shard), before any cone is identified: the
/// expensive, independent part of a sweep, which processes (MPI ranks) can share out and join.
/// Every direction is solved as in one process, so the joined sweep is the threaded one bit for bit.
struct ConeSweepSolves {
    Shard shard;
    std::size_t first = 0, last = 0;            ///< its directions [first, last)
    std::vector<ConeSweepPoint> points;         ///< cone and sequential_cone not yet set
    std::vector<Eigen::VectorXd> sequential_post;      ///< per point: the sequential law's gamma+
    std::vector<std::string> sequential_signatures;    ///< per point: its impact sequence
    std::vector<laws::Consistency> consistency;        ///< per point: the wave outcome's flags
};

/// Solves the directions of options.shard on options.threads threads (validates first).
ConeSweepSolves solve_cone_sweep_shard(const Chain& chain, const ConeSweepOptions& options);

/// The sweep from its solves: shards 1..n in order, joined into the whole sweep (shard 1/1), or
/// one part alone (then the report is that shard's, as `--shard k/n` prints it). The cones,
/// facets (bisected on options.threads threads), law and properties are found here. `options` are
/// those the parts were solved with, but for shard and threads.
/// @throws std::invalid_argument if the parts are not shards 1..n of a sweep with these options.
ConeSweepResult join_cone_sweep(const std::string& title, const Chain& chain, const ConeSweepOptions& options,
                                std::vector<ConeSweepSolves> shards);

/// The solves as bytes, to send to another process running the same binary (MPI: the doubles
/// travel as their bits), and back. Reading checks the sizes: bytes cut short or of another
/// chain (`bodies`) or number of laws throw std::invalid_argument.
std::string cone_sweep_solves_bytes(const ConeSweepSolves& solves);
ConeSweepSolves cone_sweep_solves_from_bytes(std::string_view bytes, std::size_t bodies, std::size_t laws);

/// Cones of a map from (gamma-, gamma+, signature) samples: grouped by signature, one matrix per
/// group from n-1 independent directions verified at every other, groups with equal matrices
/// merged, lower-dimensional groups put into the cone whose matrix holds there; facets and rays
/// from the rank-one differences of neighbouring matrices. `assignment[i]` receives the cone of
/// sample i (-1: none linear) and `on_boundary[i]` whether it was placed from a lower-dimensional
/// group (a boundary direction, which also belongs to the neighbouring cones). G is the Delassus
/// matrix (for the norms).
std::vector<IdentifiedCone> identify_cones(const std::vector<Eigen::VectorXd>& gamma_pre,
                                           const std::vector<Eigen::VectorXd>& gamma_post,
                                           const std::vector<std::string>& signatures, const Eigen::MatrixXd& G,
                                           double tolerance, std::vector<std::ptrdiff_t>& assignment,
                                           std::vector<char>& on_boundary, std::size_t& merged);

/// The wave run's signature (ConeSweepPoint::signature) from its contact events; `time_unit` is the
/// shortest transit time. Sets `recontact` if a contact closed after t = 0.
std::string impact_signature(const std::vector<ContactEvent>& events, double time_unit, bool& recontact);

/// ||J||_{G^-1}: the largest ||J x||_{G^-1} / ||x||_{G^-1}.
double g_inverse_operator_norm(const Eigen::MatrixXd& J, const Eigen::MatrixXd& G);

// ---- As `rodcollide sweep` writes it for n >= 4 bodies (docs/sweep.md) ------------------------

/// One line per direction: index, ray, gamma<k>_pre..., gamma<k>_wave..., cone, sequential_cone,
/// events, then per law <law>_gamma<k>..., <law>_error. Header with shard 1 only.
std::string cone_sweep_csv(const ConeSweepResult& r);
std::string cone_sweep_table(const ConeSweepResult& r);
nlohmann::ordered_json cone_sweep_json(const ConeSweepResult& r);

}  // namespace rodcollide
