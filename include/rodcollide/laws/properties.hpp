// Sampled checks of the structural properties of an impact map S: gamma- -> gamma+
// (Leine & Baumann 2014 Thm 1, Winandy & Leine 2015 §5): non-expansivity in the G^-1 metric,
// monotonicity of -Lambda in H(gamma_bar), cyclic monotonicity (eq. 18, the ABC cycle eqs 45-49),
// positive homogeneity and continuity.
#pragma once

#include "rodcollide/impact_matrices.hpp"

#include <Eigen/Dense>

#include <cstdint>
#include <functional>
#include <vector>

namespace rodcollide::laws {

/// A black-box impact map gamma- -> gamma+ [m/s -> m/s] for the n-1 contacts of a chain: any
/// law (law.hpp contact_map) or a wave solver's outcome. It must return n-1 finite entries.
/// The impulses follow from the impact equation: Lambda = G^-1 (gamma+ - gamma-).
using ContactMap = std::function<Eigen::VectorXd(const Eigen::VectorXd& gamma_pre)>;

/// Sample counts (fixed, so the work is bounded: see evaluation_bound) and verdict tolerances.
/// With the defaults one check_properties call evaluates the map at most 13,245 times.
struct PropertyOptions {
    int pairs = 2000;                ///< random pairs for non-expansivity and monotonicity
    int pair_refine_steps = 300;     ///< local search steps from the worst pair
    int cycle_points = 40;           ///< sample points: every 3-cycle among them is evaluated
    int cycle_refine_steps = 300;    ///< local search steps from the worst cycle
    int homogeneity_points = 100;    ///< points x checked with S(a x) = a S(x), a in {1e-3,.5,2,1e3}
    int continuity_segments = 40;    ///< random segments crossed looking for kinks and jumps
    int continuity_steps = 32;       ///< intervals per segment
    int continuity_max_boundaries = 100;  ///< located boundaries (bisections) at most
    double velocity_scale = 1;       ///< typical |gamma-| of the samples [m/s]
    bool approaching_only = false;   ///< sample only gamma- <= 0 (else all of R^(n-1))
    std::uint64_t seed = 1;          ///< the samples are reproducible
    double tolerance = 1e-9;         ///< relative slack for rounding in the verdicts
    double jump_tolerance = 1e-6;    ///< continuity: largest |S(b)-S(a)|/scale across a boundary
                                     ///< bracketed to 1e-9 of the segment length
    /// If set, the sampled points (pairs, cycles, homogeneity, the ends of continuity segments)
    /// are drawn inside it, redrawn up to 1000 times: the domain of a map defined on part of the
    /// space (an identified law's cones). Local searches and segments may still leave it.
    std::function<bool(const Eigen::VectorXd&)> domain;
};

/// The most map evaluations check_properties makes with these options.
long long evaluation_bound(const PropertyOptions& options);

/// ||x||_{G^-1} = sqrt(x^T G^-1 x) for contact velocities [m/s] -> [sqrt(kg) m/s] (twice the
/// energy of the relative motion is ||gamma||^2_{G^-1}, Winandy & Leine 2015 eq. 13-14).
double g_inverse_norm(const ImpactMatrices& im, const Eigen::VectorXd& gamma);

/// The left side of Winandy & Leine 2015 eq. (49) for the cycle gamma-_A, gamma-_B, ..., back to A:
/// sum_i Lambda_i^T (gamma_bar_{i+1} - gamma_bar_i) [J]. Cyclic monotonicity of H needs >= 0;
/// the ABC cycle of the sequential law gives -m v^2 / 2.
double cycle_value(const ContactMap& map, const ImpactMatrices& im,
                   const std::vector<Eigen::VectorXd>& gamma_pre_cycle);

struct NonExpansivity {
    bool holds = true;   ///< max_ratio <= 1 + tolerance
    double max_ratio = 0;  ///< largest ||S(a)-S(b)||_{G^-1} / ||a-b||_{G^-1} found
    Eigen::VectorXd gamma_a, gamma_b;  ///< the pair that reached it [m/s]
    long long pairs = 0;   ///< pairs evaluated
};

struct Monotonicity {
    bool holds = true;   ///< min_value >= -tolerance
    /// Smallest -(Lambda_a-Lambda_b)^T (gamma_bar_a-gamma_bar_b) / ||a-b||^2_{G^-1} found
    /// (dimensionless; by Leine & Baumann 2014 Thm 1 it equals (1 - ratio^2)/2 for the same pair).
    double min_value = 0;
    Eigen::VectorXd gamma_a, gamma_b;  ///< the pair that reached it [m/s]
};

struct CyclicMonotonicity {
    bool holds = true;          ///< no cycle with worst_relative < -tolerance found
    double worst_value = 0;     ///< smallest eq. (49) value found [J]
    double worst_relative = 0;  ///< the same / max_i ||gamma-_i||^2_{G^-1} (dimensionless)
    std::vector<Eigen::VectorXd> cycle;  ///< gamma- of the worst cycle, in order [m/s]
    long long cycles = 0;       ///< cycles evaluated
};

struct Homogeneity {
    bool holds = true;        ///< max_deviation <= tolerance
    double max_deviation = 0; ///< max |S(a x) - a S(x)| / (a (|x| + |S(x)|))
    Eigen::VectorXd gamma;    ///< the x that reached it [m/s]
    double factor = 1;        ///< and its a
};

struct Continuity {
    bool holds = true;        ///< max_jump <= jump_tolerance
    double max_jump = 0;      ///< largest |S(b) - S(a)| / velocity_scale across a located boundary
    Eigen::VectorXd gamma;    ///< where (the middle of the bracket) [m/s]
    int boundaries = 0;       ///< boundaries (kinks or jumps) located along the segments
};

struct PropertyReport {
    NonExpansivity non_expansive;
    Monotonicity monotone;
    CyclicMonotonicity cyclically_monotone;
    Homogeneity positively_homogeneous;
    Continuity continuous;
    long long evaluations = 0;  ///< calls of the map
};

/// Runs every check on the map.
/// @throws std::invalid_argument if the map returns the wrong size or a non-finite value.
/// @throws what the map itself throws (passed through).
PropertyReport check_properties(const ContactMap& map, const ImpactMatrices& im,
                                const PropertyOptions& options = {});

}  // namespace rodcollide::laws
