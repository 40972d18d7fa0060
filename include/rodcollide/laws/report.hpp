// Reporting a law's result and a property report: one JSON document (nlohmann) or a readable
// fmt table. Used by `rodcollide laws` and available to the comparison module.
#pragma once

#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/law_result.hpp"
#include "rodcollide/laws/properties.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rodcollide::laws {

/// Keys: law, masses, initial_velocities, final_velocities, impulses, contact_velocities_pre,
/// contact_velocities_post, energy_pre, energy_post, energy_ratio (null if infinite),
/// impact_equation_residual, consistency{kinematic, kinetic, energetic}, parameters; newton and
/// poisson add lcp_pivots; sequential adds order, impacts, max_impacts, cap_hit and, for three
/// equal masses, cone and cone_matrix.
nlohmann::ordered_json to_json(const LawResult& r, const LawParameters& p);

/// Keys: evaluations, non_expansive, monotone, cyclically_monotone, positively_homogeneous,
/// continuous, each with "holds" and its figures and witnesses.
nlohmann::ordered_json to_json(const PropertyReport& r);

/// Human-readable tables (several lines, ending with a newline).
std::string format_table(const LawResult& r, const LawParameters& p);
std::string format_table(const PropertyReport& r);

}  // namespace rodcollide::laws
