// Grid choice for the finite-difference solver (finite_difference.hpp): one time step for all
// rods, Courant number c dt / h <= 1 in each, and exactly 1 in each when the transit times are
// commensurate (then the scheme is the method of characteristics, Bacon 1993).
#include "solvers/fd/finite_difference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace rodcollide {

namespace {

/// Transit-time ratios closer than this (relative) to p/Q count as commensurate. Rounding of
/// lengths and speeds is ~1e-16; a Courant number 1e-9 below 1 costs nothing measurable.
constexpr double commensurate_tolerance = 1e-9;

/// Smallest Q <= q_max with Q * ratio within tolerance of an integer for every ratio, or 0.
std::size_t common_denominator(const std::vector<double>& ratios, std::size_t q_max) {
    for (std::size_t q = 1; q <= q_max; ++q) {
        const double qd = static_cast<double>(q);
        const bool all = std::all_of(ratios.begin(), ratios.end(), [&](double r) {
            return std::abs(qd * r - std::round(qd * r)) <= commensurate_tolerance * qd * r;
        });
        if (all) return q;
    }
    return 0;
}

}  // namespace

double shortest_element_transit_time(const Chain& chain) {
    double t = std::numeric_limits<double>::infinity();
    for (const Element& e : chain.elements()) t = std::min(t, e.transit_time);
    return t;
}

std::size_t GridLayout::total_cells() const { return std::accumulate(cells.begin(), cells.end(), std::size_t{0}); }

double GridLayout::courant_min() const { return *std::min_element(courant.begin(), courant.end()); }

GridLayout choose_grid(const Chain& chain, std::size_t cells) {
    if (cells == 0) cells = default_cells;
    const double t_min = shortest_element_transit_time(chain);
    std::vector<double> ratios;  // per element
    double ratio_sum = 0;
    for (const Element& e : chain.elements()) {
        ratios.push_back(e.transit_time / t_min);
        ratio_sum += ratios.back();
    }
    // Refuse before allocating or even counting in integers (ratios can be huge).
    auto refuse_memory = [&](double total) {
        throw InvalidResolution(fmt::format(
            "finite differences: cells = {} in the shortest rod makes {:.3g} cells in all, over the "
            "limit of {} cells (about 32 bytes each); use fewer cells or the characteristics method",
            cells, total, largest_total_cells));
    };
    if (ratio_sum * static_cast<double>(cells) > 1.01 * static_cast<double>(largest_total_cells))
        refuse_memory(ratio_sum * static_cast<double>(cells));

    GridLayout g;
    g.common_denominator = common_denominator(ratios, std::min<std::size_t>(cells, 100'000));
    if (g.common_denominator) {
        const std::size_t q = g.common_denominator;
        cells = (cells + q - 1) / q * q;
        for (double r : ratios) g.cells.push_back(static_cast<std::size_t>(std::llround(r * static_cast<double>(cells))));
    } else {
        // Courant 1 in the shortest rod, <= 1 elsewhere (the 1e-12 keeps an exact multiple whole).
        for (double r : ratios)
            g.cells.push_back(std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(r * static_cast<double>(cells) * (1 + 1e-12)))));
    }
    g.shortest_rod_cells = cells;
    // The largest dt with c dt <= h in every rod; at Courant 1 the others differ by rounding only.
    g.time_step = std::numeric_limits<double>::infinity();
    const std::vector<Element>& elements = chain.elements();
    for (std::size_t i = 0; i < elements.size(); ++i)
        g.time_step = std::min(g.time_step, elements[i].transit_time / static_cast<double>(g.cells[i]));
    for (std::size_t i = 0; i < elements.size(); ++i)
        g.courant.push_back(std::min(1.0, static_cast<double>(g.cells[i]) * g.time_step / elements[i].transit_time));
    if (g.total_cells() > largest_total_cells) refuse_memory(static_cast<double>(g.total_cells()));
    return g;
}

double GridLayout::step_cost() const {
    return static_cast<double>(total_cells()) + rod_step_cost * static_cast<double>(cells.size());
}

double cell_updates(const GridLayout& grid, double duration) {
    return grid.step_cost() * std::ceil(duration / grid.time_step);
}

}  // namespace rodcollide
