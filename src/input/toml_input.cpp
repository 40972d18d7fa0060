// The typed TOML reader shared by the case-file and validation readers (see toml_input.hpp).
#include "input/toml_input.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rodcollide::toml_input {

namespace fs = std::filesystem;

/// Largest file read: toml11 3.7 parses 0.4 to 1.5 MB per second depending on the shape (measured,
/// docs/case_file.md "Limits"), so this keeps parsing near a second; a 100,000-rod case fits when
/// the rods share their values in [defaults] (8 bytes per "[[rod]]" line).
constexpr std::size_t max_file_bytes = std::size_t{1} << 20;

std::string read_text_file(const fs::path& path, std::string_view kind) {
    auto fail = [](const std::string& message) { throw FileError(message); };
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found)
        fail(ec == std::errc::not_a_directory ? "no such file (part of the path is not a directory)"
                                              : "no such file");
    if (status.type() == fs::file_type::directory) fail(fmt::format("is a directory, not {}", kind));
    if (ec) fail(fmt::format("cannot open: {}", ec.message()));

    // Non-blocking, so that opening a FIFO nobody writes to returns at once; only regular files and
    // pipes (`rodcollide run <(make_case)`) are read: a device may never end (/dev/zero) or block
    // (a terminal).
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(fmt::format("cannot open: {}", std::strerror(errno)));
    const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) { ::close(*f); delete f; });
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(fmt::format("cannot open: {}", std::strerror(errno)));
    const bool pipe = S_ISFIFO(st.st_mode);
    if (!S_ISREG(st.st_mode) && !pipe)
        fail(fmt::format("not a regular file or a pipe (a device or socket); not {}", kind));
    if (!pipe && static_cast<std::uintmax_t>(st.st_size) > max_file_bytes)
        fail(fmt::format("larger than {} MiB; not {}", max_file_bytes >> 20, kind));
    // A pipe with a writer is waited on like a file; with none, reading ends at once.
    if (pipe && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
        fail(fmt::format("cannot read: {}", std::strerror(errno)));
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(fmt::format("cannot read: {}", std::strerror(errno)));
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > max_file_bytes) fail(fmt::format("larger than {} MiB; not {}", max_file_bytes >> 20, kind));
    }
    if (pipe && text.empty()) fail("nothing to read: a pipe or FIFO with no writer, or an empty one");
    return text;
}

