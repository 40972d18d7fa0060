// Free motion of a rod for the settling rule (free_rod_motion.hpp; docs/physics.md §2, §7).
#include "rodcollide/free_rod_motion.hpp"

#include "rodcollide/outcome_builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

/// Whether every invariant of element e over its next transit is within `tolerance` of v.
bool at_rest_relative_to(const WaveField& field, std::size_t e, double t, double v, double tolerance) {
    for (const ArrivalWindow& w : {field.alpha_window(e, t), field.beta_window(e, t)})
        for (const ArrivalPiece& p : w)
            if (std::abs(p.value - v) > tolerance) return false;
    return true;
}

/// When the last invariant different from v (by more than `tolerance`) has left a uniform rod
/// through its anechoic end: what travels towards that end leaves when it arrives; what travels
/// away comes back from the free end one transit later.
double quiet_time(const WaveField& field, std::size_t e, double t, ChainSide anechoic, double v, double tolerance) {
    const double T = field.chain().elements()[e].transit_time;
    const ArrivalWindow toward = anechoic == ChainSide::right ? field.alpha_window(e, t) : field.beta_window(e, t);
    const ArrivalWindow away = anechoic == ChainSide::right ? field.beta_window(e, t) : field.alpha_window(e, t);
    double quiet = t, s = t;
    for (const ArrivalPiece& p : toward) {
        s += p.duration;
        if (std::abs(p.value - v) > tolerance) quiet = std::max(quiet, s);
    }
    s = t;
    for (const ArrivalPiece& p : away) {
        s += p.duration;
        if (std::abs(p.value - v) > tolerance) quiet = std::max(quiet, s + T);
    }
    return quiet;
}

/// The left end of a uniform rod whose right end is anechoic moves at the beta arriving there
/// over the next transit, then at the continuation's velocity for ever (and symmetrically).
EndExcursions anechoic_rod_excursions(const WaveField& field, std::size_t e, double t, ChainSide anechoic,
                                      double v) {
    const ArrivalWindow facing = anechoic == ChainSide::right ? field.beta_window(e, t) : field.alpha_window(e, t);
    double w = 0, lo = 0, hi = 0;
    for (const ArrivalPiece& p : facing) {
        w += (p.value - v) * p.duration;
        lo = std::min(lo, w);
        hi = std::max(hi, w);
    }
    return anechoic == ChainSide::right ? EndExcursions{0, -lo} : EndExcursions{hi, 0};
}

}  // namespace

FreeRodMotion free_rod_motion(const WaveField& field, std::size_t rod, double t, double tolerance) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const Chain& chain = field.chain();
    const Rod& r = chain[rod];
    const auto elements = chain.element_indices(rod);
    FreeRodMotion m;
    m.mean_velocity = field.momentum(rod, t) / r.mass();

    std::optional<ChainSide> held, anechoic;
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        const bool at_end = side == ChainSide::left ? rod == 0 : rod + 1 == chain.size();
        if (!at_end) continue;
        if (chain.ends()[side].kind == EndKind::fixed) held = side;
        if (chain.ends()[side].kind == EndKind::anechoic) anechoic = side;
    }
    if (elements.size() == 1 && !held && !anechoic) {  // uniform, free-free: exact (settling.hpp)
        m.alpha_at_right = field.alpha_window(elements.front(), t);
        m.beta_at_left = field.beta_window(elements.front(), t);
        return m;
    }
    double smallest_stiffness = inf;
    for (std::size_t e : elements) smallest_stiffness = std::min(smallest_stiffness, chain.elements()[e].axial_stiffness);
    if (held && anechoic) {  // one rod between a held end and an anechoic one: comes to rest
        m.mean_velocity = 0;
        m.excursions = EndExcursions{inf, inf};
        bool quiet = true;
        for (std::size_t e : elements) quiet = quiet && at_rest_relative_to(field, e, t, 0, tolerance);
        if (quiet) m.excursions = EndExcursions{0, 0};
        return m;
    }
    if (held) {  // held at one end: mean motion 0, displacement bounded by its whole energy
        m.mean_velocity = 0;
        const double b = energy_excursion_bound(r.length, field.energy(rod, t), smallest_stiffness);
        m.excursions = EndExcursions{b, b};
        return m;
    }
    if (anechoic) {  // the rod ends moving with its continuation
        const double v = chain.elements()[elements.front()].initial_velocity;
        m.mean_velocity = v;
        if (elements.size() == 1) {
            m.excursions = anechoic_rod_excursions(field, elements.front(), t, *anechoic, v);
            m.active_until = quiet_time(field, elements.front(), t, *anechoic, v, tolerance);
            return m;
        }
        bool quiet = true;
        for (std::size_t e : elements) quiet = quiet && at_rest_relative_to(field, e, t, v, tolerance);
        m.excursions = quiet ? EndExcursions{0, 0} : EndExcursions{inf, inf};
        return m;
    }
    // Segments, free-free: the vibration about the mean motion is bounded by its energy.
    const double vibration = field.energy(rod, t) - rigid_energy(r.mass(), m.mean_velocity);
    const double b = energy_excursion_bound(r.length, vibration, smallest_stiffness);
    m.excursions = EndExcursions{b, b};
    return m;
}

}  // namespace rodcollide
