// The one place an Outcome is assembled, for both solvers (docs/physics.md §2): each rod's velocity
// is its momentum / mass, the energy splits into rigid motion sum m u+^2/2 and vibration, each
// contact reports its impulse (integral of -N dt) and compression intervals from its
// ContactRecord, and an outcome taken before the chain provably settled says so.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/contact_record.hpp"
#include "rodcollide/outcome.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

/// What a solver knows about one rod when the outcome is taken (summed over its elements).
struct RodState {
    double momentum = 0;          ///< [N s]
    double vibration_energy = 0;  ///< kinetic + strain energy about the rod's mean motion [J]
};

/// Everything besides the contact records that a solver hands build_outcome().
struct SolverReport {
    Method method = Method::characteristics;
    double end_time = 0;  ///< when the outcome is taken [s]; the contact records are read there
    bool settled = false; ///< proven that no contact can happen after end_time
    std::vector<RodState> rods;
    /// Energy the solver's own approximations added, when it accounts for them exactly
    /// (characteristics: dropped fronts) [J]; then energy.dropped = -energy_created. Without it
    /// (finite differences) energy.dropped is the balance initial - final.
    std::optional<double> energy_created;
    double accuracy = 0;  ///< Outcome::accuracy [-]
    SolverStats stats;
    std::vector<std::string> warnings;  ///< the solver's own; "not settled" is added after them
};

/// Rigid-body kinetic energy m v^2 / 2 [J] of mass m [kg] at velocity v [m/s].
inline double rigid_energy(double mass, double velocity) { return 0.5 * mass * velocity * velocity; }

/// The outcome of `chain` from a solver's report and its contacts.
Outcome build_outcome(const Chain& chain, const ContactHistory& contacts, SolverReport report);

}  // namespace rodcollide
