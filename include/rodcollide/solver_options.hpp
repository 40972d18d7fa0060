// Options shared by the solvers, as read from a case file's [solver] table or the command line,
// and validate(), the one place for their limits.
#pragma once

#include "rodcollide/errors.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace rodcollide {

enum class Method { characteristics, finite_difference };

/// Every method, in the order they are listed to users.
inline constexpr Method all_methods[] = {Method::characteristics, Method::finite_difference};

/// "characteristics" / "finite-difference".
std::string to_string(Method m);
/// Parses a method name; nullopt for anything else.
std::optional<Method> parse_method(const std::string& name);
/// The method called `name`.
/// @throws InvalidInput("method", "unknown method ...; valid: ...") for any other name.
Method method_named(const std::string& name);

/// A solver cap (events, fronts, cells, work, memory) was reached while solving; what() says
/// which and how to raise it.
class SolverLimitExceeded : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The first time resolution the exact solver tries when its fronts outgrow the memory budget and
/// time_resolution is not set (docs/physics.md §5.1 says how it was chosen); it was the default
/// time_resolution before the accuracy drove it.
inline constexpr double default_time_resolution = 0.02;

/// SolverOptions::accuracy of the exact solver by default: final velocities within 1e-6 of the
/// velocity scale.
inline constexpr double default_accuracy = 1e-6;
/// SolverOptions::accuracy of the exact solver by default on a chain of rigid bodies only (an ODE
/// system integrated with error control, docs/physics.md §9.9; issue 24 asks for 1e-9).
inline constexpr double default_rigid_body_accuracy = 1e-9;
/// SolverOptions::accuracy of finite differences by default (docs/finite_difference.md).
inline constexpr double default_finite_difference_accuracy = 1e-3;
/// SolverOptions::max_memory by default [MB].
inline constexpr std::size_t default_max_memory = 256;
/// SolverOptions::max_work by default [event groups]: about 2-3 s of one core at 200-300 ns per
/// group (its estimate's run at twice the resolution costs about half again).
inline constexpr std::size_t default_max_work = 10'000'000;
/// Resident memory a stored front takes [bytes]: 16 bytes of time and value, a ring's spare
/// capacity (up to 4x its pieces, wave_field.hpp) and the blocks its reallocations leave behind:
/// 134 bytes per front were measured (peak resident set over peak stored fronts) on a 20-rod
/// chain of mixed sections storing 2.1e6 fronts (docs/physics.md §5.1). The exact solver's memory
/// budget is max_memory / this.
inline constexpr std::size_t resident_bytes_per_front = 160;

