// The finite-difference solver's error estimate and default refinement (finite_difference.hpp;
// derivation and calibration in docs/finite_difference.md, "Error estimate").
//
// Off the exact grid the error of a final velocity is e(n) = (a + b(n)) / n roughly: a smooth part
// and a phase part b(n) that jumps erratically with the cells n (where each off-grid event falls
// in its step), of the same size. Two grids can then agree by chance while both are off, and a
// two-grid estimate misses (it did on 10 % of audited chains, by up to 5x; the refinement loop,
// which stops at the first pair that agrees, selected for such pairs). So the fine run on N cells
// is compared with three coarser runs on a lattice of quarter octaves, about N/2, N/2^(5/4) and
// N/2^(3/2), each on a prime number of cells so that no two share the phases of their events
// (1000: 499, 419, 353; together about 0.55 of the fine run's work), and the estimate
// is the largest of the three successive pairs' order-1 convergence indices, each carried to N at
// order 1 (run_sequence_estimate(), error_estimate.hpp), with safety factor `safety`. Refinement
// goes up the lattice by sqrt(2) and reuses the runs it has, so a level costs its fine run and
// one coarse run; the pairs of earlier levels count too, carried to the new level at order 1, so
// refinement that cannot reach the target within the work limit is not begun. A coarser run not
// settled by twice the fine run's settling time disagrees about late re-contacts: no estimate.
#include "outcome/error_estimate.hpp"
#include "solvers/fd/finite_difference.hpp"
#include "outcome/outcome_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// Roache's factor of safety on each pair's order-1 index, from the calibration study
/// (docs/finite_difference.md): 2 covered 99.1 % of the validation chains (two misses, by 1.07 and
/// 1.18), 2.5 all of them with the largest error at 0.95 of its estimate.
constexpr double safety = 2.5;

/// A Courant defect is shared by two grids when they differ by at most this fraction of it (on
/// grids that share it exactly, rounding of c dt / h moves it by 1e-16 absolute).
constexpr double shared_defect_tolerance = 1e-6;
/// The estimate's factor on defect x V for a shared defect (shared_courant_defect()): the error
/// measured on two- and three-rod chains with defects 1e-7 to 5e-4 was at most 0.71 defect x V
/// (tests/solvers/fd/test_finite_difference_estimate.cpp).
constexpr double shared_defect_safety = 2;
/// The estimate's factor on first_step_closing_error().
constexpr double first_step_safety = 2;

/// Fewest cells (shortest element) of a coarser grid. Below it grids can agree while all are far
/// off (fuzz/regressions/fd_accuracy_claim.toml: 4 and 2 cells agreed to 1e-10 V and were
/// 5e-7 V off), so no estimate is made.
constexpr std::size_t smallest_estimate_cells = 8;

/// Coarser runs an estimate compares with, and the fewest it accepts (two pairs at least: one
/// pair alone is the two-grid estimate that agreed by chance).
constexpr std::size_t coarse_runs = 3;
constexpr std::size_t fewest_coarse_runs = 2;

/// The lattice of grids: the first grid's cells times 2^(k/4). Fine levels are k = 0, 2, 4, ...
/// (refinement by sqrt(2)); the coarser runs of level k are the first distinct grids from k - 4 down.
constexpr int steps_per_octave = 4;
constexpr int refinement_steps = 2;
constexpr int first_coarse_step = 4;

/// Fewest cells in the shortest element for an estimate: the coarser runs need
/// fewest_coarse_runs distinct grids of at least smallest_estimate_cells, from half the cells down.
std::size_t fewest_cells_for_estimate() {
    return static_cast<std::size_t>(std::ceil(static_cast<double>(smallest_estimate_cells) *
                                              std::pow(2.0, static_cast<double>(first_coarse_step + fewest_coarse_runs - 1) /
                                                                steps_per_octave)));
}

/// A coarse run ends when the fine run's settling time has passed twice over, and two crossings of
/// the whole chain more (the settling proof itself lags by up to a few transit times): a run not
/// settled by then disagrees with the fine run about late re-contacts, and its final velocities
/// say nothing about the fine run's error.
double settle_by(const Chain& chain, const SolverOptions& options, const Outcome& fine) {
    if (options.end_time) return inf;  // every run stops at the horizon
    double chain_transit = 0;
    for (const Element& e : chain.elements()) chain_transit += e.transit_time;
    return 2 * fine.end_time + 2 * chain_transit;
}

