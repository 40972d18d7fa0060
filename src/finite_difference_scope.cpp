// What the finite-difference solver does not carry yet (solve.hpp): it refuses such a chain with
// one line instead of silently solving a chain of free, uniform rods.
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

namespace rodcollide {

void require_finite_difference_support(const Chain& chain) {
    const auto refuse = [](std::string_view what) {
        throw UnsupportedMethod(fmt::format(
            "method finite-difference does not support {} yet; use --method characteristics", what));
    };
    for (std::size_t i = 0; i < chain.size(); ++i)
        if (!chain[i].segments.empty()) refuse(fmt::format("rods made of segments (rod[{}])", i));
    for (ChainSide side : {ChainSide::left, ChainSide::right})
        if (chain.ends()[side].kind != EndKind::free)
            refuse(fmt::format("a \"{}\" end ({})", to_string(chain.ends()[side].kind), to_string(side)));
    if (!chain.ends().loads.empty()) refuse("loads ([[load]])");
}

}  // namespace rodcollide