struct SolverOptions {
    Method method = Method::characteristics;
    /// Horizon [s]. Without it the solver runs until it proves no contact can happen again.
    std::optional<double> end_time;
    /// Simulate at least until this time [s] even if settled earlier (diagrams need the free
    /// vibration after the collision). Does not change the outcome.
    std::optional<double> record_until;
    /// Simulate at least this long [s] past the time the chain provably settled, for a diagram or
    /// gauge signals that show the free vibration after the last contact without a first solve
    /// to learn when that is. Does not change the outcome. (Finite differences: recording stops
    /// at the work limit, with a warning.)
    double record_after_settling = 0;
    /// Characteristics: a jump smaller than drop_tolerance * velocity scale is not emitted as a
    /// new front; the energy this changes is accounted for and reported (Outcome::energy.dropped).
    /// At most largest_drop_tolerance.
    double drop_tolerance = 1e-12;
    /// What the outcome should meet, relative to the velocity scale V: the final velocities within
    /// accuracy x V of the exact ones. The exact solver, when its fronts outgrow max_memory and
    /// time_resolution is not set, merges at the coarsest time resolution whose error estimate
    /// meets it and refines until it does or a budget is spent; finite differences refine their
    /// grid until their estimate meets it within the work limit (unless cells is set). Either
    /// states in the outcome what it reached and why it stopped (Outcome::accuracy_report).
    /// In [smallest_accuracy, largest_accuracy]. Not set: default_accuracy for the exact solver,
    /// finite_difference_accuracy (1e-3, finite_difference.hpp) for finite differences, whose
    /// grids reach 1e-6 within their work limit only on the exact grid (accuracy_target()).
    std::optional<double> accuracy;
    /// Characteristics, with time_resolution not set: memory budget [MB] of the stored fronts
    /// (resident_bytes_per_front each). Fronts are tracked without merging while they fit in half
    /// of it; beyond, they are merged at a resolution for which they fit in all of it. Fronts
    /// kept for diagrams, fields or gauges (keep_history; 16 bytes each) are capped by max_fronts.
    /// From 1 to largest_max_memory.
    std::size_t max_memory = default_max_memory;
    /// Characteristics, with time_resolution not set, on a run to end_time (without keep_history)
    /// whose fronts outgrow the memory budget's share of exact fronts: its work budget [event
    /// groups], at most max_events / 2. Half of it pays for the fronts stored before merging, half
    /// sets the merge resolution by the bound events_at() (front_budget.hpp, docs/physics.md
    /// §5.1): a larger one buys a finer resolution at proportionally more time. From 1 to
    /// largest_max_events.
    std::size_t max_work = default_max_work;
    /// Characteristics, set by hand: fronts closer in arrival time than time_resolution x the
    /// shortest transit time are merged once more than exact_fronts are stored (the shorter piece
    /// into the one before it, at their mean value: momentum exact, the energy this removes
    /// reported in Outcome::energy.dropped), so an element stores at most about
    /// T / (time_resolution T_min) fronts (docs/physics.md §5.1). 0: exact, no merging. At most
    /// largest_time_resolution. Not set (the default): chosen from accuracy and max_memory.
    std::optional<double> time_resolution;
    /// Characteristics, with time_resolution set: merging starts only once more than this many
    /// fronts are stored, so a chain whose fronts fit stays exact at any time_resolution (16,384
    /// fronts, 256 kB, by default; docs/physics.md §5.1). C++ API only; 0 merges from the start.
    /// Without time_resolution the memory budget takes its place.
    std::size_t exact_fronts = 1 << 14;
    /// Characteristics: cap on processed event groups (bounded work): about a minute of one core
    /// at 100-200 ns per group (docs/scaling.md, "Scaling: long chains").
    std::size_t max_events = 300'000'000;
    /// Characteristics: cap on stored fronts (bounded memory: 16 bytes each, about 40 bytes of
    /// resident memory each at the cap as measured, so the default takes about 330 MB). Finite
    /// differences: cap on the values of the gauges' wave field (16 bytes each).
    std::size_t max_fronts = 8'000'000;
    /// Keep the whole field history (needed for diagrams and field queries in the past). Without
    /// it only the fronts in flight are stored, so long runs need memory for those only.
    bool keep_history = true;
    /// Characteristics, without keep_history: free rods are not processed reflection by
    /// reflection. A rod whose contacts are open sleeps until one may close (docs/physics.md
    /// §6.7); on a chain with a load, where rods do not sleep, all rods are advanced at once to
    /// just before the next possible closing while no contact carries force (free_flight.hpp).
    /// The outcome is the same to rounding; false is for comparing the two.
    bool skip_free_flight = true;
    /// Characteristics, where rods may sleep (skip_free_flight, no keep_history, free rods only):
    /// an open contact reflects what arrives up to a transit after the current event group at
    /// once, ahead of the event loop, until a first front is merged (docs/physics.md §6.8). The
    /// outcome is the same to rounding; false is for comparing the two.
    bool reflect_ahead = true;
    /// Chains with compliant junctions, by the exact solver (its delay network) and by finite
    /// differences on an exact grid (Courant 1 in every element): where the rods' periods of free motion are
    /// commensurate (equal rods, or transit times in small whole ratios), settling is proven by one
    /// common period watched without a closing once every pair separates, instead of waiting for
    /// the gaps to outgrow the rods' excursion bounds (docs/physics.md §6.9). The outcome is the
    /// same to the stated accuracy; false is for comparing the two.
    bool settle_by_period = true;
    /// Characteristics, without keep_history, on a chain with free ends: keep the solver's times
    /// relative to an origin moved forward to the next event group whenever that lies more than a
    /// longest period ahead, so that their rounding stays that of a few transit times however long the run
    /// (docs/physics.md §6.6). Reported times stay absolute; false is for comparing the two.
    bool rebase_times = true;
    /// Characteristics: a run that approximated nothing but in which some contact closed more
    /// than once is repeated on rods whose lengths differ by eight units in the last place; if the
    /// final velocities differ beyond the rounding the solver states, three times the difference
    /// is reported as the error estimate, with a warning (solve_characteristics.cpp,
    /// docs/physics.md §5.4). Doubles the work of such runs; false skips it.
    bool rounding_check = true;
    /// Called now and then on long runs with the current time [s] and the work done so far
    /// (events or steps); the CLI turns it into a progress line on stderr.
    std::function<void(double, std::size_t)> progress;
    /// Finite differences: cells in the rod or segment with the shortest transit time (0 = default_cells).
    std::size_t cells = 0;
    /// Force histories of contacts and walls in the outcome: at most this many samples each
    /// (0: none; CLI --samples with --json). Bounded by largest_samples.
    std::size_t force_samples = 0;
};

