// Command-line plumbing shared by the subcommands: option parsing with one-line errors, the
// solver flags that override a case file's [solver] table, and progress on stderr.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/solver_options.hpp"

#include <boost/program_options.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::cli {

/// Parses args into vm. On a bad command line prints one line and returns exit_bad_input.
std::optional<int> parse_command_line(const std::string& command, const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      const boost::program_options::positional_options_description& positional,
                                      boost::program_options::variables_map& vm);

/// Parses `rodcollide COMMAND CASE [options]`: the options in `visible` plus the positional CASE
/// (vm["case"]). Prints help_text and the options for --help, and reports a missing CASE.
/// Returns the exit status to return now, or nullopt to go on.
std::optional<int> parse_case_command_line(const std::string& command, const char* help_text,
                                           const std::vector<std::string>& args,
                                           const boost::program_options::options_description& visible,
                                           boost::program_options::variables_map& vm);

/// Loads a case file. A bad one prints its one-line CaseError message and gives nullopt: return
/// exit_bad_input.
std::optional<Case> load_case_or_report(const std::filesystem::path& path);

/// Prints "rodcollide COMMAND: message" and returns exit_bad_input.
int usage_error(const std::string& command, const std::string& message);

/// "a, b,c" -> {"a", "b", "c"}: the parts between separators, blanks trimmed (empty parts kept,
/// so that callers can refuse them).
std::vector<std::string> split_list(const std::string& text, char separator = ',');

/// An options_description as help text.
std::string to_string(const boost::program_options::options_description& options);

/// --method, --end-time, --cells, --drop-tolerance, --max-events: override the case file.
struct CommonSolverFlags {
    void add_to(boost::program_options::options_description& options);
    /// Validates and applies the given flags; on bad values prints one line and returns
    /// exit_bad_input.
    std::optional<int> apply(const std::string& command, const boost::program_options::variables_map& vm,
                             SolverOptions& solver) const;
};

/// Shows progress on stderr once an operation has run for more than a second (never on a fast
/// run, never into stdout).
class ProgressReporter {
public:
    explicit ProgressReporter(std::string command);
    /// A callback for SolverOptions::progress.
    std::function<void(double, std::size_t)> callback();
    /// Reports "done / total" for batch work (sweeps).
    void report(std::size_t done, std::size_t total);
    /// Clears the progress line if one was shown.
    void finish();

private:
    void show(const std::string& text);
    std::string command_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_;
    bool shown_ = false;
};

}  // namespace rodcollide::cli
