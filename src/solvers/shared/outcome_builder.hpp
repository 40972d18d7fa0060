// The one place an Outcome is assembled, for both solvers (docs/physics.md §2): each rod's velocity
// is its momentum / mass, the energy splits into rigid motion sum m u+^2/2 and vibration, each
// contact reports its impulse (integral of -N dt) and compression intervals from its
// ContactRecord, and an outcome taken before the chain provably settled says so.
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/end_flux.hpp"
#include "rodcollide/outcome.hpp"

#include <array>
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
    /// end_time in the contact records' own times, when their origin was moved
    /// (ContactRecord::move_time_origin) [s].
    std::optional<double> records_time;
    bool settled = false; ///< proven that no contact can happen after end_time
    /// Taken at the user's horizon (SolverOptions::end_time): every rod's state at that time, as
    /// asked; otherwise at the settling time, where a rod held at a fixed end reports its mean motion.
    bool at_horizon = false;
    std::vector<RodState> rods;
    /// Energy the solver's own approximations added, when it accounts for them exactly
    /// (characteristics: dropped fronts) [J]; then energy.dropped = -energy_created. Without it
    /// (finite differences) energy.dropped is the balance initial - final.
    std::optional<double> energy_created;
    /// Issue 23: energy stored in compliant junctions and end springs at end_time, and dissipated by
    /// dashpots up to it [J] (EnergyBalance::contact, dissipated).
    double contact_energy = 0;
    double dissipated = 0;
    double accuracy = 0;  ///< Outcome::accuracy [-]
    double balance_accuracy = conservation_rounding;  ///< Outcome::balance_accuracy [-]
    double velocity_error_bound = 0;  ///< Outcome::velocity_error_bound [m/s]
    SolverStats stats;
    std::vector<std::string> warnings;  ///< the solver's own; "not settled" is added after them
    EndReport left_end, right_end;      ///< used when the chain has ends to report (ChainEnds::any)
    /// Force histories: at most this many samples per contact and wall (0: none), from the
    /// records' recorded forces (decimate_forces()).
    std::size_t force_samples = 0;
    /// Issue 23: the force of an attached (spring/dashpot) end, left then right, as recorded steps
    /// (ContactRecord::recorded_forces()'s form); decimated like the contacts' when force_samples.
    std::array<ForceHistory, 2> attached_end_forces;
};

/// A recorded step history (ContactRecord::recorded_forces()) as at most `samples` >= 2 points
/// over [0, end]: the exact corners of the steps (two points per change) when they fit, else the
/// force at `samples` equally spaced times.
ForceHistory decimate_forces(const ForceHistory& steps, double end, std::size_t samples);

/// Rigid-body kinetic energy m v^2 / 2 [J] of mass m [kg] at velocity v [m/s].
inline double rigid_energy(double mass, double velocity) { return 0.5 * mass * velocity * velocity; }

/// The outcome of `chain` from a solver's report and its contacts.
Outcome build_outcome(const Chain& chain, const ContactHistory& contacts, SolverReport report);

}  // namespace rodcollide
