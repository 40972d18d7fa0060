// The exact solver's error estimate (characteristics.hpp; derivation and validation in
// docs/physics.md §5.1, "Error estimate"). A run that merged fronts below its time resolution or
// dropped jumps below its drop tolerance is repeated with that resolution (tolerance) doubled, and
// the error of the first is estimated as a two-run convergence index (error_estimate.hpp, Roache
// 1994): E = S max_i |u_i(delta) - u_i(2 delta)| / (2^p - 1), with the order p = 1/2 measured on
// seeded mismatched chains and Roache's safety factor S = 3 for two runs. The coarser run merges
// more and costs about half as much (the stored fronts scale as 1 / delta).
// A run that approximated nothing is exact to rounding, but rounding itself may decide the
// outcome: where contacts close again and again, a closing at a grazing approach speed s amplifies
// a time's rounding by V/s, and long chains with gaps are chaotic (docs/physics.md §5.4). Such a
// run (some contact closed more than once) is repeated on rods whose lengths differ by eight units
// in the last place, and E = 3 max_i |u_i - u'_i| (the safety factor of a two-run estimate) is
// reported as the estimate when it exceeds the rounding the exact solver states.
#include "solvers/exact/characteristics.hpp"
#include "solvers/exact/front_budget.hpp"
#include "outcome/error_estimate.hpp"
#include "base/resident_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace rodcollide {

