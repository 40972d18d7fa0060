// A chain with no rod (issues 23/24; docs/physics.md §9.9): rigid bodies (kind = "mass", and balls,
// whose Rod::is_mass() is true) joined by compliant contacts, with free, compliant-wall, spring,
// dashpot or spring-dashpot ends. It is an ODE system, which both solvers integrate their own way
// (the exact solver with error control and events, finite differences by velocity Verlet); what they
// share is here: the links and their laws (contact_law.hpp is the force law), the settling rule,
// and the assembly of the Outcome.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace rodcollide {

/// Whether `chain` is a chain of rigid bodies only (no rod: no element to carry waves).
bool rigid_bodies_only(const Chain& chain);

/// What joins body k - 1 to body k: link 0 is the left end, link n the right end (n bodies).
struct BodyLink {
    enum class Kind {
        free,      ///< a free end: nothing acts
        contact,   ///< unilateral compliant contact (between bodies, or a compliant wall at an end)
        attached,  ///< a spring/dashpot end: bilateral, acts for ever
    };
    Kind kind = Kind::free;
    ContactLaw law;
    double initial_overlap = 0;  ///< δ at t = 0 [m]: minus the gap (an attached end: 0)
};

/// The bodies and links of a rigid-body chain. Overlaps are the state the solvers carry: link k's
/// overlap rate is v_{k-1} - v_k (the left end: -v_0, the right end: v_{n-1}), and a compressive
/// force F_k >= 0 pushes body k - 1 left and body k right.
struct RigidBodies {
    explicit RigidBodies(const Chain& chain);

    std::vector<double> mass;      ///< M_i [kg]
    std::vector<double> velocity;  ///< initial v_i [m/s]
    std::vector<BodyLink> links;   ///< n + 1
    double velocity_scale = 0;     ///< Chain::velocity_scale() [m/s]
    /// The shortest time scale of the links [s] (rigid_bodies.cpp): a contact's compression time at
    /// the velocity scale, a spring's 1/ω, a dashpot's M/c. +inf when nothing can act.
    double time_scale = 0;
    /// Below this a contact's force is rounding (1e-10 M_max V / time_scale) [N]: a contact that
    /// carries no more and is not approaching beyond the settling tolerance cannot act again
    /// (bodies leaving a chain with equal velocities stay touching at zero force for ever).
    double force_tolerance = 0;

    std::size_t bodies() const { return mass.size(); }
    /// δ' of link k from the body velocities v.
    double overlap_rate(std::size_t k, const double* v) const {
        const double left = k == 0 ? 0.0 : v[k - 1], right = k == bodies() ? 0.0 : v[k];
        return left - right;
    }
    bool has_attached_end() const;
};

/// The law continued past its kinks for an integrator inside one branch: k sgn(δ)|δ|^p + c δ'
/// (contact_force() with the clamp at 0 and the switch at δ = 0 removed; a bilateral law is
/// contact_force() itself). Where the law acts this is contact_force(); the solvers switch a link
/// on and off at the events where it crosses 0.
double continued_force(const ContactLaw& law, double overlap, double overlap_rate);
/// The same on the branch `memory` selects (restitution e < 1, docs/physics.md §9.7): where δ < δ_m
/// the unloading branch elastic_force(), continued below δ_r by its odd reflection about δ_r
/// (-elastic_force(2 δ_r - δ)), plus c δ'; at δ >= δ_m, an empty memory or e = 1,
/// continued_force() above (the same numbers).
double continued_force(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory);

/// The settling rule of docs/physics.md §2.4 for rigid bodies (contact_release_time() with no
/// excursion: a rigid body has no vibration): true when no link acts (beyond force_tolerance), no
/// end is attached, and no link whose gap can close is approaching. `acting[k]` says whether link k carries force.
/// `memory` (per link, may be null: all empty) selects each acting contact's branch (restitution).
bool rigid_bodies_settled(const RigidBodies& bodies, const std::vector<double>& overlap,
                          const std::vector<char>& acting, const double* velocity, double t,
                          const std::vector<ContactMemory>* memory = nullptr);

/// The same test for link k alone, given its overlap, whether it acts, its overlap rate and its
/// memory (the settling of a chain is that of every link; the exact solver tests only the links of
/// its active set, the others being quiet by construction).
bool rigid_body_link_settled(const RigidBodies& bodies, std::size_t k, double overlap, bool acting, double rate,
                             double t, const ContactMemory& memory);

