// Case files: TOML (read with toml11) -> Case {title, Chain, SolverOptions}. Every input error
// lives here and is reported as one line "FILE:LINE: KEY: message" (a public contract, see
// docs/case_file.md).
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/ensemble_spec.hpp"
#include "rodcollide/gauge.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solver_options.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

/// A bad case file. what() is the complete one-line message, e.g.
/// "cases/x.toml:7: rod[2].length: must be > 0, got -1". LINE is that of the offending key (or
/// of its table's header); it is 0 when no line is to blame (the file cannot be read, or `rod`
/// is missing). KEY is "(file)" when the path cannot be read and "(syntax)" for malformed TOML.
/// file(), line(), key() and message() give the parts as data (InputError).
class CaseError : public InputError {
public:
    explicit CaseError(InputError e);
};

/// A loaded, validated case.
struct Case {
    std::string title;        ///< from `title`, or the file stem when absent
    std::filesystem::path path;
    Chain chain;
    SolverOptions solver;
    std::vector<Gauge> gauges;  ///< [[gauge]] stations, in file order
    /// `units = "dimensionless"`: the numbers are in any consistent unit system (L = A = rho = E
    /// = 1, say), so pictures label them without SI units. Default "SI".
    bool dimensionless = false;
    /// The [ensemble] table (rodcollide ensemble), checked against the chain; nullopt when absent.
    std::optional<EnsembleSpec> ensemble;
};

/// Reads and validates a case file.
/// @throws CaseError for any problem with the file or its contents (never anything else for bad
///         input): unreadable, over 1 MiB, not TOML, or a key the reader or Chain refuses.
Case load_case(const std::filesystem::path& path);

/// Same, from TOML text; `name` stands for the file name in messages (and a [[load]]'s `file` is
/// read relative to its folder).
/// @throws CaseError as load_case().
Case parse_case(const std::string& toml_text, const std::string& name);

/// A perturbation written as the keys of an [[ensemble.perturb]] table on one line, separated by
/// commas (`key = "velocity", rods = [0], relative = 0.01`): the command line's --perturb. Read
/// by the case reader's own rules; not checked against a chain (check_ensemble_spec does that).
/// @throws CaseError ("FILE:LINE: KEY: message" with `name` for FILE, line 1) for anything the
///         case reader would refuse in an [[ensemble.perturb]] table.
Perturbation parse_perturbation(const std::string& keys, const std::string& name);

}  // namespace rodcollide
