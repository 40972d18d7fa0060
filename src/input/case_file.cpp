// Case files (reference: docs/case_file.md): TOML text, parsed by toml11, checked key
// by key against the schema below and turned into a Case {title, Chain, SolverOptions}. Every
// input error becomes one CaseError line "FILE:LINE: KEY: message" naming the offending key's line.
// Types are read by the shared typed reader (toml_input.hpp); the limits on values are the
// library's own (Chain's checks, validate(SolverOptions)), reported here at their key's line.
#include "rodcollide/case_file.hpp"
#include "rodcollide/case_key_table.hpp"
#include "rodcollide/solver_option_table.hpp"

#include "input/case_file_ends.hpp"
#include "input/case_file_ensemble.hpp"
#include "input/toml_input.hpp"

#include <fmt/format.h>
#include <toml.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace rodcollide {
namespace {

namespace fs = std::filesystem;
using toml_input::find;
using toml_input::line_of;

// ---- Schema: the key tables (case_key_table.hpp, solver_option_table.hpp) ---------------------

/// The [[rod]] numbers, in the key table's order: each is also a key of [defaults].
struct RodKey {
    std::string_view name;
    double Rod::*field;
    const CaseKeySpec* row;  // which kinds take and need it
};
const std::vector<RodKey>& rod_keys() {
    static const std::vector<RodKey> keys = [] {
        std::vector<RodKey> k;
        for (const CaseKeySpec& row : case_key_table())
            if (row.rod_field) k.push_back({row.key, row.rod_field, &row});
        return k;
    }();
    return keys;
}
/// A [[rod]] table also holds its [[rod.segment]] tables.
std::span<const std::string_view> rod_table_keys() { return case_keys(CaseTable::rod); }
std::span<const std::string_view> top_level_keys() { return case_keys(CaseTable::top_level); }
std::span<const std::string_view> unit_systems() { return find_case_key(CaseTable::top_level, "units")->choices; }
/// The [solver] keys, in the order of the option table (solver_option_table.hpp).
const std::vector<std::string_view>& solver_keys() {
    static const std::vector<std::string_view> keys = [] {
        std::vector<std::string_view> k;
        for (const SolverOptionSpec& o : solver_option_table()) k.push_back(o.key);
        return k;
    }();
    return keys;
}

/// Where each known key belongs, for keys found in the wrong table (in TOML every key after a
/// [table] header belongs to that table, so a misplaced `title` or `method` is a common slip).
std::string_view home_of(std::string_view key) {
    auto in = [&](std::span<const std::string_view> keys) {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    };
    if (in(defaults_keys())) return "[defaults] or a [[rod]] table";
    if (in(solver_keys())) return "[solver]";
    if (in(top_level_keys())) return "the top level, before the first [table] header";
    return {};
}

/// Symbols from the papers that users type for our key names.
constexpr std::pair<std::string_view, std::string_view> symbol_names[] = {
    {"l", "length"}, {"a", "area"}, {"rho", "density"}, {"e", "youngs_modulus"},
    {"v", "velocity"}, {"u", "velocity"},
};

/// The case file's own words for an unknown key of a table with these `known` keys: where a
/// misplaced key belongs, or the name a paper's symbol stands for (empty: the reader's usual
/// suggestion).
std::function<std::string(std::string_view)> unknown_key_hint(std::span<const std::string_view> known,
                                                              bool top_level) {
    return [known, top_level](std::string_view key) -> std::string {
        if (std::string_view home = home_of(key); !home.empty())
            return fmt::format("unknown key here; \"{}\" belongs in {}{}", key, home,
                               top_level ? "" : " (in TOML, every key after a [table] header belongs "
                                                "to that table)");
        if (key.size() > toml_input::longest_shown_key) return {};
        std::string lowered(key);
        for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const auto& [symbol, name] : symbol_names)
            if (lowered == symbol && std::find(known.begin(), known.end(), name) != known.end())
                return toml_input::unknown_key(name, known);
        return {};
    };
}

std::string rod_key(std::size_t i, std::string_view name = {}) {
    return name.empty() ? fmt::format("rod[{}]", i) : fmt::format("rod[{}].{}", i, name);
}

