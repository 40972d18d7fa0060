// The validation suite: reading validation files (one-line errors, like case files) and running
// their checks against the solvers, laws, comparison and sweep (see validation.hpp and
// docs/validation.md for the format).
#include "rodcollide/validation.hpp"

#include "toml_input.hpp"

#include "rodcollide/characteristics.hpp"
#include "rodcollide/compare.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <string_view>

namespace rodcollide::validation {

namespace {

namespace fs = std::filesystem;
using toml_input::describe;
using toml_input::find;
using toml_input::line_of;

// ---- Schema ---------------------------------------------------------------------------------------

constexpr std::string_view top_level_keys[] = {"title", "case", "check"};

constexpr std::string_view kind_names[] = {"outcome", "law", "compare", "sweep", "cross_method"};

/// Keys every check may have, then the keys of each kind (in kind_names order).
constexpr std::string_view common_keys[] = {"kind", "name", "quantity", "expected", "tolerance", "relative", "source"};
const std::vector<std::vector<std::string_view>> kind_keys = {
    {"case", "method", "at", "contact"},
    {"law", "masses", "velocities", "restitution", "restitution_matrix", "cycle"},
    {"case", "method", "law", "restitution"},
    {"case", "directions", "law", "restitution"},
    {"cases", "method", "reference_method"},
};

/// The quantities of each kind; a trailing '*' marks a vector quantity.
const std::vector<std::vector<std::string_view>> kind_quantities = {
    {"final_velocities*", "impulses*", "energy_initial", "energy_rigid", "energy_vibration", "rigid_energy_share",
     "last_contact_time", "contact_intervals*", "velocity", "strain", "force"},
    {"final_velocities*", "impulses*", "energy_ratio", "cycle_value"},
    {"restitution_column*", "effective_restitution", "distance"},
    {"cone_errors", "boundaries*", "cone_matrix_deviation"},
    {"final_velocities*", "impulses*"},
};

constexpr std::string_view source_kinds[] = {"paper:", "closed form:", "cross-check:"};

/// Largest sweep a validation check may ask for (the suite runs on every CI build).
constexpr std::size_t max_validation_directions = 100'000;

std::vector<std::string_view> allowed_keys(std::size_t kind) {
    std::vector<std::string_view> keys(std::begin(common_keys), std::end(common_keys));
    keys.insert(keys.end(), kind_keys[kind].begin(), kind_keys[kind].end());
    return keys;
}

// ---- Reading ----------------------------------------------------------------------------------------

class FileReader {
public:
    FileReader(std::string file, fs::path directory) : file_(std::move(file)), directory_(std::move(directory)) {}

    [[noreturn]] void fail(std::size_t line, const std::string& key, std::string_view message) const {
        throw ValidationFileError(fmt::format("{}:{}: {}: {}", file_, line, key, message));
    }
    [[noreturn]] void fail(const toml::value& at, const std::string& key, std::string_view message) const {
        fail(line_of(at), key, message);
    }

    std::vector<Check> read(const std::string& text) const {
        toml::value root;
        try {
            root = toml_input::parse(text, file_);
        } catch (const toml_input::SyntaxError& e) {
            fail(e.line, "(syntax)", e.what());
        }
        const toml::table& top = table(root, "(file)");
        reject_unknown_keys(top, top_level_keys, "");
        const std::string title = find(top, "title") ? string(*find(top, "title"), "title") : fs::path(file_).stem().string();
        const toml::value* default_case = find(top, "case");
        const toml::value* list = find(top, "check");
        if (!list) fail(0, "check", "missing; a validation file needs at least one [[check]] table");
        if (!list->is_array() || list->as_array().empty())
            fail(*list, "check", fmt::format("must be an array of tables, one [[check]] per reference, got {}", describe(*list)));
        std::vector<Check> checks;
        const toml::array& tables = list->as_array();
        for (std::size_t i = 0; i < tables.size(); ++i) read_check(tables[i], i, title, default_case, checks);
        return checks;
    }

private:
    std::string file_;
    fs::path directory_;
    mutable std::map<std::string, Case> cases_;  // loaded once per file

    static std::string key(std::size_t i, std::string_view name = {}) {
        return name.empty() ? fmt::format("check[{}]", i) : fmt::format("check[{}].{}", i, name);
    }

