// Case files (issue 2 §2; reference: docs/case_file.md): TOML text, parsed by toml11, checked key
// by key against the schema below and turned into a Case {title, Chain, SolverOptions}. Every
// input error becomes one CaseError line "FILE:LINE: KEY: message" naming the offending key's line.
#include "rodcollide/case_file.hpp"

#include <fmt/format.h>
#include <toml.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace rodcollide {
namespace {

namespace fs = std::filesystem;

// ---- Schema -------------------------------------------------------------------------------

/// What a rod quantity must satisfy besides being a finite number.
enum class Bound { positive, any, non_negative };

struct RodKey {
    std::string_view name;
    double Rod::*field;
    Bound bound;
    bool required;
};

constexpr RodKey rod_keys[] = {
    {"length", &Rod::length, Bound::positive, true},
    {"area", &Rod::area, Bound::positive, true},
    {"density", &Rod::density, Bound::positive, true},
    {"youngs_modulus", &Rod::youngs_modulus, Bound::positive, true},
    {"velocity", &Rod::velocity, Bound::any, false},
    {"gap", &Rod::gap, Bound::non_negative, false},
};
constexpr std::size_t rod_key_count = std::size(rod_keys);

constexpr auto rod_key_names = [] {
    std::array<std::string_view, rod_key_count> names{};
    for (std::size_t k = 0; k < rod_key_count; ++k) names[k] = rod_keys[k].name;
    return names;
}();
constexpr std::string_view top_level_keys[] = {"title", "defaults", "rod", "solver"};
constexpr std::string_view solver_keys[] = {"method",         "end_time",   "record_until",
                                            "drop_tolerance", "max_events", "max_fronts",
                                            "cells"};

/// Where each known key belongs, for keys found in the wrong table (in TOML every key after a
/// [table] header belongs to that table, so a misplaced `title` or `method` is a common slip).
std::string_view home_of(std::string_view key) {
    auto in = [&](std::span<const std::string_view> keys) {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    if (in(rod_key_names)) return "[defaults] or a [[rod]] table";
    if (in(solver_keys)) return "[solver]";
    if (in(top_level_keys)) return "the top level, before the first [table] header";
    return {};
}

/// Symbols from the papers that users type for our key names.
constexpr std::pair<std::string_view, std::string_view> symbol_names[] = {
    {"l", "length"}, {"a", "area"}, {"rho", "density"}, {"e", "youngs_modulus"},
    {"v", "velocity"}, {"u", "velocity"},
};

/// Longer keys are cut short in messages (and get no suggestion): they are no typo of ours.
constexpr std::size_t longest_shown_key = 60;

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

/// The known key a typo most likely meant, if any is close enough to suggest.
std::string_view closest_key(std::string_view key, std::span<const std::string_view> known) {
    if (key.size() > longest_shown_key) return {};
    std::string lowered(key);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [symbol, name] : symbol_names)
        if (lowered == symbol && std::find(known.begin(), known.end(), name) != known.end())
            return name;
    std::string_view best;
    std::size_t best_distance = std::min<std::size_t>(2, key.size() / 3);
    for (std::string_view k : known) {
        const std::size_t d = edit_distance(key, k);
        if (d <= best_distance && (best.empty() || d < best_distance)) {
            best = k;
            best_distance = d;
        }
    }
    if (best.empty() && key.size() >= 3)  // a fragment: "young", "tolerance"
        for (std::string_view k : known)
            if (k.find(lowered) != std::string_view::npos) return k;
    return best;
}

std::string unknown_key_message(std::string_view key, std::span<const std::string_view> known,
                                bool top_level) {
    if (std::string_view home = home_of(key); !home.empty())
        return fmt::format("unknown key here; \"{}\" belongs in {}{}", key, home,
                           top_level ? "" : " (in TOML, every key after a [table] header belongs "
                                            "to that table)");
    if (std::string_view guess = closest_key(key, known); !guess.empty())
        return fmt::format("unknown key; did you mean \"{}\"?", guess);
    return fmt::format("unknown key; expected one of: {}", fmt::join(known, ", "));
}

// ---- Messages -------------------------------------------------------------------------------

/// A key in messages: "title", "solver.method", "defaults.area", "rod[2].length", "rod[2]".
struct KeyPath {
    std::string_view table;  ///< "" for top-level keys
    std::size_t index = none;
    std::string_view key;    ///< "" for the table (or rod) itself
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

