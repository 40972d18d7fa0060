// The one table of case-file keys outside [solver] (case_key_table.hpp) and every place that reads
// it: the case reader accepts exactly its keys, requires the required ones and fills the others
// with the defaults it shows; the fuzz mutator writes every key; docs/case_file.md documents each
// key with the table's type, unit, default, range and choices, and no key the table lacks. (The
// Python module: python/tests/test_input.py, test_case_keys_are_the_key_table.)
#include "case_mutator.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/case_key_table.hpp"
#include "rodcollide/chain_ends.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solver_option_table.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace rodcollide;

namespace {

// Complete cases: together they write every key of the table, each in its table, and each
// required key has no fallback elsewhere in them (rod 1's numbers are in its segments only), so
// that removing it must fail. The three ways of giving a load's history need three cases.
const std::string shaped = R"(title = "every key"
units = "dimensionless"
[defaults]
velocity = 0.0
[[rod]]
length = 1.0
area = 1.0
density = 1.0
youngs_modulus = 1.0
velocity = 1.0
[[rod]]
gap = 0.5
[[rod.segment]]
length = 0.5
area = 1.0
density = 1.0
youngs_modulus = 1.0
[[rod.segment]]
length = 0.5
area = 2.0
density = 1.0
youngs_modulus = 1.0
[solver]
end_time = 10.0
[left]
kind = "free"
[right]
kind = "wall"
gap = 0.25
[[load]]
end = "left"
quantity = "force"
shape = "trapezoid"
amplitude = -1.0
duration = 1.0
rise = 0.25
fall = 0.25
[[gauge]]
rod = 0
x = 0.5
name = "middle"
[ensemble]
members = 10
seed = 3
[[ensemble.perturb]]
key = "velocity"
rods = [0]
relative = 0.01
distribution = "normal"
shared = false
[[ensemble.perturb]]
key = "length"
rods = [0]
absolute = 0.1
)";
const std::string pointwise = "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                              "[[load]]\nend = \"right\"\nquantity = \"velocity\"\ntime = [0.0, 1.0]\nvalue = [0.0, -1.0]\n";
const std::string from_file = "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                              "[[load]]\nend = \"right\"\nquantity = \"force\"\nfile = \"pulse.csv\"\n";

// Issue 23's keys: a rod, a rigid mass through a compliant contact, a compliant wall and an
// attached end (the mass's `mass` and the end's `stiffness` and `damping` are required there).
const std::string compliant = "[[rod]]\nkind = \"rod\"\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                              "[[rod]]\nkind = \"mass\"\nmass = 2.0\ncontact_stiffness = 100.0\n"
                              "contact_exponent = 1.5\ncontact_damping = 0.1\n"
                              "[left]\nkind = \"wall\"\ncontact_stiffness = 10.0\ncontact_exponent = 1.0\n"
                              "contact_damping = 0.0\n"
                              "[right]\nkind = \"spring-dashpot\"\nstiffness = 5.0\ndamping = 1.0\n";

// Issue 24's keys: a rod with rounded ends and its Poisson ratio, a ball through a Hertz contact
// with restitution, a Hertz wall with restitution (the ball's `radius` is required there).
const std::string balls = "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\npoisson_ratio = 0.25\n"
                          "end_radius = 2.0\nleft_end_radius = 1.0\nright_end_radius = 3.0\n"
                          "[[rod]]\nkind = \"ball\"\nradius = 0.5\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                          "poisson_ratio = 0.3\nrestitution = 0.8\n"
                          "[left]\nkind = \"wall\"\nrestitution = 0.9\n";

/// The table a line of a case belongs to, from the headers above it.
CaseTable table_of_header(std::string_view header) {
    if (header == "[[rod]]" || header == "[defaults]") return CaseTable::rod;
    if (header == "[[rod.segment]]") return CaseTable::segment;
    if (header == "[left]" || header == "[right]") return CaseTable::end;
    if (header == "[[load]]") return CaseTable::load;
    if (header == "[[gauge]]") return CaseTable::gauge;
    if (header == "[ensemble]") return CaseTable::ensemble;
    if (header == "[[ensemble.perturb]]") return CaseTable::perturb;
    return CaseTable::top_level;  // "" and [solver], whose keys are another table's
}

