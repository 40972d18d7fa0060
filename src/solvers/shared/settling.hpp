// Proof that no contact can happen again (docs/physics.md §2), shared by both solvers.
// Once every contact is open, each rod is free-free and its motion is its rigid motion plus a
// vibration of period 2T (T = L/c): an alpha arriving at the right end returns as beta at the
// left end T later, and vice versa. So the end velocities over the next period are known from the
// invariants that will arrive during the next transit time, and the excursion of each end about
// the rigid motion is bounded exactly by the extremes of their running integral. A gap g between
// rods L and R then obeys g(t) >= g0 + dv (t - t0) - D for all t >= t0, where dv is the
// difference of mean velocities and D the right end's largest advance of rod L plus the left
// end's largest retreat of rod R. If dv >= 0, no contact is possible once the bound is >= 0.
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/shared/arrival_window.hpp"
#include "solvers/shared/time_shift.hpp"

#include <limits>
#include <optional>
#include <vector>

namespace rodcollide {

/// Largest excursions of a free-free rod's ends about its rigid motion, for all future time [m].
struct EndExcursions {
    double right_advance = 0;  ///< max over t of (x_right(t) - x_right(t0)) - v_mean (t - t0), >= 0
    double left_retreat = 0;   ///< max over t of -[(x_left(t) - x_left(t0)) - v_mean (t - t0)], >= 0
};

/// Excursions of a free-free rod from the alpha arriving at its right end and the beta arriving
/// at its left end over the next transit time, and its mean velocity [m/s].
EndExcursions free_rod_end_excursions(const ArrivalWindow& alpha_at_right,
                                      const ArrivalWindow& beta_at_left, double mean_velocity);

/// Earliest time >= t0 [s] from which an open contact provably never closes again, given its gap
/// g0 [m] at t0, the mean separation velocity dv = v_mean(right rod) - v_mean(left rod) [m/s] and
/// the combined end excursion D [m]. +infinity when it cannot be proven (dv <= 0 and g0 < D).
/// `gap_tolerance` [m] and `velocity_tolerance` [m/s] absorb rounding.
double contact_release_time(double t0, double g0, double dv, double excursion,
                            double gap_tolerance, double velocity_tolerance);

/// Tolerances of the contact and settling rules, shared by both solvers so that they apply the
/// same rule. Relative to the chain's own scales: V = velocity_scale(), T = longest transit time.
struct ContactTolerances {
    /// Touching ends separate only when their free separation velocity exceeds this (1e-10 V)
    /// [m/s]: rounding must not split a contact interval. Also the settling velocity tolerance.
    double velocity = 0;
    /// Gap shortfall absorbed as rounding when proving settling (1e-10 V T) [m].
    double gap = 0;
};

ContactTolerances contact_tolerances(const Chain& chain);

/// The free motion of one rod from t0 on, as the settling rule needs it.
struct FreeRodMotion {
    double mean_velocity = 0;      ///< momentum / mass [m/s]
    ArrivalWindow alpha_at_right;  ///< alpha arriving at the right end over [t0, t0 + T]
    ArrivalWindow beta_at_left;    ///< beta arriving at the left end over [t0, t0 + T]
    /// For a rod that is not uniform and free-free (segments, a fixed or anechoic end): its
    /// excursions about the motion at mean_velocity, bounded otherwise (rod_motion_bound());
    /// used instead of the windows when set. +inf: nothing can be proven yet.
    std::optional<EndExcursions> excursions;
    /// A rod with an anechoic end: until when energy may still leave through it [s] (nothing is
    /// settled before: the outcome is taken once nothing more can arrive or leave).
    double active_until = 0;
};

/// Walls at the chain's ends, by their gap at t0 [m] (absent: no wall).
struct WallGaps {
    std::optional<double> left, right;
};

/// Excursion bound from energy, for a rod of length L [m] whose smallest axial stiffness is EA
/// [N] and whose vibration energy about its mean motion (a held rod: its whole energy) is E [J]:
/// the strain energy is at most E, so any two points of the rod differ in displacement by at
/// most sqrt(2 L E / EA) (Cauchy-Schwarz on the integral of the strain); an end's excursion
/// about the mean motion from now on is at most twice that [m].
double energy_excursion_bound(double length, double energy, double smallest_axial_stiffness);

/// The shortest common period of motions with the given periods [s] (each > 0), if one is at most
/// `max_multiple` times the longest; nullopt otherwise (incommensurate, or no periods at all). A
/// ratio within 1e-12 of a whole number counts as whole: over one common period such a mismatch
/// shifts an end by less than 1e-12 of its velocity deviation times the period, far below the
/// settling rule's velocity tolerance of 1e-10 V (docs/physics.md §6.9).
std::optional<double> common_period(const std::vector<double>& periods, int max_multiple = 16);

/// The period [s] of rod `rod`'s free motion with every contact open (docs/physics.md §6.9): 2T for
/// a uniform rod, 4T held at a fixed chain end (the end reflects inverted); none for a rigid body,
/// a rod of segments (they reflect inside) or a rod at an anechoic end.
std::optional<double> free_motion_period(const Chain& chain, std::size_t rod);

/// docs/physics.md §6.9: with every contact open at t0, the rods' free motions of the given
/// periods [s] and each contact's separation velocity (mean velocity of the right side minus the
/// left's, a wall's 0) [m/s], t0 + the common period if there is one and no separation velocity is
/// below -velocity_tolerance; +infinity otherwise. It holds only if no contact closes before it:
/// the solver watches, and a closing voids it (SettlingWatch, or an event count).
double watched_release_time(double t0, const std::vector<double>& periods, const std::vector<double>& separations,
                            double velocity_tolerance);

/// With no contact carrying force at t0: the earliest time >= t0 from which no contact of the
/// chain can happen again (+infinity if that cannot be proven yet). gaps[k] is the gap of the
/// contact between rods k and k+1 at t0 [m] (0 when touching).
double chain_release_time(double t0, const std::vector<FreeRodMotion>& rods,
                          const std::vector<double>& gaps, const ContactTolerances& tolerances);
/// Same, with rigid walls at the chain's ends (an immobile side of zero excursion).
double chain_release_time(double t0, const std::vector<FreeRodMotion>& rods, const std::vector<double>& gaps,
                          const WallGaps& walls, const ContactTolerances& tolerances);

/// The one element of a rod, for the bound above, which is derived for uniform free-free rods
/// (a rod of several elements reflects inside; it needs a bound of its own). Throws
/// std::logic_error for a rod of several elements.
std::size_t sole_element(const Chain& chain, std::size_t rod);

/// When to apply chain_release_time(), the same way in both solvers. While a contact carries force
/// nothing can be proven. Once none does, the rods move freely and their free motion stays fixed
/// until a contact carries force again, so one bound, taken at the start of such a force-free
/// epoch, holds for the whole epoch.
class SettlingWatch {
public:
    /// A contact carries force: the bound is void; a new epoch starts when all are free again.
    void force_carried() {
        settle_time_ = std::numeric_limits<double>::infinity();
        checked_ = false;
    }
    /// No contact carries force now: the first call of an epoch takes the bound from `bound()`.
    template <class Bound>
    void force_free(Bound&& bound) {
        if (checked_) return;
        settle_time_ = bound();
        checked_ = true;
    }
    /// Earliest time from which no contact can happen [s]; +infinity while not proven.
    double settle_time() const { return settle_time_; }
    /// Makes settle_time() relative to a new time origin (time_shift.hpp).
    void shift_times(const TimeShift& shift) { settle_time_ = shift(settle_time_); }

private:
    double settle_time_ = std::numeric_limits<double>::infinity();
    bool checked_ = false;
};

}  // namespace rodcollide