    const toml::table& table(const toml::value& v, const std::string& k) const {
        if (!v.is_table()) fail(v, k, fmt::format("must be a table, got {}", describe(v)));
        return v.as_table();
    }

    void reject_unknown_keys(const toml::table& t, std::span<const std::string_view> known, const std::string& where) const {
        const toml::table::value_type* first = toml_input::first_unknown_key(t, known);
        if (!first) return;
        const std::string name = toml_input::shown_key(first->first);
        const std::string_view guess = toml_input::similar_key(first->first, known);
        fail(first->second, where.empty() ? name : where + "." + name,
             guess.empty() ? fmt::format("unknown key here; expected one of: {}", fmt::join(known, ", "))
                           : fmt::format("unknown key here; did you mean \"{}\"?", guess));
    }

    double number(const toml::value& v, const std::string& k) const {
        if (!v.is_floating() && !v.is_integer()) fail(v, k, fmt::format("must be a number, got {}", describe(v)));
        if (const auto literal = toml_input::unrepresentable_literal(v))
            fail(v, k, fmt::format("{} is out of range for a double", *literal));
        const double x = v.is_floating() ? v.as_floating() : static_cast<double>(v.as_integer());
        if (!std::isfinite(x)) fail(v, k, fmt::format("must be finite, got {}", x));
        return x;
    }

    std::string string(const toml::value& v, const std::string& k) const {
        if (!v.is_string()) fail(v, k, fmt::format("must be a string, got {}", describe(v)));
        return v.as_string().str;
    }

    std::size_t count(const toml::value& v, const std::string& k, std::size_t largest) const {
        if (!v.is_integer()) fail(v, k, fmt::format("must be a whole number, got {}", describe(v)));
        const auto n = v.as_integer();
        if (n < 1 || static_cast<std::uint64_t>(n) > largest)
            fail(v, k, fmt::format("must be between 1 and {}, got {}", largest, n));
        return static_cast<std::size_t>(n);
    }

    const toml::array& array(const toml::value& v, const std::string& k) const {
        if (!v.is_array()) fail(v, k, fmt::format("must be an array, got {}", describe(v)));
        return v.as_array();
    }

    Eigen::VectorXd numbers(const toml::value& v, const std::string& k) const {
        const toml::array& a = array(v, k);
        Eigen::VectorXd x(static_cast<Eigen::Index>(a.size()));
        for (std::size_t i = 0; i < a.size(); ++i) x[static_cast<Eigen::Index>(i)] = number(a[i], fmt::format("{}[{}]", k, i));
        return x;
    }

    /// A number, or a string holding a number or a fraction "p/q" (exact references such as -1/3).
    std::pair<double, std::string> reference_value(const toml::value& v, const std::string& k) const {
        if (!v.is_string()) {
            const double x = number(v, k);
            return {x, fmt::format("{:.10g}", x)};
        }
        const std::string text = v.as_string().str;
        auto parse = [&](std::string_view s) {
            double x = 0;
            const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
            if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(x))
                fail(v, k, fmt::format("must be a number or a fraction such as \"-1/3\", got {:?}", text));
            return x;
        };
        const auto slash = text.find('/');
        if (slash == std::string::npos) return {parse(text), text};
        const double q = parse(std::string_view(text).substr(slash + 1));
        if (q == 0) fail(v, k, fmt::format("division by zero in {:?}", text));
        return {parse(std::string_view(text).substr(0, slash)) / q, text};
    }

    Case load_case_at(const toml::value& v, const std::string& k) const {
        return load_case_file(string(v, k), line_of(v), k);
    }

    /// A case file, its path relative to the validation file's directory.
    Case load_case_file(const std::string& relative, std::size_t line, const std::string& k) const {
        const fs::path path = directory_ / relative;
        const std::string shown = path.lexically_normal().string();
        if (const auto it = cases_.find(shown); it != cases_.end()) return it->second;
        try {
            Case c = load_case(path);
            cases_.emplace(shown, c);
            return c;
        } catch (const CaseError& e) {
            fail(line, k, fmt::format("cannot use {:?}: {}", relative, e.what()));
        }
    }

