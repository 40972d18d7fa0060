// Free motion of a rod for the settling rule (free_rod_motion.hpp; docs/physics.md §2, §7, §8.2).
#include "solvers/shared/free_rod_motion.hpp"

#include "solvers/shared/invariant_energy.hpp"
#include "solvers/shared/outcome_builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace rodcollide {

namespace {

/// An invariant in a rod, about its continuation's velocity: when it has left (or its place in the
/// rod), how far it is from that velocity, for how long, in an element of impedance Z.
struct Piece {
    double leaves, deviation, duration, impedance;
};

/// The last piece from which on the rest still counts as content, or none. Exact rule: the last
/// piece further than `tolerance` from the continuation's velocity. With `grid_noise`, a remainder
/// (a piece and all after it) also counts as quiet when it is mostly oscillation from one grid step
/// to the next: its energy at most twice that of its half step-to-step differences (content at
/// wavelengths of 4 cells and less, which leapfrog at Courant < 1 barely transports; a smooth
/// remainder or a sharp front has at most a quarter).
std::optional<std::size_t> last_content(const std::vector<Piece>& pieces, double tolerance, bool grid_noise) {
    double energy = 0, oscillation = 0;
    for (std::size_t k = pieces.size(); k-- > 0;) {
        const Piece& p = pieces[k];
        const double next = k + 1 < pieces.size() ? pieces[k + 1].deviation : 0.0;
        energy += p.impedance * p.deviation * p.deviation * p.duration;
        oscillation += p.impedance * 0.25 * (p.deviation - next) * (p.deviation - next) * p.duration;
        if (std::abs(p.deviation) > tolerance && (!grid_noise || energy > 2 * oscillation)) return k;
    }
    return std::nullopt;
}

/// The pieces of `w` about v, leaving at the ends of their pieces plus `delay` after t.
void append_pieces(std::vector<Piece>& out, const ArrivalWindow& w, double t, double delay, double v, double impedance) {
    double s = t + delay;
    for (const ArrivalPiece& p : w) {
        s += p.duration;
        out.push_back({s, p.value - v, p.duration, impedance});
    }
}

/// When nothing more leaves a uniform rod (impedance Z, transit time T) through its anechoic end
/// (last_content): what travels towards that end (`toward`) leaves when it arrives; what travels
/// away (`away`) comes back from the free end one transit later.
double quiet_time(const ArrivalWindow& toward, const ArrivalWindow& away, double Z, double T, double t, double v,
                  double tolerance, bool grid_noise) {
    std::vector<Piece> pieces;
    append_pieces(pieces, toward, t, 0, v, Z);
    append_pieces(pieces, away, t, T, v, Z);
    const std::optional<std::size_t> last = last_content(pieces, tolerance, grid_noise);
    return last ? pieces[*last].leaves : t;
}

/// The far end of a uniform rod whose other end is anechoic moves at the invariant arriving
/// there (`facing`) over the next transit, then at the continuation's velocity v for ever.
EndExcursions anechoic_rod_excursions(const ArrivalWindow& facing, ChainSide anechoic, double v) {
    double w = 0, lo = 0, hi = 0;
    for (const ArrivalPiece& p : facing) {
        w += (p.value - v) * p.duration;
        lo = std::min(lo, w);
        hi = std::max(hi, w);
    }
    return anechoic == ChainSide::right ? EndExcursions{0, -lo} : EndExcursions{hi, 0};
}

}  // namespace

FreeRodMotion free_rod_motion(const Chain& chain, std::size_t rod, const RodWindows& windows, double t,
                              double tolerance, bool grid_noise) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const Rod& r = chain[rod];
    const auto elements = chain.element_indices(rod);
    const std::size_t n = elements.size();
    FreeRodMotion m;
    m.mean_velocity = windows.momentum / r.mass();

    std::optional<ChainSide> held, anechoic;
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        const bool at_end = side == ChainSide::left ? rod == 0 : rod + 1 == chain.size();
        if (!at_end) continue;
        if (chain.ends()[side].kind == EndKind::fixed) held = side;
        if (chain.ends()[side].kind == EndKind::anechoic) anechoic = side;
    }
    if (n == 1 && !held && !anechoic) {  // uniform, free-free: exact (settling.hpp)
        m.alpha_at_right = windows.alpha.front();
        m.beta_at_left = windows.beta.front();
        return m;
    }
    // At rest relative to a motion at v: nothing left but (with grid_noise) a grid's own oscillation.
    const auto quiet_about = [&](double v) {
        std::vector<Piece> pieces;
        for (std::size_t k = 0; k < n; ++k) {
            const double z = chain.elements()[elements[k]].impedance;
            append_pieces(pieces, windows.alpha[k], t, 0, v, z);
            append_pieces(pieces, windows.beta[k], t, 0, v, z);
        }
        return !last_content(pieces, tolerance, grid_noise);
    };
    double smallest_stiffness = inf, energy = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const Element& el = chain.elements()[elements[k]];
        smallest_stiffness = std::min(smallest_stiffness, el.axial_stiffness);
        energy += invariant_energy(el.impedance, windows.alpha[k], windows.beta[k]);
    }
    if (held && anechoic) {  // one rod between a held end and an anechoic one: comes to rest
        m.mean_velocity = 0;
        m.excursions = quiet_about(0) ? EndExcursions{0, 0} : EndExcursions{inf, inf};
        return m;
    }
    if (held) {  // held at one end: mean motion 0, displacement bounded by its whole energy
        m.mean_velocity = 0;
        const double b = energy_excursion_bound(r.length, energy, smallest_stiffness);
        m.excursions = EndExcursions{b, b};
        return m;
    }
    if (anechoic) {  // the rod ends moving with its continuation
        const double v = chain.elements()[elements.front()].initial_velocity;
        m.mean_velocity = v;
        if (n == 1) {
            const bool right = *anechoic == ChainSide::right;
            const ArrivalWindow& toward = right ? windows.alpha.front() : windows.beta.front();
            const ArrivalWindow& away = right ? windows.beta.front() : windows.alpha.front();
            m.excursions = anechoic_rod_excursions(away, *anechoic, v);
            const Element& el = chain.elements()[elements.front()];
            m.active_until = quiet_time(toward, away, el.impedance, el.transit_time, t, v, tolerance, grid_noise);
            return m;
        }
        m.excursions = quiet_about(v) ? EndExcursions{0, 0} : EndExcursions{inf, inf};
        return m;
    }
    // Segments, free-free: the vibration about the mean motion is bounded by its energy.
    const double vibration = energy - rigid_energy(r.mass(), m.mean_velocity);
    const double b = energy_excursion_bound(r.length, vibration, smallest_stiffness);
    m.excursions = EndExcursions{b, b};
    return m;
}

FreeRodMotion free_rod_motion(const WaveField& field, std::size_t rod, double t, double tolerance) {
    RodWindows w;
    w.momentum = field.momentum(rod, t);
    for (std::size_t e : field.chain().element_indices(rod)) {
        w.alpha.push_back(field.alpha_window(e, t));
        w.beta.push_back(field.beta_window(e, t));
    }
    return free_rod_motion(field.chain(), rod, w, t, tolerance);
}

}  // namespace rodcollide
