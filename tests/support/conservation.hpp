// Conservation checks on an exact solver's outcome (docs/physics.md §2): momentum, the energy
// balance with energy.dropped, the impact equation M(u+ - u-) = W Lambda and Lambda >= 0.
#pragma once

#include "rodcollide/outcome.hpp"

#include <catch2/catch.hpp>

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

}  // namespace rodcollide::testing
