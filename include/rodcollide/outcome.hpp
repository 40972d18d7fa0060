// The outcome of a collision, produced identically by both solvers (docs/physics.md §2):
// post-impact velocities (momentum / mass once no contact can happen again), contact impulses
// (time integral of -N, so M(u+ - u-) = W Lambda) and intervals, and the energy split between
// rigid motion and vibration.
#pragma once

#include "rodcollide/chain_ends.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

/// Rounding within which both solvers conserve momentum and close the energy balance, relative to
/// their scales [-]. Every approximation they make (merged or dropped fronts, a coarse grid)
/// conserves both exactly (docs/physics.md §5.1, §5.2), so the outcome self-check holds them to
/// this whatever the velocities' error (Outcome::balance_accuracy).
inline constexpr double conservation_rounding = 1e-10;

struct RodOutcome {
    double mass = 0;              ///< [kg]
    double initial_velocity = 0;  ///< u^- [m/s]
    double final_velocity = 0;    ///< u^+ = momentum / mass at the end [m/s]
    double vibration_energy = 0;  ///< kinetic + strain energy about the mean motion [J]
};

/// A time interval [start, end] [s].
struct Interval {
    double start = 0;
    double end = 0;
};

/// A force history sampled at increasing times (time [s], force [N]).
struct ForceHistory {
    std::vector<double> time;
    std::vector<double> force;
};

struct ContactOutcome {
    std::size_t left_rod = 0;        ///< the contact joins rods left_rod and left_rod + 1
    double impulse = 0;              ///< Lambda = integral of -N dt [N s], >= 0
    std::vector<Interval> intervals; ///< times during which the contact carried compression [s]
    ForceHistory force_history;      ///< only when asked for (SolverOptions::force_samples)
};

/// One end of the chain (docs/physics.md §8): what it is and what passed through it.
struct EndOutcome {
    ChainSide side = ChainSide::left;
    EndKind kind = EndKind::free;
    double gap = 0;            ///< wall: its initial gap [m]
    bool loaded = false;       ///< a load acts on this (free) end
    double impulse = 0;        ///< momentum the end gave the chain [N s]
    double work = 0;           ///< work the end did on the chain [J] (a load: > 0 in; anechoic: < 0)
    std::vector<Interval> intervals;  ///< wall: times in compression [s]
    /// A load with sloped pieces, in the exact solver: largest difference between the steps it
    /// acted with and the linear history [N or m/s] (0 when exact).
    double load_step_error = 0;
    ForceHistory force_history;  ///< wall: only when asked for (SolverOptions::force_samples)
};

/// A contact closing (gap reaches 0 while the ends approach) or opening (it would carry tension).
struct ContactEvent {
    enum class Kind { closing, opening };
    std::size_t contact = 0;  ///< between rods contact and contact + 1
    double time = 0;          ///< [s]
    Kind kind = Kind::closing;
};

struct EnergyBalance {
    double initial = 0;          ///< sum m v^2/2 at t = 0 [J] (rods start unstrained)
    double final_rigid = 0;      ///< sum m u+^2/2 [J]
    double final_vibration = 0;  ///< sum of vibration energies [J]
    /// Energy removed by numerical approximation [J]: initial - (final_rigid + final_vibration)
    /// as accounted for by the solver (dropped fronts in the characteristics solver; scheme
    /// dissipation in finite differences). 0 means exact.
    double dropped = 0;
    double radiated = 0;  ///< energy that left through anechoic ends [J]
    double input = 0;     ///< work done on the chain by loads [J]
    /// Issue 23 (reported only for chains with compliant parts, Outcome::compliant): energy stored
    /// in compliant contacts, compliant walls and end springs at the end time [J] (0 once settled)
    /// and energy the dashpots (contact_damping, dashpot ends) dissipated [J].
    double contact = 0;
    double dissipated = 0;

    /// The balance supplied = accounted, checked on every outcome (outcome_check.hpp). Each energy
    /// term belongs to exactly one side here, and a new one is added in this one place.
    double supplied() const { return initial + input; }                                     ///< [J]
    double accounted() const {  ///< [J]
        return final_rigid + final_vibration + contact + dissipated + dropped + radiated;
    }
    /// What the balance's errors are relative to [J]: what came in, or what is left and what left,
    /// whichever is larger (the self-check and the finite-difference error estimate share it).
    double scale() const {
        return std::max(supplied(), final_rigid + final_vibration + contact + dissipated + std::abs(radiated));
    }
};