/// The largest prime within 1/16 below `cells` (the lattice's spacing is 19 %), or `cells`.
/// Grids whose cells share a factor q see every event that falls near a multiple of 1/q of a
/// transit time at the same phase in its step, so they make the same error and agree while both
/// are off (calibration chain 3-79: 250, 420, 500 and 595 cells, all multiples of 5, are 4.05e-4
/// m/s off alike, the closing at 0.40046 of a transit time). Coarser runs on primes share no factor.
std::size_t prime_cells_near(std::size_t cells) {
    auto prime = [](std::size_t n) {
        if (n < 2) return false;
        for (std::size_t d = 2; d * d <= n; ++d)
            if (n % d == 0) return false;
        return true;
    };
    for (std::size_t c = cells; c >= 2 && 16 * (cells - c) <= cells; --c)
        if (prime(c)) return c;
    return cells;
}

/// The runs of one solve, each grid run at most once (refinement reuses them as coarser runs).
class GridRuns {
public:
    GridRuns(const Chain& chain, const SolverOptions& options, std::size_t first_cells)
        : chain_(chain), options_(options), first_cells_(static_cast<double>(first_cells)) {}

    /// The grid at lattice step k (may coincide with a neighbour's: commensurate grids round up).
    /// Fine levels (k = 0, 2, 4, ...) have the lattice's cells; the others are coarser runs only,
    /// and take a prime number of cells near it (prime_cells_near()), or Q times a prime on a
    /// commensurate grid, whose cells are multiples of its common denominator Q (events on the
    /// 1/Q lattice are exact there; the others fall at phases set by the multiple).
    GridLayout grid(int k) const {
        const auto cells = std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(
                                                        first_cells_ * std::pow(2.0, static_cast<double>(k) / steps_per_octave))));
        if (k >= 0 && k % refinement_steps == 0) return choose_grid(chain_, cells);
        const std::size_t q = std::max<std::size_t>(1, choose_grid(chain_, cells).common_denominator);
        return choose_grid(chain_, q * prime_cells_near(std::max<std::size_t>(1, cells / q)));
    }

    /// The coarser grids for a fine run at lattice step k: the first `coarse_runs` distinct grids
    /// from step k - first_coarse_step down, each of at least smallest_estimate_cells.
    std::vector<GridLayout> coarser_grids(int k, const GridLayout& fine) const {
        std::vector<GridLayout> grids;
        std::size_t below = fine.shortest_rod_cells;
        for (int j = k - first_coarse_step; grids.size() < coarse_runs; --j) {
            GridLayout g = grid(j);
            if (g.shortest_rod_cells < smallest_estimate_cells) break;
            if (g.shortest_rod_cells >= below) continue;
            below = g.shortest_rod_cells;
            grids.push_back(std::move(g));
        }
        return grids;
    }

    /// The outcome on `grid`, run once (no field, no gauges), or why it is missing.
    struct Run {
        std::optional<Outcome> outcome;
        std::string failure;
    };
    const Run& run(const GridLayout& grid, double deadline) {
        auto [it, inserted] = runs_.try_emplace(grid.shortest_rod_cells);
        if (!inserted) return it->second;
        try {
            FiniteDifferenceSolution s = solve_on_grid(chain_, options_, grid, std::nullopt, {}, {}, deadline);
            work_ += work_done(s);
            it->second.outcome = std::move(s.outcome);
        } catch (const SolverLimitExceeded& e) {
            // A run that gave up did work up to its deadline or the work limit.
            work_ += std::min(largest_cell_updates, grid.step_cost() * std::ceil(deadline / grid.time_step));
            it->second.failure = e.what();
        }
        return it->second;
    }
    /// Remembers the outcome of a run made elsewhere (the fine runs, with field and gauges).
    void keep(const FiniteDifferenceSolution& s) {
        runs_[s.grid.shortest_rod_cells].outcome = s.outcome;
        work_ += work_done(s);
    }
    bool has(const GridLayout& grid) const { return runs_.count(grid.shortest_rod_cells) > 0; }
    const Chain& chain() const { return chain_; }
    double work() const { return work_; }

