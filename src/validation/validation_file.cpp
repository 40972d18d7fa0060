// Reading validation files (format: docs/validation.md) into Checks: the schema of each check
// kind and one reader per kind (outcome, law, compare, sweep, cross_method), on the shared typed
// TOML reader (toml_input.hpp). Every mistake is one ValidationFileError line
// "FILE:LINE: KEY: message"; limits on the inputs are the library's (laws, compare, sweep).
#include "rodcollide/validation.hpp"

#include "input/toml_input.hpp"

#include "rodcollide/compare.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/sweep.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string_view>

namespace rodcollide::validation {

namespace {

namespace fs = std::filesystem;
using toml_input::describe;
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
     "last_contact_time", "contact_intervals*", "velocity", "strain", "force", "energy_radiated", "energy_input",
     "end_impulses*", "wall_intervals*"},
    {"final_velocities*", "impulses*", "energy_ratio", "cycle_value"},
    {"restitution_column*", "effective_restitution", "distance"},
    {"cone_errors", "boundaries*", "cone_matrix_deviation"},
    {"final_velocities*", "impulses*", "end_impulses*", "energy_radiated", "energy_input", "energy_vibration"},
};

constexpr std::string_view source_kinds[] = {"paper:", "closed form:", "cross-check:"};

/// Largest sweep a validation check may ask for (the suite runs on every CI build).
constexpr std::size_t max_validation_directions = 100'000;

std::vector<std::string_view> allowed_keys(std::size_t kind) {
    std::vector<std::string_view> keys(std::begin(common_keys), std::end(common_keys));
    keys.insert(keys.end(), kind_keys[kind].begin(), kind_keys[kind].end());
    return keys;
}

/// One [[check]] table being read: where it is, for keys and lines in messages.
struct Entry {
    const toml::value& value;  ///< the table, whose line is its [[check]] header's
    const toml::table& table;
    std::size_t index;
    std::size_t kind;

    std::string key(std::string_view name = {}) const {
        return name.empty() ? fmt::format("check[{}]", index) : fmt::format("check[{}].{}", index, name);
    }
    const toml::value* find(std::string_view name) const { return toml_input::find(table, name); }
};

// ---- Reading ----------------------------------------------------------------------------------------

class FileReader : toml_input::Reader {
public:
    FileReader(std::string file, fs::path directory) : Reader(std::move(file)), directory_(std::move(directory)) {}

    std::vector<Check> read(const std::string& text) const {
        const toml::value root = parse(text);
        const toml::table& top = table(root, "(file)");
        reject_unknown_keys(top, top_level_keys, "");
        const toml::value* title_value = toml_input::find(top, "title");
        const std::string title = title_value ? string(*title_value, "title") : fs::path(file()).stem().string();
        const toml::value* default_case = toml_input::find(top, "case");
        const toml::value* list = toml_input::find(top, "check");
        if (!list) fail(0, "check", input::missing("a validation file needs at least one [[check]] table"));
        const toml::array& tables = array_of_tables(*list, "check", "reference");
        if (tables.empty())  // an empty array is no list of references either
            fail(*list, "check",
                 input::wrong_type("an array of tables, one [[check]] per reference", describe(*list)));
        std::vector<Check> checks;
        for (std::size_t i = 0; i < tables.size(); ++i) read_check(tables[i], i, title, default_case, checks);
        return checks;
    }

private:
    fs::path directory_;
    mutable std::map<std::string, Case> cases_;  // loaded once per file

