// The calibration study of the exact solver's error estimate when it merges fronts beyond its
// memory budget (docs/physics.md §5.1, "Accuracy by default"): seeded chains of bench/scaling.py's
// three families (drawn by the C++ generator, chain_builders.hpp), each solved at default options
// but a memory budget small enough that its fronts outgrow it, against the run that merges
// nothing (or, where that does not fit, a run at 100x finer resolution than the one reported).
// Shared by tests/solvers/exact/test_accuracy_calibration.cpp and bench/study/exact_calibration.cpp.
#pragma once

#include "chain_builders.hpp"
#include "solvers/exact/characteristics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <string>

namespace rodcollide::testing {

inline const char* family_name(ScalingFamily f) {
    switch (f) {
        case ScalingFamily::equal_gaps: return "equal-gaps";
        case ScalingFamily::mixed_touching: return "mixed-touching";
        case ScalingFamily::mixed_gaps: return "mixed-gaps";
    }
    return "?";
}

/// One chain of the study.
struct ExactCalibrationRow {
    std::string label;
    std::size_t rods = 0;
    double scale = 0;           ///< velocity scale V [m/s]
    bool finished = false;      ///< the budgeted run and its reference finished
    std::string failure;        ///< why not
    bool merged = false;        ///< the budgeted run merged fronts (else it is exact: nothing to calibrate)
    bool reference_unmerged = true;  ///< the reference merged nothing (else: 100x finer resolution)
    double reference_bound = 0; ///< the reference's own estimate (rounding check) [m/s]
    double error = 0;           ///< max_i |u_i - u_i,reference| [m/s]
    double bound = 0;           ///< the reported velocity_error_bound [m/s]
    double time_resolution = 0; ///< of the reported run
    std::size_t peak_fronts = 0, budget_fronts = 0;
    AccuracyStatus status = AccuracyStatus::exact;
    double seconds = 0;         ///< CPU time of the budgeted solve, estimate included
    /// actual / stated error: <= 1 when the statement covers the error.
    double ratio() const { return bound > 0 ? error / bound : (error > 0 ? INFINITY : 0); }
    /// The reference is accurate enough to judge the estimate: its own error (rounding check or
    /// estimate) is below a tenth of the difference, or below 1e-9 V.
    bool reference_exact() const { return reference_bound <= std::max(0.1 * error, 1e-9 * scale); }
};

/// Solves chain `seed` of `family` with `rods` rods at default options but max_memory = `mb`, and
/// against its reference.
inline ExactCalibrationRow calibrate_exact(ScalingFamily family, std::size_t rods, unsigned seed, std::size_t mb) {
    ExactCalibrationRow row;
    row.label = fmt::format("{} {} rods seed {}", family_name(family), rods, seed);
    const Chain chain = scaling_chain(family, rods, seed);
    row.rods = rods;
    row.scale = chain.velocity_scale();
    SolverOptions options;
    options.keep_history = false;  // as solve() and `rodcollide run` have it
    options.max_memory = mb;
    row.budget_fronts = std::min(options.max_fronts, mb * 1'000'000 / resident_bytes_per_front);
    const std::clock_t start = std::clock();  // CPU time: the machine may be shared
    try {
        const Outcome o = solve_characteristics(chain, options).outcome;
        row.seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
        row.merged = o.stats.merged_fronts > 0;
        row.bound = o.velocity_error_bound;
        row.time_resolution = o.accuracy_report.time_resolution;
        row.peak_fronts = o.stats.peak_stored_fronts;
        row.status = o.accuracy_report.status;
        SolverOptions reference;
        reference.keep_history = false;
        reference.time_resolution = 0;
        Outcome r = [&] {
            try {
                return solve_characteristics(chain, reference).outcome;
            } catch (const SolverLimitExceeded&) {  // the unmerged run does not fit: 100x finer
                row.reference_unmerged = false;
                reference.time_resolution = std::max(row.time_resolution, 1e-6) / 100;
                reference.exact_fronts = 0;
                return solve_characteristics(chain, reference).outcome;
            }
        }();
        row.reference_bound = row.reference_unmerged ? r.velocity_error_bound : 0;
        row.error = (o.final_velocities() - r.final_velocities()).cwiseAbs().maxCoeff();
        row.finished = true;
    } catch (const std::exception& e) {
        row.failure = e.what();
    }
    return row;
}

}  // namespace rodcollide::testing