private:
    const Chain& chain_;
    const SolverOptions& options_;
    double first_cells_;
    std::map<std::size_t, Run> runs_;  // by cells in the shortest element
    double work_ = 0;
};

/// The Courant defect 1 - c dt / h that an element has alike on the fine grid and on every coarser
/// grid of its estimate, the largest over the elements [-]. Element i gets floor(n T_i / T_min)
/// cells on a grid of n cells in the shortest (choose_grid()), so a transit time a fraction delta
/// above a whole multiple m of T_min runs at Courant m / (m + delta) on every grid with
/// n delta < 1: the same defect on all of them. Their runs then differ by the phase part of the
/// error only, and the pairs of the estimate cannot see the part the defect makes, about
/// defect x V / 2 (fuzz/regressions/fd_accuracy_claim.toml: rods 1 and 0.4999995, Courant
/// 1 - 1e-6 in the longer on every grid below 10^6 cells, 5e-7 m/s off while the pairs stated
/// 2.6e-9; docs/finite_difference.md, "Error estimate"). A defect that changes from grid to grid
/// is the ordinary error of a grid, which the pairs see.
double shared_courant_defect(const GridLayout& fine, const std::vector<GridLayout>& coarser) {
    double shared = 0;
    for (std::size_t i = 0; i < fine.courant.size(); ++i) {
        const double defect = 1 - fine.courant[i];
        if (!(defect > finite_difference_rounding)) continue;
        const bool alike = std::ranges::all_of(coarser, [&](const GridLayout& g) {
            return std::abs((1 - g.courant[i]) - defect) <= shared_defect_tolerance * defect;
        });
        if (alike) shared = std::max(shared, defect);
    }
    return shared;
}

/// How long a compliant contact's force takes to rise after it closes at the approach speed w
/// (its onset [s]): the time w takes to reach the overlap at which k δ^p balances z w, z the
/// impedance the contact pushes against. 0 for a rigid contact (its force jumps) and a bilateral law.
double compliant_onset(const ContactLaw& law, double z, double approach) {
    if (law.rigid() || law.bilateral || !(law.stiffness > 0) || !(approach > 0)) return 0;
    return std::pow(z * approach / law.stiffness, 1 / law.exponent) / approach;
}

/// The time after t = 0 (a time on every grid) by which a contact closing across gap g at the
/// initial approach speed w, t = g / w, has taken up its force, t + onset, if that is inside the
/// first step of every grid of an estimate (dt the fine grid's step, the shortest); else t if the
/// closing alone is; else 0: closings and onsets on a grid's first time (t = 0 and a rigid
/// contact) or after the first step are resolved by the grids.
double first_step_closing(double gap, double approach, double onset, double dt) {
    if (!(approach > 0)) return 0;
    const double t = gap > 0 ? gap / approach : 0;
    const auto inside = [&](double s) { return s > off_grid_tolerance * dt && s < dt; };
    return inside(t + onset) ? t + onset : inside(t) ? t : 0;
}

/// first_step_closing_error() at lumped junction `j` (masses between rods, docs/physics.md §9.4):
/// its contacts between a rod end and a mass, rigid or compliant, locked as a rod's are (a mass of 4
/// at 1 m/s across a gap of 1e-4 to a rod: 8.3e-5 m/s off on every grid, 4.1e-9 stated at the
/// default resolution; fuzz/regressions/fd_locked_first_closing_mass.toml). The force is at most
/// Z w, so the shifted share moves the rod by at most w t / T. It would move a mass lighter than
/// the rod (M < Z T) by up to Z w t / M, but such a mass's force decays within M / Z, before the
/// openings that decide the error (a mass of 0.05 on a rod of mass 1: 1e-12 m/s off on every grid):
/// w t / T is stated for both sides, the rod's transit time T.
double lumped_first_step_closing_error(const Chain& chain, std::size_t j, double dt) {
    const std::vector<Element>& elements = chain.elements();
    const Junction& q = chain.junctions()[j];
    const LumpedNode node(chain, j);
    const std::size_t m = node.masses().size();
    double error = 0;
    for (std::size_t i : {std::size_t{0}, m}) {  // the links beside a rod: the first and the last
        const std::ptrdiff_t rod = i == 0 ? q.left : q.right;
        const LumpedLink::Kind kind = node.links()[i].kind;
        if (rod < 0 || (kind != LumpedLink::Kind::rod_rigid && kind != LumpedLink::Kind::compliant)) continue;
        const Element& e = elements[static_cast<std::size_t>(rod)];
        const std::size_t body = i == 0 ? 0 : m - 1;
        const double approach = i == 0 ? e.initial_velocity - node.velocity(body) : node.velocity(body) - e.initial_velocity;
        const double onset = compliant_onset(node.links()[i].law, e.impedance, approach);
        error += approach * first_step_closing(-node.links()[i].overlap, approach, onset, dt) / e.transit_time;
    }
    return error;
}