// ---- Reading --------------------------------------------------------------------------------

/// Reads one case (file name `file` in messages) and fails with InputError at the first problem.
class CaseReader : toml_input::Reader {
public:
    explicit CaseReader(std::string file) : Reader(std::move(file)) {}

    Case read(const std::string& text) const {
        const toml::value root = parse(text, [&](const toml_input::Shape& shape) {
            // Counted before the parser builds the tables, so a huge file fails fast.
            if (const auto* rods = shape.headers("rod")) {
                try {
                    check_rod_count(std::max<std::size_t>(rods->count, 2));
                } catch (const InvalidModel& e) {
                    fail(rods->first_line, "rod", e.message());
                }
            }
        });
        const toml::table& top = table(root, "");
        reject_unknown_keys(top, top_level_keys(), "", unknown_key_hint(top_level_keys(), true));

        std::string name = title(top);
        const bool dimensionless = units(top) == "dimensionless";
        const Defaults given_defaults = defaults(top);
        ChainEnds ends = case_file::read_ends(*this, top);
        const bool single_allowed = ends.any();
        std::vector<Rod> rod_list = rods(top, given_defaults, single_allowed);
        SolverOptions options = solver(top);
        Chain built = chain(std::move(rod_list), std::move(ends), top, given_defaults);
        std::vector<Gauge> gauges = case_file::read_gauges(*this, top, built);
        std::optional<EnsembleSpec> ensemble = case_file::read_ensemble(*this, top, built);
        return Case{std::move(name), file(), std::move(built), options, std::move(gauges), dimensionless,
                    std::move(ensemble)};
    }

private:
    /// Per rod key: the value from [defaults], and where it was written (null when absent).
    struct Defaults {
        std::vector<std::optional<double>> value = std::vector<std::optional<double>>(rod_keys().size());
        std::vector<const toml::value*> source = std::vector<const toml::value*>(rod_keys().size());
    };

    /// The optional top-level table `name` (null when absent), with no unknown keys.
    const toml::table* section(const toml::table& top, std::string_view name,
                               std::span<const std::string_view> known) const {
        const toml::value* v = find(top, name);
        if (!v) return nullptr;
        const toml::table& t = table(*v, std::string(name));
        reject_unknown_keys(t, known, std::string(name), unknown_key_hint(known, false));
        return &t;
    }

    std::string title(const toml::table& top) const {
        const toml::value* v = find(top, "title");
        return v ? string(*v, "title") : fs::path(file()).stem().string();
    }

    std::string units(const toml::table& top) const {
        const toml::value* v = find(top, "units");
        if (!v) return std::string(unit_systems().front());
        const std::string u = string(*v, "units");
        if (std::ranges::find(unit_systems(), u) == unit_systems().end())
            fail(*v, "units", input::unknown("unit system", u, unit_systems()));
        return u;
    }

    /// A rod quantity (of rod `rod`, or a default for every rod), checked by Chain's own rules.
    double rod_quantity(const toml::value& v, const std::string& key, std::optional<std::size_t> rod,
                        std::string_view name) const {
        const double x = number(v, key);
        checked(v, key, [&] { check_rod_quantity(rod, name, x); });
        return x;
    }

    Defaults defaults(const toml::table& top) const {
        Defaults d;
        const toml::table* t = section(top, "defaults", defaults_keys());
        if (!t) return d;
        for (std::size_t k = 0; k < rod_keys().size(); ++k)
            if (const toml::value* v = find(*t, rod_keys()[k].name)) {
                d.value[k] = rod_quantity(*v, fmt::format("defaults.{}", rod_keys()[k].name), std::nullopt,
                                          rod_keys()[k].name);
                d.source[k] = v;
            }
        return d;
    }

