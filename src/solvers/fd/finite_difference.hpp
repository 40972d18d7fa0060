// Finite-difference solver (docs/physics.md §1-2, §5; docs/finite_difference.md): a staggered
// velocity-force grid per rod, leapfrog in time. Velocities sit at cell centres at whole steps
// t^n = n dt, forces at the cell faces (the rod ends included) at half steps t^(n+1/2):
//   N_k^(n+1/2) = N_k^(n-1/2) + kappa (v_k^n - v_(k-1)^n),       kappa = E A dt / h,
//   v_k^(n+1)   = v_k^n + dt / (rho A h) (N_(k+1)^(n+1/2) - N_k^(n+1/2)).
// With Courant number c dt / h = 1 in every rod, kappa = Z and the scheme is exactly the method of
// characteristics on its lattice (Bacon 1993): every sample equals the exact solution. A rod end
// is a face whose force comes from the junction rules of junction.hpp, applied to the invariants
// arriving at the face with the discrete impedance kappa (= Z at Courant 1); a gap that closes
// inside a step blends the open and closed responses by the fraction of the step each holds, so
// impulse and momentum stay exact. Derivations and measured accuracy: docs/finite_difference.md.
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/fd/lumped_node.hpp"
#include "solvers/shared/chain_end_state.hpp"
#include "solvers/shared/contact_record.hpp"
#include "rodcollide/field_samples.hpp"
#include "solvers/shared/free_rod_motion.hpp"
#include "solvers/shared/junction.hpp"
#include "rodcollide/outcome.hpp"
#include "solvers/shared/settling.hpp"
#include "rodcollide/solver_options.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

namespace rodcollide {

// ---- Resolution and limits ----------------------------------------------------------------------

/// The error the default run aims at when [solver] accuracy is not set [-]: it refines the grid
/// until its estimated final-velocity error is below this fraction of the velocity scale (or
/// accuracy, when set), within the work limit, or says that it did not (a warning and
/// stats.velocity_error_target_met = false). docs/finite_difference.md.
inline constexpr double finite_difference_accuracy = default_finite_difference_accuracy;

/// Relative accuracy of a run that is exact to rounding (Courant 1, every event on a grid time),
/// and the floor of every error estimate [-]: the grid's own rounding, which conserves momentum
/// and energy to the same conservation_rounding as the exact solver.
inline constexpr double finite_difference_rounding = conservation_rounding;

/// The grid's unit: the shortest transit time of an element (a rod, or a segment of one) [s].
/// "cells" below count cells in that element.
double shortest_element_transit_time(const Chain& chain);

/// Largest grid, all rods together: each cell holds about 32 bytes (v, N and the end histories).
inline constexpr std::size_t largest_total_cells = 50'000'000;
/// Largest work, cells x steps. Steps grow with the resolution too, so work grows as cells^2.
inline constexpr double largest_cell_updates = 1e10;

/// Where the grid samples the chain: each element (Chain::elements(): a rod, or each segment of
/// one) is a uniform grid of its own.
struct GridLayout {
    double time_step = 0;                ///< dt, the same in every element [s]
    std::size_t shortest_rod_cells = 0;  ///< cells in the element with the shortest transit time
    std::vector<std::size_t> cells;      ///< cells per element
    std::vector<double> courant;         ///< c dt / h per element, in (0, 1]
    /// Q > 0 when the transit times are commensurate, T_i / T_min = p_i / Q: the shortest
    /// element's cells are then a multiple of Q and every element runs at Courant 1. 0 otherwise.
    std::size_t common_denominator = 0;

