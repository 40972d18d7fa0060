// Structure-aware mutation of case files for the libFuzzer target (case_fuzzer.cpp): edits that
// keep the TOML well formed (numbers across every magnitude and the special literals, strings
// from each key's vocabulary, keys, lines, whole tables: rods, segments, ends, loads, gauges,
// solver options, an ensemble and its perturbations), so that most inputs get past the reader to the solvers, where byte-level
// mutation mostly breaks the TOML. No physics here; what each key means is docs/case_file.md.
#pragma once

#include "rodcollide/case_key_table.hpp"
#include "rodcollide/solver_option_table.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rodcollide::fuzz {

/// The keys of each table of a case file (docs/case_file.md), by the table's name ("" for the
/// top level), and the strings its string keys take.
struct TableKeys {
    std::string_view table;
    std::array<std::string_view, 24> keys;  // empty entries unused
};
/// Keys of the key table the mutator never writes: a load's `file` names a file to read, so an
/// input would depend on what the disk holds where the fuzzer runs (not replayable).
inline constexpr std::pair<rodcollide::CaseTable, std::string_view> unfuzzed_case_keys[] = {
    {rodcollide::CaseTable::load, "file"}};
/// The keys of the key tables (case_key_table.hpp, solver_option_table.hpp) written as
/// `key = value` lines: a new key is fuzzed as soon as it has its row. Tables of tables ([[rod]]
/// at the top level, [[rod.segment]] in a rod, [[ensemble.perturb]] in [ensemble]) are headers,
/// written by new_table(). [left] and [right] are both "end".
inline const std::array<TableKeys, 10> case_keys = [] {
    const auto written = [](std::string_view name, CaseTable table) {
        TableKeys t{name, {}};
        std::size_t n = 0;
        for (const CaseKeySpec& row : case_key_table())
            if (row.table == table && row.type != KeyType::table && row.type != KeyType::tables &&
                std::ranges::find(unfuzzed_case_keys, std::pair{table, row.key}) == std::end(unfuzzed_case_keys))
                t.keys.at(n++) = row.key;
        return t;
    };
    TableKeys solver{"solver", {}};
    std::size_t n = 0;
    for (const SolverOptionSpec& o : solver_option_table()) solver.keys.at(n++) = o.key;
    TableKeys defaults{"defaults", {}};
    n = 0;
    for (std::string_view k : defaults_keys()) defaults.keys.at(n++) = k;
    return std::array<TableKeys, 10>{{
        written("", CaseTable::top_level),
        defaults,
        written("rod", CaseTable::rod),
        written("rod.segment", CaseTable::segment),
        solver,
        written("end", CaseTable::end),
        written("load", CaseTable::load),
        written("gauge", CaseTable::gauge),
        written("ensemble", CaseTable::ensemble),
        written("ensemble.perturb", CaseTable::perturb),
    }};
}();
inline constexpr std::array<std::string_view, 23> case_words = {
    "characteristics", "finite-difference", "free",     "fixed", "wall", "anechoic",  "force",
    "velocity",        "left",              "right",    "rectangle", "trapezoid", "half-sine",
    "SI",              "dimensionless",     "",         "gauge", "rod",  "mass",      "spring",
    "dashpot",         "spring-dashpot",    "ball"};

/// Mutates case-file text. Deterministic for a given seed (libFuzzer replays by seed).
class CaseMutator {
public:
    explicit CaseMutator(std::uint64_t seed) : rng_(seed) {}

    /// One structural edit of `text` (libFuzzer stacks several); the result is at most
    /// `max_size` bytes (else `text` itself). `bytes`, when given, is a byte-level mutator
    /// (LLVMFuzzerMutate) used for one input in ten, so the parser still sees broken text.
    std::string mutate(std::string text, std::size_t max_size,
                       const std::function<std::string(std::string, std::size_t)>& bytes = {}) {
        if (bytes && chance(0.1)) return bytes(std::move(text), max_size);
        Lines lines = split(text);
        edit(lines);
        if (chance(0.9)) first_rod_without_gap(lines);
        std::string next = join(lines);
        return next.size() <= max_size ? next : text;
    }