    /// The rods, each key from its [[rod]] table or else [defaults]. The count is checked before
    /// any rod is read, so a huge file fails fast.
    std::vector<Rod> rods(const toml::table& top, const Defaults& defaults, bool single_allowed) const {
        const toml::value* list = find(top, "rod");
        if (!list) fail(0, "rod", input::missing("a case needs at least 2 rods, each a [[rod]] table"));
        const toml::array& tables = array_of_tables(*list, "rod", "rod");
        checked(*list, "rod", [&] { check_rod_count(tables.size(), single_allowed); });

        std::vector<Rod> rods(tables.size());
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const toml::table& t = table(tables[i], rod_key(i));
            reject_unknown_keys(t, rod_table_keys(), rod_key(i), unknown_key_hint(rod_table_keys(), false));
            if (const toml::value* gap = find(t, "gap"); i == 0 && gap)
                fail(*gap, rod_key(0, "gap"),
                     "the first rod has no left neighbour, so no gap (a gap in [defaults] "
                     "applies to the other rods only)");
            if (const toml::value* kind = find(t, "kind")) {
                const std::string k = string(*kind, rod_key(i, "kind"));
                const auto names = find_case_key(CaseTable::rod, "kind")->choices;
                const auto it = std::ranges::find(names, k);
                if (it == names.end()) fail(*kind, rod_key(i, "kind"), input::unknown("element kind", k, names));
                rods[i].kind = static_cast<RodKind>(it - names.begin());
            }
            const RodKind kind = rods[i].kind;
            const std::string_view kind_name =
                kind == RodKind::ball ? "a ball (kind = \"ball\")" : "a rigid mass (kind = \"mass\")";
            if (const toml::value* segment = find(t, "segment"); kind != RodKind::rod && segment)
                fail(*segment, rod_key(i, "segment"), fmt::format("{} has no segments", kind_name));
            rods[i].segments = case_file::read_segments(*this, t, i, [&](std::string_view name) {
                for (std::size_t k = 0; k < rod_keys().size(); ++k)
                    if (rod_keys()[k].name == name) return defaults.value[k];
                return std::optional<double>{};
            });
            for (std::size_t k = 0; k < rod_keys().size(); ++k) {
                const RodKey& key = rod_keys()[k];
                double& field = rods[i].*key.field;
                // A rod of segments takes its material from them (Chain).
                if (!rods[i].segments.empty() && find_case_key(CaseTable::segment, key.name)) continue;
                // [defaults] fills only the kinds that take a key (a rod's material to rods and
                // balls, a mass to masses, a radius to balls); the contact keys, like gap, every
                // element but the first.
                const bool applies = takes(*key.row, kind) &&
                                     !(i == 0 && (key.name == "gap" || key.name.starts_with("contact_") ||
                                                  key.name == "restitution"));
                if (const toml::value* v = find(t, key.name)) {
                    field = rod_quantity(*v, rod_key(i, key.name), i, key.name);
                    // Chain refuses another kind's key by its value (with words per key); one given
                    // at its default value (a mass given poisson_ratio = 0.3) it cannot tell from
                    // an absent one, so that is refused here.
                    if (!takes(*key.row, kind) && field == Rod{}.*key.field)
                        fail(*v, rod_key(i, key.name),
                             fmt::format("{} does not take {}", kind == RodKind::rod ? std::string_view("a rod")
                                                                                      : kind_name,
                                         key.name));
                } else if (defaults.value[k] && applies)
                    field = *defaults.value[k];
                else if (needs(*key.row, kind))
                    fail(tables[i], rod_key(i, key.name),
                         input::missing(kind == RodKind::rod ? std::string("give it in this [[rod]] table or in [defaults]")
                                        : kind == RodKind::mass
                                            ? std::string("a rigid mass (kind = \"mass\") needs its mass [kg]")
                                            : fmt::format("{} needs its {}: give it in this [[rod]] table or in "
                                                          "[defaults]",
                                                          kind_name, key.name)));
            }
        }
        return rods;
    }

    /// Every key is checked above, so Chain should accept the rods; if it does not (derived
    /// quantities such as sqrt(E/rho) overflowing), it says which rod and quantity, and the
    /// message goes to that key's line.
    Chain chain(std::vector<Rod> rod_list, ChainEnds ends, const toml::table& top, const Defaults& d) const {
        try {
            return Chain(std::move(rod_list), std::move(ends));
        } catch (const InvalidModel& e) {
            fail(line_of_model(e, top, d), e.key(), e.message());
        }
    }

    /// Line of the rod quantity Chain refused (from the rod, else from [defaults], else the
    /// [[rod]] header), of the rod itself, of another key it names ("left.gap", "load[1].time":
    /// the deepest part found), or of `rod` for the rod count.
    static std::size_t line_of_model(const InvalidModel& e, const toml::table& top, const Defaults& d) {
        if (e.rod()) return line_of_rod(e, *find(top, "rod"), d);
        const toml::value* found = nullptr;
        const toml::table* t = &top;
        std::string_view path = e.quantity();
        while (t && !path.empty()) {
            const std::string_view part = path.substr(0, path.find('.'));
            path.remove_prefix(std::min(path.size(), part.size() + 1));
            const std::string_view name = part.substr(0, part.find('['));
            const toml::value* v = find(*t, name);
            if (!v) break;
            if (name.size() < part.size() && v->is_array()) {  // "load[1]"
                const std::size_t k = std::strtoul(std::string(part.substr(name.size() + 1)).c_str(), nullptr, 10);
                if (k >= v->as_array().size()) break;
                v = &v->as_array()[k];
            }
            found = v;
            t = v->is_table() ? &v->as_table() : nullptr;
        }
        return found ? line_of(*found) : line_of_rod(e, *find(top, "rod"), d);
    }

    static std::size_t line_of_rod(const InvalidModel& e, const toml::value& list, const Defaults& d) {
        if (!e.rod() || *e.rod() >= list.as_array().size()) return line_of(list);
        const toml::value& rod = list.as_array()[*e.rod()];
        if (e.quantity().empty()) return line_of(rod);
        if (const toml::value* v = find(rod.as_table(), e.quantity())) return line_of(*v);
        for (std::size_t k = 0; k < rod_keys().size(); ++k)
            if (rod_keys()[k].name == e.quantity() && d.source[k]) return line_of(*d.source[k]);
        return line_of(rod);
    }

    /// The [solver] keys in the option table's order, each checked by validate(SolverOptions) as
    /// soon as it is set, so that the first mistake is the one reported.
    SolverOptions solver(const toml::table& top) const {
        SolverOptions options;
        const toml::table* t = section(top, "solver", solver_keys());
        if (!t) return options;
        for (const SolverOptionSpec& option : solver_option_table())
            if (const toml::value* v = find(*t, option.key)) {
                const std::string key = fmt::format("solver.{}", option.key);
                checked(*v, key, [&] {
                    option.set(options, value_of(option.type, *v, key));
                    validate(options);
                });
            }
        return options;
    }

    /// A [solver] value read as its option's type (solver_option_table.hpp).
    OptionValue value_of(OptionType type, const toml::value& v, const std::string& key) const {
        switch (type) {
            case OptionType::method: return string(v, key);
            case OptionType::number: return number(v, key);
            case OptionType::count: return count(v, key);
            case OptionType::on_off: return boolean(v, key);
        }
        return {};
    }
};

}  // namespace