/// The error [m/s] of the gap closings that fall inside the first step of every grid of an
/// estimate (dt: the fine grid's step, the shortest): a contact (or wall) whose gap g closes
/// at t = g / w, w the initial approach speed, with 0 < t < dt. Every later opening that the
/// closing's front decides then falls the same t after a time that is on every grid (a multiple
/// of T_min: t = 0 is on all of them), so each grid takes the same share of one step's force there
/// and the grids agree while all are off (docs/finite_difference.md, "Error estimate"). Three rods
/// 1, 0.5 and 0.7 long of areas 1, 2 and 1.5, the first at 1 m/s with a gap of 1e-4 (1e-3) to the
/// second: 6.0e-5 (6.0e-4) m/s off on 32 and 130 cells, all grids agreeing: 1e-10 stated. The
/// impulse such a share moves is at most t times the contact force, which changes the velocity
/// of a rod of transit time T by at most w t / T (the force is below Z w, the mass is Z T); the
/// closings' shares add up. Measured on these chains, fuzz/regressions/fd_locked_first_closing_*.toml
/// and bench/study/fd_locked_grids.py: at most 0.7 of the sum. A compliant contact locks alike,
/// and over its onset too (compliant_onset(): every grid averages the same rise of its force into
/// its first step): three rods, a spring of 1000 N/m across a gap of 1e-4, 3.5e-4 m/s off on 32
/// cells and 1.7e-5 stated; a mass on a Hertz contact closed at t = 0, onset 1.8e-3 s,
/// fuzz/regressions/fd_locked_hertz_onset.toml: 1.6e-2 off, 2.1e-4 stated. Contacts of masses: above.
double first_step_closing_error(const Chain& chain, double dt) {
    const std::vector<Element>& elements = chain.elements();
    double error = 0;
    for (std::size_t j = 0; j < chain.junctions().size(); ++j) {
        const Junction& q = chain.junctions()[j];
        if (q.lumped) {
            error += lumped_first_step_closing_error(chain, j, dt);
            continue;
        }
        if (q.kind != JunctionKind::contact && q.kind != JunctionKind::wall) continue;
        const auto velocity = [&](std::ptrdiff_t e) { return e >= 0 ? elements[static_cast<std::size_t>(e)].initial_velocity : 0.0; };
        const double approach = velocity(q.left) - velocity(q.right);
        double transit = inf, compliance = 0;  // compliance: 1 / z, the sides' impedances in series
        for (std::ptrdiff_t e : {q.left, q.right}) {
            if (e < 0) continue;
            transit = std::min(transit, elements[static_cast<std::size_t>(e)].transit_time);
            compliance += 1 / elements[static_cast<std::size_t>(e)].impedance;
        }
        const double onset = compliant_onset(q.law, 1 / compliance, approach);
        error += approach * first_step_closing(q.initial_gap, approach, onset, dt) / transit;
    }
    return error;
}

/// The estimate for the fine run at lattice step k, or why there is none.
struct LevelEstimate {
    double estimate = inf;
    std::size_t coarse_cells = 0, coarse_steps = 0;  // the finest coarser run
    std::string why_none, remedy;                    // empty when there is an estimate
};