    std::size_t total_cells() const;
    /// Work of one step in cell-updates: the cells plus rod_step_cost per rod (junctions and the
    /// end histories the settling proof reads cost about that much per rod and step).
    double step_cost() const;
    double courant_min() const;
    /// Courant 1 in every element: the scheme is the exact method of characteristics.
    bool exact() const { return common_denominator != 0; }
};

/// The grid for `cells` in the element with the shortest transit time T_min (0: default_cells).
/// Commensurate transit times with common denominator Q <= cells round cells up to a multiple of
/// Q (less than double), so that every element runs at Courant 1. Otherwise dt = T_min / cells and
/// element i gets floor(T_i / dt) cells (Courant <= 1). Throws InvalidResolution beyond
/// largest_total_cells.
GridLayout choose_grid(const Chain& chain, std::size_t cells);

/// A gap closing this close to a grid time (fraction of dt) counts as on the grid: rounding of
/// the gap arithmetic is far below it, and the impulse it would misplace is 1e-9 of one step's.
inline constexpr double off_grid_tolerance = 1e-9;

/// Per-rod work of one step, in cell-updates (measured: ~45 ns per rod and step against
/// ~0.5 ns per cell-update, so chains of many short-celled rods are charged for it).
inline constexpr double rod_step_cost = 64;

/// Cell-updates (step_cost per step) needed to advance `grid` over `duration` [s].
double cell_updates(const GridLayout& grid, double duration);

// ---- Grid state ---------------------------------------------------------------------------------

/// The state of one simulation on a grid (the Chain, the model, stays apart and unchanged): face
/// forces, cell velocities, the contacts' records, and the invariants each element end emitted
/// over the last transit time (what will arrive at the other end: the settling windows).
class StaggeredGrid {
public:
    StaggeredGrid(const Chain& chain, GridLayout layout);
    ~StaggeredGrid();
    StaggeredGrid(const StaggeredGrid&) = delete;
    StaggeredGrid& operator=(const StaggeredGrid&) = delete;

    /// Evaluates every junction at t^(n+1/2) from the state at t^n (loads over their share of the
    /// step) and records what passes through the chain's ends from t^n on; the cells are left
    /// unchanged, and calling it again before finish_step() changes nothing. Returns whether
    /// anything acts during the step that voids a settling bound: a contact or wall carrying force,
    /// or a load.
    bool prepare_step();
    /// Whether an anechoic end carries force during the prepared step, beyond the contact rule's
    /// rounding band (energy leaves).
    bool radiating() const { return radiating_; }
    /// Applies the prepared junctions and advances the interior to t^(n+1).
    void finish_step();
    /// Keep every contact's and wall's force, step by step, for Outcome force histories.
    void record_forces();
    void step() {
        prepare_step();
        finish_step();
    }

    const Chain& chain() const { return chain_; }
    const GridLayout& layout() const { return layout_; }
    std::size_t steps() const { return steps_; }
    double time() const { return static_cast<double>(steps_) * layout_.time_step; }  ///< t^n [s]

