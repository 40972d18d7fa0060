// Reading [left], [right], [[load]], [[rod.segment]] and [[gauge]] (case_file_ends.hpp;
// docs/case_file.md). Values are checked by the library's own rules (Chain, check_load,
// check_gauge) and reported at their key's line.
#include "input/case_file_ends.hpp"

#include "rodcollide/case_key_table.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <span>
#include <fstream>
#include <sstream>

namespace rodcollide::case_file {

namespace {

using toml_input::find;

/// The strings the string key `key` of `table` accepts (case_key_table.hpp).
std::span<const std::string_view> choices(CaseTable table, std::string_view key) {
    return find_case_key(table, key)->choices;
}

/// The required string `name` of table `t` (whose value `table` is blamed when it is absent), one
/// of `names` (a "what" in messages); returns its index.
std::size_t required_choice(const toml_input::Reader& reader, const toml::table& t, const toml::value& table,
                            const std::string& prefix, std::string_view name, std::string_view what,
                            std::span<const std::string_view> names) {
    const std::string key = fmt::format("{}.{}", prefix, name);
    const toml::value* v = find(t, name);
    if (!v) reader.fail(table, key, input::missing(fmt::format("give one of: {}", fmt::join(names, ", "))));
    const std::string given = reader.string(*v, key);
    for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == given) return k;
    reader.fail(*v, key, input::unknown(what, given, names));
}

ChainEnd read_end(const toml_input::Reader& reader, const toml::table& top, ChainSide side) {
    ChainEnd end;
    const std::string name(to_string(side));
    const toml::value* v = find(top, name);
    if (!v) return end;
    const toml::table& t = reader.table(*v, name);
    reader.reject_unknown_keys(t, case_keys(CaseTable::end), name);
    if (const toml::value* kind = find(t, "kind")) {
        const std::string k = reader.string(*kind, name + ".kind");
        const auto names = choices(CaseTable::end, "kind");  // in EndKind's order
        const auto it = std::ranges::find(names, k);
        if (it == names.end()) reader.fail(*kind, name + ".kind", input::unknown("end kind", k, names));
        end.kind = static_cast<EndKind>(it - names.begin());
    }
    // Issue 23's numbers; which kinds take them is Chain's check (reported at their line), except
    // that an attached end missing its own is reported here, at the table.
    for (const auto& [key, field] : {std::pair{"stiffness", &ChainEnd::stiffness}, std::pair{"damping", &ChainEnd::damping},
                                     std::pair{"contact_stiffness", &ChainEnd::contact_stiffness},
                                     std::pair{"contact_exponent", &ChainEnd::contact_exponent},
                                     std::pair{"contact_damping", &ChainEnd::contact_damping},
                                     std::pair{"restitution", &ChainEnd::restitution}})
        if (const toml::value* x = find(t, key)) end.*field = reader.finite_number(*x, name + "." + key);
    const bool spring = end.kind == EndKind::spring || end.kind == EndKind::spring_dashpot;
    const bool dashpot = end.kind == EndKind::dashpot || end.kind == EndKind::spring_dashpot;
    if (spring && !find(t, "stiffness"))
        reader.fail(*v, name + ".stiffness", input::missing(fmt::format("a \"{}\" end needs its stiffness [N/m]", to_string(end.kind))));
    if (dashpot && !find(t, "damping"))
        reader.fail(*v, name + ".damping", input::missing(fmt::format("a \"{}\" end needs its damping [N s/m]", to_string(end.kind))));
    if (const toml::value* gap = find(t, "gap")) {
        const std::string key = name + ".gap";
        if (end.kind != EndKind::wall)
            reader.fail(*gap, key, fmt::format("only a \"wall\" end has a gap; this end is \"{}\"", to_string(end.kind)));
        end.gap = reader.bounded(*gap, key, input::non_negative);
    }
    return end;
}

std::vector<double> numbers(const toml_input::Reader& reader, const toml::value& v, const std::string& key) {
    std::vector<double> out;
    for (const toml::value& x : reader.array(v, key)) out.push_back(reader.finite_number(x, key));
    return out;
}

/// Two columns "time,value" (or separated by blanks); blank lines, '#' comments and a header
/// line that is not numeric are skipped.
void read_load_csv(const toml_input::Reader& reader, const toml::value& at, const std::string& key,
                   const std::filesystem::path& path, Load& load) {
    std::string text;
    try {
        text = toml_input::read_text_file(path, "a CSV file of time,value lines");
    } catch (const toml_input::FileError& e) {
        reader.fail(at, key, fmt::format("{}: {}", path.string(), e.what()));
    }
    std::istringstream lines(text);
    std::string line;
    for (std::size_t number = 1; std::getline(lines, line); ++number) {
        const std::string original = line.ends_with('\r') ? line.substr(0, line.size() - 1) : line;
        for (char& c : line)
            if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
        std::istringstream fields(line);
        std::string a, b, extra;
        fields >> a >> b >> extra;
        if (a.empty() || a.front() == '#') continue;
        double t = 0, x = 0;
        const auto ok = [](const std::string& s, double& out) {
            const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
            return r.ec == std::errc() && r.ptr == s.data() + s.size();
        };
        const bool numeric = ok(a, t) && ok(b, x) && extra.empty();
        if (!numeric) {
            if (load.time.empty() && number == 1) continue;  // a header
            reader.fail(at, key, fmt::format("{} line {}: expected two numbers \"time,value\", got {:?}",
                                             path.string(), number, original));
        }
        load.time.push_back(t);
        load.value.push_back(x);
    }
}

Load read_load(const toml_input::Reader& reader, const toml::value& table_value, std::size_t k,
               const ChainEnds& ends) {
    const std::string prefix = fmt::format("load[{}]", k);
    const toml::table& t = reader.table(table_value, prefix);
    reader.reject_unknown_keys(t, case_keys(CaseTable::load), prefix);
    const auto key = [&](std::string_view name) { return fmt::format("{}.{}", prefix, name); };
    Load load;
    load.end = required_choice(reader, t, table_value, prefix, "end", "end", choices(CaseTable::load, "end")) == 0
                   ? ChainSide::left
                   : ChainSide::right;
    const toml::value* end = find(t, "end");
    const std::string side(to_string(load.end));
    if (ends[load.end].kind != EndKind::free)
        reader.fail(*end, key("end"), fmt::format("a load acts on a free end only; the {} end is \"{}\"", side,
                                                  to_string(ends[load.end].kind)));
    if (ends.load_at(load.end))
        reader.fail(*end, key("end"), fmt::format("the {} end already has a load; one load per end", side));
    load.quantity = required_choice(reader, t, table_value, prefix, "quantity", "quantity",
                                    choices(CaseTable::load, "quantity")) == 0
                        ? LoadQuantity::force
                        : LoadQuantity::velocity;

    // Exactly one way of giving the history.
    const toml::value* time = find(t, "time");
    const toml::value* shape = find(t, "shape");
    const toml::value* file = find(t, "file");
    const int ways = (time != nullptr) + (shape != nullptr) + (file != nullptr);
    if (ways != 1)
        reader.fail(ways ? (time ? *time : *shape) : table_value, prefix,
                    "give the history one way: time and value, or shape (with amplitude, duration, "
                    "rise, fall), or file");
    for (std::string_view name : {"amplitude", "duration", "rise", "fall"})
        if (const toml::value* v = find(t, name); v && !shape)
            reader.fail(*v, key(name), "belongs with shape; remove it, or give shape");
    if (const toml::value* v = find(t, "value"); v && !time) reader.fail(*v, key("value"), "belongs with time");
    if (time) {
        const toml::value* value = find(t, "value");
        if (!value) reader.fail(table_value, key("value"), input::missing("give one value per time"));
        load.time = numbers(reader, *time, key("time"));
        load.value = numbers(reader, *value, key("value"));
        try {
            check_load(load);
        } catch (const InvalidInput& e) {
            reader.fail(e.key() == "time" ? *time : *value, key(e.key()), e.message());
        }
    } else if (shape) {
        LoadShape s;
        s.name = reader.string(*shape, key("shape"));
        const auto number_of = [&](std::string_view name, double& out, bool required) {
            if (const toml::value* v = find(t, name)) out = reader.finite_number(*v, key(name));
            else if (required) reader.fail(table_value, key(name), input::missing("give it with shape"));
        };
        number_of("amplitude", s.amplitude, true);
        number_of("duration", s.duration, true);
        number_of("rise", s.rise, false);
        number_of("fall", s.fall, false);
        try {
            shape_points(s, load.time, load.value);
        } catch (const InvalidInput& e) {
            const toml::value* at = find(t, e.key());
            reader.fail(at ? *at : *shape, key(e.key()), e.message());
        }
    } else {
        std::filesystem::path path = reader.string(*file, key("file"));
        if (path.is_relative()) path = std::filesystem::path(reader.file()).parent_path() / path;
        read_load_csv(reader, *file, key("file"), path, load);
        try {
            check_load(load);
        } catch (const InvalidInput& e) {
            reader.fail(*file, key("file"), fmt::format("{}: {}", e.key(), e.message()));
        }
    }
    return load;
}

}  // namespace

