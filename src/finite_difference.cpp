// Finite-difference solve (finite_difference.hpp): runs a StaggeredGrid until no contact can
// provably happen again (settling.hpp, the exact solver's rule), to a horizon, or to the work
// limit; then builds the Outcome and, when asked, the decimated field history.
#include "rodcollide/finite_difference.hpp"

#include "rodcollide/solve.hpp"

#include "rodcollide/invariant_energy.hpp"
#include "rodcollide/outcome_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// The duration the up-front work estimate assumes: the horizon if given, else two transit
/// times of the longest rod (about the least a collision of touching rods lasts), or
/// record_until if longer.
double planned_duration(const Chain& chain, const SolverOptions& options) {
    if (options.end_time) return *options.end_time;
    return std::max(2 * chain.longest_transit_time(), options.record_until.value_or(0.0));
}

}  // namespace

GridLayout starting_grid(const Chain& chain, const SolverOptions& options, std::vector<std::string>& warnings) {
    const double duration = planned_duration(chain, options);
    const char* what = options.end_time ? "" : ", two transit times of the longest rod";
    if (options.cells) {
        const GridLayout g = choose_grid(chain, options.cells);
        const double work = cell_updates(g, duration);
        if (work > largest_cell_updates)
            throw InvalidResolution(fmt::format(
                "finite differences: cells = {} needs {:.3g} cell-updates ({} cells x {:.3g} steps to "
                "t = {:g}{}), over the limit of {:.0e} cell-updates; use fewer cells or the characteristics method",
                options.cells, work, g.total_cells(), std::ceil(duration / g.time_step), duration, what,
                largest_cell_updates));
        return g;
    }
    // Work grows as cells^2 (cells and steps both scale with them). The default also plans for a
    // pulse to cross the whole chain (sum of transit times): a long train struck at one end takes
    // at least that long, and a default that cannot finish is worse than a coarser one.
    double ratio_sum = 0, chain_transit = 0;
    for (const Element& e : chain.elements()) {
        ratio_sum += e.transit_time / chain.shortest_transit_time();
        chain_transit += e.transit_time;
    }
    const double default_duration = options.end_time ? duration : std::max(duration, chain_transit);
    std::size_t cells = std::clamp<std::size_t>(
        static_cast<std::size_t>(0.5 * static_cast<double>(largest_total_cells) / ratio_sum), 1, default_cells);
    while (true) {
        const GridLayout g = choose_grid(chain, cells);
        const double work = cell_updates(g, default_duration);
        if (work <= largest_cell_updates) {
            if (cells < default_cells)
                warnings.push_back(fmt::format(
                    "finite differences: default resolution reduced to {} cells in the shortest rod to stay "
                    "within the limits ({} cells, {:.0e} cell-updates); accuracy may be poor", cells,
                    largest_total_cells, largest_cell_updates));
            return g;
        }
        if (cells == 1)
            throw InvalidResolution(fmt::format(
                "finite differences: even 1 cell in the shortest rod needs {:.3g} cell-updates to t = {:g}{}, "
                "over the limit of {:.0e} cell-updates; use the characteristics method", work, default_duration,
                options.end_time ? "" : ", the longer of two transit times of the longest rod and one of the chain",
                largest_cell_updates));
        cells = std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(cells) *
                                                                  std::sqrt(largest_cell_updates / work) * 0.99));
    }
}

namespace {

/// With no contact carrying force at the grid's time: the earliest time from which none can.
double settle_bound(const StaggeredGrid& grid) {
    std::vector<FreeRodMotion> rods;
    for (std::size_t i = 0; i < grid.chain().size(); ++i) rods.push_back(grid.free_motion(i));
    return chain_release_time(grid.time(), rods, grid.contacts().gaps(grid.time()), contact_tolerances(grid.chain()));
}

/// The outcome from the grid's state; reported at `end_time` (default: the grid's time).
Outcome snapshot(const StaggeredGrid& grid, bool settled, const std::vector<std::string>& warnings,
                 std::optional<double> end_time = std::nullopt, bool at_horizon = false) {
    const Chain& chain = grid.chain();
    SolverReport report;
    report.method = Method::finite_difference;
    report.end_time = end_time.value_or(grid.time());
    report.settled = settled;
    report.at_horizon = at_horizon;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        // The element holds what its ends emitted over the last transit time (exact at Courant 1);
        // its vibration is their energy about their own mean.
        const std::size_t e = sole_element(chain, i);
        const Element& el = chain.elements()[e];
        const ArrivalWindow alpha = grid.alpha_emitted(e), beta = grid.beta_emitted(e);
        RodState rod;
        rod.momentum = grid.momentum(e);
        rod.vibration_energy = invariant_energy(el.impedance, alpha, beta, invariant_mean(alpha, beta, el.transit_time));
        report.rods.push_back(rod);
    }
    const GridLayout& g = grid.layout();
    // The self-check's slack for one grid run (outcome_check.cpp); solve_finite_difference
    // replaces it by the run's error estimate.
    report.accuracy = finite_difference_accuracy;
    report.stats.events = grid.steps();
    report.stats.fronts = g.total_cells();
    report.stats.steps = grid.steps();
    report.stats.cells = g.total_cells();
    report.stats.shortest_rod_cells = g.shortest_rod_cells;
    report.stats.time_step = g.time_step;
    report.stats.courant_min = g.courant_min();
    report.warnings = warnings;
    return build_outcome(chain, grid.contacts(), std::move(report));
}