    Method method(const toml::value& v, const std::string& k) const {
        const std::string name = string(v, k);
        const std::optional<Method> m = parse_method(name);
        if (!m) fail(v, k, fmt::format("unknown method {:?}; valid: \"characteristics\", \"finite-difference\"", name));
        return *m;
    }

    /// The case files matching a pattern such as "../cases/*.toml" (the wildcard in the file name
    /// only), relative to the validation file's directory; sorted.
    std::vector<fs::path> glob(const toml::value& v, const std::string& k) const {
        const fs::path pattern(string(v, k));
        const fs::path dir = directory_ / pattern.parent_path();
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) fail(v, k, fmt::format("{}: no such directory", dir.lexically_normal().string()));
        std::vector<fs::path> found;
        for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
            if (e.is_regular_file() &&
                ::fnmatch(pattern.filename().c_str(), e.path().filename().c_str(), FNM_PERIOD) == 0)
                found.push_back(pattern.parent_path() / e.path().filename());
        if (found.empty()) fail(v, k, fmt::format("{:?} matches no file", pattern.string()));
        std::sort(found.begin(), found.end());
        return found;
    }

    void read_check(const toml::value& value, std::size_t i, const std::string& title, const toml::value* default_case,
                    std::vector<Check>& out) const {
        const toml::table& t = table(value, key(i));
        Check c;
        c.file = file_;
        c.line = line_of(value);

        std::size_t kind = 0;
        if (const toml::value* v = find(t, "kind")) {
            const std::string name = string(*v, key(i, "kind"));
            const auto it = std::find(std::begin(kind_names), std::end(kind_names), name);
            if (it == std::end(kind_names))
                fail(*v, key(i, "kind"), fmt::format("unknown kind {:?}; valid: {}", name, fmt::join(kind_names, ", ")));
            kind = static_cast<std::size_t>(it - std::begin(kind_names));
        }
        c.kind = static_cast<Kind>(kind);
        const std::vector<std::string_view> known = allowed_keys(kind);
        reject_unknown_keys(t, known, key(i));

        auto required = [&](std::string_view name) -> const toml::value& {
            const toml::value* v = find(t, name);
            if (!v) fail(value, key(i, name), fmt::format("missing (kind \"{}\" needs it)", kind_names[kind]));
            return *v;
        };

        // Quantity.
        c.quantity = string(required("quantity"), key(i, "quantity"));
        std::vector<std::string> names;
        for (std::string_view q : kind_quantities[kind]) names.emplace_back(q.ends_with('*') ? q.substr(0, q.size() - 1) : q);
        const auto q = std::find(names.begin(), names.end(), c.quantity);
        if (q == names.end())
            fail(*find(t, "quantity"), key(i, "quantity"),
                 fmt::format("unknown quantity {:?} for a {} check; valid: {}", c.quantity, kind_names[kind], fmt::join(names, ", ")));
        c.vector = kind_quantities[kind][static_cast<std::size_t>(q - names.begin())].ends_with('*');

        // Tolerance and source.
        const toml::value& tol = required("tolerance");
        c.tolerance = number(tol, key(i, "tolerance"));
        if (c.tolerance < 0) fail(tol, key(i, "tolerance"), fmt::format("must be >= 0, got {}", c.tolerance));
        const toml::value* relative = find(t, "relative");
        if (relative && relative->is_string()) {
            if (relative->as_string().str != "velocity_scale")
                fail(*relative, key(i, "relative"), fmt::format("must be true, false or \"velocity_scale\", got {}", describe(*relative)));
            c.scale = Check::Scale::velocity_scale;
        } else if (relative) {
            if (!relative->is_boolean())
                fail(*relative, key(i, "relative"), fmt::format("must be true, false or \"velocity_scale\", got {}", describe(*relative)));
            c.scale = relative->as_boolean() ? Check::Scale::expected : Check::Scale::absolute;
        }
        const toml::value& src = required("source");
        c.source = string(src, key(i, "source"));
        if (std::none_of(std::begin(source_kinds), std::end(source_kinds), [&](std::string_view s) { return c.source.starts_with(s); }) ||
            c.source.size() < 16)
            fail(src, key(i, "source"),
                 "must say where the reference comes from, starting \"paper: \", \"closed form: \" or \"cross-check: \" "
                 "(a reference is never the program's own earlier output)");

        // Expected value (computed by the reference solver for cross_method).
        if (c.kind == Kind::cross_method) {
            if (find(t, "expected")) fail(*find(t, "expected"), key(i, "expected"), "a cross_method check takes its reference from reference_method; remove it");
        } else {
            const toml::value& e = required("expected");
            if (c.vector) {
                const toml::array& a = array(e, key(i, "expected"));
                if (a.empty()) fail(e, key(i, "expected"), "must not be empty");
                for (std::size_t j = 0; j < a.size(); ++j) {
                    auto [x, text] = reference_value(a[j], fmt::format("{}[{}]", key(i, "expected"), j));
                    c.expected.push_back(x);
                    c.expected_text.push_back(std::move(text));
                }
            } else {
                if (e.is_array()) fail(e, key(i, "expected"), fmt::format("{} is a number, not a list", c.quantity));
                auto [x, text] = reference_value(e, key(i, "expected"));
                c.expected.push_back(x);
                c.expected_text.push_back(std::move(text));
            }
        }

        // Inputs of each kind.
        switch (c.kind) {
            case Kind::outcome:
            case Kind::compare:
            case Kind::sweep: {
                const toml::value* v = find(t, "case");
                if (!v) v = default_case;
                if (!v) fail(value, key(i, "case"), "missing; give it in the [[check]] or at the top of the file");
                c.case_data = load_case_at(*v, v == default_case ? std::string("case") : key(i, "case"));
                if (const toml::value* m = find(t, "method")) c.method = method(*m, key(i, "method"));
                break;
            }
            case Kind::law:
            case Kind::cross_method: break;
        }
        if (c.scale == Check::Scale::velocity_scale && c.kind != Kind::outcome && c.kind != Kind::cross_method)
            fail(*relative, key(i, "relative"), "\"velocity_scale\" needs a case's outcome (kind outcome or cross_method)");
        const std::size_t rods = c.case_data ? c.case_data->chain.size() : 0;
        if (c.case_data) c.name = c.case_data->path.stem().string();

        if (c.kind == Kind::outcome) read_outcome_inputs(t, value, i, c, rods);
        if (c.kind == Kind::law) read_law_inputs(t, value, i, c);
        if (c.kind == Kind::compare || c.kind == Kind::sweep) {
            c.law.law = "sequential";
            if (const toml::value* v = find(t, "law")) c.law.law = string(*v, key(i, "law"));
            std::optional<double> e;
            if (const toml::value* v = find(t, "restitution")) e = number(*v, key(i, "restitution"));
            CompareOptions o;
            o.laws = {c.law.law};
            o.restitution = e;
            try {
                validate(o);
            } catch (const std::invalid_argument& ex) {
                const std::string_view what = ex.what();
                const std::string_view k = what.starts_with("laws") ? "law" : "restitution";
                fail(*find(t, k), key(i, k), what.substr(what.find(": ") + 2));
            }
            c.law = comparison_law_parameters(c.law.law, e);
        }
        if (c.kind == Kind::compare) {
            if (c.quantity == "restitution_column") expect_size(t, i, c, rods - 1, "one entry per contact");
        }
        if (c.kind == Kind::sweep) {
            if (rods != 3) fail(value, key(i, "case"), fmt::format("a sweep needs exactly 3 rods; the case has {}", rods));
            c.directions = count(required("directions"), key(i, "directions"), max_validation_directions);
        }
        if (c.kind == Kind::cross_method) {
            const toml::value& cases = required("cases");
            c.method = find(t, "method") ? method(*find(t, "method"), key(i, "method")) : Method::finite_difference;
            if (const toml::value* r = find(t, "reference_method")) c.reference_method = method(*r, key(i, "reference_method"));
            for (const fs::path& p : glob(cases, key(i, "cases"))) {
                Check one = c;
                one.case_data = load_case_file(p.string(), line_of(cases), key(i, "cases"));
                one.name = p.stem().string();
                out.push_back(std::move(one));
            }
            return;
        }
        if (const toml::value* v = find(t, "name")) c.name = string(*v, key(i, "name"));
        if (c.name.empty()) c.name = title;
        out.push_back(std::move(c));
    }

