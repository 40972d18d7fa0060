// The regression validation suite (format: docs/validation.md). A directory of TOML
// files, each a list of reference quantities: what to compute (an outcome or field value of a
// case, a rigid law's result, a comparison, a sweep, or a cross-check between two solvers), the
// expected value with its tolerance, and the SOURCE of the reference — a paper and equation, a
// closed form, or a cross-check between solvers or laws, never the program's own earlier output.
// Loading checks every file first (one-line errors "FILE:LINE: KEY: message"); running computes
// every check and reports a table of PASS/FAIL rows.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/solver_options.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::validation {

/// A bad validation file or directory. what() is one line, "FILE:LINE: KEY: message" (LINE 0
/// when no line is to blame); a bad case file referenced by a check is reported with the case
/// file's own CaseError line. file(), line(), key() and message() give the parts (InputError).
class ValidationFileError : public InputError {
public:
    explicit ValidationFileError(InputError e);
};

/// What a check computes (the `kind` key).
enum class Kind {
    outcome,       ///< a quantity of a case's outcome or wave field (solve())
    law,           ///< a rigid law applied to masses and velocities (laws::apply_law)
    compare,       ///< a quantity of the comparison of a case with the laws (compare.hpp)
    sweep,         ///< a quantity of a three-rod sweep (sweep.hpp)
    cross_method,  ///< one solver against another on a case (expected = the reference solver)
};

/// One reference quantity, as loaded (cases read, names resolved, sizes checked).
struct Check {
    std::string file;        ///< validation file, as found
    std::size_t line = 0;    ///< of its [[check]] header
    Kind kind = Kind::outcome;
    std::string name;        ///< the "case" column
    std::string quantity;
    std::optional<Case> case_data;   ///< outcome, compare, sweep, cross_method
    std::optional<Method> method;    ///< overrides the case's [solver] method
    Method reference_method = Method::characteristics;  ///< cross_method
    std::optional<double> x, t;      ///< field point (chain material coordinate [m], time [s])
    std::optional<std::size_t> contact;
    laws::LawParameters law;         ///< law; compare/sweep use law.law and law.restitution
    Eigen::VectorXd masses, velocities;
    std::vector<Eigen::VectorXd> cycle;  ///< law, cycle_value: gamma- of the cycle
    std::size_t directions = 0;      ///< sweep
    std::vector<double> expected;    ///< empty for cross_method (computed)
    std::vector<std::string> expected_text;  ///< as written ("-1/3")
    bool vector = false;             ///< a vector quantity (one row, error = largest entry)
    double tolerance = 0;
    /// How the error is scaled: absolute, / max |expected| (absolute when that is 0), or / the
    /// case's velocity scale V = max u- - min u- (frame-invariant; the finite-difference study's
    /// "error of V").
    enum class Scale { absolute, expected, velocity_scale } scale = Scale::absolute;
    std::string source;              ///< "paper: ...", "closed form: ..." or "cross-check: ..."
};

struct Suite {
    std::vector<std::string> files;  ///< the validation files, sorted
    std::vector<Check> checks;       ///< in file order
};

/// Loads a directory (every *.toml directly in it, sorted) or one file.
/// @throws ValidationFileError for a path without validation files or any problem in one (the
///         first, as one FILE:LINE: KEY: message line).
Suite load_suite(const std::filesystem::path& path);

/// Loads one file's text; `name` is the file in messages, `directory` resolves relative paths.
/// @throws ValidationFileError as load_suite().
std::vector<Check> parse_validation_file(const std::string& text, const std::string& name,
                                         const std::filesystem::path& directory);

/// One line of the report.
struct Row {
    std::string file;          ///< the validation file's name
    std::size_t line = 0;      ///< of the [[check]] that made the row
    std::string name, quantity, expected, got;
    double error = 0;          ///< NaN when the check could not be computed
    std::string tolerance;     ///< "1e-12" or "1e-03 rel"
    std::string source;
    bool pass = false;
};

struct Report {
    std::vector<Row> rows;
    std::size_t failures() const;
    bool passed() const { return failures() == 0; }
};

/// Computes every check (a sweep's cone_errors gives six rows). A check that throws is a FAIL
/// row whose `got` is the error message. `progress(done, total)` is called after each check.
/// @throws nothing for a failing check (it is a row); only what `progress` throws.
Report run(const Suite& suite, const std::function<void(std::size_t, std::size_t)>& progress = {});

// ---- As `rodcollide validate` prints it (docs/validation.md) -------------------------------

/// The table as `rodcollide validate` prints it, with a summary line.
std::string format_table(const Report& report);

/// {"passed": bool, "failures": n, "rows": [{file, case, quantity, expected, got, error,
/// tolerance, source, pass}]}.
nlohmann::ordered_json to_json(const Report& report);

}  // namespace rodcollide::validation
