// Exact solver: front tracking with the method of characteristics (docs/physics.md §1-2, §5;
// Winandy & Leine 2015 §4). Piecewise-constant data stay piecewise constant, so the solution is
// exact to rounding: velocities, impulses and energies are sums of exact products.
//
// Tolerances (all relative to the problem's own scales):
//  * time: arrivals within 1e-10 of the shortest transit time (+ 1e-14 |t| for rounding of large
//    times) are one event group and are resolved together, so fronts reaching a contact from both
//    sides at the same instant act together (Winandy & Leine 2015 Fig. 6b, points B and C);
//  * contact: touching ends separate only when their free separation velocity exceeds 1e-10 of
//    the velocity scale V = max u- - min u- (rounding must not split a contact interval);
//  * fronts: a jump below drop_tolerance * V at a contact is not emitted, and where an element's
//    fronts crowd closer than time_resolution * T_min the newest short piece is merged into the one
//    before it; the energy this adds or removes is integrated exactly and reported as
//    energy.dropped, and the velocity error is estimated from a second, coarser run.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"
#include "solvers/shared/wave_field.hpp"

#include <string>
#include <vector>

namespace rodcollide {

struct CharacteristicsSolution {
    Outcome outcome;
    WaveField field;                        ///< valid on [0, field.valid_until()]
    std::vector<ContactEvent> contact_events;
};

/// A run stopped at max_fronts (the front tracker's SolverLimitExceeded for its memory cap): the
/// solve without time_resolution words its own message, naming max_memory.
class FrontLimitExceeded : public SolverLimitExceeded {
public:
    FrontLimitExceeded(const std::string& what, double time, std::size_t events)
        : SolverLimitExceeded(what), time(time), events(events) {}
    double time = 0;         ///< [s] when the cap was reached
    std::size_t events = 0;  ///< event groups processed until then (SolverStats::abandoned_events)
};

/// Relative accuracy of the exact solver's velocities when no front is dropped [-]: rounding, the
/// 1e-10 of the velocity scale that the contact rule also allows (settling.hpp).
inline constexpr double characteristics_rounding = conservation_rounding;

/// Outcome::accuracy of a solve with these options [-]: characteristics_rounding, or
/// 100 x drop_tolerance when dropped fronts dominate.
double characteristics_accuracy(const SolverOptions& options);

/// One run of the front tracker (the building block of solve_characteristics): runs until no
/// contact can provably happen again, or to options.end_time, and records the field at least
/// until options.record_until and options.record_after_settling past settling.
/// Outcome::velocity_error_bound is 0 if nothing was approximated, else +infinity (for the caller
/// to estimate). Throws SolverLimitExceeded when options.max_events or options.max_fronts is reached.
CharacteristicsSolution track_fronts(const Chain& chain, const SolverOptions& options);

/// Solves the collision (track_fronts), exactly unless fronts were merged below
/// options.time_resolution or dropped below options.drop_tolerance; then the error of the final
/// velocities is estimated from a second run at a coarser resolution (solve_characteristics.cpp,
/// docs/physics.md §5.1) and reported as Outcome::velocity_error_bound (kind "estimate") and,
/// over the velocity scale, in Outcome::accuracy. Throws SolverLimitExceeded when the first run
/// reaches a cap; a second run that does so leaves the estimate at +infinity, with a warning.
CharacteristicsSolution solve_characteristics(const Chain& chain, const SolverOptions& options);

}  // namespace rodcollide