    void expect_size(const toml::table& t, std::size_t i, const Check& c, std::size_t n, std::string_view what) const {
        if (c.expected.size() != n)
            fail(*find(t, "expected"), key(i, "expected"),
                 fmt::format("{} needs {} values ({}), got {}", c.quantity, n, what, c.expected.size()));
    }

    void read_outcome_inputs(const toml::table& t, const toml::value& value, std::size_t i, Check& c, std::size_t rods) const {
        const bool field = c.quantity == "velocity" || c.quantity == "strain" || c.quantity == "force";
        if (const toml::value* v = find(t, "at")) {
            if (!field) fail(*v, key(i, "at"), "only the field quantities velocity, strain and force take a point");
            const Eigen::VectorXd at = numbers(*v, key(i, "at"));
            if (at.size() != 2) fail(*v, key(i, "at"), fmt::format("must be [x, t], got {} numbers", at.size()));
            const double length = c.case_data->chain.total_length();
            if (at[0] < 0 || at[0] > length)
                fail(*v, key(i, "at"), fmt::format("x must be in [0, {}] (the chain's material span), got {}", length, at[0]));
            if (at[1] < 0) fail(*v, key(i, "at"), fmt::format("t must be >= 0, got {}", at[1]));
            c.x = at[0];
            c.t = at[1];
        } else if (field) {
            fail(value, key(i, "at"), fmt::format("missing; {} is a field quantity: give at = [x, t]", c.quantity));
        }
        if (field && c.method.value_or(c.case_data->solver.method) != Method::characteristics)
            fail(value, key(i, "method"), "field quantities need the characteristics solver");
        if (const toml::value* v = find(t, "contact")) {
            if (c.quantity != "contact_intervals") fail(*v, key(i, "contact"), "only contact_intervals takes a contact");
            if (!v->is_integer() || v->as_integer() < 0 || static_cast<std::size_t>(v->as_integer()) + 1 >= rods)
                fail(*v, key(i, "contact"), fmt::format("must be a contact index from 0 to {}, got {}", rods - 2, describe(*v)));
            c.contact = static_cast<std::size_t>(v->as_integer());
        } else if (c.quantity == "contact_intervals") {
            fail(value, key(i, "contact"), "missing; contact_intervals needs the contact index (0 joins rods 0 and 1)");
        }
        if (c.quantity == "final_velocities") expect_size(t, i, c, rods, "one per rod");
        if (c.quantity == "impulses") expect_size(t, i, c, rods - 1, "one per contact");
        if (c.quantity == "contact_intervals" && c.expected.size() % 2)
            fail(*find(t, "expected"), key(i, "expected"), "contact_intervals needs [start, end] pairs, flattened");
    }