ChainEnds read_ends(const toml_input::Reader& reader, const toml::table& top) {
    ChainEnds ends;
    ends.left = read_end(reader, top, ChainSide::left);
    ends.right = read_end(reader, top, ChainSide::right);
    if (const toml::value* list = find(top, "load")) {
        const toml::array& tables = reader.array_of_tables(*list, "load", "load");
        for (std::size_t k = 0; k < tables.size(); ++k) ends.loads.push_back(read_load(reader, tables[k], k, ends));
    }
    return ends;
}

std::vector<Segment> read_segments(const toml_input::Reader& reader, const toml::table& rod, std::size_t i,
                                   const std::function<std::optional<double>(std::string_view)>& default_of) {
    std::vector<Segment> segments;
    const toml::value* list = find(rod, "segment");
    if (!list) return segments;
    const std::string rod_key = fmt::format("rod[{}]", i);
    if (const toml::value* length = find(rod, "length"))
        reader.fail(*length, rod_key + ".length",
                    "a rod made of segments is as long as their sum; give length in each [[rod.segment]] only");
    const toml::array& tables = reader.array_of_tables(*list, rod_key + ".segment", "segment");
    if (tables.empty()) reader.fail(*list, rod_key + ".segment", input::wrong_count("at least 1 segment", 0));
    for (std::size_t s = 0; s < tables.size(); ++s) {
        const std::string prefix = fmt::format("{}.segment[{}]", rod_key, s);
        const toml::table& t = reader.table(tables[s], prefix);
        reader.reject_unknown_keys(t, case_keys(CaseTable::segment), prefix);
        Segment g;
        for (const CaseKeySpec& row : case_key_table()) {
            if (row.table != CaseTable::segment) continue;
            const std::string_view name = row.key;
            double& field = g.*row.segment_field;
            const std::string key = fmt::format("{}.{}", prefix, name);
            const toml::value* v = find(t, name);
            if (!v && name != "length") v = find(rod, name);
            if (v) {
                field = reader.number(*v, key);
                reader.checked(*v, key, [&] { check_rod_quantity(i, name, field); });
            } else if (const std::optional<double> d = default_of(name)) {
                field = *d;
            } else {
                reader.fail(tables[s], key, input::missing("give it in this [[rod.segment]], its [[rod]] or [defaults]"));
            }
        }
        segments.push_back(g);
    }
    return segments;
}