LevelEstimate estimate_level(GridRuns& runs, int k, const FiniteDifferenceSolution& fine, double deadline,
                             double floor) {
    LevelEstimate level;
    const std::vector<GridLayout> grids = runs.coarser_grids(k, fine.grid);
    if (grids.size() < fewest_coarse_runs) {
        level.why_none = fmt::format("{} cells in the shortest element are too few for {} coarser grids of at least {}",
                                     fine.grid.shortest_rod_cells, fewest_coarse_runs, smallest_estimate_cells);
        level.remedy = fmt::format("use cells >= {}", fewest_cells_for_estimate());
        return level;
    }
    std::vector<ResolvedRun> sequence{{&fine.outcome, static_cast<double>(fine.grid.shortest_rod_cells)}};
    for (const GridLayout& g : grids) {
        const GridRuns::Run& r = runs.run(g, deadline);
        if (!r.outcome) {
            level.why_none = std::isfinite(deadline)
                                 ? fmt::format("on {} cells the chain had not settled by t = {:g}, on {} cells it settled at "
                                               "t = {:g}: the grids disagree about late re-contacts, which the grid's "
                                               "error decides",
                                               g.shortest_rod_cells, deadline, fine.grid.shortest_rod_cells,
                                               fine.outcome.end_time)
                                 : fmt::format("the run on {} cells did not finish ({})", g.shortest_rod_cells, r.failure);
            level.remedy = "use the characteristics method";
            return level;
        }
        sequence.push_back({&*r.outcome, static_cast<double>(g.shortest_rod_cells)});
    }
    // A pair of grids that agree to rounding, none of them exact, are phase-locked (every event at
    // the same phase in its step; calibration chain 4-55: a re-contact ends 1.08e-3 before a
    // whole time unit, so on every grid of fewer than 1852 cells it ends at that unit, 500, 420
    // and 354 cells agreeing to 1e-16 while 5e-5 m/s off). Such a pair shows nothing, and with
    // fewer than two pairs that differ the others cannot be trusted to show the error either. If
    // all four agree, the result does not depend on the grid: its error is rounding.
    std::vector<double> tied;  // cells of the runs in pairs that agree
    std::size_t differing = 0;
    for (std::size_t j = 0; j + 1 < sequence.size(); ++j) {
        if (final_velocity_difference(*sequence[j].outcome, *sequence[j + 1].outcome) > floor) {
            ++differing;
            continue;
        }
        for (std::size_t i : {j, j + 1})
            if (std::find(tied.begin(), tied.end(), sequence[i].resolution) == tied.end()) tied.push_back(sequence[i].resolution);
    }
    level.coarse_cells = grids.front().shortest_rod_cells;
    level.coarse_steps = sequence[1].outcome->stats.events;
    // What no pair can see: the error of a Courant defect all the grids share, and of closings
    // inside the first step of every grid (above).
    const double shared = std::max(shared_defect_safety * shared_courant_defect(fine.grid, grids) * runs.chain().velocity_scale(),
                                   first_step_safety * first_step_closing_error(runs.chain(), fine.grid.time_step));
    if (differing == 0) {
        level.estimate = std::max(floor, shared);
        return level;
    }
    if (differing < fewest_coarse_runs) {
        level.coarse_cells = level.coarse_steps = 0;
        level.why_none = fmt::format("the runs on {} cells agree to rounding though no grid is exact: phase-locked (each "
                                     "event at the same phase in its step), they cannot show the error",
                                     fmt::join(tied, ", "));
        level.remedy = "use the characteristics method";
        return level;
    }
    level.estimate = std::max(run_sequence_estimate(sequence, 1, safety, floor), shared);
    return level;
}

/// The velocity error [m/s] the scheme's own energy defect reveals. Approximations only remove
/// energy; energy the scheme created (dropped < 0, at grazing re-contacts) is evidence of error
/// that phase-locked grids can miss (fuzz/regressions/fd_accuracy_claim.toml). A relative
/// velocity error a changes energies by a (2 + a) of their scale (outcome_check.cpp), so the
/// error is at least the a that explains the created energy (with 1% margin for rounding).
double energy_defect_error(const Outcome& o, double scale) {
    const EnergyBalance& e = o.energy;
    if (!(e.dropped < 0)) return 0;
    const double energy_scale = e.scale();
    if (!(energy_scale > 0)) return 0;
    const double created = -e.dropped / energy_scale;
    return 1.01 * created / (std::sqrt(1 + created) + 1) * scale;  // sqrt(1 + r) - 1, without cancellation
}

}  // namespace