    /// Cell-centre velocities of element e at t^n [m/s] (Chain::elements(): a rod, or a segment).
    std::span<const double> velocity(std::size_t e) const;
    /// Face forces of element e at t^(n-1/2), faces 0 (left end) to cells (right end) [N].
    std::span<const double> force(std::size_t e) const;
    /// Momentum of element e at t^n - lag, 0 <= lag <= dt [N s]: cell mass times the sum of cell
    /// velocities, less what the last step's end forces gave it over its last `lag`.
    double momentum(std::size_t e, double lag = 0) const;
    /// The invariants element e's ends emitted over the transit time up to t^n - lag (0 <= lag <=
    /// dt), oldest first: what the element holds, and what will arrive at its other ends if it moves
    /// freely. Exact at Courant 1; at Courant < 1 the grid's own transport differs by its dispersion.
    ArrivalWindow alpha_emitted(std::size_t e, double lag = 0) const;  ///< at its left end, arriving at its right end
    ArrivalWindow beta_emitted(std::size_t e, double lag = 0) const;   ///< at its right end, arriving at its left end
    /// What element e's left (right) end emitted over the last step [m/s].
    double newest_alpha_emitted(std::size_t e) const;
    double newest_beta_emitted(std::size_t e) const;
    /// A rod's momentum and its elements' windows at t^n - lag (free_rod_motion.hpp).
    RodWindows rod_windows(std::size_t rod, double lag = 0) const;
    /// The rod's mean velocity and its ends' free motion from t^n (free_rod_motion.hpp).
    FreeRodMotion free_motion(std::size_t rod) const;
    /// With nothing carrying force during the step from t^n (prepare_step() false): the earliest
    /// time from which no contact or wall can close again and nothing more arrives at or leaves an
    /// anechoic end (settling.hpp, the exact solver's rule); +inf while a load is still to act.
    /// With `watch_period`, on an exact grid (Courant 1 everywhere, so that every free rod repeats
    /// its motion exactly), also one common period watched (docs/physics.md §6.9).
    double release_time(bool watch_period) const;
    /// What passed through one end of the chain up to t >= the last step's start.
    EndReport end_report(ChainSide side, double t) const;
    /// Gap, impulse, compression intervals and events of every contact, up to t^n.
    const ContactHistory& contacts() const { return contacts_; }
    const std::vector<ContactEvent>& contact_events() const { return contacts_.events(); }
    /// Gap closings that fell inside a step rather than on a grid time (within off_grid_tolerance
    /// x dt). With none, a grid at Courant 1 is the exact method of characteristics.
    std::size_t off_grid_closings() const { return off_grid_closings_; }
    /// Steps inside which a load changes value, starts or ends (its steps are not on grid times).
    std::size_t off_grid_load_steps() const { return off_grid_load_steps_; }
    /// Issue 23: energy stored in the compliant junctions (contacts, walls, end springs) at t^n [J],
    /// and energy their dashpots dissipated up to t^n [J].
    double contact_energy() const;
    double dissipated() const { return dissipated_ + dissipated_carry_; }
    /// Whether the chain has compliant junctions (the grid is then no method of characteristics:
    /// the junction ODE couples to the rods over each step, docs/physics.md §9.4).
    bool has_compliant_junctions() const { return compliant_count_ > 0 || !lumped_.empty(); }
    /// The force of an attached (spring/dashpot) end, step by step, once record_forces() was called.
    const ForceHistory& attached_end_forces(ChainSide side) const { return attached_forces_[side == ChainSide::left ? 0 : 1]; }
    /// A rigid mass's velocity at t^n [m/s] (rod `rod` of the chain, Rod::is_mass()).
    double mass_velocity(std::size_t rod) const;

private:
    /// release_time()'s watch of one common period (settling.hpp): +inf where it does not apply.
    double watched_release_time(const std::vector<FreeRodMotion>& rods, const WallGaps& walls) const;
    struct ElementCells;
    struct Prepared {
        JunctionResponse response;
        double closing = -1;  // offset in [0, dt] of a gap closing inside the step, else < 0
        bool in_contact = false;
        double gap_after = 0;
        bool load_inside = false;  // a load changes inside the step
        double overlap_after = 0;  // compliant junction: its δ at t^(n+1)
        double dissipated = 0;     // compliant junction: dashpot work and hysteresis loss over the step [J]
        ContactMemory memory_after;  // compliant junction: its memory at t^(n+1) (restitution, §9.7)
        std::optional<LumpedNode::Step> lumped;  // masses at the junction: their step
    };
    Prepared contact_response(JunctionKind kind, const ContactRecord& contact, const JunctionArrivals& in) const;
    /// A compliant junction (issue 23): its ODE over the step with the arriving invariants held.
    Prepared compliant_response(std::size_t j, const JunctionArrivals& in) const;

    Chain chain_;
    GridLayout layout_;
    ContactTolerances tolerances_;
    std::vector<ElementCells> cells_;  // per element
    ContactHistory contacts_;
    ChainEndState ends_;
    std::vector<Prepared> prepared_;  // per junction
    bool is_prepared_ = false;
    bool radiating_ = false;
    std::size_t steps_ = 0;
    std::size_t off_grid_closings_ = 0;
    std::size_t off_grid_load_steps_ = 0;
    // Issue 23: per junction, whether its law is compliant and its overlap δ [m] (contact_law.hpp).
    std::vector<char> compliant_;
    std::vector<double> overlap_;
    std::vector<ContactMemory> memory_;  // issue 24: per compliant junction, δ_m of restitution (§9.7)
    std::size_t compliant_count_ = 0;
    std::vector<LumpedNode> lumped_;          // the junctions with rigid masses (issue 23)
    std::vector<std::ptrdiff_t> lumped_at_;   // per junction: its node in lumped_, or -1
    bool recording_ = false;
    std::array<ForceHistory, 2> attached_forces_;  // left, right (attached ends only)
    /// Records an attached end's force over the step from t (when recording).
    void record_attached(std::size_t j, double force, double t);
    double dissipated_ = 0, dissipated_carry_ = 0;  // Neumaier sum of the dashpots' work [J]
};

// ---- Solver -------------------------------------------------------------------------------------

struct FiniteDifferenceSolution {
    Outcome outcome;
    GridLayout grid;
    std::vector<ContactEvent> contact_events;
    /// StaggeredGrid::off_grid_closings() and off_grid_load_steps() of the run.
    std::size_t off_grid_closings = 0;
    std::size_t off_grid_load_steps = 0;
    /// Velocity and force over [0, end of the run], when asked for: every stride-th step (the
    /// stride doubles whenever the rows would exceed FieldResolution::times) at evenly spread
    /// cell centres; the force at a cell centre is the mean of its faces' forces half a step
    /// earlier. Exact inside regions at Courant 1; fronts are smeared over a cell.
    std::optional<FieldSamples> field;
    /// The wave field of the rods asked for (gauges), rebuilt from what their elements' ends
    /// emitted, valid up to the end of the run (grid_wave_field.hpp, docs/finite_difference.md).
    std::optional<WaveField> wave_field;

