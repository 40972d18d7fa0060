// The outcome of a rigid impact law for a chain (Winandy & Leine 2015 eqs 1-14,
// docs/physics.md §3): post-impact velocities, contact impulses, contact velocities, the energy
// ratio T+/T- and the kinematic, kinetic and energetic consistency flags, computed here once for every law.
#pragma once

#include "rodcollide/impact_matrices.hpp"

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <vector>

namespace rodcollide::laws {

/// Relative tolerance for rounding in the consistency flags: gamma+_k >= -tol*v_ref,
/// Lambda_k >= -tol*max(m)*v_ref and T+ <= T- + tol*max(T-, T+), where v_ref is the largest
/// |u-|, |u+| or |gamma-| entry. Anything beyond it is a real inconsistency and is flagged.
inline constexpr double consistency_tolerance = 1e-10;

/// The three consistency properties of Winandy & Leine 2015 eqs (9)-(11). Every contact of the
/// chain is closed (touching) at the impact, so kinematic consistency asks gamma+ >= 0 at all contacts.
struct Consistency {
    bool kinematic = true;  ///< gamma+ >= 0
    bool kinetic = true;    ///< Lambda >= 0
    bool energetic = true;  ///< T+ <= T-
};

/// What the sequential law adds to its result.
struct SequentialInfo {
    std::string order;           ///< the --order used (sequential.hpp)
    long long impacts = 0;       ///< two-ball impacts performed (or represented by the cone)
    long long max_impacts = 0;   ///< the cap on impacts
    bool cap_hit = false;        ///< true: the cap stopped the sequence; u+ is NOT the law's value
    /// sequential_impacts(): the contacts of the two-ball impacts, in order (its combinatorial
    /// signature: the law is linear in u- while it is fixed). Empty for the closed form of eq. (23).
    std::vector<Eigen::Index> sequence;
    std::optional<std::string> cone;  ///< three equal masses: I, IIa, IIb, III, IVa or IVb
    Eigen::Matrix2d cone_matrix = Eigen::Matrix2d::Zero();  ///< Q of Winandy & Leine 2015 eq. (23), if cone
};

/// Result of one law applied to (masses, u-). Inconsistent results are reported and flagged,
/// never refused.
struct LawResult {
    std::string law;                 ///< "sequential", "newton", "poisson" or "kinematic"
    Eigen::VectorXd masses;          ///< m_i [kg]
    Eigen::VectorXd velocities_pre;  ///< u- [m/s]
    Eigen::VectorXd velocities_post; ///< u+ [m/s]
    Eigen::VectorXd impulses;        ///< Lambda_k at contact k (between balls k, k+1) [N*s]
    Eigen::VectorXd gamma_pre;       ///< gamma- = W^T u- [m/s]
    Eigen::VectorXd gamma_post;      ///< gamma+ = W^T u+ [m/s]
    double energy_pre = 0;           ///< T- = u-^T M u- / 2 [J], in the frame u- is given in
    double energy_post = 0;          ///< T+ [J]
    /// T+/T- from the velocities (never from Brogliato, Zhang & Liu 2012 eq. 13, see
    /// docs/physics.md §4). When T- = 0 nothing moves: the ratio is 1 if T+ = 0 too, +infinity otherwise.
    double energy_ratio = 1;
    /// max_i |(M(u+ - u-) - W Lambda)_i| / (max(m) v_ref): how exactly the impact equation holds.
    double impact_equation_residual = 0;
    Consistency consistency;
    int lcp_pivots = 0;              ///< newton, poisson: pivots of the LCP solver(s)
    std::optional<SequentialInfo> sequential;
};

/// Builds the result from what a law computed (u+ and Lambda) and fills in gamma+-, energies,
/// the ratio, the residual and the flags. u_pre, u_post: n entries; impulses: n-1. `tolerance`
/// is the flags' relative slack (see consistency_tolerance); a coarser one suits an outcome known
/// only to a solver's accuracy (the comparison module's wave outcome).
LawResult make_law_result(std::string law, const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                          const Eigen::VectorXd& u_post, const Eigen::VectorXd& impulses,
                          double tolerance = consistency_tolerance);

/// u+ = u- + M^-1 W Lambda [m/s]: the impact equation solved for u+ (Winandy & Leine 2015 eq. 1).
Eigen::VectorXd velocities_after(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                                 const Eigen::VectorXd& impulses);

/// Lambda = G^-1 (gamma+ - gamma-) [N*s] (Winandy & Leine 2015 eq. 6).
Eigen::VectorXd impulses_from_contact_velocities(const ImpactMatrices& im,
                                                 const Eigen::VectorXd& gamma_pre,
                                                 const Eigen::VectorXd& gamma_post);

/// T+/T- with the convention above for T- = 0.
double energy_ratio(double energy_pre, double energy_post);

}  // namespace rodcollide::laws