    /// The keys every kind has, then the kind's own inputs (read_<kind>).
    void read_check(const toml::value& value, std::size_t i, const std::string& title, const toml::value* default_case,
                    std::vector<Check>& out) const {
        const toml::table& t = table(value, fmt::format("check[{}]", i));
        std::size_t kind = 0;
        if (const toml::value* v = toml_input::find(t, "kind")) {
            const std::string name = string(*v, fmt::format("check[{}].kind", i));
            const auto it = std::find(std::begin(kind_names), std::end(kind_names), name);
            if (it == std::end(kind_names))
                fail(*v, fmt::format("check[{}].kind", i), input::unknown("kind", name, kind_names));
            kind = static_cast<std::size_t>(it - std::begin(kind_names));
        }
        const Entry e{value, t, i, kind};
        Check c;
        c.file = file();
        c.line = line_of(value);
        c.kind = static_cast<Kind>(kind);
        reject_unknown_keys(t, allowed_keys(kind), e.key());

        read_quantity(e, c);
        read_tolerance(e, c);
        read_expected(e, c);
        switch (c.kind) {
            case Kind::outcome: read_outcome(e, c, default_case); break;
            case Kind::law: read_law(e, c); break;
            case Kind::compare: read_compare(e, c, default_case); break;
            case Kind::sweep: read_sweep(e, c, default_case); break;
            case Kind::cross_method: read_cross_method(e, c, out); return;  // one check per case
        }
        if (const toml::value* v = e.find("name")) c.name = string(*v, e.key("name"));
        if (c.name.empty()) c.name = title;
        out.push_back(std::move(c));
    }

    const toml::value& required(const Entry& e, std::string_view name) const {
        const toml::value* v = e.find(name);
        if (!v) fail(e.value, e.key(name), input::missing(fmt::format("kind \"{}\" needs it", kind_names[e.kind])));
        return *v;
    }

    /// A library check's InvalidInput, reported at the key it names (`key` in this file, if the
    /// file calls it otherwise), or at the [[check]] header when the file does not have it.
    [[noreturn]] void fail_at(const Entry& e, const InvalidInput& error, std::string_view key) const {
        const toml::value* v = e.find(key);
        fail(v ? *v : e.value, e.key(key), error.message());
    }
    template <class F>
    void checked_in(const Entry& e, F&& check) const {
        try {
            check();
        } catch (const InvalidInput& error) {
            fail_at(e, error, error.key());
        }
    }

    void read_quantity(const Entry& e, Check& c) const {
        c.quantity = string(required(e, "quantity"), e.key("quantity"));
        std::vector<std::string> names;
        for (std::string_view q : kind_quantities[e.kind]) names.emplace_back(q.ends_with('*') ? q.substr(0, q.size() - 1) : q);
        const auto q = std::find(names.begin(), names.end(), c.quantity);
        if (q == names.end())
            fail(*e.find("quantity"), e.key("quantity"),
                 input::unknown(fmt::format("{} quantity", kind_names[e.kind]), c.quantity, names));
        c.vector = kind_quantities[e.kind][static_cast<std::size_t>(q - names.begin())].ends_with('*');
    }

    /// tolerance, relative and source.
    void read_tolerance(const Entry& e, Check& c) const {
        c.tolerance = bounded(required(e, "tolerance"), e.key("tolerance"), input::non_negative);
        if (const toml::value* relative = e.find("relative")) {
            const bool velocity_scale = relative->is_string() && relative->as_string().str == "velocity_scale";
            if (!velocity_scale && !relative->is_boolean())
                fail(*relative, e.key("relative"), input::wrong_type("true, false or \"velocity_scale\"", describe(*relative)));
            c.scale = velocity_scale            ? Check::Scale::velocity_scale
                      : relative->as_boolean() ? Check::Scale::expected
                                                : Check::Scale::absolute;
        }
        const toml::value& src = required(e, "source");
        c.source = string(src, e.key("source"));
        if (std::none_of(std::begin(source_kinds), std::end(source_kinds), [&](std::string_view s) { return c.source.starts_with(s); }) ||
            c.source.size() < 16)
            fail(src, e.key("source"),
                 "must say where the reference comes from, starting \"paper: \", \"closed form: \" or \"cross-check: \" "
                 "(a reference is never the program's own earlier output)");
    }

