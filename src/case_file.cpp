// Case files (issue 2 §2; reference: docs/case_file.md): TOML text, parsed by toml11, checked key
// by key against the schema below and turned into a Case {title, Chain, SolverOptions}. Every
// input error becomes one CaseError line "FILE:LINE: KEY: message" naming the offending key's line.
#include "rodcollide/case_file.hpp"

#include "toml_input.hpp"

#include <fmt/format.h>
#include <toml.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace rodcollide {
namespace {

namespace fs = std::filesystem;
using toml_input::describe;
using toml_input::find;
using toml_input::line_of;
using toml_input::unrepresentable_literal;

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

/// The known key a typo most likely meant, if any is close enough to suggest.
std::string_view closest_key(std::string_view key, std::span<const std::string_view> known) {
    if (key.size() > toml_input::longest_shown_key) return {};
    std::string lowered(key);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const auto& [symbol, name] : symbol_names)
        if (lowered == symbol && std::find(known.begin(), known.end(), name) != known.end())
            return name;
    return toml_input::similar_key(key, known);
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
        try {
            return toml_input::parse(text, file_);
        } catch (const toml_input::SyntaxError& e) {
            fail(e.line, "(syntax)", e.what());
        }
    }

    const toml::table& table(const toml::value& v, const KeyPath& key) const {
        if (!v.is_table()) fail(v, key, fmt::format("must be a table, got {}", describe(v)));
        return v.as_table();
    }

    /// Unknown keys are typos: the first (in file order) is reported, with a suggestion.
    void reject_unknown_keys(const toml::table& t, std::span<const std::string_view> known,
                             KeyPath where) const {
        const toml::table::value_type* first = toml_input::first_unknown_key(t, known);
        if (!first) return;
        const std::string name = toml_input::shown_key(first->first);
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

}  // namespace

Case load_case(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::string text;
    try {
        text = toml_input::read_text_file(path, "a case file");
    } catch (const toml_input::FileError& e) {
        throw CaseError(fmt::format("{}:0: (file): {}", name, e.what()));
    }
    Case c = parse_case(text, name);
    c.path = path;
    return c;
}

Case parse_case(const std::string& toml_text, const std::string& name) {
    return CaseReader(name).read(toml_text);
}

}  // namespace rodcollide