    void read_law_inputs(const toml::table& t, const toml::value& value, std::size_t i, Check& c) const {
        auto required = [&](std::string_view name) -> const toml::value& {
            const toml::value* v = find(t, name);
            if (!v) fail(value, key(i, name), "missing (kind \"law\" needs it)");
            return *v;
        };
        c.law.law = string(required("law"), key(i, "law"));
        c.masses = numbers(required("masses"), key(i, "masses"));
        if (c.masses.size() < 2) fail(*find(t, "masses"), key(i, "masses"), "needs at least 2 balls");
        if ((c.masses.array() <= 0).any()) fail(*find(t, "masses"), key(i, "masses"), "masses must be > 0");
        if (c.quantity == "cycle_value") {
            for (const toml::value& g : array(required("cycle"), key(i, "cycle"))) {
                c.cycle.push_back(numbers(g, key(i, "cycle")));
                if (c.cycle.back().size() != c.masses.size() - 1)
                    fail(g, key(i, "cycle"), fmt::format("each gamma- needs {} entries (one per contact)", c.masses.size() - 1));
            }
            if (c.cycle.size() < 2) fail(*find(t, "cycle"), key(i, "cycle"), "a cycle needs at least 2 points");
            if (find(t, "velocities")) fail(*find(t, "velocities"), key(i, "velocities"), "cycle_value takes a cycle, not velocities");
        } else {
            c.velocities = numbers(required("velocities"), key(i, "velocities"));
            if (c.velocities.size() != c.masses.size())
                fail(*find(t, "velocities"), key(i, "velocities"),
                     fmt::format("{} velocities for {} masses", c.velocities.size(), c.masses.size()));
            if (find(t, "cycle")) fail(*find(t, "cycle"), key(i, "cycle"), "only cycle_value takes a cycle");
        }
        if (const toml::value* v = find(t, "restitution"))
            c.law.restitution = v->is_array() ? numbers(*v, key(i, "restitution"))
                                              : Eigen::VectorXd::Constant(1, number(*v, key(i, "restitution")));
        if (const toml::value* v = find(t, "restitution_matrix")) {
            const toml::array& rows = array(*v, key(i, "restitution_matrix"));
            const auto n = static_cast<Eigen::Index>(rows.size());
            c.law.restitution_matrix = Eigen::MatrixXd::Zero(n, n);
            for (Eigen::Index r = 0; r < n; ++r) {
                const Eigen::VectorXd row = numbers(rows[static_cast<std::size_t>(r)], key(i, "restitution_matrix"));
                if (row.size() != n) fail(*v, key(i, "restitution_matrix"), "must be square, one row per contact");
                c.law.restitution_matrix.row(r) = row.transpose();
            }
        }
        try {
            laws::validate_law_parameters(c.law, c.masses.size());
        } catch (const std::invalid_argument& e) {
            const std::string_view what = e.what();
            const std::string name(what.substr(0, what.find(':')));
            const std::string k = name == "restitution-matrix" ? "restitution_matrix" : name;
            fail(find(t, k) ? *find(t, k) : value, key(i, k), what.substr(what.find(": ") + 2));
        }
        if (c.quantity == "final_velocities") expect_size(t, i, c, static_cast<std::size_t>(c.masses.size()), "one per ball");
        if (c.quantity == "impulses") expect_size(t, i, c, static_cast<std::size_t>(c.masses.size()) - 1, "one per contact");
    }
};

