// Gauge stations (docs/physics.md §8): a point of a rod where velocity, force and strain are
// recorded over time, as a strain gauge on a Hopkinson bar records them. Part of a case (its
// [[gauge]] tables); the signals themselves are sampled after the solve (gauge_signals.hpp), so a
// gauge does not change the solution.
#pragma once

#include "rodcollide/chain.hpp"

#include <cstddef>
#include <string>

namespace rodcollide {

struct Gauge {
    std::size_t rod = 0;  ///< rod index from 0
    double x = 0;         ///< from the rod's left end [m], in [0, L]
    std::string name;     ///< used in outputs
};

/// Checks a gauge against its chain: rod an index of it, x finite and within the rod.
/// @throws InvalidInput with key "rod" or "x".
void check_gauge(const Gauge& gauge, const Chain& chain);

}  // namespace rodcollide