CaseError::CaseError(InputError e) : InputError(std::move(e)) {}

Case load_case(const std::filesystem::path& path) {
    const std::string name = path.string();
    std::string text;
    try {
        text = toml_input::read_text_file(path, "a case file");
    } catch (const toml_input::FileError& e) {
        throw CaseError(InputError(name, 0, "(file)", e.what()));
    }
    Case c = parse_case(text, name);
    c.path = path;
    return c;
}

Case parse_case(const std::string& toml_text, const std::string& name) {
    try {
        return CaseReader(name).read(toml_text);
    } catch (InputError& e) {
        throw CaseError(std::move(e));
    }
}

Perturbation parse_perturbation(const std::string& keys, const std::string& name) {
    try {
        const toml_input::Reader reader(name);
        if (keys.find_first_of("\n\r") != std::string::npos)
            reader.fail(1, "perturb", "must be one line of keys: key = \"velocity\", relative = 0.01");
        const toml::value root = reader.parse("perturb = {" + keys + "}\n");
        static constexpr std::string_view only[] = {"perturb"};
        reader.reject_unknown_keys(reader.table(root, ""), only, "");
        const toml::value* v = find(reader.table(root, ""), "perturb");
        return case_file::read_perturbation(reader, *v, "perturb");
    } catch (InputError& e) {
        throw CaseError(std::move(e));
    }
}

}  // namespace rodcollide
