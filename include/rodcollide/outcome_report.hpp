// Human-readable table and JSON document of an Outcome (the `run` output; the JSON keys are a
// public contract, see docs/cli.md, "The outcome of `run`").
#pragma once

#include "rodcollide/gauge_signals.hpp"
#include "rodcollide/outcome.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rodcollide {

/// The run JSON: title, method, rods, contacts, energy, end_time, settled (+ extra keys).
nlohmann::ordered_json outcome_json(const std::string& title, const Outcome& outcome);

/// A readable multi-line table of the outcome.
std::string outcome_table(const std::string& title, const Outcome& outcome);

/// The "gauges" array of the run JSON: [{"name", "rod", "x", "time", "velocity", "force", "strain"}].
nlohmann::ordered_json gauges_json(const std::vector<GaugeSignal>& signals);

}  // namespace rodcollide
