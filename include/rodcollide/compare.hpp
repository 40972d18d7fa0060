// Comparison of the wave outcome of a case with the rigid impact laws (docs/compare.md;
// docs/physics.md §2-3). The rigid model of a case has masses rho*A*L and the case's initial
// velocities, with every contact closed at one instant (gaps are ignored by the laws, and the result says so).
// A chain of balls and masses alone (docs/physics.md §9.11) is compared the same way: its masses, its
// initial velocities, and in place of the wave outcome the compliant outcome of its contacts (solve():
// the ODE system of §9.9); Comparison::rigid_bodies says which.
// For each law: u+, its distance to the wave outcome in the kinetic metric, T+/T- and the
// consistency flags. The wave outcome read as an impact law: its rigid-motion energy share, its
// consistency, the sampled properties of the wave map
// (Winandy & Leine 2015 §5, Leine & Baumann 2014 Thm 1), the cone of gamma- for three rods
// (Winandy & Leine 2015 Fig. 4a) and the law that comes closest. The restitution it implies: the
// first column of E_n (Brogliato, Zhang & Liu 2012 §7.1, eqs 56-59, used inversely) and the
// effective energetic coefficient.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/chain.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/laws/sequential.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

// ---- Options --------------------------------------------------------------------------------------

struct CompareOptions {
    /// Laws to compare with, by name (laws::law_names()), in the order they are reported.
    std::vector<std::string> laws = laws::law_names();
    /// Restitution (dimensionless): newton and poisson use it as a global eps in [0, 1], kinematic
    /// as E_n = e I. Unset: 1 (elastic). The sequential law is elastic and ignores it.
    std::optional<double> restitution;
    /// Sample the properties of the wave map (chains of at most max_property_rods rods).
    bool wave_map_properties = true;
};

/// Checks the options.
/// @throws InvalidInput for an unknown law, an empty list or a restitution outside [0, 1],
///         naming the option as its key(): "laws" or "restitution".
void validate(const CompareOptions& options);

/// Longest chain compare accepts: the rigid laws use dense n x n matrices (as `rodcollide laws`).
inline constexpr std::size_t max_compare_rods = 1000;

/// Checks that compare can take the chain: its ends free and unloaded (the rigid laws know no
/// ends), at most max_compare_rods rods, and either rods with rigid contacts or balls and masses
/// alone (a chain of rods with compliant contacts, masses or balls is refused).
/// @throws InvalidInput naming the key ("ends"; "rod" for the chain's kind; "rods" for the length).
void check_compare_chain(const Chain& chain);

/// Longest chain whose wave map properties are sampled (each sample is one solve).
inline constexpr std::size_t max_property_rods = 4;

/// Sample counts for the wave map's properties (500 pairs + 100 refinement steps; every 3-cycle of
/// 20 points + 100 steps; 50 homogeneity points; 20 continuity segments of 32 intervals): at most
/// laws::evaluation_bound() = 5,475 solves of the touching rods, ~10 ms for three identical rods.
/// A solve is capped at wave_map_max_events event groups; reaching it leaves the properties
/// unsampled, with a note.
laws::PropertyOptions wave_map_property_options();
inline constexpr std::size_t wave_map_max_events = 100'000;

// ---- Quantities (also used by the sweep and the validation suite) -------------------------------

/// ||u_a - u_b||_M / ||u- - u_cm||_M [-], u_cm the centre-of-mass velocity of u-: the distance of
/// two outcomes relative to the relative motion before impact (for momentum-conserving outcomes
/// it equals ||gamma+_a - gamma+_b||_{G^-1} / ||gamma-||_{G^-1}). When nothing moves relative to
/// the centre of mass (all u- equal), no impact happens: 0 if ||u_a - u_b||_M <= 1e-12 ||u-||_M,
/// +infinity otherwise.
double relative_distance(const Eigen::VectorXd& masses, const Eigen::VectorXd& u_pre,
                         const Eigen::VectorXd& u_a, const Eigen::VectorXd& u_b);

/// Effective energetic restitution coefficient sqrt(T+_rel / T-_rel) [-], with
/// T_rel = ||u - u_cm||^2_M / 2 the kinetic energy in the centre-of-mass frame (u_cm from u-,
/// conserved). 1 for an elastic rigid outcome, < 1 when energy went into vibration. nullopt if
/// T-_rel = 0 (no relative motion).
std::optional<double> effective_restitution(const Eigen::VectorXd& masses, const Eigen::VectorXd& u_pre,
                                            const Eigen::VectorXd& u_post);