/// (table, key) of each `key = value` line of `text` outside [solver], and each header's key at
/// the top level or in a rod.
std::set<std::pair<CaseTable, std::string>> keys_written(const std::string& text) {
    std::set<std::pair<CaseTable, std::string>> keys;
    std::istringstream lines(text);
    std::string line, header;
    while (std::getline(lines, line)) {
        if (line.starts_with('[')) {
            header = line;
            const std::string name = line.substr(line.find_first_not_of('['), line.find(']') - line.find_first_not_of('['));
            if (name == "rod.segment") keys.insert({CaseTable::rod, "segment"});
            else if (name == "ensemble.perturb") keys.insert({CaseTable::ensemble, "perturb"});
            else keys.insert({CaseTable::top_level, name});
            continue;
        }
        if (header == "[solver]" || line.find(" = ") == std::string::npos) continue;
        keys.insert({table_of_header(header), line.substr(0, line.find(" = "))});
    }
    return keys;
}

/// `text` without the first `key = ...` line of a `table` section.
std::string without(const std::string& text, CaseTable table, std::string_view key) {
    std::istringstream lines(text);
    std::string line, header, out;
    bool removed = false;
    while (std::getline(lines, line)) {
        if (line.starts_with('[')) header = line;
        if (!removed && header != "[defaults]" && table_of_header(header) == table && line.starts_with(std::string(key) + " = ")) {
            removed = true;
            continue;
        }
        out += line + '\n';
    }
    REQUIRE(removed);
    return out;
}

/// A directory of its own holding pulse.csv, for `from_file`.
std::filesystem::path pulse_directory() {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "rodcollide_test_case_key_table";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "pulse.csv") << "time,value\n0,0\n1,-1\n";
    return dir;
}

Case parsed(const std::string& text) { return parse_case(text, (pulse_directory() / "case.toml").string()); }

