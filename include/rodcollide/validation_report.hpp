// The validation suite's report (validation.hpp) as `rodcollide validate` prints it: the table
// of PASS/FAIL rows and its JSON form (docs/validation.md).
#pragma once

#include "rodcollide/validation.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace rodcollide::validation {

/// The table as `rodcollide validate` prints it, with a summary line.
std::string format_table(const Report& report);

/// {"passed": bool, "failures": n, "rows": [{file, case, quantity, expected, got, error,
/// tolerance, source, pass}]}.
nlohmann::ordered_json to_json(const Report& report);

}  // namespace rodcollide::validation
