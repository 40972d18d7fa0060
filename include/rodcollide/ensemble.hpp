// Ensembles (docs/ensemble.md): the same case solved for many members, each with its rods' numbers
// drawn at random around the nominal ones (ensemble_spec.hpp), and the statistics of the outcomes:
// per rod the mean, standard deviation, standard error of the mean and 5/50/95 % quantiles of the
// final velocity; the same for the energy split, the settling time and the contact closings; the
// share of members that settled. Long chains with gaps are chaotic (docs/physics.md §5.4): one
// outcome is one sample, the distribution is what can be reproduced.
//
// Reproducible by construction: member k's draws depend only on (seed, k), each member is solved
// alone, and statistics are taken over the members in index order, so the result is the same
// bit for bit whatever the threads, shards (merge_ensembles) or MPI ranks.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/ensemble_spec.hpp"
#include "rodcollide/solver_options.hpp"
#include "rodcollide/sweep.hpp"  // Shard, shard_range

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

// ---- Options ----------------------------------------------------------------------------------

struct EnsembleOptions {
    EnsembleSpec spec;
    Shard shard;             ///< the contiguous block of members this run computes
    unsigned threads = 0;    ///< worker threads; 0 = one per hardware thread; at most largest_sweep_threads
    SolverOptions solver;    ///< every member's (its progress callback is not used)
    /// Called from the calling thread now and then with (members done, members in shard).
    std::function<void(std::size_t, std::size_t)> progress;
};

/// Checks the options on their own (validate(EnsembleSpec), threads, shard: 1 <= k <= n <= members).
/// @throws InvalidInput naming "members", "threads", "shard" or a perturbation's key.
void validate(const EnsembleOptions& options);

// ---- Result -----------------------------------------------------------------------------------

/// One member's outcome.
struct EnsembleMember {
    std::size_t index = 0;               ///< k, from 0
    std::vector<double> perturbed;       ///< per perturbed_values() column
    std::vector<double> final_velocity;  ///< per rod [m/s]
    double final_rigid = 0;              ///< energy of the rigid motion at the end [J]
    double final_vibration = 0;          ///< energy left in vibration [J]
    bool settled = false;                ///< else it reached the horizon ([solver] end_time)
    double end_time = 0;                 ///< settled: no contact after it; else the horizon [s]
    std::size_t closings = 0;            ///< contact closings: compression intervals of every contact
    double velocity_error_bound = 0;     ///< Outcome::velocity_error_bound [m/s]
    /// Why the member has no outcome: the solver reached a cap (SolverLimitExceeded) or its
    /// outcome failed the self-check (InvariantViolation, a solver defect); empty when it has one.
    /// A failed member's numbers are NaN (but its draws), and the statistics leave it out.
    std::string failure;
};

struct EnsembleResult {
    std::string title;
    /// A hash of everything the members' outcomes depend on (the rods, the ends and loads, the
    /// solver options, the perturbations; not members, seed or shard, which are compared on their
    /// own), so that merge refuses shards of different cases.
    std::string fingerprint;
    EnsembleSpec spec;
    Shard shard;  ///< {1, 1} for a whole ensemble
    Method method = Method::characteristics;
    std::size_t rods = 0;
    std::vector<PerturbedValue> columns;
    std::vector<EnsembleMember> members;  ///< this shard's, in index order
};

/// Runs the members of options.shard on options.threads threads. A member whose solve reaches a
/// cap or fails its self-check is kept as failed (EnsembleMember::failure): one defective member
/// does not cost the others' hours, and the reports list it.
/// @throws InvalidInput for options or perturbations the chain refuses (before any solve), or a
///         member's chain the model refuses (key of the rod quantity, message naming the member).
/// @throws what solve() throws otherwise (UnsupportedMethod, InvalidResolution), for the first
///         member that fails.
EnsembleResult ensemble(const std::string& title, const Chain& chain, const EnsembleOptions& options);

/// fingerprint of a case's chain and solver options under a spec (EnsembleResult::fingerprint).
std::string ensemble_fingerprint(const Chain& chain, const SolverOptions& solver, const EnsembleSpec& spec);

/// Joins the shards 1..n of one ensemble into the whole (shard {1, 1}), identical to a single run.
/// `names` name the parts in messages (file names).
/// @throws InvalidInput ("shard", "seed", "members", "fingerprint", ...) naming the part, when the
///         parts do not belong together: another case, seed, member count or shard count, a shard
///         missing or given twice.
EnsembleResult merge_ensembles(std::vector<EnsembleResult> parts, const std::vector<std::string>& names);

// ---- Statistics -------------------------------------------------------------------------------

/// Sample statistics of n values: mean, standard deviation (n - 1 in the denominator; 0 for one
/// value), standard error of the mean std / sqrt(n), and quantiles by linear interpolation between
/// order statistics (numpy's default, Hyndman & Fan type 7).
struct Statistics {
    std::size_t count = 0;
    double mean = 0, std = 0, sem = 0, q05 = 0, q25 = 0, q50 = 0, q75 = 0, q95 = 0;
};

/// @pre !values.empty()
Statistics statistics(std::vector<double> values);

/// The quantile p in [0, 1] of sorted values (type 7).
double quantile(const std::vector<double>& sorted, double p);

struct EnsembleSummary {
    std::size_t solved = 0;                  ///< members with an outcome: the statistics' count
    std::vector<const EnsembleMember*> failed;  ///< members without one, in index order
    std::vector<Statistics> final_velocity;  ///< per rod
    Statistics final_rigid, final_vibration, rigid_share, closings;
    std::optional<Statistics> settling_time;  ///< over the settled members (none settled: nullopt)
    std::size_t settled = 0;                  ///< members that settled; the others reached the horizon
    /// Convergence: the largest standard error of a rod's mean final velocity and its rod; with a
    /// precision P [m/s], the members needed for every rod's sem to reach P: max (std / P)^2.
    double largest_sem = 0;
    std::size_t largest_sem_rod = 0;
    std::optional<double> precision;
    std::optional<std::size_t> members_needed;
};

/// The statistics of a result's members that have an outcome (failed ones are listed apart).
/// @pre some member has an outcome
EnsembleSummary summarize(const EnsembleResult& r, std::optional<double> precision = std::nullopt);

// ---- As `rodcollide ensemble` writes it (docs/ensemble.md) -------------------------------------

/// Readable report.
std::string ensemble_table(const EnsembleResult& r, std::optional<double> precision = std::nullopt);

/// The report as JSON: members, seed, perturb, rods[i].final_velocity {mean, std, sem, q05, q50,
/// q95}, energy, settling_time, closings, settled, reached_horizon, convergence. With
/// `member_data` (a shard's output, `--shard k/n --json`) it adds "shard", "fingerprint" and
/// "data": every member's numbers, which merge reads back.
nlohmann::ordered_json ensemble_json(const EnsembleResult& r, std::optional<double> precision = std::nullopt,
                                     bool member_data = false);

/// A shard's JSON (ensemble_json with member_data) read back, for merge.
/// @throws InvalidInput naming the key that is missing or malformed.
EnsembleResult ensemble_from_json(const nlohmann::json& doc);

/// CSV, one line per member: member, the perturbed values (<key>_rod<i>), final velocity per rod
/// (u<i>), final_rigid, final_vibration, settled, end_time, closings; 17 digits. The header comes
/// with shard 1 only, so shard files concatenate into the full CSV.
std::string ensemble_csv(const EnsembleResult& r);

}  // namespace rodcollide
