// Gauge stations checked against their chain (gauge.hpp).
#include "rodcollide/gauge.hpp"

#include "rodcollide/errors.hpp"

namespace rodcollide {

void check_gauge(const Gauge& gauge, const Chain& chain) {
    input::require("rod", input::integer_within(gauge.rod, 0, chain.size() - 1));
    input::require("x", input::within(gauge.x, {0, chain[gauge.rod].length}));
}

}  // namespace rodcollide
