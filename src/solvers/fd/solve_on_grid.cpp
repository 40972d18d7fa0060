// Finite-difference solve (finite_difference.hpp): runs a StaggeredGrid until no contact can
// provably happen again and nothing more arrives at or leaves an anechoic end (settling.hpp, the
// exact solver's rule), to a horizon, or to the work limit; then builds the Outcome (at the
// settling time itself, inside the last step) and, when asked, the decimated field history and the
// wave field of chosen rods (grid_wave_field.hpp).
#include "solvers/fd/finite_difference.hpp"

#include "solvers/fd/grid_wave_field.hpp"

#include "solvers/shared/invariant_energy.hpp"
#include "solvers/shared/outcome_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// The duration the up-front work estimate assumes: the horizon if given, else two transit
/// times of the longest rod (about the least a collision of touching rods lasts), or
/// record_until, or the end of the last load, if longer.
double planned_duration(const Chain& chain, const SolverOptions& options) {
    if (options.end_time) return *options.end_time;
    double loads = 0;
    for (const Load& l : chain.ends().loads) loads = std::max(loads, l.end_time());
    return std::max({2 * chain.longest_transit_time(), options.record_until.value_or(0.0), loads});
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
        ratio_sum += e.transit_time / shortest_element_transit_time(chain);
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

/// The outcome from the grid's state at t^n - lag (0 <= lag <= dt: the settling time falls inside
/// the last step; nothing but the chain's ends acts there, linearly in time).
Outcome snapshot(const StaggeredGrid& grid, const SolverOptions& options, bool settled,
                 const std::vector<std::string>& warnings, double lag = 0, bool at_horizon = false) {
    const Chain& chain = grid.chain();
    SolverReport report;
    report.method = Method::finite_difference;
    report.end_time = grid.time() - lag;
    report.settled = settled;
    report.at_horizon = at_horizon;
    for (std::size_t i = 0; i < chain.size(); ++i) {
        if (chain[i].is_mass()) {  // a rigid body: momentum M u, no vibration
            RodState mass;
            mass.momentum = chain[i].mass() * grid.mass_velocity(i);
            report.rods.push_back(mass);
            continue;
        }
        // Each element holds what its ends emitted over the last transit time (exact at Courant
        // 1); the rod's vibration is their energy about the rod's mean invariant.
        const RodWindows w = grid.rod_windows(i, lag);
        const auto elements = chain.element_indices(i);
        double mean = 0;
        for (std::size_t k = 0; k < elements.size(); ++k) {
            const Element& el = chain.elements()[elements[k]];
            const double element_mean = invariant_mean(w.alpha[k], w.beta[k], el.transit_time);
            mean += elements.size() == 1 ? element_mean : el.mass * element_mean / chain[i].mass();
        }
        RodState rod;
        rod.momentum = w.momentum;
        for (std::size_t k = 0; k < elements.size(); ++k)
            rod.vibration_energy += invariant_energy(chain.elements()[elements[k]].impedance, w.alpha[k], w.beta[k], mean);
        report.rods.push_back(rod);
    }
    report.left_end = grid.end_report(ChainSide::left, report.end_time);
    report.right_end = grid.end_report(ChainSide::right, report.end_time);
    report.force_samples = options.force_samples;
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
    report.attached_end_forces = {grid.attached_end_forces(ChainSide::left), grid.attached_end_forces(ChainSide::right)};
    report.contact_energy = grid.contact_energy();
    report.dissipated = grid.dissipated();
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
                                       std::optional<FieldResolution> field, std::vector<std::string> warnings,
                                       const std::vector<std::size_t>& field_rods, double settle_by) {
    StaggeredGrid grid(chain, layout);
    if (options.force_samples) grid.record_forces();
    std::optional<FieldRecorder> recorder;
    if (field) recorder.emplace(grid, *field);
    std::optional<GridWaveField> wave_field;
    if (!field_rods.empty()) wave_field.emplace(chain, field_rods, options.max_fronts);

    const double dt = grid.layout().time_step;
    const double horizon = options.end_time.value_or(inf);
    const double record_until = options.record_until.value_or(0);
    const auto max_steps = static_cast<std::size_t>(largest_cell_updates / grid.layout().step_cost());
    SettlingWatch settling;
    const bool anechoic = chain.ends().left.kind == EndKind::anechoic || chain.ends().right.kind == EndKind::anechoic;
    const std::size_t retry = layout.shortest_rod_cells;  // steps per shortest transit time
    bool radiated = false;        // an anechoic end radiated during the last step
    std::size_t since_bound = 0;  // steps since the last bound
    std::optional<Outcome> outcome;
    while (true) {
        const double t = grid.time();
        if (recorder) recorder->record(grid);
        // Settled within the last step (the bound was taken at a grid time before it, from which
        // nothing but the chain's ends acts): the outcome at the bound itself, as the exact solver
        // reports it.
        const double settle_time = settling.settle_time();
        if (!outcome && settle_time <= t + 1e-9 * dt)
            outcome = snapshot(grid, options, true, warnings, std::clamp(t - settle_time, 0.0, dt));
        if (t > horizon - 0.5 * dt) break;  // the grid time nearest the horizon
        if (outcome && !std::isfinite(horizon) &&
            t >= std::max(record_until, outcome->end_time + options.record_after_settling))
            break;
        // Settling: nothing carries force during the step and the bound holds from here on.
        if (grid.prepare_step()) {
            settling.force_carried();
        } else if (!outcome) {
            // A bound the rods' motion could not prove yet (a rod with an anechoic end still
            // holding what has to leave, docs/physics.md §8.2) is taken again as that leaves, as the
            // exact solver does at each radiating event: at once when the end stops radiating, and
            // once per shortest transit time meanwhile (a bound costs a pass over the cells; what
            // bounces between a rod's joints may leave below the radiation band). A proven bound
            // already waits for what has to leave.
            const bool stopped = radiated && !grid.radiating();
            radiated = grid.radiating();
            if (anechoic && !std::isfinite(settling.settle_time()) && (stopped || ++since_bound >= retry))
                settling.force_carried();
            settling.force_free([&] {
                since_bound = 0;
                return grid.release_time(options.settle_by_period);
            });
        }
        // Settled at t itself: preparing the step left the cells as they are at t.
        if (!outcome && settling.settle_time() <= t + 1e-9 * dt) outcome = snapshot(grid, options, true, warnings);
        if (grid.steps() >= max_steps && outcome && !std::isfinite(horizon)) {
            // Settled, and only recording (gauges, fields) goes on: it ends here, the outcome stands.
            outcome->warnings.push_back(fmt::format(
                "finite differences: recording past settling stopped at t = {:g}, at the work limit of {:.0e} "
                "cell-updates; use fewer cells for longer records", t, largest_cell_updates));
            break;
        }
        if (!outcome && t >= settle_by)
            throw SolverLimitExceeded(fmt::format("finite differences: not settled by t = {:g} on {} cells", settle_by,
                                                  grid.layout().shortest_rod_cells));
        if (grid.steps() >= max_steps)
            throw SolverLimitExceeded(fmt::format(
                "finite differences: reached the work limit of {:.0e} cell-updates ({} steps of {} cells) at "
                "t = {:g} without settling; use fewer cells or set [solver] end_time", largest_cell_updates,
                grid.steps(), grid.layout().total_cells(), t));
        grid.finish_step();
        if (wave_field) wave_field->record(grid, t);
        if (options.progress && (grid.steps() & 0x3fff) == 0) options.progress(grid.time(), grid.steps());
    }
    // With a horizon the outcome is evaluated there, settled or not (as the exact solver does).
    if (std::isfinite(horizon) || !outcome)
        outcome = snapshot(grid, options, outcome.has_value(), warnings, 0, std::isfinite(horizon));

    FiniteDifferenceSolution s{std::move(*outcome), grid.layout(), grid.contact_events(), grid.off_grid_closings(),
                               grid.off_grid_load_steps(), std::nullopt, std::nullopt};
    s.compliant = grid.has_compliant_junctions();
    if (recorder) s.field = std::move(*recorder).finish();
    if (wave_field) s.wave_field = std::move(*wave_field).finish(grid.time());
    return s;
}

double work_done(const FiniteDifferenceSolution& s) { return static_cast<double>(s.outcome.stats.steps) * s.grid.step_cost(); }

}  // namespace rodcollide