struct SolverStats {
    std::size_t events = 0;        ///< event groups (characteristics) or time steps (grid)
    std::size_t fronts = 0;        ///< fronts created (characteristics) or cells (grid)
    std::size_t dropped_fronts = 0;///< jumps below the drop tolerance that were not emitted
    std::size_t merged_fronts = 0; ///< fronts merged below the time resolution (characteristics)
    std::size_t peak_stored_fronts = 0;  ///< most fronts stored at once (characteristics; max_fronts caps it)
    std::size_t free_flights = 0;  ///< stretches of free flight skipped at once (free_flight.hpp)
    std::size_t sleeps = 0;        ///< times a rod fell asleep in free flight (docs/physics.md §6.7)
    /// Junction events an open contact processed ahead of the event loop, not counted in `events`
    /// nor bounded by max_events, which bounds the loop's groups: each group makes at most one
    /// transit's reflections ahead at each of its junctions (docs/physics.md §6.8).
    std::size_t reflected_ahead = 0;
    /// Event groups (characteristics) or time steps (grid) of the coarser run the error estimate
    /// compares with (0: none).
    std::size_t estimate_events = 0;
    /// Characteristics: event groups of an attempt abandoned before the runs above, not counted in
    /// `events`: a run to end_time first tracked without merging until its fronts outgrew what
    /// its work budget stores, then solved again merging beyond that (docs/physics.md §5.1).
    /// 0: none (the JSON then leaves the key out).
    std::size_t abandoned_events = 0;
    // Finite differences only (0 for characteristics):
    std::size_t steps = 0;         ///< time steps taken
    std::size_t cells = 0;         ///< cells in all rods
    std::size_t shortest_rod_cells = 0;  ///< cells in the rod or segment with the shortest transit time
    double time_step = 0;          ///< dt [s]
    double courant_min = 0;        ///< smallest c dt / h over the rods (1: exact)
    /// Finite differences: cells in the shortest rod of the coarser run the error estimate
    /// compares with, the error the run aimed at [m/s] (target x velocity scale) and whether the
    /// estimate met it (docs/finite_difference.md).
    std::size_t estimate_cells = 0;
    double velocity_error_target = 0;
    bool velocity_error_target_met = true;
};

/// What a solve reached against the accuracy asked for (SolverOptions::accuracy), and why it
/// stopped there (docs/physics.md §5.1, docs/finite_difference.md).
enum class AccuracyStatus {
    exact,                ///< nothing approximated, rounding checked: exact to rounding
    met,                  ///< the error estimate meets the target
    front_proliferation,  ///< characteristics: meeting it needs more fronts than max_memory holds
    chaotic,              ///< rounding alone (or a rerun that never settles) moves the outcome beyond it
    event_budget,         ///< refining stopped at max_events
    work_budget,          ///< finite differences: the grid that would meet it exceeds the work limit;
                          ///< characteristics: a run to end_time merged at the resolution its work budget allows;
                          ///< balls, masses and compliant junctions: the smallest step tolerance reached, or a
                          ///< finer run exceeded max_work
    resolution_set,       ///< time_resolution or cells set by hand, and the estimate misses it
    no_estimate,          ///< no estimate could be made (its second run stopped): see the warnings
};

/// "exact", "met", "front_proliferation", "chaotic", "event_budget", "work_budget",
/// "resolution_set", "no_estimate" (JSON "accuracy_report.status").
std::string to_string(AccuracyStatus s);

struct AccuracyReport {
    double target = 0;  ///< SolverOptions::accuracy, relative to the velocity scale [-]
    AccuracyStatus status = AccuracyStatus::exact;
    /// One line: what was reached and why the solver stopped there ("front proliferation: 3e-3 V
    /// reached; 1e-6 V would need about 4e9 fronts (160 GB, max_memory 256 MB)").
    std::string statement;
    /// Characteristics: the time resolution of the run reported (0: nothing merged) and, for
    /// front_proliferation, about how many stored fronts the target would need.
    double time_resolution = 0;
    double fronts_needed = 0;
    /// Characteristics without time_resolution set: the memory budget [bytes] and the process's
    /// peak resident memory [bytes] as measured when fronts had to be merged (0: not read).
    std::size_t memory_budget = 0;
    std::size_t peak_resident_memory = 0;
    /// Whether the outcome meets the target.
    bool met() const { return status == AccuracyStatus::exact || status == AccuracyStatus::met; }
};