    /// The expected value, a number or a list of them (computed by the reference solver for
    /// cross_method, which must not have one).
    void read_expected(const Entry& e, Check& c) const {
        if (c.kind == Kind::cross_method) {
            if (const toml::value* v = e.find("expected"))
                fail(*v, e.key("expected"), "a cross_method check takes its reference from reference_method; remove it");
            return;
        }
        const toml::value& v = required(e, "expected");
        auto add = [&](const toml::value& x, const std::string& k) {
            auto [number, text] = reference_value(x, k);
            c.expected.push_back(number);
            c.expected_text.push_back(std::move(text));
        };
        if (!c.vector) {
            if (v.is_array())
                fail(v, e.key("expected"), input::wrong_type("a number", describe(v)) + fmt::format("; {} is not a list", c.quantity));
            add(v, e.key("expected"));
            return;
        }
        const toml::array& a = array(v, e.key("expected"));
        if (a.empty()) fail(v, e.key("expected"), "must not be empty");
        for (std::size_t j = 0; j < a.size(); ++j) add(a[j], fmt::format("{}[{}]", e.key("expected"), j));
    }

    void expect_size(const Entry& e, const Check& c, std::size_t n, std::string_view what) const {
        if (c.expected.size() != n)
            fail(*e.find("expected"), e.key("expected"), input::wrong_count(n, what, c.expected.size()));
    }

    /// "velocity_scale" needs a case's outcome: kinds outcome and cross_method only.
    void refuse_velocity_scale(const Entry& e, const Check& c) const {
        if (c.scale == Check::Scale::velocity_scale)
            fail(*e.find("relative"), e.key("relative"), "\"velocity_scale\" needs a case's outcome (kind outcome or cross_method)");
    }

    /// The check's case (its own `case`, else the file's) and optional `method`; names the check.
    void read_case(const Entry& e, Check& c, const toml::value* default_case) const {
        const toml::value* v = e.find("case");
        if (!v) v = default_case;
        if (!v) fail(e.value, e.key("case"), input::missing("give it in the [[check]] or at the top of the file"));
        const std::string k = v == default_case ? std::string("case") : e.key("case");
        c.case_data = load_case_file(string(*v, k), line_of(*v), k);
        if (const toml::value* m = e.find("method")) c.method = method(*m, e.key("method"));
        c.name = c.case_data->path.stem().string();
    }

    void read_outcome(const Entry& e, Check& c, const toml::value* default_case) const {
        read_case(e, c, default_case);
        const std::size_t rods = c.case_data->chain.size();
        const bool field = c.quantity == "velocity" || c.quantity == "strain" || c.quantity == "force";
        if (const toml::value* v = e.find("at")) {
            if (!field) fail(*v, e.key("at"), "only the field quantities velocity, strain and force take a point");
            const Eigen::VectorXd at = numbers(*v, e.key("at"));
            if (at.size() != 2) fail(*v, e.key("at"), input::wrong_count("2 values [x, t]", static_cast<std::size_t>(at.size())));
            const double length = c.case_data->chain.total_length();
            if (const input::Problem p = input::within(at[0], {0, length}))
                fail(*v, e.key("at"), fmt::format("x {} (the chain's material span)", *p));
            if (const input::Problem p = input::non_negative(at[1])) fail(*v, e.key("at"), "t " + *p);
            c.x = at[0];
            c.t = at[1];
        } else if (field) {
            fail(e.value, e.key("at"), input::missing(fmt::format("{} is a field quantity: give at = [x, t]", c.quantity)));
        }
        if (const toml::value* v = e.find("contact")) {
            if (c.quantity != "contact_intervals") fail(*v, e.key("contact"), "only contact_intervals takes a contact");
            const std::int64_t k = integer(*v, e.key("contact"));
            if (const input::Problem p = input::integer_within(k, 0, rods - 2)) fail(*v, e.key("contact"), *p);
            c.contact = static_cast<std::size_t>(k);
        } else if (c.quantity == "contact_intervals") {
            fail(e.value, e.key("contact"), input::missing("contact_intervals needs the contact index (0 joins rods 0 and 1)"));
        }
        if (c.quantity == "final_velocities") expect_size(e, c, rods, "one per rod");
        if (c.quantity == "impulses") expect_size(e, c, rods - 1, "one per contact");
        if ((c.quantity == "contact_intervals" || c.quantity == "wall_intervals") && c.expected.size() % 2)
            fail(*e.find("expected"), e.key("expected"), fmt::format("{} needs [start, end] pairs, flattened", c.quantity));
        if (c.quantity == "end_impulses") expect_size(e, c, 2, "left end, right end");
    }

