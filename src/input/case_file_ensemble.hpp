// The case-file table [ensemble] and its [[ensemble.perturb]] tables (docs/case_file.md
// "Ensembles"), read with the shared typed reader, checked against the chain by the library's
// own rules (check_ensemble_spec) and reported as "FILE:LINE: KEY: message". Internal.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/ensemble_spec.hpp"

#include "input/toml_input.hpp"

#include <optional>

namespace rodcollide::case_file {

/// One [[ensemble.perturb]] table (`table_value`), its keys named "PREFIX.key" in messages.
Perturbation read_perturbation(const toml_input::Reader& reader, const toml::value& table_value, const std::string& prefix);

/// The [ensemble] table, or nullopt when the case has none.
std::optional<EnsembleSpec> read_ensemble(const toml_input::Reader& reader, const toml::table& top, const Chain& chain);

}  // namespace rodcollide::case_file