// ---- Running -----------------------------------------------------------------------------------------

std::string vector_text(const std::vector<double>& v) {
    return v.size() == 1 ? fmt::format("{:.10g}", v[0]) : fmt::format("({:.8g})", fmt::join(v, ", "));
}

std::vector<double> list(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

/// Solutions shared between checks of the same case (solving is the expensive part).
class Runner {
public:
    std::vector<Row> run(const Check& c) {
        switch (c.kind) {
            case Kind::outcome: return {row(c, label(c), c.expected, outcome_quantity(c))};
            case Kind::law: return {row(c, c.quantity, c.expected, law_quantity(c))};
            case Kind::compare: return {row(c, label(c), c.expected, compare_quantity(c))};
            case Kind::sweep: return sweep_rows(c);
            case Kind::cross_method: {
                const std::string q = fmt::format("{} ({} vs {})", c.quantity, to_string(*c.method), to_string(c.reference_method));
                const std::vector<double> reference = cross_quantity(c, c.reference_method);
                Row r;
                try {
                    r = row(c, q, reference, cross_quantity(c, *c.method));
                } catch (const std::exception& e) {
                    r = failed_row(c, q, e.what());
                }
                r.expected = vector_text(reference);
                return {r};
            }
        }
        return {};
    }

private:
    std::map<std::string, Outcome> outcomes_;
    std::map<std::string, SweepResult> sweeps_;

    static std::string label(const Check& c) {
        if (c.x) return fmt::format("{}(x={:g}, t={:g})", c.quantity, *c.x, *c.t);
        if (c.contact) return fmt::format("{}[{}]", c.quantity, *c.contact);
        if (c.quantity == "distance") return fmt::format("distance({})", c.law.law);
        return c.quantity;
    }

    static SolverOptions solver_of(const Check& c, std::optional<Method> method) {
        SolverOptions o = c.case_data->solver;
        if (method) o.method = *method;
        return o;
    }

    const Outcome& outcome(const Check& c, std::optional<Method> method) {
        const SolverOptions o = solver_of(c, method);
        const std::string key = c.case_data->path.lexically_normal().string() + "|" + to_string(o.method);
        auto it = outcomes_.find(key);
        if (it == outcomes_.end()) it = outcomes_.emplace(key, solve(c.case_data->chain, o)).first;
        return it->second;
    }

    std::vector<double> outcome_quantity(const Check& c) {
        if (c.x) {
            SolverOptions o = solver_of(c, c.method);
            o.record_until = std::max(*c.t, 1e-300);
            const CharacteristicsSolution s = solve_characteristics(c.case_data->chain, o);
            if (*c.t > s.field.valid_until())
                throw std::runtime_error(fmt::format("the field is known only until t = {:g}", s.field.valid_until()));
            const PointState p = s.field.state_at(*c.x, *c.t);
            return {c.quantity == "velocity" ? p.velocity : c.quantity == "strain" ? p.strain : p.force};
        }
        const Outcome& o = outcome(c, c.method);
        const EnergyBalance& e = o.energy;
        if (c.quantity == "final_velocities") return list(o.final_velocities());
        if (c.quantity == "impulses") return list(o.impulses());
        if (c.quantity == "energy_initial") return {e.initial};
        if (c.quantity == "energy_rigid") return {e.final_rigid};
        if (c.quantity == "energy_vibration") return {e.final_vibration};
        if (c.quantity == "rigid_energy_share") return {e.final_rigid / (e.final_rigid + e.final_vibration)};
        if (c.quantity == "last_contact_time") return {o.last_contact_time};
        std::vector<double> intervals;  // contact_intervals
        for (const Interval& iv : o.contacts.at(*c.contact).intervals) intervals.insert(intervals.end(), {iv.start, iv.end});
        return intervals;
    }

    static std::vector<double> law_quantity(const Check& c) {
        if (c.quantity == "cycle_value") {
            const ImpactMatrices im = impact_matrices(c.masses);
            return {laws::cycle_value(laws::contact_map(c.law, im), im, c.cycle)};
        }
        const laws::LawResult r = laws::apply_law(c.law, impact_matrices(c.masses), c.velocities);
        if (c.quantity == "final_velocities") return list(r.velocities_post);
        if (c.quantity == "impulses") return list(r.impulses);
        return {r.energy_ratio};
    }

    static std::vector<double> compare_quantity(const Check& c) {
        CompareOptions o;
        o.laws = {c.law.law};
        if (c.law.restitution.size() == 1) o.restitution = c.law.restitution[0];
        o.wave_map_properties = false;
        const Comparison cmp = compare(c.case_data->title, c.case_data->chain, solver_of(c, c.method), o);
        if (c.quantity == "distance") return {cmp.laws.front().distance};
        if (c.quantity == "effective_restitution") {
            if (!cmp.effective_restitution) throw std::runtime_error("undefined: no relative motion before impact");
            return {*cmp.effective_restitution};
        }
        if (!cmp.restitution_column)
            throw std::runtime_error("not applicable: the case is not rod 1 alone striking the others, touching");
        return list(*cmp.restitution_column);
    }

    std::vector<Row> sweep_rows(const Check& c) {
        const std::string key = fmt::format("{}|{}|{}|{}", c.case_data->path.lexically_normal().string(), c.directions,
                                            c.law.law, c.law.restitution.size() ? c.law.restitution[0] : 1.0);
        auto it = sweeps_.find(key);
        if (it == sweeps_.end()) {
            SweepOptions o;
            o.directions = c.directions;
            o.laws = {c.law.law};
            if (c.law.restitution.size() == 1) o.restitution = c.law.restitution[0];
            o.solver = c.case_data->solver;
            it = sweeps_.emplace(key, sweep(c.case_data->title, c.case_data->chain, o)).first;
        }
        const SweepResult& r = it->second;
        const std::string dirs = fmt::format("{} dirs", c.directions);
        if (c.quantity == "cone_errors") {
            std::vector<Row> rows;
            for (std::size_t k = 0; k < 6; ++k) {
                const std::string q = fmt::format("max error {} vs wave, cone {} ({})", c.law.law,
                                                  laws::cone_name(laws::all_cones[k]), dirs);
                if (r.laws.front().cone_worst_theta[k] < 0) {
                    rows.push_back(failed_row(c, q, "no direction of the sweep lies in this cone"));
                } else {
                    rows.push_back(row(c, q, c.expected, {r.laws.front().cone_max_error[k]}));
                }
            }
            return rows;
        }
        std::vector<double> got;
        if (c.quantity == "boundaries") {
            for (const EmpiricalCone& e : r.cone_map) got.push_back(e.begin);
            std::sort(got.begin(), got.end());
        } else {  // cone_matrix_deviation
            double worst = 0;
            for (const EmpiricalCone& e : r.cone_map)
                worst = std::max(worst, e.linear ? e.seed_matrix_deviation : std::numeric_limits<double>::infinity());
            got = {worst};
        }
        return {row(c,
                    fmt::format("{} ({})", c.quantity == "boundaries" ? "empirical cone boundaries [deg]" : "max |J - Q|, empirical cones", dirs),
                    c.expected, got)};
    }

    std::vector<double> cross_quantity(const Check& c, Method method) {
        const Outcome& o = outcome(c, method);
        return list(c.quantity == "final_velocities" ? o.final_velocities() : o.impulses());
    }

public:
    static Row base_row(const Check& c, std::string quantity) {
        Row r;
        r.file = fs::path(c.file).filename().string();
        r.line = c.line;
        r.name = c.name;
        r.quantity = std::move(quantity);
        r.expected = c.expected_text.size() == 1 ? c.expected_text[0] : fmt::format("({})", fmt::join(c.expected_text, ", "));
        r.tolerance = fmt::format("{:g}{}", c.tolerance,
                                  c.scale == Check::Scale::expected         ? " rel"
                                  : c.scale == Check::Scale::velocity_scale ? " of V"
                                                                            : "");
        r.source = c.source;
        return r;
    }

    static Row failed_row(const Check& c, std::string quantity, const std::string& message) {
        Row r = base_row(c, std::move(quantity));
        r.got = "error: " + message;
        r.error = std::numeric_limits<double>::quiet_NaN();
        r.pass = false;
        return r;
    }

    static Row row(const Check& c, std::string quantity, const std::vector<double>& expected, const std::vector<double>& got) {
        Row r = base_row(c, std::move(quantity));
        r.got = vector_text(got);
        if (got.size() != expected.size()) {
            r.error = std::numeric_limits<double>::infinity();
            r.pass = false;
            r.got += fmt::format(" ({} values, expected {})", got.size(), expected.size());
            return r;
        }
        double error = 0, scale = 0;
        for (std::size_t k = 0; k < got.size(); ++k) {
            const double d = std::abs(got[k] - expected[k]);
            error = std::isnan(d) ? d : std::max(error, d);
            scale = std::max(scale, std::abs(expected[k]));
        }
        if (c.scale == Check::Scale::velocity_scale) scale = c.case_data->chain.velocity_scale();
        if (c.scale != Check::Scale::absolute && scale > 0) error /= scale;
        r.error = error;
        r.pass = error <= c.tolerance;  // false for NaN
        return r;
    }
};

}  // namespace

