// One entry point for every rigid impact law of this directory (sequential, newton, poisson,
// kinematic; docs/physics.md §3): choose a law by name with its parameters, apply it to (masses,
// u-), or turn it into a black-box map gamma- -> gamma+ for properties.hpp.
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law_result.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/laws/sequential.hpp"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace rodcollide::laws {

/// A law and its parameters, as the `laws` command takes them.
struct LawParameters {
    std::string law = "newton";  ///< one of law_names()
    /// Restitution (dimensionless). Empty: the default, 1 (elastic) for newton and poisson,
    /// E_n = I for kinematic. One entry: a global eps. n-1 entries: one per contact (newton,
    /// poisson: each in [0, 1]; kinematic: E_n = diag(entries), any finite value).
    Eigen::VectorXd restitution;
    /// kinematic only: the full (n-1) x (n-1) matrix E_n (then restitution must be empty).
    Eigen::MatrixXd restitution_matrix;
    /// sequential only.
    SequentialOptions sequential;
};

/// "sequential", "newton", "poisson", "kinematic". Besides these, "identified:FILE" names a law
/// identified from waves (laws/identified.hpp, written by `rodcollide sweep --export-law FILE`).
const std::vector<std::string>& law_names();

/// Most bodies a law is applied to by `rodcollide laws` and from Python: the laws use dense
/// n x n matrices (M, G), so n bounds their work and memory.
inline constexpr Eigen::Index max_law_balls = 1000;

/// The one check of the bodies a law is applied to: at most max_law_balls, then
/// validate_masses() and validate_velocities() (impact_matrices.hpp).
/// @throws InvalidInput with key "masses" or "velocities".
void validate_balls(const Eigen::VectorXd& masses, const Eigen::VectorXd& velocities);

/// Checks the parameters for a chain of `balls` bodies.
/// @throws InvalidInput (errors.hpp) naming the parameter as its key(): "law", "restitution",
///         "restitution_matrix", "max_impacts".
void validate_law_parameters(const LawParameters& p, Eigen::Index balls);

/// Applies the law to pre-impact velocities u- [m/s].
/// @pre validate_balls(im.masses, u_pre) passes (one finite velocity per mass; not checked here).
/// @throws InvalidInput for parameters validate_law_parameters() refuses (checked first).
LawResult apply_law(const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u_pre);

/// The identified law of p.law = "identified:FILE" applied to u- (apply_law() calls it). Throws
/// InvalidInput ("law": the file, "masses": not the file's chain, "velocities": gamma- in no cone).
LawResult identified_law_result(const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u_pre);

/// A velocity vector with these contact velocities: u_1 = 0, u_{k+1} = u_k + gamma_k [m/s].
/// Every law here depends on gamma- only (Galilean invariance), so this lift is enough.
Eigen::VectorXd velocities_with_contact_velocities(const Eigen::VectorXd& gamma);

/// The law as a map gamma- -> gamma+ for check_properties (validated once, here). For the
/// sequential law the map throws std::runtime_error if the impact cap is hit.
ContactMap contact_map(const LawParameters& p, const ImpactMatrices& im);

}  // namespace rodcollide::laws
