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
#include "outcome/error_estimate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

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

/// The rounding check of an exact run (above): the outcome's estimate and warning if the run on
/// perturbed rods disagrees beyond the stated rounding.
void check_rounding(const Chain& chain, const SolverOptions& options, CharacteristicsSolution& s) {
    Outcome& o = s.outcome;
    if (!options.rounding_check || !closes_again(s.contact_events, chain.contact_count())) return;
    const double floor = characteristics_rounding * chain.velocity_scale();
    const SolverOptions second = second_run(options, o);
    try {
        const Outcome twin = track_fronts(with_perturbed_lengths(chain), second).outcome;
        o.stats.estimate_events = twin.stats.events;
        double difference = 0;
        for (std::size_t i = 0; i < o.rods.size(); ++i)
            difference = std::max(difference, std::abs(o.rods[i].final_velocity - twin.rods[i].final_velocity));
        const double estimate = rounding_safety * difference;
        if (!(estimate > floor)) return;  // as accurate as stated: rounding does not decide it
        o.velocity_error_bound = estimate;
        o.velocity_error_kind = Outcome::ErrorKind::estimate;
        o.warnings.push_back(fmt::format(
            "characteristics: rounding moves the final velocities by up to about {:.3g} ({:.2g} of the velocity "
            "scale): with rod lengths changed by {:.2g} relative they differ by {:.3g}; repeated grazing "
            "re-contacts amplify rounding, and long chains with gaps are chaotic (velocity_error_bound, "
            "docs/physics.md §5.4)",
            estimate, estimate / chain.velocity_scale(), length_perturbation, difference));
    } catch (const SolverLimitExceeded& e) {
        o.velocity_error_bound = std::numeric_limits<double>::infinity();
        o.velocity_error_kind = Outcome::ErrorKind::estimate;
        o.warnings.push_back(fmt::format(
            "characteristics: no rounding check: the run on rods of lengths changed by {:g} relative stopped: {}",
            length_perturbation, second_run_stopped(options, second, o, e)));
    }
}

}  // namespace

CharacteristicsSolution solve_characteristics(const Chain& chain, const SolverOptions& options) {
    CharacteristicsSolution s = track_fronts(chain, options);
    Outcome& o = s.outcome;
    const double scale = chain.velocity_scale();
    if (o.velocity_error_bound == 0) {  // nothing approximated: exact to rounding, unless rounding decides
        check_rounding(chain, options, s);
        if (scale > 0) o.accuracy = std::max(o.accuracy, o.velocity_error_bound / scale);
        return s;
    }
    // Only what acted is coarsened: a run that merged (dropped) nothing is the run with no
    // merging (dropping), computation for computation.
    SolverOptions coarse = second_run(options, o);
    if (o.stats.merged_fronts > 0) coarse.time_resolution *= coarsening;
    if (o.stats.dropped_fronts > 0) coarse.drop_tolerance *= coarsening;
    o.velocity_error_kind = Outcome::ErrorKind::estimate;
    try {
        const Outcome c = track_fronts(chain, coarse).outcome;
        o.velocity_error_bound = two_run_estimate(o, c, merge_index, characteristics_rounding * scale);
        o.stats.estimate_events = c.stats.events;
    } catch (const SolverLimitExceeded& e) {
        o.velocity_error_bound = std::numeric_limits<double>::infinity();
        o.warnings.push_back(fmt::format(
            "characteristics: no error estimate for the merged or dropped fronts: the coarser run for it stopped: {}",
            second_run_stopped(options, coarse, o, e)));
    }
    if (scale > 0) o.accuracy = std::max(o.accuracy, o.velocity_error_bound / scale);
    return s;
}

}  // namespace rodcollide
