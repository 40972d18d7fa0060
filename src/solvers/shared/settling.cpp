// End excursions of free-free rods and the no-further-contact bound (docs/physics.md §2).
#include "solvers/shared/settling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rodcollide {

namespace {

/// Extremes of W(t) = integral of (v(s) - v_mean) over one period, where v is `first` followed by
/// `second` (the end's velocity history over the period), starting from W = 0.
std::pair<double, double> running_integral_extremes(const ArrivalWindow& first,
                                                    const ArrivalWindow& second,
                                                    double mean_velocity) {
    double w = 0, lo = 0, hi = 0;
    for (const ArrivalWindow* window : {&first, &second})
        for (const ArrivalPiece& p : *window) {
            // W is linear on each piece, so its extremes are at piece ends.
            w += (p.value - mean_velocity) * p.duration;
            lo = std::min(lo, w);
            hi = std::max(hi, w);
        }
    return {lo, hi};
}

}  // namespace

EndExcursions free_rod_end_excursions(const ArrivalWindow& alpha_at_right,
                                      const ArrivalWindow& beta_at_left, double mean_velocity) {
    // A free right end moves at the arriving alpha (it reflects beta = alpha, v = alpha); the
    // beta arriving at the free left end comes back to the right end as alpha one transit later.
    const auto [right_lo, right_hi] = running_integral_extremes(alpha_at_right, beta_at_left, mean_velocity);
    const auto [left_lo, left_hi] = running_integral_extremes(beta_at_left, alpha_at_right, mean_velocity);
    (void)right_lo;
    (void)left_hi;
    return {right_hi, -left_lo};
}

double contact_release_time(double t0, double g0, double dv, double excursion, double gap_tolerance,
                            double velocity_tolerance) {
    const double shortfall = excursion - g0;
    if (shortfall <= gap_tolerance) {
        if (dv >= -velocity_tolerance) return t0;
        return std::numeric_limits<double>::infinity();
    }
    if (dv > velocity_tolerance) return t0 + shortfall / dv;
    return std::numeric_limits<double>::infinity();
}

std::size_t sole_element(const Chain& chain, std::size_t rod) {
    const auto elements = chain.element_indices(rod);
    if (elements.size() != 1)
        throw std::logic_error("settling: the no-further-contact bound is for rods of one uniform element");
    return elements.front();
}

ContactTolerances contact_tolerances(const Chain& chain) {
    constexpr double relative = 1e-10;
    const double v = chain.velocity_scale();
    return {relative * v, relative * v * chain.longest_transit_time()};
}

double energy_excursion_bound(double length, double energy, double smallest_axial_stiffness) {
    return 2 * std::sqrt(2 * length * std::max(0.0, energy) / smallest_axial_stiffness);
}

std::optional<double> common_period(const std::vector<double>& periods, int max_multiple) {
    if (periods.empty()) return std::nullopt;
    const double longest = *std::max_element(periods.begin(), periods.end());
    for (int k = 1; k <= max_multiple; ++k) {
        const double candidate = k * longest;
        const bool whole = std::all_of(periods.begin(), periods.end(), [&](double p) {
            const double ratio = candidate / p;
            return std::abs(ratio - std::round(ratio)) <= 1e-12 * ratio;
        });
        if (whole) return candidate;
    }
    return std::nullopt;
}

std::optional<double> free_motion_period(const Chain& chain, std::size_t rod) {
    const auto elements = chain.element_indices(rod);
    if (chain[rod].is_mass() || elements.size() != 1) return std::nullopt;
    bool held = false;
    for (const ChainSide side : {ChainSide::left, ChainSide::right}) {
        if (side == ChainSide::left ? rod != 0 : rod + 1 != chain.size()) continue;
        if (chain.ends()[side].kind == EndKind::anechoic) return std::nullopt;
        held = held || chain.ends()[side].kind == EndKind::fixed;
    }
    return (held ? 4 : 2) * chain.elements()[elements.front()].transit_time;
}

double watched_release_time(double t0, const std::vector<double>& periods, const std::vector<double>& separations,
                            double velocity_tolerance) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (std::any_of(separations.begin(), separations.end(), [&](double dv) { return dv < -velocity_tolerance; }))
        return inf;
    const std::optional<double> period = common_period(periods);
    return period ? t0 + *period : inf;
}

namespace {

EndExcursions excursions_of(const FreeRodMotion& rod) {
    return rod.excursions ? *rod.excursions
                          : free_rod_end_excursions(rod.alpha_at_right, rod.beta_at_left, rod.mean_velocity);
}

}  // namespace

double chain_release_time(double t0, const std::vector<FreeRodMotion>& rods,
                          const std::vector<double>& gaps, const ContactTolerances& tolerances) {
    return chain_release_time(t0, rods, gaps, WallGaps{}, tolerances);
}

double chain_release_time(double t0, const std::vector<FreeRodMotion>& rods, const std::vector<double>& gaps,
                          const WallGaps& walls, const ContactTolerances& tolerances) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    double bound = t0;
    for (const FreeRodMotion& rod : rods) bound = std::max(bound, rod.active_until);
    for (std::size_t k = 0; k + 1 < rods.size() && bound < inf; ++k) {
        const EndExcursions left = excursions_of(rods[k]);
        const EndExcursions right = excursions_of(rods[k + 1]);
        bound = std::max(bound, contact_release_time(t0, gaps[k], rods[k + 1].mean_velocity - rods[k].mean_velocity,
                                                     left.right_advance + right.left_retreat,
                                                     tolerances.gap, tolerances.velocity));
    }
    // A wall is an immobile neighbour: it neither moves nor vibrates.
    if (walls.left && bound < inf)
        bound = std::max(bound, contact_release_time(t0, *walls.left, rods.front().mean_velocity,
                                                     excursions_of(rods.front()).left_retreat, tolerances.gap,
                                                     tolerances.velocity));
    if (walls.right && bound < inf)
        bound = std::max(bound, contact_release_time(t0, *walls.right, -rods.back().mean_velocity,
                                                     excursions_of(rods.back()).right_advance, tolerances.gap,
                                                     tolerances.velocity));
    return bound;
}

}  // namespace rodcollide