std::string stripped(std::string s) {
    std::erase(s, '`');
    const auto first = s.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

std::vector<std::string> cells(const std::string& row) {
    std::vector<std::string> out;
    std::string cell;
    for (std::size_t i = 1; i < row.size(); ++i) {
        if (row[i] == '|') {
            out.push_back(stripped(cell));
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    return out;
}

/// A key as docs/case_file.md's tables document it.
struct DocRow {
    std::map<std::string, std::string> column;  // by the header's name
    std::string text;                           // the whole row, backticks removed
};

/// The rows of docs/case_file.md's key tables, by (table, key): "Top level", "[[rod]] (and
/// [defaults])" and the tables of "Ends, loads, segments and gauges" and "Ensembles" (their Table
/// column says which).
std::map<std::pair<CaseTable, std::string>, DocRow> documented_keys() {
    std::ifstream in(std::string(RODCOLLIDE_SOURCE_DIR) + "/docs/case_file.md");
    REQUIRE(in);
    std::map<std::pair<CaseTable, std::string>, DocRow> rows;
    std::string line, section;
    std::vector<std::string> header;
    CaseTable table = CaseTable::top_level;
    while (std::getline(in, line)) {
        if (line.starts_with("### ")) section = stripped(line.substr(4));
        if (!line.starts_with('|')) {
            header.clear();
            continue;
        }
        if (header.empty()) {
            header = cells(line);
            continue;
        }
        if (line.starts_with("| ---")) continue;
        const bool ends = section == "Ends, loads, segments and gauges" || section == "Ensembles";
        if (section != "Top level" && section != "[[rod]] (and [defaults])" && !ends) continue;
        DocRow row;
        const std::vector<std::string> values = cells(line);
        for (std::size_t k = 0; k < header.size() && k < values.size(); ++k) row.column[header[k]] = values[k];
        row.text = stripped(line);
        if (section == "Top level") table = CaseTable::top_level;
        else if (!ends) table = CaseTable::rod;
        else if (!row.column["Table"].empty()) table = table_of_header(row.column["Table"].substr(0, row.column["Table"].find(',')));
        std::string keys = row.column["Key"];
        for (std::size_t start = 0; start <= keys.size();) {
            const std::size_t comma = std::min(keys.find(", ", start), keys.size());
            CHECK(rows.emplace(std::pair{table, keys.substr(start, comma - start)}, row).second);
            start = comma + 2;
        }
    }
    return rows;
}

std::string name_of(const CaseKeySpec& row) {
    return to_string(row.table).empty() ? std::string(row.key) : fmt::format("{}.{}", to_string(row.table), row.key);
}

}  // namespace

TEST_CASE("key table: keys are unique per table and every row is complete", "[case_keys]") {
    std::set<std::pair<CaseTable, std::string_view>> keys;
    for (const CaseKeySpec& row : case_key_table()) {
        INFO(name_of(row));
        CHECK(keys.insert({row.table, row.key}).second);
        CHECK(find_case_key(row.table, row.key) == &row);
        CHECK(!row.help.empty());
        CHECK(!row.default_text().empty());
        CHECK(row.required == (row.default_text().starts_with("required") || row.table == CaseTable::segment));
        CHECK((row.rod_field != nullptr) == (row.table == CaseTable::rod && row.type == KeyType::number));
        CHECK((row.segment_field != nullptr) == (row.table == CaseTable::segment));
        CHECK((row.type == KeyType::string || row.choices.empty()));
        CHECK((row.range.empty() || row.type == KeyType::number || row.type == KeyType::numbers ||
               row.type == KeyType::integer || row.type == KeyType::integers));
    }
    CHECK(find_case_key(CaseTable::rod, "no_such_key") == nullptr);
    CHECK(std::vector<std::string_view>(defaults_keys().begin(), defaults_keys().end()) ==
          std::vector<std::string_view>{"length", "area", "density", "youngs_modulus", "velocity", "gap", "mass",
                                        "contact_stiffness", "contact_exponent", "contact_damping", "radius",
                                        "poisson_ratio", "end_radius", "left_end_radius", "right_end_radius",
                                        "restitution"});
}

TEST_CASE("key table: the choices are the model's names", "[case_keys]") {
    const auto names = [](CaseTable t, std::string_view key) {
        const auto c = find_case_key(t, key)->choices;
        return std::vector<std::string_view>(c.begin(), c.end());
    };
    CHECK(names(CaseTable::end, "kind") == std::vector{to_string(EndKind::free), to_string(EndKind::fixed),
                                                       to_string(EndKind::wall), to_string(EndKind::anechoic),
                                                       to_string(EndKind::spring), to_string(EndKind::dashpot),
                                                       to_string(EndKind::spring_dashpot)});
    CHECK(names(CaseTable::rod, "kind") ==
          std::vector{to_string(RodKind::rod), to_string(RodKind::mass), to_string(RodKind::ball)});
    CHECK(names(CaseTable::load, "end") == std::vector{to_string(ChainSide::left), to_string(ChainSide::right)});
    CHECK(names(CaseTable::load, "quantity") ==
          std::vector{to_string(LoadQuantity::force), to_string(LoadQuantity::velocity)});
    CHECK(names(CaseTable::load, "shape") ==
          std::vector<std::string_view>(std::begin(load_shape_names), std::end(load_shape_names)));
    // The rod numbers an ensemble perturbs: the first six [defaults] keys (issue 23's mass and
    // contact keys are not perturbed yet).
    CHECK(names(CaseTable::perturb, "key") ==
          std::vector<std::string_view>(defaults_keys().begin(), defaults_keys().begin() + 6));
    CHECK(names(CaseTable::perturb, "distribution") ==
          std::vector<std::string_view>(std::begin(distribution_names), std::end(distribution_names)));
}

TEST_CASE("key table: the reader fills an omitted key with the default the table shows", "[case_keys]") {
    const Case c = parsed(pointwise);  // no velocity, gap, title, units, kind, gauge name
    CHECK(find_case_key(CaseTable::rod, "velocity")->default_text() == short_number(c.chain.rods()[0].velocity));
    CHECK(find_case_key(CaseTable::top_level, "units")->default_text() == "\"SI\"");
    CHECK(!c.dimensionless);
    CHECK(find_case_key(CaseTable::top_level, "title")->default_text() == "the file name without its extension");
    CHECK(c.title == "case");
    CHECK(find_case_key(CaseTable::end, "kind")->default_text() == fmt::format("\"{}\"", to_string(c.chain.ends().left.kind)));
    CHECK(find_case_key(CaseTable::top_level, "left")->default_text() == fmt::format("a {} end", to_string(c.chain.ends().left.kind)));
    const Case two = parsed("[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\nvelocity = 1.0\n"
                            "[[rod]]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                            "[right]\nkind = \"wall\"\n[[gauge]]\nrod = 1\nx = 0.5\n");
    CHECK(find_case_key(CaseTable::rod, "gap")->default_text() == short_number(two.chain.rods()[1].gap));
    CHECK(find_case_key(CaseTable::end, "gap")->default_text() == short_number(two.chain.ends().right.gap));
    REQUIRE(two.gauges.size() == 1);
    CHECK(two.gauges[0].name == default_gauge_name(0));
    CHECK(find_case_key(CaseTable::gauge, "name")->default_text().starts_with(fmt::format("\"{}\"", default_gauge_name(0))));
    CHECK(find_case_key(CaseTable::load, "rise")->default_text() == short_number(LoadShape{}.rise));
}

TEST_CASE("key table: the reader accepts every key, and no other", "[case_keys]") {
    std::set<std::pair<CaseTable, std::string>> written;
    for (const std::string* text : {&shaped, &pointwise, &from_file, &compliant, &balls}) {
        CHECK_NOTHROW(parsed(*text));
        written.merge(keys_written(*text));
    }
    written.insert({CaseTable::top_level, "rod"});
    for (const CaseKeySpec& row : case_key_table()) {
        INFO(name_of(row));
        CHECK(written.count({row.table, std::string(row.key)}) == 1);
    }
    // An unknown key in each table is refused with the table's keys (and only those) as the choices.
    const std::pair<std::string, std::string> sections[] = {
        {"", "title"}, {"[[rod]]", "rod[0]"}, {"[[rod.segment]]", "rod[1].segment[0]"},
        {"[right]", "right"}, {"[[load]]", "load[0]"}, {"[[gauge]]", "gauge[0]"},
        {"[ensemble]", "ensemble"}, {"[[ensemble.perturb]]", "ensemble.perturb[0]"}};
    const CaseTable tables[] = {CaseTable::top_level, CaseTable::rod, CaseTable::segment, CaseTable::end,
                                CaseTable::load, CaseTable::gauge, CaseTable::ensemble, CaseTable::perturb};
    for (std::size_t k = 0; k < std::size(tables); ++k) {
        const auto& [header, prefix] = sections[k];
        std::string text = shaped;
        const std::size_t at = header.empty() ? 0 : text.find(header + "\n") + header.size() + 1;
        text.insert(at, "qqqqqqqqqqqq = 1\n");
        INFO(header);
        try {
            parsed(text);
            FAIL("an unknown key was accepted");
        } catch (const CaseError& e) {
            const std::string key = prefix == "title" ? "qqqqqqqqqqqq" : prefix + ".qqqqqqqqqqqq";
            CHECK(e.key() == key);
            CHECK(e.message() == fmt::format("unknown key; expected one of: {}", fmt::join(case_keys(tables[k]), ", ")));
        }
    }
}

TEST_CASE("key table: the reader requires every required key", "[case_keys]") {
    for (const CaseKeySpec& row : case_key_table()) {
        if (!row.required || row.table == CaseTable::top_level) continue;  // `rod`: test_case_file.cpp
        INFO(name_of(row));
        // Required where they apply: issue 23's in the case that has their kinds.
        const std::pair<CaseTable, std::string> key{row.table, std::string(row.key)};
        const std::string& text = keys_written(shaped).count(key)      ? shaped
                                  : keys_written(compliant).count(key) ? compliant
                                                                       : balls;
        try {
            parsed(without(text, row.table, row.key));
            FAIL("accepted without it");
        } catch (const CaseError& e) {
            CHECK(e.key().ends_with(fmt::format(".{}", row.key)));
            CHECK(e.message().starts_with("missing"));
        }
    }
    // And the others may be left out (the shaped case without each, where that leaves a case).
    for (const CaseKeySpec& row : case_key_table())
        if (!row.required && row.default_text() != "none" && row.table != CaseTable::top_level &&
            keys_written(shaped).count({row.table, std::string(row.key)})) {
            INFO(name_of(row));
            CHECK_NOTHROW(parsed(without(shaped, row.table, row.key)));
        }
}

TEST_CASE("key table: the fuzz mutator writes every key written as a line", "[case_keys][fuzz]") {
    const std::pair<std::string_view, CaseTable> tables[] = {
        {"", CaseTable::top_level}, {"rod", CaseTable::rod},   {"rod.segment", CaseTable::segment},
        {"end", CaseTable::end},    {"load", CaseTable::load}, {"gauge", CaseTable::gauge},
        {"ensemble", CaseTable::ensemble}, {"ensemble.perturb", CaseTable::perturb}};
    for (const auto& [name, table] : tables) {
        INFO(name);
        const auto row = std::ranges::find(fuzz::case_keys, name, &fuzz::TableKeys::table);
        REQUIRE(row != fuzz::case_keys.end());
        std::set<std::string_view> mutated;
        for (std::string_view k : row->keys)
            if (!k.empty()) mutated.insert(k);
        std::set<std::string_view> expected;
        for (const CaseKeySpec& spec : case_key_table())
            if (spec.table == table && spec.type != KeyType::table && spec.type != KeyType::tables &&
                std::ranges::find(fuzz::unfuzzed_case_keys, std::pair{table, spec.key}) ==
                    std::end(fuzz::unfuzzed_case_keys))
                expected.insert(spec.key);
        CHECK(mutated == expected);
    }
    const auto defaults = std::ranges::find(fuzz::case_keys, std::string_view("defaults"), &fuzz::TableKeys::table);
    REQUIRE(defaults != fuzz::case_keys.end());
    std::set<std::string_view> in_defaults;
    for (std::string_view k : defaults->keys)
        if (!k.empty()) in_defaults.insert(k);
    CHECK(in_defaults == std::set<std::string_view>(defaults_keys().begin(), defaults_keys().end()));
    for (const auto& [table, key] : fuzz::unfuzzed_case_keys) CHECK(find_case_key(table, key) != nullptr);
}

TEST_CASE("key table: docs/case_file.md documents each key as the table describes it", "[case_keys][docs]") {
    const auto documented = documented_keys();
    for (const CaseKeySpec& row : case_key_table()) {
        INFO(name_of(row));
        const auto it = documented.find({row.table, std::string(row.key)});
        REQUIRE(it != documented.end());
        const DocRow& doc = it->second;
        CHECK(doc.column.at("Default") == row.default_text());
        CHECK(doc.column.at("Type").starts_with(to_string(row.type)));
        if (doc.column.count("Unit")) CHECK(doc.column.at("Unit") == row.units);
        CHECK(doc.text.find(row.range) != std::string::npos);
        for (std::string_view choice : row.choices) CHECK(doc.text.find(choice) != std::string::npos);
    }
    for (const auto& [key, doc] : documented) {
        INFO(fmt::format("{} {}", to_string(key.first), key.second));
        CHECK(find_case_key(key.first, key.second) != nullptr);  // no key the reader refuses
    }
}