/// Velocity and force at evenly spread cell centres, every stride-th step; the stride doubles
/// (every other row dropped) whenever the rows would exceed the bound.
class FieldRecorder {
public:
    FieldRecorder(const StaggeredGrid& grid, const FieldResolution& res) : max_rows_(res.times) {
        validate(res);
        const GridLayout& g = grid.layout();
        const std::size_t total = g.total_cells(), cols = std::min(res.positions, total);
        std::size_t e = 0, first = 0;  // first global cell index of element e
        for (std::size_t c = 0; c < cols; ++c) {
            const std::size_t global = (2 * c + 1) * total / (2 * cols);
            while (global >= first + g.cells[e]) first += g.cells[e++];
            const std::size_t cell = global - first;
            const Element& el = grid.chain().elements()[e];
            const double h = el.length / static_cast<double>(g.cells[e]);
            columns_.push_back({e, cell});
            samples_.x.push_back(el.offset + (static_cast<double>(cell) + 0.5) * h);
            samples_.rod.push_back(el.rod);
        }
    }

    void record(const StaggeredGrid& grid) {
        if (grid.steps() % stride_ != 0) return;
        samples_.t.push_back(grid.time());
        for (const auto& [element, cell] : columns_) {
            velocity_.push_back(grid.velocity(element)[cell]);
            const auto f = grid.force(element);
            force_.push_back(0.5 * (f[cell] + f[cell + 1]));
        }
        if (samples_.t.size() > max_rows_) drop_odd_rows();
    }

    FieldSamples finish() && {
        const auto rows = static_cast<Eigen::Index>(samples_.t.size());
        const auto cols = static_cast<Eigen::Index>(columns_.size());
        using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        samples_.velocity = Eigen::Map<const RowMajor>(velocity_.data(), rows, cols);
        samples_.force = Eigen::Map<const RowMajor>(force_.data(), rows, cols);
        return std::move(samples_);
    }

private:
    void drop_odd_rows() {
        const std::size_t cols = columns_.size();
        std::size_t kept = 0;
        for (std::size_t r = 0; r < samples_.t.size(); r += 2, ++kept) {
            samples_.t[kept] = samples_.t[r];
            std::copy_n(velocity_.begin() + static_cast<std::ptrdiff_t>(r * cols), cols,
                        velocity_.begin() + static_cast<std::ptrdiff_t>(kept * cols));
            std::copy_n(force_.begin() + static_cast<std::ptrdiff_t>(r * cols), cols,
                        force_.begin() + static_cast<std::ptrdiff_t>(kept * cols));
        }
        samples_.t.resize(kept);
        velocity_.resize(kept * cols);
        force_.resize(kept * cols);
        stride_ *= 2;
    }

    struct Column {
        std::size_t element, cell;
    };
    std::size_t max_rows_;
    std::size_t stride_ = 1;
    std::vector<Column> columns_;
    FieldSamples samples_;
    std::vector<double> velocity_, force_;  // row-major, rows follow samples_.t
};

}  // namespace

FiniteDifferenceSolution solve_on_grid(const Chain& chain, const SolverOptions& options, const GridLayout& layout,
                                       std::optional<FieldResolution> field, std::vector<std::string> warnings) {
    StaggeredGrid grid(chain, layout);
    std::optional<FieldRecorder> recorder;
    if (field) recorder.emplace(grid, *field);

    const double dt = grid.layout().time_step;
    const double horizon = options.end_time.value_or(inf);
    const double record_until = options.record_until.value_or(0);
    const auto max_steps = static_cast<std::size_t>(largest_cell_updates / grid.layout().step_cost());
    SettlingWatch settling;
    std::optional<Outcome> outcome;
    while (true) {
        const double t = grid.time();
        if (recorder) recorder->record(grid);
        if (t > horizon - 0.5 * dt) break;  // the grid time nearest the horizon
        // Settled: no contact carries force and the bound holds from here on.
        if (grid.prepare_step())
            settling.force_carried();
        else if (!outcome)
            settling.force_free([&] { return settle_bound(grid); });
        // At the first grid time at or after the bound (rounding may put it a hair after a grid
        // time). From the bound on, momenta and the rods' contents are those of free rods, so the
        // outcome is reported at the bound itself, as the exact solver does.
        const double settle_time = settling.settle_time();
        if (!outcome && settle_time <= t + 1e-9 * dt) outcome = snapshot(grid, true, warnings, std::min(t, settle_time));
        if (outcome && !std::isfinite(horizon) && t >= record_until) {
            grid.finish_step();  // logs the contact events decided at t (openings at the last contact)
            break;
        }
        if (grid.steps() >= max_steps)
            throw SolverLimitExceeded(fmt::format(
                "finite differences: reached the work limit of {:.0e} cell-updates ({} steps of {} cells) at "
                "t = {:g} without settling; use fewer cells or set [solver] end_time", largest_cell_updates,
                grid.steps(), grid.layout().total_cells(), t));
        grid.finish_step();
        if (options.progress && (grid.steps() & 0x3fff) == 0) options.progress(grid.time(), grid.steps());
    }
    // With a horizon the outcome is evaluated there, settled or not (as the exact solver does).
    if (std::isfinite(horizon) || !outcome)
        outcome = snapshot(grid, outcome.has_value(), warnings, std::nullopt, std::isfinite(horizon));

    FiniteDifferenceSolution s{std::move(*outcome), grid.layout(), grid.contact_events(), grid.off_grid_closings(),
                               std::nullopt};
    if (recorder) s.field = std::move(*recorder).finish();
    return s;
}

double work_done(const FiniteDifferenceSolution& s) { return static_cast<double>(s.outcome.stats.steps) * s.grid.step_cost(); }

}  // namespace rodcollide