    static KeyPath top(std::string_view key) { return {{}, none, key}; }
    static KeyPath in(std::string_view table, std::string_view key = {}) {
        return {table, none, key};
    }
    static KeyPath rod(std::size_t i, std::string_view key = {}) { return {"rod", i, key}; }

    std::string str() const {
        std::string s(table);
        if (index != none) s += fmt::format("[{}]", index);
        if (!key.empty()) s += (s.empty() ? "" : ".") + std::string(key);
        return s;
    }
};

/// The value of `key` in `t`, or null.
const toml::value* find(const toml::table& t, std::string_view key) {
    const auto kv = t.find(std::string(key));
    return kv == t.end() ? nullptr : &kv->second;
}

/// Line of a value in its file (1-based); toml11 gives a table from a [header] the header's line.
std::size_t line_of(const toml::value& v) { return v.location().line(); }

/// Describes a value of the wrong type for "must be X, got ...", on one line.
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

/// toml11 3.7 silently clamps literals a double or int64 cannot hold (1e999 -> DBL_MAX,
/// 1e-999 -> 0, 99999999999999999999 -> INT64_MAX). Re-reading the literal catches them.
/// Only clamped-looking values are re-read: location() counts lines from the file's start.
std::optional<std::string> unrepresentable_literal(const toml::value& v) {
    const bool suspect =
        v.is_floating()
            ? v.as_floating() == 0 ||
                  std::abs(v.as_floating()) == std::numeric_limits<double>::max()
            : v.as_integer() == std::numeric_limits<std::int64_t>::max() ||
                  v.as_integer() == std::numeric_limits<std::int64_t>::min();
    if (!suspect) return std::nullopt;
    const toml::source_location loc = v.location();
    if (loc.column() == 0 || loc.column() - 1 >= loc.line_str().size()) return std::nullopt;
    std::string literal = loc.line_str().substr(loc.column() - 1, loc.region());
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

// ---- Reading --------------------------------------------------------------------------------

/// Reads one case (file name `file` in messages) and fails with CaseError at the first problem.
class CaseReader {
public:
    explicit CaseReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(std::size_t line, const std::string& key,
                           std::string_view message) const {
        throw CaseError(fmt::format("{}:{}: {}: {}", file_, line, key, message));
    }
    [[noreturn]] void fail(const toml::value& at, const KeyPath& key,
                           std::string_view message) const {
        fail(line_of(at), key.str(), message);
    }

    Case read(const std::string& text) const {
        const toml::value root = parse(text);
        const toml::table& top = table(root, {});
        reject_unknown_keys(top, top_level_keys, {});

        std::string name = title(top);
        const Defaults given_defaults = defaults(top);
        std::vector<Rod> rod_list = rods(top, given_defaults);
        SolverOptions options = solver(top);
        return Case{std::move(name), file_, chain(std::move(rod_list), top, given_defaults),
                    options};
    }

private:
    std::string file_;

    /// Per rod key: the value from [defaults], and where it was written (null when absent).
    struct Defaults {
        std::array<std::optional<double>, rod_key_count> value;
        std::array<const toml::value*, rod_key_count> source{};
    };

    toml::value parse(const std::string& text) const {
        std::istringstream in(text);
        try {
            return toml::parse(in, file_);
        } catch (const toml::exception& e) {
            const auto [line, reason] = summarize_syntax_error(e);
            fail(line, "(syntax)", reason);
        } catch (const std::bad_alloc&) {
            throw;
        } catch (const std::exception& e) {  // toml11 may throw std:: errors on odd input
            std::string what = e.what();
            std::replace(what.begin(), what.end(), '\n', ' ');
            fail(0, "(syntax)", what);
        }
    }

    const toml::table& table(const toml::value& v, const KeyPath& key) const {
        if (!v.is_table()) fail(v, key, fmt::format("must be a table, got {}", describe(v)));
        return v.as_table();
    }

    /// Unknown keys are typos: the first (in file order) is reported, with a suggestion.
    void reject_unknown_keys(const toml::table& t, std::span<const std::string_view> known,
                             KeyPath where) const {
        const toml::table::value_type* first = nullptr;
        auto position = [](const toml::value& v) {
            const toml::source_location l = v.location();
            return std::pair(l.line(), l.column());
        };
        for (const auto& kv : t)
            if (std::find(known.begin(), known.end(), kv.first) == known.end() &&
                (!first || position(kv.second) < position(first->second)))
                first = &kv;
        if (!first) return;
        std::string name = toml::format_key(first->first);
        if (name.size() > longest_shown_key) name = name.substr(0, longest_shown_key - 3) + "...";
        where.key = name;
        fail(first->second, where, unknown_key_message(first->first, known, where.table.empty()));
    }

    double number(const toml::value& v, const KeyPath& key) const {
        if (!v.is_floating() && !v.is_integer()) {
            std::string hint;
            if (v.is_string()) {
                char* end = nullptr;
                const std::string& s = v.as_string().str;
                std::strtod(s.c_str(), &end);
                if (!s.empty() && end == s.c_str() + s.size()) hint = "; remove the quotes";
            }
            fail(v, key, fmt::format("must be a number, got {}{}", describe(v), hint));
        }
        if (const auto literal = unrepresentable_literal(v))
            fail(v, key, fmt::format("{} is out of range for a {}", *literal,
                                     v.is_floating() ? "double" : "64-bit integer"));
        return v.is_floating() ? v.as_floating() : static_cast<double>(v.as_integer());
    }

    double finite_number(const toml::value& v, const KeyPath& key) const {
        const double x = number(v, key);
        if (!std::isfinite(x)) fail(v, key, fmt::format("must be finite, got {}", x));
        return x;
    }

    double bounded(const toml::value& v, const KeyPath& key, Bound bound) const {
        const double x = finite_number(v, key);
        if (bound == Bound::positive && !(x > 0))
            fail(v, key, fmt::format("must be > 0, got {}", x));
        if (bound == Bound::non_negative && !(x >= 0))
            fail(v, key, fmt::format("must be >= 0, got {}", x));
        return x;
    }

    /// A positive integer, at most `largest`.
    std::size_t count(const toml::value& v, const KeyPath& key, std::size_t largest) const {
        if (!v.is_integer())
            fail(v, key, fmt::format("must be an integer (e.g. 10_000), got {}", describe(v)));
        if (const auto literal = unrepresentable_literal(v))
            fail(v, key, fmt::format("{} is out of range; at most {}", *literal, largest));
        const std::int64_t n = v.as_integer();
        if (n <= 0) fail(v, key, fmt::format("must be > 0, got {}", n));
        if (static_cast<std::uint64_t>(n) > largest)
            fail(v, key, fmt::format("must be at most {}, got {}", largest, n));
        return static_cast<std::size_t>(n);
    }

    std::string string(const toml::value& v, const KeyPath& key) const {
        if (!v.is_string()) fail(v, key, fmt::format("must be a string, got {}", describe(v)));
        return v.as_string().str;
    }

    /// The optional top-level table `name` (null when absent), with no unknown keys.
    const toml::table* section(const toml::table& top, std::string_view name,
                               std::span<const std::string_view> known) const {
        const toml::value* v = find(top, name);
        if (!v) return nullptr;
        const toml::table& t = table(*v, KeyPath::top(name));
        reject_unknown_keys(t, known, KeyPath::in(name));
        return &t;
    }

    std::string title(const toml::table& top) const {
        const toml::value* v = find(top, "title");
        return v ? string(*v, KeyPath::top("title")) : fs::path(file_).stem().string();
    }

    Defaults defaults(const toml::table& top) const {
        Defaults d;
        const toml::table* t = section(top, "defaults", rod_key_names);
        if (!t) return d;
        for (std::size_t k = 0; k < rod_key_count; ++k)
            if (const toml::value* v = find(*t, rod_keys[k].name)) {
                d.value[k] = bounded(*v, KeyPath::in("defaults", rod_keys[k].name),
                                     rod_keys[k].bound);
                d.source[k] = v;
            }
        return d;
    }

    /// The rods, each key from its [[rod]] table or else [defaults]. The count is checked before
    /// any rod is read, so a huge file fails fast.
    std::vector<Rod> rods(const toml::table& top, const Defaults& defaults) const {
        const toml::value* found = find(top, "rod");
        if (!found) fail(0, "rod", "missing; a case needs at least 2 rods, each a [[rod]] table");
        const toml::value& list = *found;
        if (!list.is_array())
            fail(list, KeyPath::top("rod"),
                 fmt::format("must be an array of tables, one [[rod]] per rod, got {}",
                             describe(list)));
        const toml::array& tables = list.as_array();
        if (tables.size() < 2)
            fail(list, KeyPath::top("rod"),
                 fmt::format("a case needs at least 2 rods, got {}", tables.size()));
        if (tables.size() > max_rods)
            fail(list, KeyPath::top("rod"),
                 fmt::format("at most {} rods are supported, got {}", max_rods, tables.size()));

        std::vector<Rod> rods(tables.size());
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const toml::table& t = table(tables[i], KeyPath::rod(i));
            reject_unknown_keys(t, rod_key_names, KeyPath::rod(i));
            if (const toml::value* gap = find(t, "gap"); i == 0 && gap)
                fail(*gap, KeyPath::rod(0, "gap"),
                     "the first rod has no left neighbour, so no gap (a gap in [defaults] "
                     "applies to the other rods only)");
            for (std::size_t k = 0; k < rod_key_count; ++k) {
                const RodKey& key = rod_keys[k];
                double& field = rods[i].*key.field;
                if (const toml::value* v = find(t, key.name))
                    field = bounded(*v, KeyPath::rod(i, key.name), key.bound);
                else if (defaults.value[k] && !(key.name == "gap" && i == 0))
                    field = *defaults.value[k];
                else if (key.required)
                    fail(tables[i], KeyPath::rod(i, key.name),
                         "missing; give it in this [[rod]] table or in [defaults]");
            }
        }
        return rods;
    }

    /// Every key is checked above, so Chain should accept the rods; if it does not (derived
    /// quantities such as sqrt(E/rho) overflowing), its message names the rod and quantity
    /// ("rod[3]: ..." or "rod[3].length: ..."), which is mapped back to a line here.
    Chain chain(std::vector<Rod> rod_list, const toml::table& top, const Defaults& d) const {
        try {
            return Chain(std::move(rod_list));
        } catch (const InvalidModel& e) {
            const std::string what = e.what();
            const auto colon = what.find(": ");
            const toml::value& list = *find(top, "rod");
            if (colon == std::string::npos) fail(line_of(list), "rod", what);
            const std::string key = what.substr(0, colon);
            fail(line_of_rod_key(key, list.as_array(), d), key, what.substr(colon + 2));
        }
    }

    /// Line of "rod[i].name" (from the rod, else from [defaults], else the [[rod]] header) or of
    /// "rod[i]"; 0 if the key does not name a rod.
    static std::size_t line_of_rod_key(const std::string& key, const toml::array& tables,
                                       const Defaults& d) {
        if (!key.starts_with("rod[")) return 0;
        std::size_t i = 0;
        const char* last = key.c_str() + key.size();
        const auto [end, ec] = std::from_chars(key.c_str() + 4, last, i);
        if (ec != std::errc() || i >= tables.size() || end == last || *end != ']') return 0;
        const toml::value& rod = tables[i];
        const std::string_view name = end[1] == '.' ? std::string_view(end + 2) : std::string_view();
        if (name.empty()) return line_of(rod);
        if (const toml::value* v = find(rod.as_table(), name)) return line_of(*v);
        for (std::size_t k = 0; k < rod_key_count; ++k)
            if (rod_keys[k].name == name && d.source[k]) return line_of(*d.source[k]);
        return line_of(rod);
    }

    SolverOptions solver(const toml::table& top) const {
        SolverOptions options;
        const toml::table* t = section(top, "solver", solver_keys);
        if (!t) return options;
        auto key = [](std::string_view name) { return KeyPath::in("solver", name); };

        if (const toml::value* v = find(*t, "method")) {
            const std::string name = string(*v, key("method"));
            const auto method = parse_method(name);
            if (!method) {
                std::vector<std::string> names;
                for (Method m : all_methods) names.push_back(fmt::format("\"{}\"", to_string(m)));
                fail(*v, key("method"), fmt::format("unknown method {:?}; valid: {}", name,
                                                    fmt::join(names, ", ")));
            }
            options.method = *method;
        }
        if (const toml::value* v = find(*t, "end_time"))
            options.end_time = bounded(*v, key("end_time"), Bound::positive);
        if (const toml::value* v = find(*t, "record_until"))
            options.record_until = bounded(*v, key("record_until"), Bound::positive);
        if (const toml::value* v = find(*t, "drop_tolerance")) {
            options.drop_tolerance = finite_number(*v, key("drop_tolerance"));
            if (!(options.drop_tolerance >= 0 && options.drop_tolerance < 1))
                fail(*v, key("drop_tolerance"),
                     fmt::format("must be >= 0 and < 1, got {}", options.drop_tolerance));
        }
        if (const toml::value* v = find(*t, "max_events"))
            options.max_events = count(*v, key("max_events"), largest_max_events);
        if (const toml::value* v = find(*t, "max_fronts"))
            options.max_fronts = count(*v, key("max_fronts"), largest_max_fronts);
        if (const toml::value* v = find(*t, "cells"))
            options.cells = count(*v, key("cells"), largest_cells);
        return options;
    }
};

/// Largest file read as a case (a 100,000-rod case with every key spelled out is ~15 MB); this
/// also bounds what a path like /dev/zero can make us read.
constexpr std::size_t max_file_bytes = std::size_t{256} << 20;

/// The whole file as text. Pipes and devices are fine (`rodcollide run <(make_case)`), so the
/// file is read to its end rather than sized first.
std::string read_file(const fs::path& path, const std::string& name) {
    auto fail = [&](std::string_view message) {
        throw CaseError(fmt::format("{}:0: (file): {}", name, message));
    };
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found)
        fail(ec == std::errc::not_a_directory ? "no such file (part of the path is not a directory)"
                                              : "no such file");
    if (status.type() == fs::file_type::directory) fail("is a directory, not a case file");
    if (ec) fail(fmt::format("cannot open: {}", ec.message()));

    errno = 0;
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                               &std::fclose);
    if (!file) fail(fmt::format("cannot open: {}", std::strerror(errno)));
    std::string text;
    char buffer[1 << 16];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get())) {
        text.append(buffer, n);
        if (text.size() > max_file_bytes)
            fail(fmt::format("larger than {} MiB; not a case file", max_file_bytes >> 20));
    }
    if (std::ferror(file.get())) fail(fmt::format("cannot read: {}", std::strerror(errno)));
    return text;
}

}  // namespace

Case load_case(const std::filesystem::path& path) {
    const std::string name = path.string();
    Case c = parse_case(read_file(path, name), name);
    c.path = path;
    return c;
}

Case parse_case(const std::string& toml_text, const std::string& name) {
    return CaseReader(name).read(toml_text);
}

}  // namespace rodcollide