// ---- Public ------------------------------------------------------------------------------------

std::vector<Check> parse_validation_file(const std::string& text, const std::string& name, const fs::path& directory) {
    return FileReader(name, directory).read(text);
}

Suite load_suite(const fs::path& path) {
    Suite s;
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(path, ec)) {
        for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
            if (e.path().extension() == ".toml" && e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty()) throw ValidationFileError(fmt::format("{}:0: (file): no *.toml validation files in this directory", path.string()));
    } else {
        files.push_back(path);
    }
    for (const fs::path& f : files) {
        std::string text;
        try {
            text = toml_input::read_text_file(f, "a validation file");
        } catch (const toml_input::FileError& e) {
            throw ValidationFileError(fmt::format("{}:0: (file): {}", f.string(), e.what()));
        }
        const fs::path dir = f.has_parent_path() ? f.parent_path() : fs::path(".");
        std::vector<Check> checks = parse_validation_file(text, f.string(), dir);
        s.files.push_back(f.string());
        for (Check& c : checks) s.checks.push_back(std::move(c));
    }
    return s;
}

std::size_t Report::failures() const {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return !r.pass; }));
}

Report run(const Suite& suite, const std::function<void(std::size_t, std::size_t)>& progress) {
    Report report;
    Runner runner;
    for (std::size_t i = 0; i < suite.checks.size(); ++i) {
        const Check& c = suite.checks[i];
        try {
            for (Row& r : runner.run(c)) report.rows.push_back(std::move(r));
        } catch (const std::exception& e) {
            std::string what = e.what();
            std::replace(what.begin(), what.end(), '\n', ' ');
            report.rows.push_back(Runner::failed_row(c, c.quantity, what));
        }
        if (progress) progress(i + 1, suite.checks.size());
    }
    return report;
}

}  // namespace rodcollide::validation
