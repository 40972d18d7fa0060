// The calibration study of the finite-difference error estimate (docs/finite_difference.md, "Error
// estimate"): seeded random chains of 2 to 8 rods, each solved by the exact solver (the reference)
// and by the finite-difference solver at its defaults. Shared by tests/solvers/fd/test_finite_difference_calibration.cpp
// and bench/study/fd_calibration.cpp (the full table).
#pragma once

#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/fd/finite_difference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace rodcollide::testing {

/// Chain k of the calibration set drawn with `seed`: each chain has its own generator, so any one
/// can be drawn alone. 2 to `max_rods` rods; dimensionless materials (densities 0.5-4, moduli 0.25-8,
/// sections 0.25-4, log-uniform). Half the chains are commensurate: each rod's transit time is a
/// whole number 1-4 (length = k c), so every rod runs at Courant 1 and only off-grid closings make
/// errors; the others have transit times 0.5-2 (Courant < 1 too). Half the chains have gaps of 0-0.5
/// on about half their contacts. A striker (1, then 0) in a third of the chains, else velocities
/// uniform in [-1, 1].
inline Chain calibration_chain(unsigned seed, unsigned k, std::string* label = nullptr, std::size_t max_rods = 8) {
    std::seed_seq seq{seed, k, 0x5eedu};
    std::mt19937 rng(seq);
    std::uniform_real_distribution<double> unit(0, 1);
    auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, unit(rng)); };
    const std::size_t n = std::uniform_int_distribution<std::size_t>(2, max_rods)(rng);
    const bool commensurate = unit(rng) < 0.5, gaps = unit(rng) < 0.5, striker = unit(rng) < 1.0 / 3;
    std::vector<Rod> rods;
    std::string transits;
    for (std::size_t i = 0; i < n; ++i) {
        const double rho = log_uniform(0.5, 4), e = log_uniform(0.25, 8), area = log_uniform(0.25, 4);
        const double c = std::sqrt(e / rho);
        const int whole = std::uniform_int_distribution<int>(1, 4)(rng);
        const double transit = commensurate ? whole : 0.5 + 1.5 * unit(rng);
        const double velocity = striker ? (i == 0 ? 1.0 : 0.0) : 2 * unit(rng) - 1;
        const double gap = i > 0 && gaps && unit(rng) < 0.5 ? 0.5 * unit(rng) : 0.0;
        rods.push_back(make_rod(transit * c, velocity, gap, area, rho, e));
        transits += fmt::format("{}{:.3g}", i ? ", " : "", transit);
    }
    if (label)
        *label = fmt::format("calibration chain {}-{}: {} rods, {}, {}, {}, transit times [{}]", seed, k, n,
                             commensurate ? "commensurate" : "incommensurate", gaps ? "gaps" : "touching",
                             striker ? "striker" : "random velocities", transits);
    return Chain(rods);
}

/// The chain as a case file (to reproduce one chain with `rodcollide run`).
inline std::string case_text(const Chain& chain, const std::string& title) {
    std::string s = fmt::format("title = \"{}\"\n", title);
    for (std::size_t i = 0; i < chain.size(); ++i) {
        const Rod& r = chain[i];
        s += fmt::format("\n[[rod]]\nlength = {:.17g}\narea = {:.17g}\ndensity = {:.17g}\nyoungs_modulus = {:.17g}\n"
                         "velocity = {:.17g}\n", r.length, r.area, r.density, r.youngs_modulus, r.velocity);
        if (i > 0 && r.gap > 0) s += fmt::format("gap = {:.17g}\n", r.gap);
    }
    return s;
}

/// One chain of the study: the finite-difference run at its defaults against the exact solver.
struct CalibrationRow {
    unsigned k = 0;
    std::string label;
    std::size_t rods = 0;
    std::size_t exact_events = 0;
    double exact_bound = 0;  ///< the exact solver's own error bound or estimate [m/s]
    bool fd_finished = false;
    std::string fd_failure;  ///< why the grid did not finish (SolverLimitExceeded, ...)
    double error = 0;        ///< max_i |u_i,fd - u_i,exact| [m/s]
    double bound = 0;        ///< the grid's velocity_error_bound [m/s] (+inf: none)
    double scale = 0;        ///< velocity scale V [m/s]
    bool target_met = false;
    bool exact_grid = false;  ///< no second run: Courant 1 and every event on a grid time
    bool warned = false;      ///< the grid's outcome carries a warning
    std::size_t cells = 0, estimate_cells = 0;
    double seconds = 0;  ///< CPU time of the finite-difference run, estimate included
    /// actual / stated error: <= 1 when the statement covers the error.
    double ratio() const { return bound > 0 ? error / bound : INFINITY; }
    /// The exact solver's own error (its rounding check: chaotic chains amplify rounding) is below a
    /// tenth of the grid's error, or below 1e-9 of the velocity scale: the comparison judges the grid.
    bool reference_exact() const { return exact_bound <= std::max(0.1 * error, 1e-9 * scale); }
};

inline CalibrationRow calibrate_one(unsigned seed, unsigned k, std::size_t max_rods = 8) {
    CalibrationRow row;
    row.k = k;
    const Chain chain = calibration_chain(seed, k, &row.label, max_rods);
    row.rods = chain.size();
    row.scale = chain.velocity_scale();
    const Outcome exact = solve_characteristics(chain, {}).outcome;
    row.exact_events = exact.stats.events;
    row.exact_bound = exact.velocity_error_bound;
    SolverOptions options;
    options.method = Method::finite_difference;
    const std::clock_t start = std::clock();  // CPU time: the machine may be shared
    try {
        const FiniteDifferenceSolution s = solve_finite_difference(chain, options);
        const Outcome& o = s.outcome;
        row.fd_finished = true;
        row.error = (o.final_velocities() - exact.final_velocities()).cwiseAbs().maxCoeff();
        row.bound = o.velocity_error_bound;
        row.target_met = o.stats.velocity_error_target_met;
        row.exact_grid = s.exact();
        row.warned = !o.warnings.empty();
        row.cells = o.stats.shortest_rod_cells;
        row.estimate_cells = o.stats.estimate_cells;
    } catch (const std::exception& e) {
        row.fd_failure = e.what();
    }
    row.seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    return row;
}

/// The q-quantile (0..1) of xs, nearest rank.
inline double quantile(std::vector<double> xs, double q) {
    if (xs.empty()) return NAN;
    std::sort(xs.begin(), xs.end());
    const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(xs.size())));
    return xs[std::clamp<std::size_t>(i, 1, xs.size()) - 1];
}

}  // namespace rodcollide::testing
