// The exact solver for chains with rods and compliant junctions (issue 23; docs/physics.md §9.10):
// rods stay exact delay lines, carrying what their ends emit as polynomial pieces (wave_history.hpp);
// every junction (junction_node.hpp) is an ODE driven by the waves arriving from its rods. Every
// delay is at least the shortest transit time, so over a window of that length every junction's
// arrivals are already known and each junction is integrated on its own (Dormand-Prince 5(4) with
// error control, events located on its dense output), appending its emissions to the rods.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Core>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace rodcollide {

/// Whether the exact solver runs `chain` on the delay network: it has compliant parts (contacts,
/// walls, attached ends, masses) and at least one rod.
bool delay_network_chain(const Chain& chain);

/// The wave field of a delay-network run at chosen points and times (field samples, gauges): the
/// state at local coordinate x of element e at t is that of the invariants alpha, which its left end
/// emitted at t - x/c, and beta, which its right end emitted at t - (L - x)/c (docs/physics.md
/// §9.10). The network keeps about one transit of history, so it samples while it runs.
struct NetworkFieldSamples {
    struct Point {
        std::size_t element = 0;  ///< Chain::elements() index
        double x = 0;             ///< local coordinate in [0, L] [m]
    };
    std::vector<Point> points;
    /// The sample times (increasing, from 0) for the run's end time and whether it settled: known
    /// only once the outcome is (the recorded span runs past settling).
    std::function<std::vector<double>(double end_time, bool settled)> times_for;
    // Filled by the solve: rows follow `times`, columns `points`.
    std::vector<double> times;
    Eigen::MatrixXd velocity, force, strain;  ///< [m/s], [N] (positive in tension), [-]
};

/// The outcome, its velocity_error_bound from a second run at a 100x tighter tolerance. With
/// `samples`, the finer run is made again, sampling its field (the same run: the network is
/// deterministic).
Outcome solve_delay_network(const Chain& chain, const SolverOptions& options, NetworkFieldSamples* samples = nullptr);

}  // namespace rodcollide
