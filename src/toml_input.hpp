// Reading TOML input files (case files, validation files) with one-line errors: the pieces both
// readers share — file reading with a size cap, toml11's multi-line syntax errors summarised to
// one line, value descriptions for "must be X, got Y", out-of-range literals toml11 would clamp,
// and key suggestions for typos. Internal to the library (not installed under include/).
#pragma once

#include <toml.hpp>

#include <cstddef>
#include <filesystem>
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

/// Longer keys are cut short in messages (and get no suggestion): they are no typo of ours.
inline constexpr std::size_t longest_shown_key = 60;

/// The whole file as text (pipes and devices too), at most 256 MiB. `kind` names what the file
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

/// A key as it may be shown in a message (cut to longest_shown_key).
std::string shown_key(const std::string& key);

}  // namespace rodcollide::toml_input
