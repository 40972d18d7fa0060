// The [solver] options, described once: each row names a key of a case file's [solver] table (the
// same name is the Python keyword and, with '-' for '_', the command-line flag), its type, its
// units, its range and its one line of help. The case reader, the command line's flags and
// `--help`, the Python module and the fuzz mutator read this table, and
// tests/model/test_solver_option_table.cpp fails if any of them misses a row. Defaults and limits
// are printed from SolverOptions{} and the constants of solver_options.hpp, never copied.
//
// To add an option: the field in SolverOptions and its check in validate() (solver_options.hpp),
// then a row here, in the order the case reader checks the keys (the first mistake in a file is
// the one reported); docs/case_file.md documents it.
#pragma once

#include "rodcollide/solver_options.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace rodcollide {

/// How an option is written in a case file and on the command line.
enum class OptionType {
    method,  ///< a method name (string)
    number,  ///< a finite number
    count,   ///< a non-negative integer
    on_off,  ///< a case file's boolean; on the command line "on" or "off"
};

/// A value read for an option, of its OptionType.
using OptionValue = std::variant<std::string, double, std::size_t, bool>;

struct SolverOptionSpec {
    std::string_view key;         ///< the case-file key and Python keyword ("max_events")
    OptionType type;
    std::string_view units;       ///< of the value ("s"; "" for none)
    /// The value's name in `--help` ("T"); empty: no command-line flag (set in the case file).
    std::string_view value_name;
    /// One line of help. "{default}" and "{largest}" stand for the default and the largest value
    /// (option_help() fills them in from the constants).
    std::string_view help;
    /// The default as shown to users ("3e8", "on"), from SolverOptions{} and default_cells.
    std::string (*default_text)();
    /// The largest value accepted, as shown to users; empty when the range needs no bound.
    std::string (*largest_text)();
    /// Sets the option (a value of its type). validate(SolverOptions) checks it.
    void (*set)(SolverOptions& options, const OptionValue& value);
};

/// Every [solver] option, in the order the case reader checks them.
std::span<const SolverOptionSpec> solver_option_table();

/// The row of `key`, or nullptr.
const SolverOptionSpec* find_solver_option(std::string_view key);

/// The command-line flag of an option, without "--": the key with '-' for '_' ("max-events").
std::string option_flag(const SolverOptionSpec& option);

/// The option's help line with its default and largest value filled in.
std::string option_help(const SolverOptionSpec& option);

/// A number as help text shows it: shortest form, exponents without '+' or leading zeros
/// (3e8, 1e-12, 0.02, 1000).
std::string short_number(double value);

}  // namespace rodcollide
