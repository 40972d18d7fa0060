// The errors the library throws at its callers, and the input layer's vocabulary, shared by the
// case and validation readers, the library's validators and the command line: InvalidInput (a
// value the library refuses, naming its key as data), InputError (bad input in a file,
// "FILE:LINE: KEY: message"), InvalidResolution (a finite-difference grid over the limits),
// InvariantViolation (an outcome that failed its self-check: a defect, never a result), and the
// one wording of each kind of mistake (table in docs/case_file.md "Errors"). Errors about one
// subject stay beside it: InvalidModel (chain.hpp), CaseError (case_file.hpp), SolverLimitExceeded
// (solver_options.hpp), UnsupportedMethod (solve.hpp), OutputPathError (output_file.hpp),
// PlotPathError and PlotError (figures.hpp), ValidationFileError (validation.hpp).
#pragma once

#include <fmt/format.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace rodcollide {

// ---- Errors -------------------------------------------------------------------------------------

/// A value the library refuses. key() names it as data, an option or a quantity
/// ("restitution", "max_events", "rods"), so that a reader can point at its line and the command
/// line at its flag without reading the message; message() says why ("must be > 0, got 0").
/// what() is "key: message".
class InvalidInput : public std::invalid_argument {
public:
    InvalidInput(std::string key, std::string message);
    const std::string& key() const noexcept { return key_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::string key_, message_;
};

/// Bad input in a file. what() is the one line "FILE:LINE: KEY: message"; LINE is 0 when no line
/// is to blame, KEY is "(file)" when the file cannot be read and "(syntax)" for malformed TOML.
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::size_t line, std::string key, std::string message);
    const std::string& file() const noexcept { return file_; }
    std::size_t line() const noexcept { return line_; }
    const std::string& key() const noexcept { return key_; }
    const std::string& message() const noexcept { return message_; }

private:
    std::string file_;
    std::size_t line_;
    std::string key_, message_;
};

/// A resolution the finite-difference solver refuses before doing any work (bad input: the CLI
/// exits with status 2). what() is one line naming the limit.
class InvalidResolution : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// An outcome broke an invariant (the self-check every outcome passes before a solver returns it,
/// docs/physics.md §2). invariant() names it ("momentum conservation"), amount() is the
/// violation relative to its scale (or the offending value, for "finite numbers"), and what() is
/// the one line "outcome violates INVARIANT: DETAILS".
class InvariantViolation : public std::runtime_error {
public:
    InvariantViolation(std::string invariant, double amount, const std::string& details);
    const std::string& invariant() const noexcept { return invariant_; }
    double amount() const noexcept { return amount_; }

private:
    std::string invariant_;
    double amount_;
};

/// A file name as it is shown in a one-line message: as is if it is printable, else quoted with its
/// control characters (newline, tab, escape...) escaped, so that no name can split a message.
std::string display_path(const std::string& path);

// ---- One wording per kind of mistake --------------------------------------------------------------
// Checks return the problem in its one wording (nullopt when the value is fine), so that each
// caller reports it its own way: a reader at a line, the library as InvalidInput, the CLI at a flag.

namespace input {

using Problem = std::optional<std::string>;

/// A value of the wrong type: "must be a number, got a string ("1.0")".
std::string wrong_type(std::string_view expected, std::string_view got);
/// A name that is not one of the valid ones: "unknown law "newtn"; valid: sequential, newton".
template <class Names>
std::string unknown(std::string_view what, std::string_view name, const Names& valid) {
    return fmt::format("unknown {} {:?}; valid: {}", what, name, fmt::join(valid, ", "));
}
/// A list of the wrong length: "must have 2 values (one per rod), got 3"; the first form words
/// the expected length itself ("at least 2 points").
std::string wrong_count(std::string_view expected, std::size_t got);
std::string wrong_count(std::size_t expected, std::string_view each, std::size_t got);
/// A required key that is absent: "missing; give it in this [[rod]] table or in [defaults]".
std::string missing(std::string_view hint);
/// A literal no double or 64-bit integer can hold: "1e999 is out of range for a double".
std::string unrepresentable(std::string_view literal, std::string_view type);

/// "must be finite, got nan".
Problem finite(double x);
/// Finite and "must be > 0, got 0".
Problem positive(double x);
/// Finite and "must be >= 0, got -1".
Problem non_negative(double x);

/// An interval of real numbers, ends included or not.
struct Interval {
    double lo, hi;
    bool lo_open = false, hi_open = false;
    bool contains(double x) const;
    std::string str() const;  ///< "[0, 1)"
};
/// Finite and "must be in [0, 1), got 1".
Problem within(double x, const Interval& range);

/// An integer in [lo, hi]: "must be in [1, 100000000], got 100000001". Below 1 when the range
/// starts at 1, a count, it reads "must be > 0, got 0" like every other quantity that must be
/// positive (and like a count read by a reader, which knows no upper bound).
template <std::integral T>
Problem integer_within(T n, std::int64_t lo, std::uint64_t hi) {
    if (lo == 1 && std::cmp_less(n, 1)) return fmt::format("must be > 0, got {}", n);
    if (std::cmp_less(n, lo) || std::cmp_greater(n, hi)) return fmt::format("must be in [{}, {}], got {}", lo, hi, n);
    return std::nullopt;
}

/// A count, an integer > 0 (its upper bound is the validator's): "must be > 0, got 0".
inline Problem count(std::int64_t n) { return integer_within(n, 1, std::numeric_limits<std::int64_t>::max()); }

/// Throws InvalidInput(key, *problem) if there is a problem.
void require(std::string_view key, const Problem& problem);

/// Checks every entry of a list (an Eigen or std vector) with `check`; the first problem is
/// thrown as InvalidInput(key, "must be > 0, got 0 (ball 2)"), `entry` naming what an entry is.
template <class Vector, class Check>
void require_each(std::string_view key, const Vector& values, Check check, std::string_view entry) {
    for (decltype(values.size()) i = 0; i < values.size(); ++i)
        if (const Problem p = check(values[i]))
            throw InvalidInput(std::string(key), fmt::format("{} ({} {})", *p, entry, i + 1));
}

}  // namespace input

}  // namespace rodcollide