namespace {

/// toml11 reports a syntax error as a banner of several lines, e.g.
///   [error] toml::parse_array: missing array separator `,` after a value
///    --> cases/x.toml
///      |
///    4 |  2x,
///      |   ^--- should be `,`
/// This keeps the number of the last quoted line (the culprit; the first one, if several, is
/// context such as "array starts here") and a one-line reason from the header and the last note.
std::pair<std::size_t, std::string> summarize_syntax_error(const toml::exception& e) {
    std::istringstream text(e.what());
    std::string line, header, note;
    std::size_t line_number = e.location().line();
    auto trim = [](std::string s) {
        const auto b = s.find_first_not_of(" \t");
        const auto end = s.find_last_not_of(" \t.");
        return b == std::string::npos || end < b ? std::string() : s.substr(b, end - b + 1);
    };
    bool first = true;
    while (std::getline(text, line)) {
        if (first) {
            first = false;
            header = trim(line.starts_with("[error]") ? line.substr(7) : line);
            if (header.starts_with("toml::")) {  // "toml::parse_array: reason"
                const auto colon = header.find(':', 6);
                header = colon == std::string::npos ? "" : trim(header.substr(colon + 1));
            }
            continue;
        }
        const std::string t = trim(line);
        const auto bar = t.find('|');
        if (bar == std::string::npos || t.starts_with("Hint")) continue;
        const std::string before = trim(t.substr(0, bar));
        if (!before.empty() && std::all_of(before.begin(), before.end(), ::isdigit)) {
            line_number = std::stoul(before);  // " 4 |  2x,"
        } else if (before.empty()) {           // "   |   ^--- should be `,`"
            std::string rest = trim(t.substr(bar + 1));
            const auto mark_end = rest.find_first_not_of("^~-");
            if (mark_end != 0 && !rest.empty())
                note = mark_end == std::string::npos ? "" : trim(rest.substr(mark_end));
        }
    }
    if (note == "here") note.clear();
    std::string reason = header.empty() ? note : note.empty() ? header : header + " (" + note + ")";
    if (reason.empty()) reason = "malformed TOML";
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    return {line_number, reason};
}

/// Optimal string alignment distance (edits and adjacent swaps), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]))
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

toml::value parse(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    try {
        return toml::parse(in, name);
    } catch (const toml::exception& e) {
        const auto [line, reason] = summarize_syntax_error(e);
        throw SyntaxError(line, reason);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {  // toml11 may throw std:: errors on odd input
        std::string what = e.what();
        std::replace(what.begin(), what.end(), '\n', ' ');
        throw SyntaxError(0, what);
    }
}

const toml::value* find(const toml::table& t, std::string_view key) {
    const auto kv = t.find(std::string(key));
    return kv == t.end() ? nullptr : &kv->second;
}

std::size_t line_of(const toml::value& v) { return v.location().line(); }

std::size_t source_offset(const toml::value& v) {
    const auto* r = dynamic_cast<const toml::detail::region*>(toml::detail::get_region(v));
    return r ? static_cast<std::size_t>(r->first() - r->begin()) : std::numeric_limits<std::size_t>::max();
}

std::string describe(const toml::value& v) {
    switch (v.type()) {
        case toml::value_t::boolean: return fmt::format("a boolean ({})", v.as_boolean());
        case toml::value_t::integer: return fmt::format("an integer ({})", v.as_integer());
        case toml::value_t::floating: return fmt::format("a float ({})", v.as_floating());
        case toml::value_t::string: {
            const std::string& s = v.as_string().str;
            return s.size() <= 40 ? fmt::format("a string ({:?})", s)
                                  : fmt::format("a string ({:?}...)", s.substr(0, 37));
        }
        case toml::value_t::array: return "an array";
        case toml::value_t::table: return "a table";
        case toml::value_t::empty: return "nothing";
        default: return "a date or time";
    }
}

std::optional<std::string> unrepresentable_literal(const toml::value& v) {
    // Only clamped-looking values are re-read: location() counts lines from the file's start.
    const bool suspect =
        v.is_floating()
            ? v.as_floating() == 0 ||
                  std::abs(v.as_floating()) == std::numeric_limits<double>::max()
            : v.as_integer() == std::numeric_limits<std::int64_t>::max() ||
                  v.as_integer() == std::numeric_limits<std::int64_t>::min();
    if (!suspect) return std::nullopt;
    // The value's own text: its source_location would count lines from the file's start.
    const toml::detail::region_base* region = toml::detail::get_region(v);
    if (!region || !region->is_ok()) return std::nullopt;
    std::string literal = region->str();
    std::erase(literal, '_');
    if (v.is_integer() && literal.find_first_of("xob") != std::string::npos) return std::nullopt;
    errno = 0;
    if (v.is_floating())
        (void)std::strtod(literal.c_str(), nullptr);
    else
        (void)std::strtoll(literal.c_str(), nullptr, 10);
    if (errno == ERANGE) return literal;
    return std::nullopt;
}

std::string_view similar_key(std::string_view key, std::span<const std::string_view> known) {
    if (key.size() > longest_shown_key) return {};
    std::string_view best;
    std::size_t best_distance = std::min<std::size_t>(2, key.size() / 3);
    for (std::string_view k : known) {
        const std::size_t d = edit_distance(key, k);
        if (d <= best_distance && (best.empty() || d < best_distance)) {
            best = k;
            best_distance = d;
        }
    }
    if (best.empty() && key.size() >= 3) {  // a fragment: "young", "tolerance"
        std::string lowered(key);
        for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (std::string_view k : known)
            if (k.find(lowered) != std::string_view::npos) return k;
    }
    return best;
}

const toml::table::value_type* first_unknown_key(const toml::table& t,
                                                 std::span<const std::string_view> known) {
    const toml::table::value_type* first = nullptr;
    for (const auto& kv : t)
        if (std::find(known.begin(), known.end(), kv.first) == known.end() &&
            (!first || source_offset(kv.second) < source_offset(first->second)))
            first = &kv;
    return first;
}

std::string unknown_key(std::string_view suggestion, std::span<const std::string_view> known) {
    if (!suggestion.empty()) return fmt::format("unknown key; did you mean \"{}\"?", suggestion);
    return fmt::format("unknown key; expected one of: {}", fmt::join(known, ", "));
}

// ---- Reader -----------------------------------------------------------------------------------

void Reader::fail(std::size_t line, const std::string& key, const std::string& message) const {
    throw InputError(file_, line, key, message);
}

void Reader::fail(const toml::value& at, const std::string& key, const std::string& message) const {
    fail(line_of(at), key, message);
}

toml::value Reader::parse(const std::string& text, const std::function<void(const Shape&)>& check_shape) const {
    try {
        const Shape shape = scan_shape(text);
        if (check_shape) check_shape(shape);
    } catch (const ShapeError& e) {
        fail(e.line, e.key, e.what());
    }
    try {
        return toml_input::parse(text, file_);
    } catch (const SyntaxError& e) {
        fail(e.line, "(syntax)", e.what());
    }
}

const toml::table& Reader::table(const toml::value& v, const std::string& key) const {
    if (!v.is_table()) fail(v, key, input::wrong_type("a table", describe(v)));
    return v.as_table();
}

const toml::array& Reader::array(const toml::value& v, const std::string& key) const {
    if (!v.is_array()) fail(v, key, input::wrong_type("an array", describe(v)));
    return v.as_array();
}

const toml::array& Reader::array_of_tables(const toml::value& v, const std::string& key, std::string_view each) const {
    if (!v.is_array())
        fail(v, key, input::wrong_type(fmt::format("an array of tables, one [[{}]] per {}", key, each), describe(v)));
    return v.as_array();
}

std::string Reader::string(const toml::value& v, const std::string& key) const {
    if (!v.is_string()) fail(v, key, input::wrong_type("a string", describe(v)));
    return v.as_string().str;
}

double Reader::number(const toml::value& v, const std::string& key) const {
    if (!v.is_floating() && !v.is_integer()) {
        std::string message = input::wrong_type("a number", describe(v));
        if (v.is_string()) {
            char* end = nullptr;
            const std::string& s = v.as_string().str;
            std::strtod(s.c_str(), &end);
            if (!s.empty() && end == s.c_str() + s.size()) message += "; remove the quotes";
        }
        fail(v, key, message);
    }
    if (const auto literal = unrepresentable_literal(v))
        fail(v, key, input::unrepresentable(*literal, v.is_floating() ? "a double" : "a 64-bit integer"));
    return v.is_floating() ? v.as_floating() : static_cast<double>(v.as_integer());
}

double Reader::finite_number(const toml::value& v, const std::string& key) const {
    const double x = number(v, key);
    if (const input::Problem p = input::finite(x)) fail(v, key, *p);
    return x;
}

bool Reader::boolean(const toml::value& v, const std::string& key) const {
    if (!v.is_boolean()) fail(v, key, input::wrong_type("true or false", describe(v)));
    return v.as_boolean();
}

std::int64_t Reader::integer(const toml::value& v, const std::string& key) const {
    if (!v.is_integer()) fail(v, key, input::wrong_type("an integer", describe(v)));
    if (const auto literal = unrepresentable_literal(v)) fail(v, key, input::unrepresentable(*literal, "a 64-bit integer"));
    return v.as_integer();
}

std::size_t Reader::count(const toml::value& v, const std::string& key) const {
    const std::int64_t n = integer(v, key);
    if (const input::Problem p = input::count(n)) fail(v, key, *p);
    return static_cast<std::size_t>(n);
}

void Reader::reject_unknown_keys(const toml::table& t, std::span<const std::string_view> known,
                                 const std::string& prefix,
                                 const std::function<std::string(std::string_view key)>& hint) const {
    const toml::table::value_type* first = first_unknown_key(t, known);
    if (!first) return;
    const std::string name = shown_key(first->first);
    std::string message = hint ? hint(first->first) : std::string();
    if (message.empty()) message = unknown_key(similar_key(first->first, known), known);
    fail(first->second, prefix.empty() ? name : prefix + "." + name, message);
}

}  // namespace rodcollide::toml_input