    void read_law(const Entry& e, Check& c) const {
        refuse_velocity_scale(e, c);
        c.law.law = string(required(e, "law"), e.key("law"));
        c.masses = numbers(required(e, "masses"), e.key("masses"));
        checked_in(e, [&] { validate_masses(c.masses); });
        if (c.quantity == "cycle_value") {
            const Eigen::Index contacts = c.masses.size() - 1;
            for (const toml::value& g : array(required(e, "cycle"), e.key("cycle"))) {
                c.cycle.push_back(numbers(g, e.key("cycle")));
                if (c.cycle.back().size() != contacts)
                    fail(g, e.key("cycle"), input::wrong_count(contacts, "one per contact",
                                                               static_cast<std::size_t>(c.cycle.back().size())));
            }
            if (c.cycle.size() < 2) fail(*e.find("cycle"), e.key("cycle"), input::wrong_count("at least 2 points", c.cycle.size()));
            if (const toml::value* v = e.find("velocities")) fail(*v, e.key("velocities"), "cycle_value takes a cycle, not velocities");
        } else {
            c.velocities = numbers(required(e, "velocities"), e.key("velocities"));
            checked_in(e, [&] { validate_velocities(c.masses, c.velocities); });
            if (const toml::value* v = e.find("cycle")) fail(*v, e.key("cycle"), "only cycle_value takes a cycle");
        }
        if (const toml::value* v = e.find("restitution"))
            c.law.restitution = v->is_array() ? numbers(*v, e.key("restitution"))
                                              : Eigen::VectorXd::Constant(1, finite_number(*v, e.key("restitution")));
        if (const toml::value* v = e.find("restitution_matrix")) {
            const toml::array& rows = array(*v, e.key("restitution_matrix"));
            const auto n = static_cast<Eigen::Index>(rows.size());
            c.law.restitution_matrix = Eigen::MatrixXd::Zero(n, n);
            for (Eigen::Index r = 0; r < n; ++r) {
                const Eigen::VectorXd row = numbers(rows[static_cast<std::size_t>(r)], e.key("restitution_matrix"));
                if (row.size() != n) fail(*v, e.key("restitution_matrix"), "must be square, one row per contact");
                c.law.restitution_matrix.row(r) = row.transpose();
            }
        }
        checked_in(e, [&] { laws::validate_law_parameters(c.law, c.masses.size()); });
        const auto balls = static_cast<std::size_t>(c.masses.size());
        if (c.quantity == "final_velocities") expect_size(e, c, balls, "one per ball");
        if (c.quantity == "impulses") expect_size(e, c, balls - 1, "one per contact");
    }

    /// The law (default sequential) and restitution a compare or sweep check compares with.
    void read_comparison_law(const Entry& e, Check& c) const {
        std::string law = "sequential";
        if (const toml::value* v = e.find("law")) law = string(*v, e.key("law"));
        std::optional<double> restitution;
        if (const toml::value* v = e.find("restitution")) restitution = finite_number(*v, e.key("restitution"));
        try {
            validate(CompareOptions{{law}, restitution, false});
        } catch (const InvalidInput& error) {
            fail_at(e, error, error.key() == "laws" ? "law" : error.key());  // one law here, a list in CompareOptions
        }
        c.law = comparison_law_parameters(law, restitution);
    }

    void read_compare(const Entry& e, Check& c, const toml::value* default_case) const {
        read_case(e, c, default_case);
        refuse_velocity_scale(e, c);
        read_comparison_law(e, c);
        if (c.quantity == "restitution_column") expect_size(e, c, c.case_data->chain.size() - 1, "one per contact");
    }