std::string finite_difference_refusal(const Chain& chain, const SolverOptions& options) {
    if (chain.elements().empty())
        return "finite differences need at least one rod for a grid: a chain of rigid bodies only is run by "
               "velocity Verlet through solve() (docs/physics.md §9.9), which has no wave field or gauges";
    for (ChainSide side : {ChainSide::left, ChainSide::right})
        if (chain.ends()[side].attached() && !options.end_time)
            return fmt::format("the {} end is a \"{}\", attached for ever: the chain never settles (docs/physics.md "
                               "§9.5); set [solver] end_time (--end-time)",
                               to_string(side), to_string(chain.ends()[side].kind));
    return {};
}

FiniteDifferenceSolution solve_finite_difference(const Chain& chain, const SolverOptions& options,
                                                 std::optional<FieldResolution> field,
                                                 const std::vector<std::size_t>& field_rods) {
    // A chain of rigid bodies only runs by velocity Verlet (solve(), rigid_body_verlet.cpp), not here.
    // Issue 23 (solve.cpp refuses these first, as UnsupportedMethod): no grid without a rod; an
    // attached end never lets a chain settle.
    if (chain.elements().empty())
        throw InvalidInput("rod", finite_difference_refusal(chain, options));
    for (ChainSide side : {ChainSide::left, ChainSide::right})
        if (chain.ends()[side].attached() && !options.end_time)
            throw InvalidInput("solver.end_time", finite_difference_refusal(chain, options));
    std::vector<std::string> warnings;
    const GridLayout first = starting_grid(chain, options, warnings);
    if (field) validate(*field);
    const bool default_resolution = options.cells == 0 && warnings.empty();
    const double scale = chain.velocity_scale();
    const double target = accuracy_target(options) * scale;
    const double floor = finite_difference_rounding * scale;

    FiniteDifferenceSolution fine = solve_on_grid(chain, options, first, field, warnings, field_rods);
    GridRuns runs(chain, options, first.shortest_rod_cells);
    runs.keep(fine);
    LevelEstimate level;
    double first_estimate = inf;
    std::size_t first_cells = first.shortest_rod_cells;
    if (fine.exact()) {
        // Courant 1 in every element and every event on a grid time: the run is the method of
        // characteristics on its lattice, exact to rounding (docs/finite_difference.md).
        level.estimate = floor;
    } else {
        level = estimate_level(runs, 0, fine, settle_by(chain, options, fine.outcome), floor);
        first_estimate = level.estimate;
    }
    // Refine by sqrt(2) while the estimate misses the target and the next level fits the work
    // limit: its fine run costs about twice the last, its one new coarser run about 0.18 of that.
    // The pairs of each level are carried to the next at order 1, so no level on n cells can state
    // less than estimate x N / n: when even the finest level the remaining work allows (work grows
    // as n^2) cannot reach the target that way, refining is futile and is not begun.
    constexpr double level_cost = 1.2;  // a level's work over its fine run's
    auto reachable = [&](const LevelEstimate& l, const FiniteDifferenceSolution& f) {
        const double finest = std::sqrt(std::max(0.0, largest_cell_updates - runs.work()) / (level_cost * work_done(f)));
        return l.estimate / std::max(finest, 1.0) <= target;
    };
    for (int k = refinement_steps;
         default_resolution && std::isfinite(level.estimate) && level.estimate > target && reachable(level, fine);
         k += refinement_steps) {
        GridLayout next;
        try {
            next = runs.grid(k);  // throws InvalidResolution past the memory limit
        } catch (const InvalidResolution&) {
            break;
        }
        if (next.shortest_rod_cells <= fine.grid.shortest_rod_cells) continue;  // commensurate rounding
        const double ratio = static_cast<double>(next.shortest_rod_cells) / static_cast<double>(fine.grid.shortest_rod_cells);
        if (runs.work() + level_cost * ratio * ratio * work_done(fine) > largest_cell_updates) break;
        std::optional<FiniteDifferenceSolution> finer;
        try {
            finer = solve_on_grid(chain, options, next, field, warnings, field_rods);
        } catch (const SolverLimitExceeded&) {
            break;  // keep the last run that finished, and say that it misses the target
        }
        runs.keep(*finer);
        LevelEstimate refined = estimate_level(runs, k, *finer, settle_by(chain, options, finer->outcome), floor);
        if (!std::isfinite(refined.estimate)) break;  // keep the level that has an estimate
        // The pairs of the earlier levels still speak, carried at order 1 as within a level: a level
        // whose pairs agree by chance cannot undo them (the loop stops at the first estimate below
        // the target, which would otherwise select such levels).
        refined.estimate = std::max(refined.estimate, level.estimate / ratio);
        level = std::move(refined);
        fine = std::move(*finer);
    }

    Outcome& o = fine.outcome;
    const double estimate = std::max(level.estimate, energy_defect_error(o, scale));
    o.velocity_error_bound = estimate;
    o.velocity_error_kind = Outcome::ErrorKind::estimate;
    o.accuracy = scale > 0 ? estimate / scale : finite_difference_rounding;
    o.stats.estimate_cells = level.coarse_cells;
    o.stats.estimate_events = level.coarse_steps;
    o.stats.velocity_error_target = target;
    o.stats.velocity_error_target_met = estimate <= target;
    if (!std::isfinite(estimate)) {
        o.warnings.push_back(fmt::format("finite differences: no error estimate: {}; so the target {:.0e} of the "
                                         "velocity scale is not shown; {}",
                                         level.why_none, accuracy_target(options), level.remedy));
    } else if (estimate > target) {
        // Refined, yet the estimate fell by less than order 1/2 would make it: the grids do not
        // converge at the scheme's order where the outcome hinges on grazing re-contacts.
        const double refined = static_cast<double>(fine.grid.shortest_rod_cells) / static_cast<double>(first_cells);
        const bool stalled = refined > 1 && std::isfinite(first_estimate) && estimate > first_estimate / std::sqrt(refined);
        o.warnings.push_back(fmt::format(
            "finite differences: estimated velocity error {:.3g} m/s ({:.3g} of the velocity scale) misses the "
            "target {:.0e} of the velocity scale{}{}; use more cells or the characteristics method",
            estimate, estimate / scale, accuracy_target(options), default_resolution ? " within the work limit" : "",
            stalled ? fmt::format(" (from {} to {} cells it fell from {:.2g} m/s only: the grids do not converge at "
                                  "the scheme's order, the outcome hinges on re-contacts the grid does not resolve)",
                                  first_cells, fine.grid.shortest_rod_cells, first_estimate)
                    : std::string()));
    }
    AccuracyReport& r = o.accuracy_report;
    r.target = accuracy_target(options);  // relative already: target / scale is 0/0 when nothing moves
    if (fine.exact()) {
        r.status = AccuracyStatus::exact;
        r.statement = "exact to rounding (Courant 1, every event on a grid time)";
    } else if (!std::isfinite(estimate)) {
        r.status = AccuracyStatus::no_estimate;
        r.statement = fmt::format("no estimate: {}", level.why_none);
    } else if (estimate <= target) {
        r.status = AccuracyStatus::met;
        r.statement = fmt::format("{:.2g} V reached (estimate) on {} cells, within the {:.2g} V asked for",
                                  estimate / scale, fine.grid.shortest_rod_cells, r.target);
    } else if (!default_resolution) {
        r.status = AccuracyStatus::resolution_set;
        r.statement = fmt::format("{:.2g} V reached on {} cells, set by hand; {:.2g} V asked for",
                                  estimate / scale, fine.grid.shortest_rod_cells, r.target);
    } else {
        r.status = AccuracyStatus::work_budget;
        r.statement = fmt::format("work limit: {:.2g} V reached on {} cells; {:.2g} V would need more grid work "
                                  "than the limit allows", estimate / scale, fine.grid.shortest_rod_cells, r.target);
    }
    // The self-check of build_outcome held the run to its grid's accuracy; the outcome now states
    // the estimate's, so it is checked again against what it claims.
    check_outcome(o);
    return fine;
}

}  // namespace rodcollide