    /// Courant 1 in every element and every event (gap closing, load step) on a grid time: the
    /// run is the method of characteristics on its lattice, exact to rounding.
    bool exact() const { return grid.exact() && off_grid_closings == 0 && off_grid_load_steps == 0 && !compliant; }
    /// The chain has compliant junctions (issue 23): never exact.
    bool compliant = false;
};

/// Why finite differences cannot run `chain` with `options` (issue 23: a chain of masses only, an
/// attached end without end_time), or "" when they can.
std::string finite_difference_refusal(const Chain& chain, const SolverOptions& options);

/// The grid a solve starts from: options.cells, refused (InvalidResolution) if over a limit; or
/// the default grid, coarsened to fit the limits with a warning.
GridLayout starting_grid(const Chain& chain, const SolverOptions& options, std::vector<std::string>& warnings);

/// One run on `grid` with no error estimate (the building block of solve_finite_difference):
/// Outcome::velocity_error_bound and accuracy are left for the caller. `warnings` go into the
/// outcome. Throws SolverLimitExceeded when the run reaches largest_cell_updates, or when it has
/// not settled by `settle_by` [s] (without a horizon: the coarser runs of an estimate give up there).
FiniteDifferenceSolution solve_on_grid(const Chain& chain, const SolverOptions& options, const GridLayout& grid,
                                       std::optional<FieldResolution> field, std::vector<std::string> warnings,
                                       const std::vector<std::size_t>& field_rods = {},
                                       double settle_by = std::numeric_limits<double>::infinity());

/// Cell-updates a finished run took (steps x step cost).
double work_done(const FiniteDifferenceSolution& s);

/// Solves the collision on a grid, four times or more, and estimates its own error
/// (solve_finite_difference.cpp, docs/finite_difference.md): three coarser runs on about N/2,
/// N/2^(5/4) and N/2^(3/2) cells (prime numbers of cells) give the estimate run_sequence_estimate()
/// (error_estimate.hpp: the largest order-1 convergence index of the successive pairs, carried to N
/// at order 1, safety factor 2.5; at least rounding), reported as Outcome::velocity_error_bound
/// and, over the velocity scale, as accuracy; +infinity, with a warning, when there are too few
/// cells, when a coarser run does not settle by twice the fine run's settling time, or when the
/// runs agree to rounding though no grid is exact (phase-locked). With the default resolution the grid is
/// refined by sqrt(2) while the estimate exceeds finite_difference_accuracy x the velocity scale and
/// the target is reachable within the work limit. Each run
/// goes until no contact can provably happen again (the same rule as the exact solver,
/// settling.hpp), or to options.end_time; at least until options.record_until.
/// Throws InvalidResolution when options.cells asks for more than largest_total_cells cells or
/// the run would exceed largest_cell_updates (the default resolution is reduced to fit instead),
/// std::invalid_argument for a bad FieldResolution, and SolverLimitExceeded when the first run
/// reaches largest_cell_updates without settling.
/// `field_rods`: rods whose wave field to keep (FiniteDifferenceSolution::wave_field, for gauges).
FiniteDifferenceSolution solve_finite_difference(const Chain& chain, const SolverOptions& options,
                                                 std::optional<FieldResolution> field = std::nullopt,
                                                 const std::vector<std::size_t>& field_rods = {});

}  // namespace rodcollide