/// Cells in the element with the shortest transit time when SolverOptions::cells is 0. Chosen from
/// measurements (docs/finite_difference.md): final velocities within 7.6e-4 of the velocity scale
/// on cases/ and on 40 random incommensurate chains with gaps (2 to 5 rods), median 23 ms.
inline constexpr std::size_t default_cells = 1000;

/// Largest number of samples per force history or gauge signal (bounded output).
inline constexpr std::size_t largest_samples = 100'000;

/// Largest values accepted for the caps above (a case file asking for more is refused): they
/// keep work and memory bounded. 2*10^8 fronts take 3.2 GB.
inline constexpr std::size_t largest_max_events = 10'000'000'000;
inline constexpr std::size_t largest_max_fronts = 200'000'000;
inline constexpr std::size_t largest_cells = 100'000'000;
/// The outcome of a run with drop_tolerance d is accurate to 100 d relative to the velocity scale
/// (Outcome::accuracy): beyond 0.01 that bound says nothing.
inline constexpr double largest_drop_tolerance = 0.01;
/// Range of accuracy: from the rounding the solvers state (conservation_rounding, outcome.hpp) to a
/// tenth of the velocity scale, beyond which an estimate says nothing.
inline constexpr double smallest_accuracy = 1e-10;
inline constexpr double largest_accuracy = 0.1;
/// Largest max_memory [MB]: 1 TB.
inline constexpr std::size_t largest_max_memory = 1'000'000;
/// Largest time_resolution: a quarter of the shortest transit time, so that the coarser run of the
/// error estimate (2x, solve_characteristics.cpp) still resolves every rod.
inline constexpr double largest_time_resolution = 0.25;

/// The accuracy a solve aims at (SolverOptions::accuracy, or the method's default when not set).
double accuracy_target(const SolverOptions& options);

/// Checks every limit on the options: a known method; end_time and record_until finite and > 0;
/// drop_tolerance in [0, largest_drop_tolerance]; time_resolution (if set) in [0, largest_time_resolution];
/// accuracy in [smallest_accuracy, largest_accuracy]; max_events, max_fronts, max_memory, max_work and cells
/// (unless 0, the default) from 1 to their largest value above. The case reader, the command line's solver flags and solve() all
/// call it.
/// @throws InvalidInput naming the first option refused by its case-file key ("end_time").
void validate(const SolverOptions& options);

}  // namespace rodcollide