/// Brogliato, Zhang & Liu 2012 §7.1 used inversely (docs/physics.md §3): when rod 1 alone strikes
/// the others (every contact closed, gamma-_1 < 0, gamma-_k = 0 for k > 1; "only the first rod
/// moving" in the frame of the others), only the first column of E_n acts in the kinematic law
/// v_n+ = -E_n v_n-, v_n = D^-1 gamma, and reproducing u+ needs exactly
///   E_n[:, 0] = -(D^-1 gamma+) / (D^-1 gamma-)_1,   D = diag(sqrt(G_kk)).
/// For equal masses D is a multiple of I and this is gamma+ / |gamma-_1|
/// (Brogliato, Zhang & Liu 2012 eq. 57).
/// nullopt when u- is not of that form (the other columns of E_n would act too).
std::optional<Eigen::VectorXd> implied_restitution_column(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                                                          const Eigen::VectorXd& u_post);

/// The parameters of a law as compare and sweep apply it: `restitution` is a global eps for
/// newton and poisson, E_n = e I for kinematic, and not used by the (elastic) sequential law.
laws::LawParameters comparison_law_parameters(const std::string& law, const std::optional<double>& restitution);

// ---- The comparison -------------------------------------------------------------------------------

struct LawComparison {
    laws::LawParameters parameters;
    laws::LawResult result;
    double distance = 0;  ///< relative_distance(u+_law, u+_wave) [-]; +inf if undefined
};

struct Comparison {
    std::string title;
    Outcome wave;                    ///< the wave outcome (solve(), the case's method)
    ImpactMatrices matrices;         ///< the rigid model: M = diag(rho A L), W, G
    Eigen::VectorXd velocities_pre;  ///< u- [m/s] from the case
    bool has_gaps = false;           ///< the case has gaps, which the rigid laws ignore
    /// A chain of balls and masses alone: `wave` is the compliant outcome of its contacts (the ODE
    /// system of docs/physics.md §9.9), not waves in rods; its vibration energy is 0.
    bool rigid_bodies = false;
    std::optional<double> restitution;  ///< as requested (newton, poisson, kinematic)
    std::vector<LawComparison> laws;
    std::optional<std::size_t> closest;  ///< index in `laws` of the smallest finite distance

    // The wave outcome as an impact law.
    /// u+, Lambda, gamma+-, energies and the consistency flags of the wave outcome, the flags with
    /// slack wave_tolerance (make_law_result).
    laws::LawResult wave_as_law;
    double wave_tolerance = 0;       ///< the wave outcome's own accuracy (Outcome::accuracy)
    double rigid_energy_share = 1;   ///< final rigid / (final rigid + vibration) energy [-]
    std::optional<laws::PropertyReport> wave_map_properties;  ///< the touching rods' map, sampled
    /// Why the properties were not sampled; for a chain of balls and masses, how far their verdicts
    /// can be trusted (its samples are ODE solves). Empty otherwise.
    std::string wave_map_note;
    std::optional<laws::Cone> cone;  ///< three rods: the cone of gamma- (Winandy & Leine 2015 Fig. 4a)

    // The restitution the wave outcome implies.
    std::optional<double> effective_restitution;
    std::optional<Eigen::VectorXd> restitution_column;  ///< first column of E_n (see above)
};

/// Solves the chain with `solver` and compares the outcome with the laws.
/// @throws InvalidInput for options or a chain validate() or check_compare_chain() refuse (checked
///         before solving).
/// @throws what solve() throws.
Comparison compare(const std::string& title, const Chain& chain, const SolverOptions& solver,
                   const CompareOptions& options = {});

/// The same for a loaded case (its title, chain and [solver] options).
Comparison compare(const Case& c, const CompareOptions& options = {});

// ---- As `rodcollide compare` prints it (docs/compare.md; the JSON keys are public) ---------

/// {"wave": the run JSON (outcome_report.hpp), "laws": [the laws JSON of each law (laws/report.hpp) plus
/// "distance"], "title", "gaps_ignored_by_laws", "restitution", "closest_law", "cone",
/// "wave_as_law": {...}, "implied_restitution": {...}, "outcome_model": "waves" (rods) or
/// "compliant contacts" (balls and masses alone: "wave" holds their outcome)}. Non-finite numbers are null.
nlohmann::ordered_json comparison_json(const Comparison& c);

/// A readable multi-line report.
std::string comparison_table(const Comparison& c);

}  // namespace rodcollide
