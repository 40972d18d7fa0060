// Conservation checks on an exact solver's outcome (docs/physics.md §2): momentum, the energy
// balance with energy.dropped, the impact equation M(u+ - u-) = W Lambda and Lambda >= 0; and the
// momentum balance of a chain whose ends act on it (§8, §9: walls, springs, dashpots).
#pragma once

#include "rodcollide/outcome.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

namespace rodcollide::testing {

inline void check_conservation(const Outcome& o, double tol = 1e-12) {
    const Eigen::VectorXd m = o.masses();
    const double p0 = m.dot(o.initial_velocities());
    const double p1 = m.dot(o.final_velocities());
    const double scale = m.dot(o.initial_velocities().cwiseAbs()) + 1e-300;
    CHECK(std::abs(p1 - p0) / scale < tol);
    const double e1 = o.energy.final_rigid + o.energy.final_vibration + o.energy.dropped;
    CHECK(std::abs(e1 - o.energy.initial) / o.energy.initial < tol);
    CHECK(o.impact_equation_residual() < tol);
    for (const ContactOutcome& c : o.contacts) CHECK(c.impulse >= 0);
}

/// The change of momentum equals the ends' impulses, to `tol` of the momentum scale (1e-10:
/// rounding over a finite-difference run's steps).
inline void check_momentum_with_ends(const Outcome& o, double tol = 1e-10) {
    double before = 0, after = 0, scale = 0, ends = 0;
    for (const RodOutcome& r : o.rods) {
        before += r.mass * r.initial_velocity;
        after += r.mass * r.final_velocity;
        scale += r.mass * std::max(std::abs(r.initial_velocity), std::abs(r.final_velocity));
    }
    for (const EndOutcome& e : o.ends) ends += e.impulse, scale += std::abs(e.impulse);
    CHECK(std::abs(after - before - ends) <= tol * scale);
}

}  // namespace rodcollide::testing