namespace {

/// The coarser run's resolution and drop tolerance, relative to the first run's, and the estimate:
/// order 1/2 (the median order measured, docs/physics.md §5.1) and Roache's safety factor 3 for two
/// runs, so E = 3 |u(delta) - u(2 delta)| / (sqrt(2) - 1) = 7.24 |u(delta) - u(2 delta)|.
constexpr double coarsening = 2;
constexpr ConvergenceIndex merge_index{.ratio = coarsening, .order = 0.5, .safety = 3};

/// The rounding check's perturbation of the rods' lengths, alternately longer and shorter (so that
/// the ratios of transit times change too): eight units in the last place, the rounding of a few
/// operations, so that the two runs differ as much as rounding moves the outcome. With the safety
/// factor below, the estimate covered the difference to two other computations that differ from
/// the run in rounding only (step by step with absolute times; lengths changed the other way) on
/// 19 of 20 seeded ten- and twenty-rod chains, and came within 1.24x on the last
/// (tests/solvers/exact/test_rounding_check.cpp, docs/physics.md §5.4).
constexpr double length_perturbation = 8 * std::numeric_limits<double>::epsilon();
constexpr double rounding_safety = 3;

/// Whether some contact closed more than once (only then can rounding be amplified closing after
/// closing).
bool closes_again(const std::vector<ContactEvent>& events, std::size_t contacts) {
    std::vector<bool> closed(contacts, false);
    for (const ContactEvent& e : events) {
        if (e.kind != ContactEvent::Kind::closing || e.contact >= contacts) continue;
        if (closed[e.contact]) return true;
        closed[e.contact] = true;
    }
    return false;
}

/// The chain with every rod (segment) length changed by -/+ length_perturbation, alternately.
Chain with_perturbed_lengths(const Chain& chain) {
    std::vector<Rod> rods = chain.rods();
    for (std::size_t i = 0; i < rods.size(); ++i) {
        const double f = i % 2 == 0 ? 1 + length_perturbation : 1 - length_perturbation;
        rods[i].length *= f;
        for (Segment& g : rods[i].segments) g.length *= f;
    }
    return Chain(std::move(rods), chain.ends());
}

/// Options for a second run whose outcome only is wanted, with at most `second_run_events` times
/// the event groups of the first (`first`) and their floor: a second run of a chaotic chain may
/// never settle where the first did (its outcome would then tell nothing about the first's
/// error), and without a horizon it would run on to max_events (minutes; bench/study/long_horizons.py
/// found one such 60-rod chain).
constexpr std::size_t second_run_events = 10, second_run_events_floor = 100'000;
SolverOptions second_run(SolverOptions o, const Outcome& first) {
    o.keep_history = false;
    o.record_until.reset();
    o.record_after_settling = 0;
    o.force_samples = 0;
    o.progress = nullptr;
    o.max_events = std::min(o.max_events, second_run_events * first.stats.events + second_run_events_floor);
    return o;
}

/// The warning for a second run that stopped (SolverLimitExceeded `e` under options `second`):
/// at its own event budget, or at a cap of the user's.
std::string second_run_stopped(const SolverOptions& options, const SolverOptions& second, const Outcome& first,
                               const SolverLimitExceeded& e) {
    if (second.max_events < options.max_events)
        return fmt::format(
            "it did not settle within {} times the event groups of the run itself ({} of {}): the outcome is "
            "sensitive to small changes (long chains with gaps are chaotic, docs/physics.md §5.4)",
            second_run_events, second.max_events, first.stats.events);
    return e.what();
}

/// How an estimate's second run ended, for the accuracy statement.
struct SecondRun {
    bool stopped = false;        ///< it reached a cap: no estimate
    bool never_settled = false;  ///< it did not settle within its share of the events (chaotic)
};

/// The rounding check of an exact run (above): the outcome's estimate and warning if the run on
/// perturbed rods disagrees beyond the stated rounding.
SecondRun check_rounding(const Chain& chain, const SolverOptions& options, CharacteristicsSolution& s) {
    Outcome& o = s.outcome;
    if (!options.rounding_check || !closes_again(s.contact_events, chain.contact_count())) return {};
    const double floor = characteristics_rounding * chain.velocity_scale();
    const SolverOptions second = second_run(options, o);
    try {
        const Outcome twin = track_fronts(with_perturbed_lengths(chain), second).outcome;
        o.stats.estimate_events = twin.stats.events;
        double difference = 0;
        for (std::size_t i = 0; i < o.rods.size(); ++i)
            difference = std::max(difference, std::abs(o.rods[i].final_velocity - twin.rods[i].final_velocity));
        const double estimate = rounding_safety * difference;
        if (!(estimate > floor)) return {};  // as accurate as stated: rounding does not decide it
        o.velocity_error_bound = estimate;
        o.velocity_error_kind = Outcome::ErrorKind::estimate;
        o.warnings.push_back(fmt::format(
            "characteristics: rounding moves the final velocities by up to about {:.3g} ({:.2g} of the velocity "
            "scale): with rod lengths changed by {:.2g} relative they differ by {:.3g}; repeated grazing "
            "re-contacts amplify rounding, and long chains with gaps are chaotic (velocity_error_bound, "
            "docs/physics.md §5.4)",
            estimate, estimate / chain.velocity_scale(), length_perturbation, difference));
        return {};
    } catch (const SolverLimitExceeded& e) {
        o.velocity_error_bound = std::numeric_limits<double>::infinity();
        o.velocity_error_kind = Outcome::ErrorKind::estimate;
        o.warnings.push_back(fmt::format(
            "characteristics: no rounding check: the run on rods of lengths changed by {:g} relative stopped: {}",
            length_perturbation, second_run_stopped(options, second, o, e)));
        return {.stopped = true, .never_settled = second.max_events < options.max_events};
    }
}

/// The velocity error that the energy merging removed reveals [m/s]: a relative velocity error a
/// moves energies by about 2a of their scale (outcome_check.cpp), so removing a fraction d of the
/// energy scale goes with errors of about d/2 of V; d V is stated (a factor 2 of margin). Merged
/// runs at resolutions delta and 2 delta can agree to rounding while both are off (a 10-rod chain
/// of mixed sections at max_memory = 1 MB: identical at 0.125 and 0.25, 5.6e-3 V from the unmerged
/// run, 9.8e-3 of its energy removed): the pair cannot see pieces shorter than both resolutions,
/// the energy they took can (docs/physics.md §5.1). 0 when nothing was merged.
double merged_energy_error(const Outcome& o, double scale) {
    if (o.stats.merged_fronts == 0 || !(o.energy.dropped > 0) || !(o.energy.scale() > 0)) return 0;
    return o.energy.dropped / o.energy.scale() * scale;
}

CharacteristicsSolution estimate_error(const Chain& chain, const SolverOptions& options, SecondRun& second,
                                       CharacteristicsSolution s);

/// One solve at options.time_resolution (which is set): the run, and its estimate from a coarser
/// run or the rounding check (the file's comment). `second` says how the estimate's run ended.
CharacteristicsSolution solve_at_resolution(const Chain& chain, const SolverOptions& options, SecondRun& second) {
    return estimate_error(chain, options, second, track_fronts(chain, options));
}

/// The estimate of solve_at_resolution() for its run `s`, made with `options`.
CharacteristicsSolution estimate_error(const Chain& chain, const SolverOptions& options, SecondRun& second,
                                       CharacteristicsSolution s) {
    Outcome& o = s.outcome;
    const double scale = chain.velocity_scale();
    if (o.velocity_error_bound == 0) {  // nothing approximated: exact to rounding, unless rounding decides
        second = check_rounding(chain, options, s);
        if (scale > 0) o.accuracy = std::max(o.accuracy, o.velocity_error_bound / scale);
        return s;
    }
    // Only what acted is coarsened: a run that merged (dropped) nothing is the run with no
    // merging (dropping), computation for computation.
    SolverOptions coarse = second_run(options, o);
    if (o.stats.merged_fronts > 0) coarse.time_resolution = *coarse.time_resolution * coarsening;
    if (o.stats.dropped_fronts > 0) coarse.drop_tolerance *= coarsening;
    o.velocity_error_kind = Outcome::ErrorKind::estimate;
    try {
        const Outcome c = track_fronts(chain, coarse).outcome;
        o.velocity_error_bound =
            std::max(two_run_estimate(o, c, merge_index, characteristics_rounding * scale), merged_energy_error(o, scale));
        o.stats.estimate_events = c.stats.events;
    } catch (const SolverLimitExceeded& e) {
        o.velocity_error_bound = std::numeric_limits<double>::infinity();
        second = {.stopped = true, .never_settled = coarse.max_events < options.max_events};
        o.warnings.push_back(fmt::format(
            "characteristics: no error estimate for the merged or dropped fronts: the coarser run for it stopped: {}",
            second_run_stopped(options, coarse, o, e)));
    }
    if (scale > 0) o.accuracy = std::max(o.accuracy, o.velocity_error_bound / scale);
    return s;
}


/// The order the estimate assumes when predicting the resolution a target needs (E ~ delta^p,
/// p = merge_index.order), and the margin below that prediction a refinement aims at.
constexpr double refine_margin = 0.5;
/// A refinement divides the resolution by at least this (a smaller step costs a run and gains little).
constexpr double least_refinement = 4;
/// Refinements at most (each costs a run at least as long as the last).
constexpr int most_refinements = 4;

std::string mb(double bytes) { return bytes >= 1e9 ? fmt::format("{:.3g} GB", bytes / 1e9) : fmt::format("{:.3g} MB", bytes / 1e6); }

/// The accuracy report of an outcome from its estimate and how its second run ended; `by_hand`:
/// time_resolution was set by the user (no refinement).
void state_accuracy(Outcome& o, const SolverOptions& options, const SecondRun& second, bool by_hand, double scale) {
    AccuracyReport& r = o.accuracy_report;
    r.target = accuracy_target(options);
    const double reached = scale > 0 ? o.velocity_error_bound / scale : 0;
    const bool rounding_only = o.stats.merged_fronts == 0 && o.stats.dropped_fronts == 0;
    // Jumps dropped below a drop tolerance whose own accuracy (100 x, characteristics_accuracy())
    // meets the target, yet moving the outcome beyond it: the chain amplifies changes of that size
    // (measured on seeded 10-rod chains with gaps: 1e-12 V moved them by 4e-3 V), as it does rounding.
    const bool drops_only = o.stats.merged_fronts == 0 && o.stats.dropped_fronts > 0 &&
                            characteristics_accuracy(options) <= r.target;
    if (o.velocity_error_kind == Outcome::ErrorKind::bound) {
        r.status = AccuracyStatus::exact;
        r.statement = "exact to rounding";
    } else if (reached <= r.target) {
        r.status = AccuracyStatus::met;
        r.statement = fmt::format("{:.2g} V reached (estimate), within the {:.2g} V asked for", reached, r.target);
    } else if (second.never_settled || ((rounding_only || drops_only) && !second.stopped)) {
        r.status = AccuracyStatus::chaotic;
        r.statement = second.never_settled
                          ? fmt::format("chaotic: a run changed within its approximation or rounding did not settle "
                                        "where this one did; the {:.2g} V asked for cannot be shown: use the "
                                        "statistics of perturbed data (docs/physics.md §5.4)", r.target)
                          : fmt::format("chaotic: {} moves the outcome by {:.3g} ({:.2g} V), more than the {:.2g} V "
                                        "asked for: the outcome is one sample; use the statistics of perturbed data "
                                        "(docs/physics.md §5.4)",
                                        rounding_only ? std::string("rounding alone")
                                                      : fmt::format("dropping jumps below {:.2g} V", options.drop_tolerance),
                                        o.velocity_error_bound, reached, r.target);
    } else if (second.stopped) {
        r.status = AccuracyStatus::no_estimate;
        r.statement = fmt::format("no estimate: its second run stopped (see the warnings); {:.2g} V asked for", r.target);
    } else {
        // What was set by hand decides: time_resolution (by_hand), or drop_tolerance (fronts dropped
        // but none merged). Without time_resolution, solve_to_accuracy() refines and restates.
        r.status = AccuracyStatus::resolution_set;
        r.statement = by_hand && o.stats.merged_fronts > 0
                          ? fmt::format("{:.2g} V reached at time_resolution = {:g}, set by hand; {:.2g} V asked for: "
                                        "leave time_resolution unset to refine", reached, *options.time_resolution, r.target)
                          : fmt::format("{:.2g} V reached with drop_tolerance = {:g}; {:.2g} V asked for: lower "
                                        "drop_tolerance", reached, options.drop_tolerance, r.target);
    }
}

/// What a run to a horizon limited by its work budget reached (solve_to_accuracy()).
struct WorkLimited {
    double reached = 0;       ///< the estimate reached [V]
    double delta = 0;         ///< the resolution of the run reported
    double needed = 0;        ///< the resolution the target needs, E ~ delta^(1/2)
    double horizon = 0;       ///< [s]
    std::size_t events = 0;   ///< event groups spent by all runs of the solve
    bool restarted = false;   ///< solved again merging beyond plan.work_exact_fronts
};

/// The statement of AccuracyStatus::work_budget: what the work budget set, what was spent, and what
/// a user can change. The work the target needs by the bound events_at() is quoted only where a
/// max_work could buy it: on chains chaotic at the order of V the square-root law asks for 1e15
/// and more event groups, a number no one can act on; they get the work that halves the error.
std::string work_statement(const Chain& chain, const SolverOptions& options, const FrontBudgetPlan& plan,
                           const WorkLimited& w) {
    const double target = accuracy_target(options);
    const std::string run = fmt::format("the work budget of a run to end_time = {:g} s (max_work = {:.2g} event "
                                        "groups{})",
                                        w.horizon, plan.event_budget,
                                        plan.event_budget < static_cast<double>(options.max_work) ? ", half of max_events" : "");
    std::string what;
    if (plan.work_set && plan.event_budget < plan.coarsest_work)
        what = fmt::format("{:.2g} V reached at time_resolution = {:.3g}, the coarsest: {} is below the {:.2g} that "
                           "even the coarsest resolution costs by the bound", w.reached, w.delta, run, plan.coarsest_work);
    else if (plan.work_set)
        what = fmt::format("{:.2g} V reached at time_resolution = {:.3g}, set by {}", w.reached, w.delta, run);
    else  // the memory budget's resolution was the coarser; the work budget set the fronts stored exactly
        what = fmt::format("{:.2g} V reached merging beyond {} stored fronts, what {} stores, at time_resolution = "
                           "{:.3g}, the finest whose fronts fit the memory budget",
                           w.reached, plan.work_exact_fronts, run, w.delta);
    // The work the merged half needs at the resolution the target needs, by the bound (both halves).
    const double needed_work = 2 * events_at(chain, w.needed, w.horizon);
    const std::string raise =
        !plan.work_set ? fmt::format("raise max_work (--max-work) to store more fronts before merging (up to {} at "
                                     "max_work = {:.2g} and max_events at least twice that, where this run is tracked "
                                     "without merging as far as the memory budget allows), or max_memory "
                                     "(--max-memory) to merge at a finer resolution",
                                     plan.exact_fronts,
                                     plan.event_budget * static_cast<double>(plan.exact_fronts) /
                                         static_cast<double>(plan.work_exact_fronts))
        : needed_work <= 0.5 * static_cast<double>(largest_max_events)
                                  ? fmt::format("{:.2g} V would need about max_work = {:.2g} (and max_events at least "
                                                "twice that) by the same bound", target, needed_work)
                                  : fmt::format("{:.2g} V is beyond any work budget by the same bound (the error taken "
                                                "to fall as the square root of the resolution): each fourfold "
                                                "max_work (--max-work) halves the error at most",
                                                target);
    return fmt::format("work budget: {}; {} event groups spent{}; {}", what, w.events,
                       w.restarted ? " (with the attempt without merging)" : "", raise);
}

/// The solve of solve_characteristics() without time_resolution set (docs/physics.md §5.1,
/// "Accuracy by default"): exact while the fronts fit the plan's share of the memory budget (half,
/// unless the merged fronts need more, front_budget.hpp); beyond, merged at
/// the coarsest resolution tried, default_time_resolution, then refined towards the resolution
/// the estimate predicts for the target (E ~ delta^(1/2)), down to the finest whose fronts fit the
/// budget (and, to a horizon, the coarsest the work budget allows), while the estimate misses the
/// target and events remain of max_events.
CharacteristicsSolution solve_to_accuracy(const Chain& chain, const SolverOptions& options) {
    const double scale = chain.velocity_scale();
    const double target = accuracy_target(options) * scale;
    const std::size_t budget = front_budget(options);
    // A run to a horizon also keeps its event groups within a work budget (front_budget.hpp); not a
    // run that keeps its history, whose fronts are never merged.
    std::optional<double> horizon = options.keep_history ? std::nullopt : options.end_time;
    if (horizon && options.record_until) horizon = std::max(*horizon, *options.record_until);
    // The work budget, max_work, is at most half of max_events, which caps all runs of the solve
    // together (the estimate's run costs about half the first's).
    const FrontBudgetPlan plan = plan_front_budget(chain, budget, horizon, horizon_event_budget(options));
    const double finest = plan.finest;
    SolverOptions o = options;
    // Fronts kept for a diagram or gauges (keep_history) are never merged and cost a StepFunction
    // piece each (16 bytes), not the resident_bytes_per_front of fronts being tracked: such a run
    // tracks exactly up to the plan's share as any other, but keeps max_fronts as its cap, as before
    // accuracy drove the resolution (a vibrating chain with a gauge to end_time = 10 s holds 2.4 M,
    // cases/ends/stepped_striker_wall.toml, tests/solvers/exact/test_accuracy_budget.cpp).
    o.max_fronts = options.keep_history ? options.max_fronts : budget;
    o.exact_fronts = plan.exact_fronts;
    o.time_resolution = std::clamp(default_time_resolution, finest, largest_time_resolution);
    const bool capped_by_fronts = o.max_fronts == options.max_fronts;
    const auto out_of_memory = [&](const FrontLimitExceeded& e) {
        return SolverLimitExceeded(fmt::format(
            "characteristics solver: the stored fronts outgrew the memory budget at t = {:g}: {} fronts of {} bytes "
            "(max_memory = {} MB{}) even merged at time_resolution = {:g}{}; raise [solver] max_memory (--max-memory){}, "
            "set time_resolution by hand, or set [solver] end_time",
            e.time, o.max_fronts, resident_bytes_per_front, options.max_memory,
            capped_by_fronts ? fmt::format(", max_fronts = {}", options.max_fronts) : "", *o.time_resolution,
            plan.bounded ? ""
                         : fmt::format(" (the {} elements may hold about {:.3g} merged at the coarsest resolution)",
                                       chain.elements().size(), fronts_at(chain, largest_time_resolution)),
            capped_by_fronts ? " and max_fronts (--max-fronts)" : ""));
    };
    SecondRun second;
    // No second attempt merging from the start: it was measured to buy nothing. Merging runs only
    // while more than exact_fronts are stored, so the store hovers near that share and what
    // outgrows the budget is the merged fronts' own growth (seeded chains of 10-30 rods at
    // max_fronts 1,000-3,200: every run that stopped with half the budget exact stopped merged
    // from the start as well).
    // The one second attempt is for work, not memory: a run to a horizon whose work budget stores
    // fewer fronts before merging than the memory budget (front_budget.hpp) is first tracked
    // without merging up to the memory budget's share,
    // computation for computation the run above while it fits (then it is that run, and exact); if
    // it outgrows it, it is solved again storing only what the work budget pays for before merging,
    // so that its stored fronts, hence its event groups, stay within the work budget to the horizon.
    const bool work_limited = plan.work_exact_fronts > 0;
    bool restarted = false;  // solved again for the work budget: it merged from early on
    std::size_t abandoned_events = 0;  // the event groups of the attempt that did not fit
    CharacteristicsSolution s = [&] {
        try {
            if (work_limited) {
                SolverOptions unmerged = o;
                unmerged.max_fronts = std::min(o.max_fronts, o.exact_fronts);
                std::optional<CharacteristicsSolution> fits;
                try {
                    fits = track_fronts(chain, unmerged);
                } catch (const FrontLimitExceeded& e) {
                    abandoned_events = e.events;
                }
                if (fits) return estimate_error(chain, o, second, std::move(*fits));
                o.exact_fronts = plan.work_exact_fronts;
                restarted = true;
            }
            return solve_at_resolution(chain, o, second);
        } catch (const FrontLimitExceeded& e) {
            throw out_of_memory(e);
        }
    }();
    Outcome& first = s.outcome;
    first.stats.abandoned_events = abandoned_events;
    AccuracyReport& report = first.accuracy_report;
    report.memory_budget = budget * resident_bytes_per_front;
    if (first.stats.merged_fronts == 0) {  // the fronts fit: as exact as the chain allows
        state_accuracy(first, options, second, false, scale);
        return s;
    }
    // Refinement: each level's run, finest first after each step, for run_sequence_estimate().
    // Level k's estimate is the largest of each successive pair's two-run estimate carried to the
    // finest run (error_estimate.hpp), the first pair being the first level and its coarser run.
    std::vector<Outcome> levels;  // the runs before the current one, finest first
    std::vector<double> deltas;
    std::size_t events = first.stats.events + first.stats.estimate_events + abandoned_events;
    double delta = *o.time_resolution;
    std::string stopped;  // why refining stopped short of the target, "" if it did not
    int refinements = 0;
    while (s.outcome.velocity_error_bound > target && std::isfinite(s.outcome.velocity_error_bound)) {
        if (delta <= finest * (1 + 1e-12)) {
            // A run solved again for the work budget merged beyond the fronts that budget stores:
            // the work budget limited it, whichever budget set the resolution.
            stopped = plan.work_set || restarted ? "work" : "memory";
            break;
        }
        if (refinements == most_refinements || events >= options.max_events) {
            stopped = "events";
            break;
        }
        const double predicted = delta * std::pow(refine_margin * target / s.outcome.velocity_error_bound, 1 / merge_index.order);
        const double next = std::max(finest, std::min(predicted, delta / least_refinement));
        SolverOptions finer = o;
        finer.time_resolution = next;
        finer.max_events = options.max_events - events;
        finer.rounding_check = false;  // the estimate comes from the levels
        try {
            CharacteristicsSolution f = track_fronts(chain, finer);
            events += f.outcome.stats.events;
            levels.insert(levels.begin(), std::move(s.outcome));
            deltas.insert(deltas.begin(), delta);
            s = std::move(f);
        } catch (const FrontLimitExceeded&) {
            stopped = "memory";
            break;
        } catch (const SolverLimitExceeded&) {
            stopped = "events";
            break;
        }
        ++refinements;
        delta = next;
        Outcome& fine = s.outcome;
        if (fine.stats.merged_fronts == 0 && fine.stats.dropped_fronts == 0) {
            fine.velocity_error_bound = 0;  // merged nothing at this resolution: exact
            break;
        }
        // The coarser runs: the previous levels and, below the first, the first level's coarser run
        // is represented by its estimate carried (the first level's bound already includes it).
        std::vector<ResolvedRun> runs{{&fine, 1 / delta}};
        for (std::size_t k = 0; k < levels.size(); ++k) runs.push_back({&levels[k], 1 / deltas[k]});
        const double carried_first = levels.back().velocity_error_bound *
                                     std::pow(delta / deltas.back(), merge_index.order);
        fine.velocity_error_kind = Outcome::ErrorKind::estimate;
        fine.velocity_error_bound =
            std::max({carried_first, merged_energy_error(fine, scale),
                      run_sequence_estimate(runs, merge_index.order, merge_index.safety, characteristics_rounding * scale)});
        fine.stats.estimate_events = levels.front().stats.events;
        fine.accuracy = std::max(characteristics_accuracy(options), fine.velocity_error_bound / scale);
    }
    Outcome& o_final = s.outcome;
    // Warnings of the first level (its estimate's run) stay with the outcome.
    if (!levels.empty()) o_final.warnings.insert(o_final.warnings.begin(), levels.back().warnings.begin(), levels.back().warnings.end());
    o_final.stats.abandoned_events = abandoned_events;  // the refined run's outcome replaced the first's
    AccuracyReport& r = o_final.accuracy_report;
    r.memory_budget = budget * resident_bytes_per_front;
    r.time_resolution = delta;
    r.peak_resident_memory = peak_resident_memory();
    state_accuracy(o_final, options, second, false, scale);
    if (!r.met() && r.status != AccuracyStatus::chaotic && r.status != AccuracyStatus::no_estimate) {
        const double reached = o_final.velocity_error_bound / scale;
        // The resolution E ~ delta^(1/2) predicts for the target, and the fronts the merging bound
        // gives there; but no run stores more fronts than it creates, and the run without merging
        // creates about as many as this one did: the smaller of the two is what the target needs,
        // tracked without merging when it is the latter.
        const double needed = delta * std::pow(target / o_final.velocity_error_bound, 1 / merge_index.order);
        const double merged_need = fronts_at(chain, needed);
        const double created = static_cast<double>(o_final.stats.fronts);
        // A run solved again for the work budget merged from early on: what it created says nothing
        // of the run without merging.
        const bool unmerged = !restarted && created < merged_need;
        r.fronts_needed = std::max(unmerged ? created : merged_need, 0.5 * static_cast<double>(budget));
        const std::string need = fmt::format(
            "{:.2g} V would need about {:.2g} fronts ({}, max_memory {} MB){}", accuracy_target(options), r.fronts_needed,
            mb(r.fronts_needed * resident_bytes_per_front), options.max_memory,
            unmerged ? " tracked without merging (as many as this run created)"
                     : fmt::format(" at time_resolution = {:.2g} (the error taken to fall as its square root)", needed));
        if (stopped == "events") {
            r.status = AccuracyStatus::event_budget;
            r.statement = fmt::format("event budget: {:.2g} V reached at time_resolution = {:.3g}; refining further "
                                      "would exceed max_events = {} event groups; {}",
                                      reached, delta, options.max_events, need);
        } else if (stopped == "work") {
            r.status = AccuracyStatus::work_budget;
            r.statement = work_statement(chain, options, plan, {.reached = reached, .delta = delta, .needed = needed,
                                                                .horizon = *horizon, .events = events,
                                                                .restarted = restarted});
        } else {
            r.status = AccuracyStatus::front_proliferation;
            r.statement = fmt::format("front proliferation: {:.2g} V reached at time_resolution = {:.3g}, the finest "
                                      "whose fronts fit the memory budget; {}", reached, delta, need);
        }
    }
    return s;
}

}  // namespace

CharacteristicsSolution solve_characteristics(const Chain& chain, const SolverOptions& options) {
    // Issue 23's junction ODEs are carried by the delay network (solve()), not by the front tracker:
    // refuse up front, never a wrong answer.
    if (chain.compliant())
        throw InvalidInput("solver.method", compliant_refusal("the exact solver's front tracker (piecewise-constant waves)"));
    CharacteristicsSolution s = [&] {
        if (!options.time_resolution) return solve_to_accuracy(chain, options);
        SecondRun second;
        CharacteristicsSolution by_hand = solve_at_resolution(chain, options, second);
        state_accuracy(by_hand.outcome, options, second, true, chain.velocity_scale());
        if (by_hand.outcome.stats.merged_fronts > 0) by_hand.outcome.accuracy_report.time_resolution = *options.time_resolution;
        return by_hand;
    }();
    const AccuracyReport& r = s.outcome.accuracy_report;
    if (!r.met())
        s.outcome.warnings.push_back(fmt::format("characteristics: accuracy {:.2g} of the velocity scale not met: {}",
                                                 accuracy_target(options), r.statement));
    return s;
}

}  // namespace rodcollide
