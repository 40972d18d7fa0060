// Junction kinds of the layout (elements.hpp): which kind a chain end is, and which kinds have a
// gap. What each kind does is the junction rules' (solvers/shared/junction.cpp).
#include "rodcollide/elements.hpp"

namespace rodcollide {

JunctionKind end_junction_kind(EndKind kind) {
    switch (kind) {
        case EndKind::free: return JunctionKind::free_end;
        case EndKind::fixed: return JunctionKind::fixed_end;
        case EndKind::wall: return JunctionKind::wall;
        case EndKind::anechoic: return JunctionKind::anechoic_end;
        case EndKind::spring:
        case EndKind::dashpot:
        case EndKind::spring_dashpot: return JunctionKind::attached_end;
    }
    return JunctionKind::free_end;
}

bool has_gap(JunctionKind kind) { return kind == JunctionKind::contact || kind == JunctionKind::wall; }

}  // namespace rodcollide
