// The comparison of a case with the rigid impact laws (compare.hpp) as `rodcollide compare`
// prints it: a readable table and the JSON document (its keys are public, docs/compare.md).
#pragma once

#include "rodcollide/compare.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rodcollide {

/// {"wave": the run JSON (report.hpp), "laws": [the laws JSON of each law (laws/report.hpp) plus
/// "distance"], "title", "gaps_ignored_by_laws", "restitution", "closest_law", "cone",
/// "wave_as_law": {...}, "implied_restitution": {...}}. Non-finite numbers are null.
nlohmann::ordered_json comparison_json(const Comparison& c);

/// A readable multi-line report.
std::string comparison_table(const Comparison& c);

}  // namespace rodcollide