std::vector<Gauge> read_gauges(const toml_input::Reader& reader, const toml::table& top, const Chain& chain) {
    std::vector<Gauge> gauges;
    const toml::value* list = find(top, "gauge");
    if (!list) return gauges;
    const toml::array& tables = reader.array_of_tables(*list, "gauge", "gauge");
    for (std::size_t k = 0; k < tables.size(); ++k) {
        const std::string prefix = fmt::format("gauge[{}]", k);
        const toml::table& t = reader.table(tables[k], prefix);
        reader.reject_unknown_keys(t, case_keys(CaseTable::gauge), prefix);
        Gauge g;
        g.name = default_gauge_name(k);
        const toml::value* rod = find(t, "rod");
        const toml::value* x = find(t, "x");
        if (!rod) reader.fail(tables[k], prefix + ".rod", input::missing("give the rod index, from 0"));
        if (!x) reader.fail(tables[k], prefix + ".x", input::missing("give the distance from the rod's left end"));
        const std::int64_t index = reader.integer(*rod, prefix + ".rod");
        if (const input::Problem p = input::integer_within(index, 0, chain.size() - 1))
            reader.fail(*rod, prefix + ".rod", *p);
        g.rod = static_cast<std::size_t>(index);
        g.x = reader.finite_number(*x, prefix + ".x");
        if (const toml::value* name = find(t, "name")) g.name = reader.string(*name, prefix + ".name");
        reader.checked(*x, prefix + ".x", [&] { check_gauge(g, chain); });
        gauges.push_back(std::move(g));
    }
    return gauges;
}

}  // namespace rodcollide::case_file