    void read_sweep(const Entry& e, Check& c, const toml::value* default_case) const {
        read_case(e, c, default_case);
        refuse_velocity_scale(e, c);
        read_comparison_law(e, c);
        try {  // the chain; the directions are read below, with this file's own cap
            check_sweep_chain(c.case_data->chain);
        } catch (const InvalidInput& error) {
            fail(e.value, e.key("case"), error.message());
        }
        c.directions = count(required(e, "directions"), e.key("directions"));
        if (const input::Problem p = input::integer_within(c.directions, 1, max_validation_directions))
            fail(*e.find("directions"), e.key("directions"), *p);
    }

    /// One check per case file the pattern `cases` matches, found when the file is read.
    void read_cross_method(const Entry& e, const Check& c, std::vector<Check>& out) const {
        const toml::value& cases = required(e, "cases");
        Check each = c;
        each.method = e.find("method") ? method(*e.find("method"), e.key("method")) : Method::finite_difference;
        if (const toml::value* r = e.find("reference_method")) each.reference_method = method(*r, e.key("reference_method"));
        for (const fs::path& p : glob(cases, e.key("cases"))) {
            Check one = each;
            one.case_data = load_case_file(p.string(), line_of(cases), e.key("cases"));
            one.name = p.stem().string();
            out.push_back(std::move(one));
        }
    }

    // ---- Values ------------------------------------------------------------------------------------

    Eigen::VectorXd numbers(const toml::value& v, const std::string& k) const {
        const toml::array& a = array(v, k);
        Eigen::VectorXd x(static_cast<Eigen::Index>(a.size()));
        for (std::size_t i = 0; i < a.size(); ++i) x[static_cast<Eigen::Index>(i)] = finite_number(a[i], fmt::format("{}[{}]", k, i));
        return x;
    }

    /// A number, or a string holding a number or a fraction "p/q" (exact references such as -1/3).
    std::pair<double, std::string> reference_value(const toml::value& v, const std::string& k) const {
        if (!v.is_string()) {
            const double x = finite_number(v, k);
            return {x, fmt::format("{:.10g}", x)};
        }
        const std::string text = v.as_string().str;
        auto parse = [&](std::string_view s) {
            double x = 0;
            const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
            if (s.empty() || ec != std::errc() || p != s.data() + s.size() || !std::isfinite(x))
                fail(v, k, input::wrong_type("a number or a fraction such as \"-1/3\"", describe(v)));
            return x;
        };
        const auto slash = text.find('/');
        if (slash == std::string::npos) return {parse(text), text};
        const double q = parse(std::string_view(text).substr(slash + 1));
        if (q == 0) fail(v, k, fmt::format("division by zero in {:?}", text));
        return {parse(std::string_view(text).substr(0, slash)) / q, text};
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
        try {
            return method_named(name);
        } catch (const InvalidInput& e) {
            fail(v, k, e.message());
        }
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
};

}  // namespace

// ---- Public ------------------------------------------------------------------------------------

ValidationFileError::ValidationFileError(InputError e) : InputError(std::move(e)) {}

std::vector<Check> parse_validation_file(const std::string& text, const std::string& name, const fs::path& directory) {
    try {
        return FileReader(name, directory).read(text);
    } catch (InputError& e) {
        throw ValidationFileError(std::move(e));
    }
}

Suite load_suite(const fs::path& path) {
    Suite s;
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(path, ec)) {
        for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
            if (e.path().extension() == ".toml" && e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        if (files.empty())
            throw ValidationFileError(InputError(path.string(), 0, "(file)", "no *.toml validation files in this directory"));
    } else {
        files.push_back(path);
    }
    for (const fs::path& f : files) {
        std::string text;
        try {
            text = toml_input::read_text_file(f, "a validation file");
        } catch (const toml_input::FileError& e) {
            throw ValidationFileError(InputError(f.string(), 0, "(file)", e.what()));
        }
        const fs::path dir = f.has_parent_path() ? f.parent_path() : fs::path(".");
        std::vector<Check> checks = parse_validation_file(text, f.string(), dir);
        s.files.push_back(f.string());
        for (Check& c : checks) s.checks.push_back(std::move(c));
    }
    return s;
}

}  // namespace rodcollide::validation
