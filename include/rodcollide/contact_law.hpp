// The one force law of a compliant junction (docs/physics.md §9): a cushion between two
// neighbours, a compliant wall, or a spring and dashpot at an end of the chain. Both solvers and
// the comparison module evaluate it here and nowhere else.
//
// With δ the overlap [m] (how far the two sides have moved into each other past touching; for an
// end spring, the end's displacement into the spring) and δ' its rate [m/s], the compressive force
// magnitude is
//   F = k δ^p + c δ'   while δ > 0,
// and the junction carries N = -F (N positive in tension). A contact (unilateral) never pulls: F is
// clamped at 0, so it is open while δ <= 0 and also while a fast separation would make the dashpot
// pull (k δ^p + c δ' < 0). An end spring or dashpot is attached (bilateral): F = k δ + c δ' of
// either sign, p = 1.
#pragma once

#include <string>

namespace rodcollide {

struct ContactLaw {
    double stiffness = 0;  ///< k [N/m^p]; 0 with damping 0: a rigid contact (today's rule)
    double exponent = 1;   ///< p [-], > 0 (1: a linear cushion, 1.5: Hertz)
    double damping = 0;    ///< c [N s/m], >= 0
    bool bilateral = false;  ///< an end spring/dashpot: pulls as well as pushes, δ of either sign
    /// e in (0, 1], energetic (docs/physics.md §9.7): a compression and its restitution return e^2
    /// of the energy stored; 1: elastic (the loading curve is also the unloading one).
    double restitution = 1;