    /// `a` with one block of `b` grafted in: a rod (with its segments), load or gauge of `b` added
    /// among `a`'s, or a table `a` may hold once ([defaults], [solver], an end) taking the place
    /// of `a`'s own.
    std::string cross_over(const std::string& a, const std::string& b, std::size_t max_size) {
        Lines la = split(a);
        const Lines lb = split(b);
        const std::vector<std::size_t> from = blocks(lb);
        if (from.empty()) return a;
        const std::size_t begin = pick(from);
        Lines block(lb.begin() + static_cast<std::ptrdiff_t>(begin), lb.begin() + static_cast<std::ptrdiff_t>(block_end(lb, begin)));
        if (header_name(block.front()) == "rod") {
            with_defaults(lb, block);
            complete_rod(block, numbers(la));
        }
        place_table(la, block);
        std::string text = join(la);
        return text.size() <= max_size ? text : a;
    }

private:
    using Lines = std::vector<std::string>;

    // ---- Randomness --------------------------------------------------------------------------

    std::size_t below(std::size_t n) { return n ? std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_) : 0; }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    template <class Range>
    auto pick(const Range& r) -> decltype(*std::begin(r)) {
        return *(std::begin(r) + static_cast<std::ptrdiff_t>(below(std::size(r))));
    }

    // ---- Text as lines and tables --------------------------------------------------------------

    static Lines split(const std::string& text) {
        Lines lines;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t end = text.find('\n', start);
            if (end == std::string::npos) {
                if (start < text.size()) lines.push_back(text.substr(start));
                break;
            }
            lines.push_back(text.substr(start, end - start));
            start = end + 1;
        }
        return lines;
    }
    static std::string join(const Lines& lines) {
        std::string text;
        for (const std::string& l : lines) text += l + '\n';
        return text;
    }
    static bool is_comment(std::string_view line) {
        const std::size_t i = line.find_first_not_of(" \t");
        return i != std::string_view::npos && line[i] == '#';
    }
    static bool is_header(std::string_view line) {
        const std::size_t i = line.find_first_not_of(" \t");
        return i != std::string_view::npos && line[i] == '[';
    }
    static std::vector<std::size_t> headers(const Lines& lines) {
        std::vector<std::size_t> h;
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (is_header(lines[i])) h.push_back(i);
        return h;
    }
    /// One past the last line of the table whose header is at `header`.
    static std::size_t table_end(const Lines& lines, std::size_t header) {
        std::size_t i = header + 1;
        while (i < lines.size() && !is_header(lines[i])) ++i;
        return i;
    }
    /// "rod" for `[[rod]]  # striker`, "rod.segment", "defaults", ...
    static std::string header_name(std::string_view line) {
        std::string name;
        for (char c : line.substr(0, line.find('#')))
            if (c != '[' && c != ']' && c != ' ' && c != '\t') name += c;
        return name;
    }
    /// One past the last line of the table at `header` and, for a rod, of its segments (for
    /// [ensemble], of the [[ensemble.perturb]] tables that follow it).
    static std::size_t block_end(const Lines& lines, std::size_t header) {
        std::size_t end = table_end(lines, header);
        const std::string name = header_name(lines[header]);
        if (name == "rod" || name == "ensemble")
            while (end < lines.size() && header_name(lines[end]) == (name == "rod" ? "rod.segment" : "ensemble.perturb"))
                end = table_end(lines, end);
        return end;
    }
    /// The first lines of the blocks: tables, a rod with its segments (an ensemble with its
    /// perturbations) counted as one.
    static std::vector<std::size_t> blocks(const Lines& lines) {
        std::vector<std::size_t> b;
        for (std::size_t i : headers(lines))
            if (b.empty() || i >= block_end(lines, b.back())) b.push_back(i);
        return b;
    }
    /// A header line, or the end: where a whole table can go without swallowing other keys.
    std::size_t pick_cut(const std::vector<std::size_t>& h, std::size_t end) {
        const std::size_t k = below(h.size() + 1);
        return k < h.size() ? h[k] : end;
    }
    /// Index of a random line holding `key = value` (not a header or comment), or lines.size().
    std::size_t pick_assignment(const Lines& lines) {
        std::vector<std::size_t> candidates;
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (!is_header(lines[i]) && !is_comment(lines[i]) && lines[i].find('=') != std::string::npos)
                candidates.push_back(i);
        return candidates.empty() ? lines.size() : pick(candidates);
    }
    /// The table a line inserted before line `at` joins (the one holding line `at` when that is
    /// a key): its name ("" for the top level, "rod", "rod.segment", ..., "end" for [left] and
    /// [right]) and the keys it holds.
    static std::pair<std::string, std::vector<std::string>> table_at(const Lines& lines, std::size_t at) {
        std::size_t first = std::min(at, lines.size());
        while (first > 0 && !is_header(lines[first - 1])) --first;
        const std::string name = first > 0 ? header_name(lines[first - 1]) : "";
        std::vector<std::string> keys;
        for (std::size_t k = first; k < lines.size() && !is_header(lines[k]); ++k)
            if (!is_comment(lines[k]) && lines[k].find('=') != std::string::npos) keys.push_back(key_of(lines[k]));
        return {name == "left" || name == "right" ? "end" : name, keys};
    }
    /// A key for table `table`: mostly one it knows and does not hold yet, sometimes any key.
    std::string_view key_for(const std::string& table, const std::vector<std::string>& present) {
        const TableKeys* own = nullptr;
        for (const TableKeys& t : case_keys)
            if (t.table == table) own = &t;
        if (!own || chance(0.1)) own = &pick(case_keys);
        std::vector<std::string_view> keys;
        for (std::string_view k : own->keys)
            if (!k.empty() && (std::find(present.begin(), present.end(), k) == present.end() || chance(0.1)))
                keys.push_back(k);
        return keys.empty() ? own->keys[0] : pick(keys);
    }
    static std::string key_of(const std::string& line) {
        const std::size_t eq = line.find('=');
        std::string key = line.substr(0, eq);
        key.erase(0, key.find_first_not_of(" \t"));
        key.erase(key.find_last_not_of(" \t") + 1);
        return key;
    }

    // ---- Values ------------------------------------------------------------------------------

    /// A token of a value: a number or a quoted string, [begin, end) in its line.
    struct Token {
        std::size_t begin, end;
        bool string;
    };
    /// The numbers and strings after the `=` of an assignment line (comments skipped).
    static std::vector<Token> tokens(const std::string& line) {
        std::vector<Token> found;
        if (is_header(line) || is_comment(line)) return found;
        std::size_t i = line.find('=');
        if (i == std::string::npos) return found;
        for (++i; i < line.size();) {
            const char c = line[i];
            if (c == '#') break;
            if (c == '"' || c == '\'') {
                std::size_t j = i + 1;
                while (j < line.size() && line[j] != c) j += line[j] == '\\' && c == '"' ? 2 : 1;
                j = std::min(j + 1, line.size());
                found.push_back({i, j, true});
                i = j;
                continue;
            }
            const bool sign = (c == '+' || c == '-') && i + 1 < line.size();
            const char d = sign ? line[i + 1] : c;
            if (std::isdigit(static_cast<unsigned char>(d)) || line.compare(i + sign, 3, "inf") == 0 ||
                line.compare(i + sign, 3, "nan") == 0) {
                std::size_t j = i + sign;
                while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '.' ||
                                           line[j] == '_' || ((line[j] == '+' || line[j] == '-') &&
                                                              (line[j - 1] == 'e' || line[j - 1] == 'E'))))
                    ++j;
                found.push_back({i, j, false});
                i = j;
                continue;
            }
            ++i;
        }
        return found;
    }

    static std::string shortest(double x) {
        if (std::isnan(x)) return "nan";
        if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
        std::array<char, 64> buf{};
        const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
        return std::string(buf.data(), r.ptr);  // "1e+16", "0.25", "3": all TOML numbers
    }
    static double parse(std::string_view s) {
        std::string t;
        for (char c : s)
            if (c != '_') t += c;
        if (t.find("inf") != std::string::npos) return t[0] == '-' ? -HUGE_VAL : HUGE_VAL;
        if (t.find("nan") != std::string::npos) return std::numeric_limits<double>::quiet_NaN();
        try {
            return std::stod(t);
        } catch (...) {
            return 1;
        }
    }

    /// A replacement for the number `old` (text), often near it, sometimes at the edges of what a
    /// double or the limits (docs/case_file.md "Limits") allow.
    std::string number_for(std::string_view old, const std::vector<double>& others) {
        const double x = parse(old);
        const bool integer = old.find_first_of(".eEin") == std::string_view::npos;
        if (integer && chance(0.5)) {
            static constexpr std::array<std::string_view, 14> ints = {
                "0", "1", "2", "3", "4", "5", "10", "64", "100", "1000", "100000", "2147483648",
                "9223372036854775807", "-1"};
            if (chance(0.7)) return std::string(pick(ints));
            return std::to_string(below(1u << static_cast<unsigned>(below(24))));
        }
        // Two in three plausible (the solvers get to work), one in three hostile (the limits).
        switch (below(24)) {
            case 0:
            case 1:
            case 2:
            case 3:
            case 4:
            case 5:
            case 6:
            case 7:
                return shortest(x * std::pow(10.0, uniform(-2, 2)));  // the same order, roughly
            case 8:
            case 9:
            case 10:  // nearly equal: near-simultaneous events, near-equal impedances
                return shortest(x * (1 + (chance(0.5) ? 1 : -1) * std::pow(10.0, -static_cast<double>(1 + below(16)))));
            case 11:
            case 12:
            case 13:
            case 14:
            case 15:  // another number of the file: equal values, ties, commensurate times
                return others.empty() ? shortest(x) : shortest(pick(others));
            case 16:
            case 17: {  // any magnitude a double holds, and beyond
                const double m = std::pow(10.0, static_cast<double>(below(661)) - 330.0);
                return shortest(chance(0.8) ? m : -m);
            }
            case 18:
            case 19: {  // the edges of the limits
                static constexpr std::array<double, 12> edges = {1e-100, 9.99e-101, 1e100, 1.01e100, 1e5,  1.00001e5,
                                                                 1e-5,   9.9999e-6,  0.01,  0.0100001, 1e-12, 5e-324};
                return shortest(pick(edges));
            }
            case 20: {
                static constexpr std::array<std::string_view, 12> specials = {
                    "nan", "inf", "-inf", "+inf", "-0.0", "0", "0.0", "1e999", "-1e999", "1e-999", "-nan", "1_000"};
                return std::string(pick(specials));
            }
            case 21:
            case 22: {
                static constexpr std::array<double, 9> simple = {0, 1, -1, 2, 0.5, 3, 10, 1e-3, -2};
                return shortest(pick(simple));
            }
            default:
                return shortest(-x);
        }
    }

    /// A value for `key` in a new line: a string from the vocabulary, an array or a number.
    std::string value_for(std::string_view key, const std::vector<double>& others) {
        if (key == "title" || key == "name" || key == "file") return '"' + std::string(pick(case_words)) + '"';
        if (key == "method") return chance(0.5) ? "\"characteristics\"" : "\"finite-difference\"";
        if (key == "units") return chance(0.5) ? "\"SI\"" : "\"dimensionless\"";
        if (key == "kind")  // an end's kinds or an element's (issue 23); either may land in either table
            return '"' + std::string(pick(find_case_key(chance(0.7) ? CaseTable::end : CaseTable::rod, "kind")->choices)) + '"';
        if (key == "end") return chance(0.5) ? "\"left\"" : "\"right\"";
        if (key == "quantity") return chance(0.5) ? "\"force\"" : "\"velocity\"";
        if (key == "shape") return '"' + std::string(pick(find_case_key(CaseTable::load, "shape")->choices)) + '"';
        if (key == "time" || key == "value") return array(key == "time", 1 + below(5), others);
        if (const SolverOptionSpec* o = find_solver_option(key)) {
            if (o->type == OptionType::on_off) return chance(0.5) ? "true" : "false";
            if (o->type == OptionType::count) return number_for("1", others);
        }
        if (key == "rod") return number_for("1", others);
        // [ensemble] and [[ensemble.perturb]]: mostly spreads small enough to be accepted, so that
        // members are drawn; the edits of numbers reach the refusals.
        if (key == "key" || key == "distribution")
            return '"' + std::string(pick(find_case_key(CaseTable::perturb, key)->choices)) + '"';
        if (key == "shared") return chance(0.5) ? "true" : "false";
        if (key == "rods") return rod_list(others);
        if (key == "relative" || key == "absolute") return number_for(chance(0.7) ? "0.01" : "1e-6", others);
        if (key == "members") return number_for("3", others);
        if (key == "seed") return number_for("1", others);
        return number_for(chance(0.5) ? "1.0" : shortest(others.empty() ? 1.0 : pick(others)), others);
    }
    /// Rod indices for [[ensemble.perturb]] `rods`: mostly a few of the first rods, in order;
    /// sometimes empty, repeated, negative, fractional or far beyond the chain.
    std::string rod_list(const std::vector<double>& others) {
        std::string s = "[";
        const std::size_t n = below(4);
        for (std::size_t k = 0; k < n; ++k) {
            if (k) s += ", ";
            s += chance(0.85) ? std::to_string(k + below(2)) : number_for("1", others);
        }
        return s + "]";
    }
    /// `n` numbers; increasing from 0 when `times`.
    std::string array(bool times, std::size_t n, const std::vector<double>& others) {
        std::string s = "[";
        double t = 0;
        for (std::size_t k = 0; k < n; ++k) {
            if (k) s += ", ";
            if (times) {
                s += chance(0.9) ? shortest(t) : number_for(shortest(t), others);
                t += std::pow(10.0, uniform(-3, 1));
            } else {
                s += number_for("1.0", others);
            }
        }
        return s + "]";
    }

    static std::vector<double> numbers(const Lines& lines) {
        std::vector<double> found;
        for (const std::string& l : lines)
            if (!is_header(l))
                for (const Token& t : tokens(l))
                    if (!t.string) {
                        const double x = parse(std::string_view(l).substr(t.begin, t.end - t.begin));
                        if (std::isfinite(x)) found.push_back(x);
                    }
        return found;
    }

    // ---- Tables --------------------------------------------------------------------------------

    /// A whole table: a rod, a segment, an end, a load, a gauge, the solver or defaults.
    Lines new_table(const std::vector<double>& others, bool has_defaults) {
        Lines t;
        const auto add = [&](std::string_view key) { t.push_back(std::string(key) + " = " + value_for(key, others)); };
        switch (below(10)) {
            case 0:
                t.push_back("[[rod]]");
                add("velocity");
                if (chance(0.1)) {  // a rigid mass (issue 23)
                    t.push_back("kind = \"mass\"");
                    add("mass");
                    if (chance(0.4)) add("gap");
                } else if (chance(0.1)) {  // a ball (issue 24)
                    t.push_back("kind = \"ball\"");
                    for (std::string_view k : {"gap", "radius", "density", "youngs_modulus", "poisson_ratio"})
                        if (chance(k == "gap" ? 0.4 : 0.95)) add(k);
                } else {
                    for (std::string_view k : {"gap", "length", "area", "density", "youngs_modulus"})
                        if (chance(k == "gap" ? 0.4 : has_defaults ? 0.9 : 0.97)) add(k);
                    if (chance(0.1)) add(chance(0.5) ? "end_radius" : chance(0.5) ? "left_end_radius" : "right_end_radius");
                    if (chance(0.05)) add("poisson_ratio");
                }
                if (chance(0.15)) add("contact_stiffness");
                if (chance(0.05)) add("contact_exponent");
                if (chance(0.05)) add("contact_damping");
                if (chance(0.05)) add("restitution");
                break;
            case 1:
                t.push_back("[[rod.segment]]");
                for (std::string_view k : {"length", "area", "density", "youngs_modulus"})
                    if (k == "length" || chance(0.4)) add(k);
                break;
            case 2:
                t.push_back(chance(0.5) ? "[left]" : "[right]");
                add("kind");
                {
                    // The kind's line, held: each add() below appends a line after it.
                    const std::string kind = t.back();
                    const bool wall = kind.find("wall") != std::string::npos;
                    if (wall && chance(0.7)) add("gap");
                    if (wall && chance(0.2)) add("contact_stiffness");
                    if (wall && chance(0.1)) add("restitution");
                    if (kind.find("spring") != std::string::npos) add("stiffness");
                    if (kind.find("dashpot") != std::string::npos) add("damping");
                }
                break;
            case 3:
                t.push_back("[[load]]");
                add("end");
                add("quantity");
                if (chance(0.5)) {
                    const std::size_t n = 1 + below(5);
                    t.push_back("time = " + array(true, n, others));
                    t.push_back("value = " + array(false, n, others));
                } else {
                    add("shape");
                    add("amplitude");
                    add("duration");
                    if (chance(0.5)) add("rise");
                    if (chance(0.5)) add("fall");
                }
                break;
            case 4:
                t.push_back("[[gauge]]");
                t.push_back("rod = " + std::to_string(below(4)));
                add("x");
                if (chance(0.3)) add("name");
                break;
            case 5:
            case 6:
                t.push_back("[solver]");
                for (const SolverOptionSpec& o : solver_option_table())
                    if (chance(0.3)) add(o.key);
                break;
            case 7:  // replaces the old one (its perturbations stay)
                t.push_back("[ensemble]");
                if (chance(0.8)) add("members");
                if (chance(0.5)) add("seed");
                break;
            case 8:
                t.push_back("[[ensemble.perturb]]");
                add("key");
                if (chance(0.5)) add("rods");
                add(chance(0.7) ? "relative" : "absolute");
                if (chance(0.5)) add("distribution");
                if (chance(0.3)) add("shared");
                break;
            default:  // replaces the old one: the material, and maybe a velocity and gap for all
                t.push_back("[defaults]");
                for (std::string_view k : {"length", "area", "density", "youngs_modulus", "velocity", "gap"})
                    if (k != "velocity" && k != "gap" ? chance(0.99) : chance(0.3)) add(k);
                break;
        }
        return t;
    }

    // ---- The edits ------------------------------------------------------------------------------

    void edit(Lines& lines) {
        const std::vector<double> others = numbers(lines);
        const std::size_t op = below(16);
        if (op < 4) return edit_number(lines, others);  // the most productive: values reach the solvers
        switch (op - 4) {
            case 0:
            case 1:
            case 2:
            case 3:
                return edit_number(lines, others);
            case 4:
                return edit_string(lines);
            case 5: {  // a value under another key, also or instead
                const std::size_t i = pick_assignment(lines);
                if (i < lines.size()) {
                    const auto [table, keys] = table_at(lines, i);
                    const std::string line = std::string(key_for(table, keys)) + " =" + lines[i].substr(lines[i].find('=') + 1);
                    if (chance(0.7))
                        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i + 1), line);
                    else
                        lines[i] = line;
                }
                return;
            }
            case 6: {  // a new key, inside a random table (or at the top)
                const std::vector<std::size_t> h = headers(lines);
                const std::size_t at = h.empty() || chance(0.1) ? 0 : pick(h) + 1;
                const auto [table, keys] = table_at(lines, at);
                const std::string_view key = key_for(table, keys);
                lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), std::string(key) + " = " + value_for(key, others));
                return;
            }
            case 7:  // a line less
                if (!lines.empty()) lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(below(lines.size())));
                return;
            case 8: {  // a rod (with its segments), segment, load or gauge more, or a table less
                const std::vector<std::size_t> h = headers(lines);
                if (h.empty()) return;
                const std::size_t begin = pick(h), end = block_end(lines, begin);
                if (header_name(lines[begin]) == "defaults") return;  // every rod would lack its material
                if (lines[begin].find("[[") != std::string::npos && chance(0.75)) {
                    const Lines block(lines.begin() + static_cast<std::ptrdiff_t>(begin), lines.begin() + static_cast<std::ptrdiff_t>(end));
                    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(end), block.begin(), block.end());
                } else {
                    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(begin), lines.begin() + static_cast<std::ptrdiff_t>(end));
                }
                return;
            }
            case 9:
            case 10:
                return add_table(lines, others);
            default: {  // two blocks swap places (rods reordered, ends and loads moved)
                const std::vector<std::size_t> b = blocks(lines);
                if (b.size() < 2) return;
                const std::size_t k = below(b.size() - 1);
                const std::size_t first = b[k], second = b[k + 1], end = block_end(lines, second);
                Lines swapped(lines.begin() + static_cast<std::ptrdiff_t>(second), lines.begin() + static_cast<std::ptrdiff_t>(end));
                swapped.insert(swapped.end(), lines.begin() + static_cast<std::ptrdiff_t>(first), lines.begin() + static_cast<std::ptrdiff_t>(second));
                std::copy(swapped.begin(), swapped.end(), lines.begin() + static_cast<std::ptrdiff_t>(first));
                return;
            }
        }
    }

    /// The first rod has no left neighbour, so no gap: a rod moved or added in front loses it.
    static void first_rod_without_gap(Lines& lines) {
        for (std::size_t i : headers(lines))
            if (header_name(lines[i]) == "rod") {
                for (std::size_t j = i + 1; j < table_end(lines, i); ++j)
                    if (!is_comment(lines[j]) && key_of(lines[j]) == "gap") {
                        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(j));
                        break;
                    }
                return;
            }
    }

    /// The rod `block` of `source` with the values it took from `source`'s [defaults] written in
    /// (not its length when it has segments).
    static void with_defaults(const Lines& source, Lines& block) {
        const std::size_t own_end = table_end(block, 0);
        const bool segments = own_end < block.size();
        std::vector<std::string> own;
        for (std::size_t i = 1; i < own_end; ++i)
            if (!is_comment(block[i]) && block[i].find('=') != std::string::npos) own.push_back(key_of(block[i]));
        for (std::size_t h : headers(source))
            if (header_name(source[h]) == "defaults")
                for (std::size_t i = h + 1; i < table_end(source, h); ++i) {
                    if (is_comment(source[i]) || source[i].find('=') == std::string::npos) continue;
                    const std::string key = key_of(source[i]);
                    if (key == "gap" || (key == "length" && segments) ||
                        std::find(own.begin(), own.end(), key) != own.end())
                        continue;
                    block.insert(block.begin() + 1, source[i]);
                }
    }

    /// The rod `block` given each material key it lacks (length only without segments), valued
    /// like the numbers of the case it joins: a grafted rod took them from its own [defaults].
    void complete_rod(Lines& block, const std::vector<double>& others) {
        const std::size_t own_end = table_end(block, 0);
        std::vector<std::string> own;
        for (std::size_t i = 1; i < own_end; ++i)
            if (!is_comment(block[i]) && block[i].find('=') != std::string::npos) own.push_back(key_of(block[i]));
        for (std::string_view key : {"length", "area", "density", "youngs_modulus"})
            if ((key != "length" || own_end == block.size()) && std::find(own.begin(), own.end(), key) == own.end())
                block.insert(block.begin() + 1,
                             std::string(key) + " = " + shortest(others.empty() ? 1.0 : std::abs(pick(others))));
    }

    /// A new table, placed by place_table.
    void add_table(Lines& lines, const std::vector<double>& others) {
        const std::vector<std::size_t> h = headers(lines);
        const bool has_defaults =
            std::any_of(h.begin(), h.end(), [&](std::size_t i) { return header_name(lines[i]) == "defaults"; });
        place_table(lines, new_table(others, has_defaults));
    }

    /// Puts `table` (a header and its keys) where it cannot swallow other keys: a segment at the
    /// end of a rod's (whose own length then goes: the segments' sum is its length), a
    /// perturbation mostly after [ensemble]'s, a table that can be there once in place of the old
    /// one, an array table before a block or at the end.
    void place_table(Lines& lines, const Lines& table) {
        if (table.empty() || !is_header(table.front())) return;
        const std::string name = header_name(table.front());
        std::size_t at = lines.size();
        if (name == "rod.segment") {
            std::vector<std::size_t> rods;
            for (std::size_t i : headers(lines))
                if (header_name(lines[i]) == "rod") rods.push_back(i);
            if (rods.empty()) return;
            const std::size_t rod = pick(rods);
            at = block_end(lines, rod);
            for (std::size_t i = rod + 1; i < table_end(lines, rod); ++i)
                if (!is_comment(lines[i]) && key_of(lines[i]) == "length") {
                    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
                    --at;
                    break;
                }
        } else if (name == "ensemble.perturb" && chance(0.9)) {
            for (std::size_t i : headers(lines))
                if (header_name(lines[i]) == "ensemble") at = block_end(lines, i);
        } else {
            if (table.front().find("[[") == std::string::npos)
                for (std::size_t i : headers(lines))
                    if (header_name(lines[i]) == name) {
                        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i),
                                    lines.begin() + static_cast<std::ptrdiff_t>(table_end(lines, i)));
                        break;
                    }
            at = pick_cut(blocks(lines), lines.size());
        }
        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), table.begin(), table.end());
    }

    void edit_number(Lines& lines, const std::vector<double>& others) {
        std::vector<std::pair<std::size_t, Token>> numbers;
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (!is_header(lines[i]))
                for (const Token& t : tokens(lines[i]))
                    if (!t.string) numbers.emplace_back(i, t);
        if (numbers.empty()) return;
        const auto& [i, t] = pick(numbers);
        std::string& line = lines[i];
        line.replace(t.begin, t.end - t.begin, number_for(std::string_view(line).substr(t.begin, t.end - t.begin), others));
    }

    void edit_string(Lines& lines) {
        std::vector<std::pair<std::size_t, Token>> strings;
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (!is_header(lines[i]))
                for (const Token& t : tokens(lines[i]))
                    if (t.string) strings.emplace_back(i, t);
        if (strings.empty()) return;
        const auto& [i, t] = pick(strings);
        std::string& line = lines[i];
        const std::string key = key_of(line);
        const std::string value = chance(0.8) ? value_for(key, {}) : '"' + std::string(pick(case_words)) + '"';
        line.replace(t.begin, t.end - t.begin, value.front() == '"' ? value : '"' + value + '"');
    }

    std::mt19937_64 rng_;
};

}  // namespace rodcollide::fuzz
