// The convergence study of the finite-difference solver on incommensurate chains with gaps
// (docs/finite_difference.md): the chains, the phase-averaged error at N cells and the observed
// order. Shared by the test that asserts the orders
// (tests/solvers/fd/test_finite_difference_convergence.cpp) and the program that prints the docs'
// table (bench/study/convergence_table.cpp).
//
// The error depends on where the off-grid events (gap closings, fronts from rods at Courant < 1)
// fall inside their step, a sawtooth in the cell count N. So an error at N is the mean over
// N, N+1, ..., N+7 ("phase-averaged"), and the observed order is the least-squares slope of
// log(error) against log(N).
#pragma once

#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"
#include "solvers/fd/finite_difference.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace rodcollide::testing {

struct StudyChain {
    const char* name;
    Chain chain;
};

/// Incommensurate transit times; with and without gaps; equal and mixed impedances and materials.
inline std::vector<StudyChain> study_chains() {
    const double sqrt2 = std::sqrt(2.0);
    return {
        {"de Saint-Venant, L2/L1 = sqrt 2, no gap", Chain({make_rod(1, 1), make_rod(sqrt2, 0)})},
        {"3 rods, L = 1 : sqrt 2 : pi/2, Z = 1 : 1.3 : 0.8, gaps", 
         Chain({make_rod(1, 1), make_rod(sqrt2, 0, 0.1 * std::sqrt(3.0), 1.3), make_rod(M_PI / 2, -0.2, 0.05 * M_E, 0.8)})},
        {"4 rods, mixed materials, gaps",
         Chain({make_rod(0.7, 1), make_rod(1.3, 0, 0.031, 2, 1.7, 2.9), make_rod(0.45, 0, 0, 0.6, 2.2, 0.8),
                make_rod(1.1, -0.5, 0.02, 1.5, 1, 1.4)})},
    };
}

/// With segments and end conditions (docs/physics.md §8): a striker on a stepped rod whose joint
/// is incommensurate (no gap: Courant < 1 dispersion only), and a stepped rod on a wall at a gap
/// (closings and openings between grid times).
inline std::vector<StudyChain> end_study_chains() {
    const double sqrt2 = std::sqrt(2.0);
    Rod stepped = make_rod(0, 0);
    stepped.segments = {{1, 1, 1, 1}, {sqrt2, 2, 1, 1}};
    Rod falling = stepped;
    falling.velocity = -1;
    ChainEnds wall;
    wall.left = {EndKind::wall, 0.1};
    return {
        {"striker on a stepped rod, segments 1 : sqrt 2, sections 1 : 2", Chain({make_rod(1, 1), stepped})},
        {"stepped rod on a wall at gap 0.1", Chain({falling}, wall)},
    };
}

struct ErrorAt {
    double mean = 0;   ///< over N .. N+7
    double worst = 0;  ///< over N .. N+7
    double drift = 0;  ///< mean |energy drift| / initial energy
};

inline ErrorAt error_at(const Chain& chain, const Outcome& exact, std::size_t cells) {
    ErrorAt e;
    constexpr int window = 8;
    for (std::size_t n = cells; n < cells + window; ++n) {
        SolverOptions o;
        o.cells = n;
        const Outcome fd = solve_finite_difference(chain, o).outcome;
        const double err = (fd.final_velocities() - exact.final_velocities()).cwiseAbs().maxCoeff() / chain.velocity_scale();
        e.mean += err / window;
        e.worst = std::max(e.worst, err);
        e.drift += std::abs(fd.energy.dropped) / fd.energy.initial / window;
    }
    return e;
}

/// Least-squares slope of -log(error) against log(cells).
inline double observed_order(const std::vector<std::size_t>& cells, const std::vector<double>& errors) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        mx += std::log(static_cast<double>(cells[i])) / static_cast<double>(cells.size());
        my += std::log(errors[i]) / static_cast<double>(cells.size());
    }
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const double dx = std::log(static_cast<double>(cells[i])) - mx;
        sxy += dx * (std::log(errors[i]) - my);
        sxx += dx * dx;
    }
    return -sxy / sxx;
}

}  // namespace rodcollide::testing