    /// No stiffness and no damping: the rigid rule of the junction kind applies.
    bool rigid() const { return stiffness == 0 && damping == 0; }
};

/// The compressive force magnitude F [N] at overlap δ [m] and rate δ' [m/s]: k δ^p + c δ' while
/// δ > 0 and clamped at 0 for a contact; k δ + c δ' for a bilateral law. (Elastic: the memory-free
/// form, e = 1 or a contact that has not yet been compressed.)
double contact_force(const ContactLaw& law, double overlap, double overlap_rate);

/// What a unilateral contact with restitution e < 1 remembers within one contact (docs/physics.md
/// §9.7): the largest overlap δ_m it reached. {} before the contact closes and after the bodies
/// have separated geometrically (δ <= 0).
struct ContactMemory {
    double max_overlap = 0;  ///< δ_m [m]
};

/// δ_r = (1 - e^2) δ_m: the overlap at which the unloading branch reaches zero force (0 for e = 1
/// or an empty memory).
double residual_overlap(const ContactLaw& law, const ContactMemory& memory);

/// The elastic part of F [N] on the branch that acts: loading k δ^p for δ >= δ_m (and always for
/// e = 1); unloading k δ_m^p ((δ - δ_r)/(δ_m - δ_r))^p for δ_r < δ < δ_m; 0 for δ <= δ_r. A
/// bilateral law is k δ whatever the memory.
double elastic_force(const ContactLaw& law, double overlap, const ContactMemory& memory);

/// contact_force() on the branch the memory selects: elastic_force + c δ', clamped at 0 for a
/// contact (0 while δ <= δ_r).
double contact_force(const ContactLaw& law, double overlap, double overlap_rate, const ContactMemory& memory);

/// The recoverable energy [J] stored at overlap δ on the branch the memory selects: on loading
/// (δ >= δ_m) e^2 k δ^(p+1)/(p+1); on unloading k δ_m^p (δ - δ_r)^(p+1) / ((δ_m - δ_r)^p (p+1));
/// 0 below δ_r. Call it with the memory updated to δ (remember()): then recoverable energy +
/// hysteresis_loss() is the work done on the contact.
double contact_energy(const ContactLaw& law, double overlap, const ContactMemory& memory);

/// The energy [J] the hysteresis has dissipated in this contact so far: (1 - e^2) k δ_m^(p+1)/(p+1).
/// Work done on the contact = contact_energy(δ, memory) + hysteresis_loss(memory) at every instant.
double hysteresis_loss(const ContactLaw& law, const ContactMemory& memory);

/// The memory once the overlap has reached δ: δ_m = max(δ_m, δ); reset to {} once δ <= 0. Between
/// δ_r and 0 the contact is open but remembers, so a re-compression climbs the unloading branch back
/// to δ_m, then loads: the force is continuous in δ. (e = 1 needs no memory; it is kept all the same.)
ContactMemory remember(const ContactLaw& law, ContactMemory memory, double overlap);

/// Elastic energy stored at overlap δ [J]: k δ^(p+1)/(p+1) for δ > 0 (k δ^2/2 of either sign for
/// a bilateral law).
double contact_energy(const ContactLaw& law, double overlap);

/// The largest rate [1/s] at which a junction of this law between sides of series impedance z
/// [N s/m] relaxes at overlap δ: d(δ')/dδ of the junction ODE, k p δ^(p-1) / (z + c) (the ODE's
/// stiffness, which sets the integrator's substeps). +inf where p < 1 and δ -> 0.
double contact_relaxation_rate(const ContactLaw& law, double overlap, double z);

/// One junction ODE (docs/physics.md §9.2): two sides of series impedance z [N s/m] (z = Z_L Z_R /
/// (Z_L + Z_R) between two rod ends, the rod's Z at an end of the chain) meet through `law`; the
/// invariants arriving at them give the free rate s [m/s] at which the overlap would decrease if no
/// force acted. Then
///   δ' = -s - F/z,  F = contact_force(law, δ, δ')   (solved for δ' in closed form),
/// and the junction carries N = -F. Integrated over one step of length dt [s] with s held, by
/// classical Runge-Kutta substeps no longer than contact_substep_fraction / contact_relaxation_rate
/// (at most max_contact_substeps: bounded work; beyond, SolverLimitExceeded). RK4's relative error on a relaxation is about
/// f^4/120 for f = contact_substep_fraction: 5e-8 at 0.05.
struct JunctionOdeStep {
    double overlap = 0;       ///< δ at the end of the step [m]
    double mean_force = 0;    ///< mean N over the step [N] (<= 0 for a contact): z (Δδ/dt + s)
    double dissipated = 0;    ///< ∫ c δ'^2 dt over the step [J] (dashpot work)
    double last_force = 0;    ///< N at the end of the step [N]
    bool compressed = false;  ///< F != 0 at some substep (a contact: compressed; attached: acting)
    /// The contact's memory at the end of the step (restitution e < 1, §9.7); `dissipated` then
    /// also holds the hysteresis loss the step added (hysteresis_loss() grows with δ_m).
    ContactMemory memory;
};
inline constexpr int max_contact_substeps = 4096;
/// The SolverLimitExceeded message when a junction needs more than max_contact_substeps substeps
/// (relaxation rate [1/s], grid step [s]): integrate_junction() refuses rather than step RK4 beyond
/// its accuracy (and, much further, its stability).
std::string too_stiff_message(double rate, double dt);
inline constexpr double contact_substep_fraction = 0.05;
/// `memory`: the contact's memory at the start of the step (e < 1; {} for e = 1 or a fresh contact).
/// Where e < 1 the branch switch at maximum compression (δ' = 0) is a kink too, pinned the same way.
JunctionOdeStep integrate_junction(const ContactLaw& law, double z, double overlap, double free_rate, double dt,
                                   ContactMemory memory = {});

/// δ' at overlap δ for free rate s and series impedance z (the ODE's right-hand side).
double overlap_rate(const ContactLaw& law, double z, double overlap, double free_rate);
/// The same on the branch `memory` selects (restitution, §9.7): open below δ_r.
double overlap_rate(const ContactLaw& law, double z, double overlap, double free_rate, const ContactMemory& memory);

}  // namespace rodcollide
