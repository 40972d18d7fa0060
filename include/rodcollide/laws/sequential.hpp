// The Sequential Impact Law (Winandy & Leine 2015 §3): for three equal masses exactly the cone-wise
// linear map gamma+ = Q_i gamma- of eq. (23); for any chain, the generalisation of eq. (24):
// repeated two-ball elastic impacts at approaching contacts, in a selectable order (docs/physics.md §3).
#pragma once

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law_result.hpp"

#include <Eigen/Dense>

#include <string>
#include <string_view>
#include <vector>

namespace rodcollide::laws {

// ---- The three-equal-ball law of Winandy & Leine 2015 eq. (23) ---------------------------------

/// The six cones of Winandy & Leine 2015 Fig. 4 in the (gamma1-, gamma2-) plane.
enum class Cone { I, IIa, IIb, III, IVa, IVb };

/// All six, in the order of eq. (23).
inline constexpr Cone all_cones[] = {Cone::I, Cone::IIa, Cone::IIb, Cone::III, Cone::IVa, Cone::IVb};

/// "I", "IIa", "IIb", "III", "IVa" or "IVb".
std::string_view cone_name(Cone c);

/// Q_i of Winandy & Leine 2015 eq. (23) (dimensionless, gamma+ = Q_i gamma-).
Eigen::Matrix2d cone_matrix(Cone c);

/// Number of two-ball impacts Q_i stands for (eq. 24): I 0, IIa/IVa 1, IIb/IVb 2, III 3.
int cone_impacts(Cone c);

/// The cone holding gamma- [m/s]. A boundary ray belongs to the cone with fewer impacts, the
/// origin to I; this is exactly what the impact sequence does (a contact with gamma_k = 0 does
/// not approach), and by continuity (P1) the value of the law does not depend on it.
Cone cone_of(const Eigen::Vector2d& gamma_pre);

// ---- Any chain: repeated two-ball elastic impacts ------------------------------------------------

/// Which approaching contact (gamma_k < 0) is resolved next. Every order gives the same u+ for
/// equal masses (the velocities end sorted) and, for three equal masses, the value of eq. (23)
/// (identities 24); for unequal masses with several contacts approaching at once they may differ.
enum class ImpactOrder {
    left_to_right,  ///< "left-to-right": the leftmost approaching contact first
    right_to_left,  ///< "right-to-left": the rightmost approaching contact first
    most_negative,  ///< "most-negative": the fastest approaching (most negative gamma_k) first,
                    ///< ties to the left; mirror-symmetric up to ties, hence the default
};
inline constexpr ImpactOrder default_impact_order = ImpactOrder::most_negative;

/// The option spelling of an order ("left-to-right", ...).
std::string_view order_name(ImpactOrder order);
/// The inverse of order_name.
/// @throws InvalidInput (key "order") for anything else.
ImpactOrder parse_impact_order(std::string_view name);
/// All spellings, default first.
std::vector<std::string> impact_order_names();

/// Default cap on two-ball impacts. Termination is proved for equal masses (each impact swaps
/// one adjacent inverted pair: exactly inv(u-) <= n(n-1)/2 impacts) and for three balls of any
/// masses (the sequence alternates between the two contacts, a billiard in a wedge of angle
/// theta = pi - arccos(G12/sqrt(G11 G22)): at most ceil(pi/theta) impacts). For more balls with
/// unequal masses and an arbitrary order no bound is proved here, hence the cap.
inline constexpr long long default_max_impacts = 1'000'000;

struct SequentialOptions {
    ImpactOrder order = default_impact_order;
    long long max_impacts = default_max_impacts;  ///< > 0
};

/// The Sequential Impact Law. Three equal masses: eq. (23) with the cone and Q reported (the
/// order is recorded but cannot change the value). Otherwise: sequential_impacts().
LawResult sequential_law(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                         const SequentialOptions& options = {});

/// Two-ball elastic impacts at approaching contacts until none approaches (gamma_k >= -1e-13
/// v_ref counts as not approaching, v_ref the largest |u-| or |gamma-|), for any masses, even
/// three equal ones. If the cap is hit, the result holds the velocities reached so far and
/// sequential->cap_hit is true.
LawResult sequential_impacts(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                             const SequentialOptions& options = {});

}  // namespace rodcollide::laws