struct Outcome {
    Method method = Method::characteristics;
    std::vector<RodOutcome> rods;
    std::vector<ContactOutcome> contacts;
    /// The chain's two ends, left then right; empty for a chain with free, unloaded ends (whose
    /// outputs stay as they were before ends existed).
    std::vector<EndOutcome> ends;
    EnergyBalance energy;
    /// The chain has issue 23's parts (Chain::compliant()): the outputs add energy.contact and
    /// energy.dissipated, which other chains' outputs leave out, as they were.
    bool compliant = false;
    double end_time = 0;     ///< time at which the outcome was evaluated [s]
    bool settled = false;    ///< proven that no contact can happen after end_time
    double last_contact_time = 0;  ///< last time any contact carried force [s]
    /// The solver's own estimate of its error: final velocities are within accuracy x the velocity
    /// scale (Chain::velocity_scale()) of the exact ones, and the outcome satisfies the impact
    /// equation and the consistency conditions to that relative slack [-]. Characteristics:
    /// rounding, or 100 x drop_tolerance if larger, or its error estimate velocity_error_bound /
    /// velocity scale if larger still; finite differences: its error estimate
    /// velocity_error_bound / velocity scale, at least rounding (conservation_rounding). Energies,
    /// quadratic in velocities, are held to accuracy x (2 + accuracy) by the outcome self-check.
    double accuracy = 0;
    /// Relative tolerance within which momentum is conserved and the energy balance closes [-]:
    /// conservation_rounding, or for the exact solver with absolute times (loads, walls, the
    /// whole field history kept) the larger rounding growth 16 eps t / T_min (docs/physics.md
    /// §6.6). The self-check holds momentum and the balance to it, not to `accuracy`: an estimate
    /// of the velocities' error says nothing about conservation (a velocity error of 2 m/s let
    /// 24% of the momentum go unnoticed, fuzz/regressions/long_horizon_momentum_70_rods.toml).
    double balance_accuracy = conservation_rounding;
    /// Error of the final velocities [m/s, absolute, every rod]: for the characteristics solver 0
    /// (a bound) when nothing was approximated, else an estimate from a second run at a coarser
    /// time resolution and drop tolerance (merged or dropped fronts, docs/physics.md §5.1); for
    /// finite differences an estimate from a coarser second grid (docs/finite_difference.md);
    /// +infinity when no bound or estimate could be made.
    double velocity_error_bound = 0;
    /// What velocity_error_bound is: a rigorous bound, or an estimate from a second run
    /// (error_estimate.hpp). JSON "velocity_error_kind": "bound" or "estimate".
    enum class ErrorKind { bound, estimate };
    ErrorKind velocity_error_kind = ErrorKind::bound;
    /// The accuracy asked for, what was reached and why the solver stopped (JSON "accuracy_report").
    AccuracyReport accuracy_report;
    SolverStats stats;
    std::vector<std::string> warnings;
    /// Contact closings and openings in the order the solver decided them (characteristics only;
    /// empty for finite differences). With touching rods, openings happen at front arrivals, whose
    /// times do not depend on the velocities: the list is the run's combinatorial signature, which
    /// keeps the outcome linear in u- while it is fixed (cone_identification.hpp). Not in any JSON.
    std::vector<ContactEvent> contact_events;

    Eigen::VectorXd initial_velocities() const;
    Eigen::VectorXd final_velocities() const;
    Eigen::VectorXd masses() const;
    Eigen::VectorXd impulses() const;
    /// Largest |M(u+ - u-) - W Lambda - (impulses of the chain's ends)| relative to the largest momentum change scale sum m|u-|:
    /// how well the impulses explain the velocity change (0 to rounding for an exact solver).
    double impact_equation_residual() const;
};

}  // namespace rodcollide