/// The elastic energy an open contact releases per unit time while its overlap is still > 0 (its
/// force clamped at 0: a dashpot's contact that opened before δ reached 0) [W]: -k δ^p δ', which
/// the solvers count as dissipated, so that contact_energy() (k δ^(p+1)/(p+1) for δ > 0, acting or
/// not) and the balance agree. 0 for a link that acts or has δ <= 0.
double open_release_power(const ContactLaw& law, double overlap, double overlap_rate);
/// The same with restitution (§9.7): what contact_energy(law, δ, memory) releases, -elastic_force(δ)
/// δ' above δ_r (0 at or below it); open_release_power() above for e = 1.
double open_release_power(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory);

/// Once nothing acts and nothing approaches (rigid_bodies_settled()), open contacts still at δ > 0
/// relax freely to 0: after `delay` [s] (the last of them), having released `energy` [J].
struct FreeRelease {
    double delay = 0;
    double energy = 0;
};
/// `memory` (per link, may be null): the recoverable energy contact_energy(law, δ, memory) is released.
FreeRelease free_release(const RigidBodies& bodies, const std::vector<double>& overlap, const double* velocity,
                         const std::vector<ContactMemory>* memory = nullptr);

/// What a solver hands rigid_bodies_outcome().
struct RigidBodiesRun {
    Method method = Method::characteristics;
    double end_time = 0;
    bool settled = false, at_horizon = false;
    std::vector<double> velocity;   ///< per body, at end_time
    std::vector<double> overlap;    ///< per link, at end_time
    std::vector<char> acting;       ///< per link, at end_time
    std::vector<double> impulse;    ///< per link: ∫ F dt [N s], F >= 0 compressive
    /// per link: the contact's memory at end_time, remembered up to its overlap (restitution e < 1,
    /// docs/physics.md §9.7; empty for e = 1): energy.contact is contact_energy(law, δ, memory)
    std::vector<ContactMemory> memory;
    double dissipated = 0;          ///< dashpot work and hysteresis loss up to end_time [J]
    std::vector<std::vector<Interval>> intervals;  ///< per link: while it carried force
    std::vector<ForceHistory> forces;              ///< per link: N = -F at the sample and event times
    double velocity_error_bound = 0;  ///< [m/s]
    SolverStats stats;
    AccuracyReport accuracy_report;
    Outcome::ErrorKind error_kind = Outcome::ErrorKind::bound;
    std::vector<std::string> warnings;
};

/// The Outcome of a rigid-body chain (build_outcome() with the links as contacts and walls, then
/// check_outcome()).
Outcome rigid_bodies_outcome(const Chain& chain, const RigidBodies& bodies, RigidBodiesRun run,
                             std::size_t force_samples);

/// The velocity error [m/s] that the run's energy defect reveals: energy the integration created
/// (initial < final kinetic + stored + dissipated) means a relative velocity error of at least
/// sqrt(1 + created / scale) - 1 (energies are quadratic in velocities; outcome_check.cpp holds an
/// outcome to that); 0 when none was created.
double energy_defect_error(const RigidBodies& bodies, const RigidBodiesRun& run);

/// The sample times of a force history over [0, end]: `samples` equally spaced (none when 0).
std::vector<double> force_sample_times(double end, std::size_t samples);

/// Refuses what a rigid-body chain cannot be run with: an attached end without end_time (it never
/// settles). @throws InvalidInput (key solver.end_time).
void check_rigid_bodies_options(const Chain& chain, const SolverOptions& options);

/// Bounded work of the rigid-body solvers: at most this many integration steps per run.
inline constexpr std::size_t max_rigid_body_steps = 20'000'000;
/// The steps one run of a rigid-body path may take: max_rigid_body_steps, or [solver] max_work if
/// smaller (the budget a user, or the fuzzer, sets for every integrating path).
inline std::size_t rigid_body_step_cap(const SolverOptions& options) {
    return std::min(max_rigid_body_steps, options.max_work);
}

/// The exact solver of a rigid-body chain (src/solvers/exact/rigid_body_ode.cpp): Boost.Odeint's
/// Dormand-Prince 5(4) with dense output, restarted at every event, its error bound from a second
/// run at a 100x tighter tolerance (docs/physics.md §9.9).
Outcome solve_rigid_bodies_exact(const Chain& chain, const SolverOptions& options);
/// The finite-difference cross-check (src/solvers/fd/rigid_body_verlet.cpp): velocity Verlet at a
/// fixed step, its error estimate from a run at half the step.
Outcome solve_rigid_bodies_verlet(const Chain& chain, const SolverOptions& options);

}  // namespace rodcollide
