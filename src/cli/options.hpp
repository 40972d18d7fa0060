// Command-line plumbing shared by the subcommands: option parsing with one-line errors, the
// solver flags that override a case file's [solver] table, and progress on stderr.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solver_options.hpp"
#include "rodcollide/sweep.hpp"

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rodcollide::cli {

/// Parses args into vm. On a bad command line prints one line and returns exit_bad_input.
std::optional<int> parse_command_line(const std::string& command, const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      const boost::program_options::positional_options_description& positional,
                                      boost::program_options::variables_map& vm);

/// Parses `rodcollide COMMAND CASE [options]`: the options in `visible` (and in `hidden`, accepted
/// but left out of the help: aliases) plus the positional CASE (vm["case"]). Prints help_text and
/// the options for --help, and reports a missing CASE. Returns the exit status to return now, or
/// nullopt to go on.
std::optional<int> parse_case_command_line(const std::string& command, const char* help_text,
                                           const std::vector<std::string>& args,
                                           const boost::program_options::options_description& visible,
                                           boost::program_options::variables_map& vm,
                                           const boost::program_options::options_description* hidden = nullptr);

/// Prints "rodcollide COMMAND: message" and returns exit_bad_input.
int usage_error(const std::string& command, const std::string& message);

/// What an output flag writes: one file, or a picture (.png or .svg) with its script beside it.
enum class OutputKind { file, picture };

/// Checks an output path before any work (check_output_target, check_output_path for a
/// picture): on a refusal prints "rodcollide COMMAND: --FLAG: PATH: reason" and returns
/// exit_bad_input. Every command checks every output flag with it.
std::optional<int> check_output_flag(const std::string& command, const std::string& flag, const std::string& path,
                                     OutputKind kind = OutputKind::file);

/// "a, b,c" -> {"a", "b", "c"}: the parts between separators, blanks trimmed (empty parts kept,
/// so that callers can refuse them).
std::vector<std::string> split_list(const std::string& text, char separator = ',');

/// "k/n" -> Shard (sweep and ensemble --shard); nullopt if malformed.
std::optional<Shard> parse_shard(const std::string& text);

/// An options_description as help text.
std::string to_string(const boost::program_options::options_description& options);

// ---- Flag values, in the wording of case files -------------------------------------------------
// Number flags are declared po::value<std::string>() and parsed here, so that `--cells 1.5` and
// `cells = 1.5` read the same. Mistakes throw InvalidInput keyed by the flag's name ("end-time").

/// Text as a number (a double; nan and inf included) or as an integer (64-bit).
double parse_number(std::string_view text, const std::string& key);
std::int64_t parse_integer(std::string_view text, const std::string& key);
/// The flag's value parsed; nullopt when the flag is absent.
std::optional<double> number_flag(const boost::program_options::variables_map& vm, const std::string& flag);
std::optional<std::int64_t> integer_flag(const boost::program_options::variables_map& vm, const std::string& flag);
/// An on/off flag's value; nullopt when the flag is absent.
std::optional<bool> switch_flag(const boost::program_options::variables_map& vm, const std::string& flag);
/// An integer given for a count (> 0), as the size_t an options struct holds.
std::size_t to_count(const std::string& key, std::int64_t n);

/// "--flag: message" for an InvalidInput whose key is a flag of `options` (option "max_events"
/// is flag --max-events), else what() ("rods: ...", a key no flag sets).
std::string flag_error(const InvalidInput& e, const boost::program_options::options_description& options);

/// A flag per [solver] option of the option table (solver_option_table.hpp: --method, --end-time,
/// --drop-tolerance, --max-events, ...), overriding the case file.
class CommonSolverFlags {
public:
    /// Adds the flags to `options`; --end-time goes to `hidden_end_time` instead when given (a
    /// command where it is an alias of its own flag).
    void add_to(boost::program_options::options_description& options,
                boost::program_options::options_description* hidden_end_time = nullptr);
    /// Reads the flags' values right after the command line is parsed (a value that is no number
    /// is a bad command line); on a mistake prints one line and returns exit_bad_input.
    std::optional<int> read(const std::string& command, const boost::program_options::variables_map& vm);
    /// Applies the values read over the case's options, each checked by validate(SolverOptions)
    /// as it is set; on a mistake prints one line naming the flag and returns exit_bad_input.
    std::optional<int> apply(const std::string& command, SolverOptions& solver) const;

private:
    /// A flag's value as read: counts stay signed until apply() checks them.
    using FlagValue = std::variant<std::string, double, std::int64_t, bool>;
    std::vector<std::optional<FlagValue>> values_;  // per row of solver_option_table()
};

/// Loads the case file vm["case"] and applies the solver flags over its [solver] table. A bad
/// case file or flag prints one line and gives nullopt: return exit_bad_input.
std::optional<Case> load_case_with_flags(const std::string& command, const boost::program_options::variables_map& vm,
                                         const CommonSolverFlags& flags);

/// Shows progress on a terminal's stderr once an operation has run for more than a second, as one
/// line rewritten in place and cleared when done (never on a fast run, never into stdout, never
/// into a log: an error is then the only line on stderr).
class ProgressReporter {
public:
    explicit ProgressReporter(std::string command);
    ~ProgressReporter() { finish(); }  // an error on the way out starts on a clean line
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;
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
