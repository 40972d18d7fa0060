// An impact-map sweep (sweep.hpp) as `rodcollide sweep` writes it: the per-direction CSV, the
// readable table of errors per cone and empirical cone map, and the JSON summary (docs/sweep.md).
#pragma once

#include "rodcollide/sweep.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rodcollide {

/// CSV, one line per direction: index, theta_deg, gamma1_pre, gamma2_pre, gamma1_wave, gamma2_wave,
/// cone, events, then per law <law>_gamma1, <law>_gamma2, <law>_error; numbers with 17 digits.
/// The header line comes only with shard 1, so shard files concatenate into the full CSV.
std::string sweep_csv(const SweepResult& r);

/// Readable report: the errors per cone and the empirical cone map.
std::string sweep_table(const SweepResult& r);

/// Summary as JSON (no per-direction data; that is the CSV).
nlohmann::ordered_json sweep_json(const SweepResult& r);

}  // namespace rodcollide
