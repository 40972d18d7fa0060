// How far two outcomes of one chain are apart: what the exact solver's comparisons of two ways to
// the same outcome (asleep or step by step, reflecting ahead or in the loop) measure.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace rodcollide::testing {

/// Largest difference of final velocities (relative to V) and impulses (to m V) [-].
inline double outcome_difference(const Chain& chain, const Outcome& a, const Outcome& b) {
    const double v = chain.velocity_scale();
    double d = 0;
    for (std::size_t i = 0; i < chain.size(); ++i) d = std::max(d, std::abs(a.rods[i].final_velocity - b.rods[i].final_velocity) / v);
    for (std::size_t k = 0; k + 1 < chain.size(); ++k)
        d = std::max(d, std::abs(a.contacts[k].impulse - b.contacts[k].impulse) / (v * chain[k].mass()));
    return d;
}

}  // namespace rodcollide::testing
