// The outcome self-check (outcome_check.hpp; docs/physics.md §2).
#include "outcome/outcome_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rodcollide {

namespace {

[[noreturn]] void violated(const std::string& invariant, double amount, const std::string& details) {
    throw InvariantViolation(invariant, amount, details);
}

void require_finite(double x, const std::string& what) {
    if (!std::isfinite(x)) violated("finite numbers", x, fmt::format("{} is {}", what, x));
}

void check_finite(const Outcome& o) {
    for (std::size_t i = 0; i < o.rods.size(); ++i) {
        const RodOutcome& r = o.rods[i];
        require_finite(r.mass, fmt::format("rod[{}] mass", i));
        require_finite(r.initial_velocity, fmt::format("rod[{}] initial velocity", i));
        require_finite(r.final_velocity, fmt::format("rod[{}] final velocity", i));
        require_finite(r.vibration_energy, fmt::format("rod[{}] vibration energy", i));
    }
    for (std::size_t k = 0; k < o.contacts.size(); ++k) {
        require_finite(o.contacts[k].impulse, fmt::format("contact {} impulse", k + 1));
        for (const Interval& iv : o.contacts[k].intervals) {
            require_finite(iv.start, fmt::format("contact {} interval start", k + 1));
            require_finite(iv.end, fmt::format("contact {} interval end", k + 1));
        }
    }
    const EnergyBalance& e = o.energy;
    for (const auto& [value, name] : {std::pair{e.initial, "initial energy"}, std::pair{e.final_rigid, "rigid energy"},
                                      std::pair{e.final_vibration, "vibration energy"}, std::pair{e.dropped, "dropped energy"},
                                      std::pair{e.radiated, "radiated energy"}, std::pair{e.input, "input energy"},
                                      std::pair{e.contact, "contact energy"}, std::pair{e.dissipated, "dissipated energy"},
                                      std::pair{o.end_time, "end time"}, std::pair{o.last_contact_time, "last contact time"},
                                      std::pair{o.stats.time_step, "time step"},
                                      std::pair{o.stats.courant_min, "Courant number"}})
        require_finite(value, name);
    // +infinity is an honest accuracy (no estimate could be made); NaN or a negative one is not.
    if (!(o.accuracy >= 0)) violated("finite numbers", o.accuracy, fmt::format("accuracy is {}", o.accuracy));
}

/// Violation `amount` of an invariant whose quantity has size `scale`, beyond the tolerance
/// accuracy x scale (exact zero when the scale is zero: then every term is zero).
void require_within(const std::string& invariant, double amount, double scale, double accuracy, const char* unit,
                    const std::string& what, const char* tolerance_from = "the solver's accuracy") {
    if (std::abs(amount) <= accuracy * scale) return;
    const double relative = scale > 0 ? std::abs(amount) / scale : std::abs(amount);
    violated(invariant, relative,
             fmt::format("{} is off by {:.3g} {} ({:.3g} of its scale {:.6g} {}; the tolerance is {:.3g} from {})",
                         what, amount, unit, relative, scale, unit, accuracy, tolerance_from));
}

/// The accuracy the outcome can be held to: Outcome::accuracy, which for finite differences is
/// measured at the default resolution; the scheme is first order in dt, so a coarser grid (chosen,
/// or reduced to fit the limits) is held to proportionally less.
double held_accuracy(const Outcome& o) {
    if (o.method != Method::finite_difference || o.stats.shortest_rod_cells == 0) return o.accuracy;
    return o.accuracy * std::max(1.0, static_cast<double>(default_cells) / static_cast<double>(o.stats.shortest_rod_cells));
}

}  // namespace

void check_outcome(const Outcome& o) {
    check_finite(o);
    const double accuracy = held_accuracy(o);
    double momentum_before = 0, momentum_after = 0, momentum_scale = 0;
    for (const RodOutcome& r : o.rods) {
        momentum_before += r.mass * r.initial_velocity;
        momentum_after += r.mass * r.final_velocity;
        momentum_scale += r.mass * std::max(std::abs(r.initial_velocity), std::abs(r.final_velocity));
    }
    // Walls, loads and anechoic ends give the chain momentum: the balance counts their impulses.
    double from_ends = 0;
    for (std::size_t k = 0; k < o.ends.size(); ++k) {
        require_finite(o.ends[k].impulse, fmt::format("end {} impulse", k + 1));
        require_finite(o.ends[k].work, fmt::format("end {} work", k + 1));
        from_ends += o.ends[k].impulse;
        momentum_scale += std::abs(o.ends[k].impulse);
    }
    require_finite(momentum_scale, "momentum");
    // Momentum and the energy balance are conserved by every approximation either solver makes:
    // held to rounding (balance_accuracy), whatever the velocities' error estimate says.
    if (!(o.balance_accuracy >= 0))
        violated("finite numbers", o.balance_accuracy, fmt::format("balance accuracy is {}", o.balance_accuracy));
    require_within("momentum conservation", momentum_after - momentum_before - from_ends, momentum_scale,
                   o.balance_accuracy, "N s",
                   o.ends.empty() ? "sum m u+ - sum m u-" : "sum m u+ - sum m u- - (impulses of the ends)",
                   "rounding");

    // Energies are quadratic in the velocities: a relative velocity error a is an energy error
    // of (1 + a)^2 - 1 = a (2 + a).
    const double energy_accuracy = accuracy * (2 + accuracy);
    const EnergyBalance& e = o.energy;
    const double energy_scale = e.scale();
    require_finite(energy_scale, "energy");
    require_within("the energy balance", e.supplied() - e.accounted(), energy_scale,
                   o.balance_accuracy * (2 + o.balance_accuracy), "J", "supplied - (rigid + vibration + dropped)",
                   "rounding");
    // Approximations only remove energy (scheme dissipation, dropped fronts), up to the accuracy.
    if (e.dropped < 0)
        require_within("the energy balance", e.dropped, energy_scale, energy_accuracy, "J",
                       "energy created by the solver (-dropped)");
    for (std::size_t i = 0; i < o.rods.size(); ++i)
        if (o.rods[i].vibration_energy < 0)
            require_within("the energy balance", o.rods[i].vibration_energy, energy_scale, energy_accuracy, "J",
                           fmt::format("rod[{}] vibration energy (negative)", i));

    for (std::size_t k = 0; k < o.contacts.size(); ++k)
        if (o.contacts[k].impulse < 0)
            require_within("non-negative impulses", o.contacts[k].impulse, momentum_scale, accuracy, "N s",
                           fmt::format("contact {} impulse (negative)", k + 1));
}

}  // namespace rodcollide
