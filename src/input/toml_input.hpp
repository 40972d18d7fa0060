// The typed TOML reader shared by case files and validation files: file reading with a size cap,
// toml11's multi-line syntax errors summarised to one line, and a Reader with one read per kind
// of value (number, finite number, bounded number, integer, count, string, table, array, array of
// tables) and unknown-key rejection with suggestions, each failing with one InputError line
// "FILE:LINE: KEY: message" in the wording of errors.hpp. Internal to the library.
#pragma once

#include "rodcollide/errors.hpp"
#include "input/toml_shape.hpp"

#include <toml.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace rodcollide::toml_input {

/// A file could not be read; what() is the reason alone ("no such file"), to be prefixed with
/// "FILE:0: (file): " by the caller.
class FileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The whole file as text: a regular file or a pipe (opened without blocking: a FIFO with no writer
/// fails at once), at most 1 MiB. `kind` names what the file
/// should be in messages ("a case file"). Throws FileError.
std::string read_text_file(const std::filesystem::path& path, std::string_view kind);

/// Malformed TOML: the culprit's line and a one-line reason (toml11's banner summarised).
struct SyntaxError : std::runtime_error {
    SyntaxError(std::size_t line_, const std::string& reason) : std::runtime_error(reason), line(line_) {}
    std::size_t line;
};
/// Parses TOML text (`name` stands for the file in toml11's messages). Throws SyntaxError.
toml::value parse(const std::string& text, const std::string& name);

/// The value of `key` in `t`, or null.
const toml::value* find(const toml::table& t, std::string_view key);

/// Line of a value in its file (1-based); toml11 gives a table from a [header] the header's line.
std::size_t line_of(const toml::value& v);

/// Where a value starts in its file (characters from the start), to order values in constant time
/// (line_of counts the lines before the value); the largest size_t for a value built in code.
std::size_t source_offset(const toml::value& v);

/// Describes a value of the wrong type for "must be X, got ...", on one line.
std::string describe(const toml::value& v);

/// toml11 3.7 silently clamps literals a double or int64 cannot hold (1e999 -> DBL_MAX,
/// 1e-999 -> 0, 99999999999999999999 -> INT64_MAX). Returns the literal if v is one of those.
std::optional<std::string> unrepresentable_literal(const toml::value& v);

/// The known key a typo most likely meant (edit distance, or a fragment of it), if any.
std::string_view similar_key(std::string_view key, std::span<const std::string_view> known);

/// The first unknown key of `t` in file order (null if none), for "unknown key" messages.
const toml::table::value_type* first_unknown_key(const toml::table& t,
                                                 std::span<const std::string_view> known);

/// "unknown key; did you mean "length"?" or, without a suggestion, "unknown key; expected one
/// of: a, b".
std::string unknown_key(std::string_view suggestion, std::span<const std::string_view> known);

/// Reads the values of one file by type. Every mistake throws InputError naming the file, the
/// value's line and `key`, the key's path as the caller spells it ("rod[2].length").
class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    [[noreturn]] void fail(std::size_t line, const std::string& key, const std::string& message) const;
    [[noreturn]] void fail(const toml::value& at, const std::string& key, const std::string& message) const;

    /// The text as TOML; malformed TOML fails with KEY "(syntax)". The text's shape is checked
    /// first (toml_shape.hpp), and then by `check_shape` (e.g. a count of [[name]] tables), so that
    /// the parser never sees what it cannot take quickly and safely.
    toml::value parse(const std::string& text, const std::function<void(const Shape&)>& check_shape = {}) const;

    const toml::table& table(const toml::value& v, const std::string& key) const;
    const toml::array& array(const toml::value& v, const std::string& key) const;
    /// An array of tables written [[key]], one per `each` ("rod"); the tables are checked as read.
    const toml::array& array_of_tables(const toml::value& v, const std::string& key, std::string_view each) const;
    std::string string(const toml::value& v, const std::string& key) const;
    /// An integer or a float a double can hold (nan and inf included).
    double number(const toml::value& v, const std::string& key) const;
    double finite_number(const toml::value& v, const std::string& key) const;
    /// A finite number that passes `check` (input::positive, input::non_negative, ...).
    template <class Check>
    double bounded(const toml::value& v, const std::string& key, Check check) const {
        const double x = finite_number(v, key);
        if (const input::Problem p = check(x)) fail(v, key, *p);
        return x;
    }
    /// An integer a 64-bit integer can hold.
    std::int64_t integer(const toml::value& v, const std::string& key) const;
    /// A count: an integer > 0 (its upper bound is the validator's).
    std::size_t count(const toml::value& v, const std::string& key) const;
    /// true or false.
    bool boolean(const toml::value& v, const std::string& key) const;

    /// Runs a library check; the InvalidInput it throws is reported at `at` under `key`.
    template <class F>
    void checked(const toml::value& at, const std::string& key, F&& check) const {
        try {
            check();
        } catch (const InvalidInput& e) {
            fail(at, key, e.message());
        }
    }

    /// Unknown keys are typos: the first in file order is reported as prefix.key, with a
    /// suggestion. `hint` may word the message itself for some keys (empty: the usual message).
    void reject_unknown_keys(const toml::table& t, std::span<const std::string_view> known, const std::string& prefix,
                             const std::function<std::string(std::string_view key)>& hint = {}) const;

private:
    std::string file_;
};

}  // namespace rodcollide::toml_input
