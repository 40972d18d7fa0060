// Gauge stations checked against their chain (gauge.hpp).
#include "rodcollide/gauge.hpp"

#include "rodcollide/errors.hpp"

#include <fmt/format.h>

namespace rodcollide {

void check_gauge(const Gauge& gauge, const Chain& chain) {
    input::require("rod", input::integer_within(gauge.rod, 0, chain.size() - 1));
    if (chain[gauge.rod].is_mass())  // issue 23: a rigid body has no waves to record
        throw InvalidInput("rod", fmt::format("rod[{}] is a rigid mass (kind = \"mass\"); a gauge records the waves of "
                                              "a rod", gauge.rod));
    input::require("x", input::within(gauge.x, {0, chain[gauge.rod].length}));
}

}  // namespace rodcollide
