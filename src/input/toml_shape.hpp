// A linear pre-parse scan of TOML text that refuses shapes the TOML parser cannot take safely,
// before it sees them: toml11 parses arrays and inline tables recursively (thousands of nested
// brackets overflow the stack), and a file of 100,001 [[rod]] tables would be parsed in full before
// its rod count could be refused. The scan only tracks strings, comments, brackets and keys; the
// parser still judges the syntax. Internal to the library.
#pragma once

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rodcollide::toml_input {

/// Deepest nesting of arrays and inline tables in one value, and most parts of one dotted key or
/// table header (a.b.c): both stay far below what the recursive parser (and the destruction of
/// what it builds) can take on any stack, and far above what a case or validation file needs.
inline constexpr std::size_t max_nesting = 32;
inline constexpr std::size_t max_key_parts = 32;

/// toml11 scans a value's whole line for comments as it reads the value, so a line costs about
/// (values on it) x (its length) steps: 5,000 numbers of 17 digits on one line take ~0.2 s. The
/// scan sums this over the file and refuses more than this many steps (about half a second);
/// thousands of numbers on one line fit, and a multi-line array costs only its length.
inline constexpr double max_line_work = 1e9;

/// Longer keys are cut short in messages (and get no suggestion): they are no typo of ours.
inline constexpr std::size_t longest_shown_key = 60;

/// A key as it may be shown in a message (cut to longest_shown_key).
std::string shown_key(const std::string& key);

/// A shape refused by the scan, at a line, under the key being written.
struct ShapeError : std::runtime_error {
    ShapeError(std::size_t line_, std::string key_, const std::string& message)
        : std::runtime_error(message), line(line_), key(std::move(key_)) {}
    std::size_t line;
    std::string key;
};

/// What the scan saw: each array of tables, [[name]], with its number of headers and the line of
/// the first.
struct Shape {
    struct Headers {
        std::size_t count = 0;
        std::size_t first_line = 0;
    };
    std::map<std::string, Headers, std::less<>> array_tables;
    const Headers* headers(std::string_view name) const {
        const auto it = array_tables.find(name);
        return it == array_tables.end() ? nullptr : &it->second;
    }
};

/// Scans `text` in one pass; throws ShapeError for nesting deeper than max_nesting, a key or
/// header of more than max_key_parts parts, or lines of many values beyond max_line_work.
Shape scan_shape(std::string_view text);

}  // namespace rodcollide::toml_input
