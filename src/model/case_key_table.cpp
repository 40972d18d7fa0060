// The one table of case-file keys outside [solver] (case_key_table.hpp): defaults printed from
// the model's own default values (Rod{}, ChainEnd{}, LoadShape{}), so that the table, the
// reader and docs/case_file.md cannot drift apart.
#include "rodcollide/case_key_table.hpp"

#include "rodcollide/chain_ends.hpp"
#include "rodcollide/solver_option_table.hpp"  // short_number

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace rodcollide {

namespace {

std::string quoted(std::string_view s) { return fmt::format("\"{}\"", s); }
std::string required() { return "required"; }
std::string none() { return "none"; }

// The strings string keys accept, in the order messages list them. The first unit system is the
// default (the case reader takes it from here).
constexpr std::string_view unit_systems[] = {"SI", "dimensionless"};
constexpr std::string_view end_kinds[] = {"free",   "fixed",   "wall",          "anechoic",
                                          "spring", "dashpot", "spring-dashpot"};  // EndKind's order
constexpr std::string_view sides[] = {"left", "right"};                          // ChainSide's order
constexpr std::string_view quantities[] = {"force", "velocity"};                 // LoadQuantity's order

using T = CaseTable;
using K = KeyType;

constexpr std::span<const std::string_view> any_string{};

constexpr unsigned rod_ = rod_kind_bit(RodKind::rod), mass_ = rod_kind_bit(RodKind::mass),
                   ball_ = rod_kind_bit(RodKind::ball), every_kind = rod_ | mass_ | ball_;

/// A number of [[rod]] (and [defaults]) that sets `field`, taken by the element kinds `kinds` and
/// needed by `needed_by`.
constexpr CaseKeySpec rod_number(std::string_view key, std::string_view units, bool required_,
                                 std::string (*default_text)(), std::string_view range, std::string_view help,
                                 double Rod::*field, unsigned kinds = every_kind, unsigned needed_by = 0) {
    return {T::rod, key, K::number, units, required_, default_text, range, any_string, help, field, nullptr, kinds, needed_by};
}

/// A key of [[rod.segment]], which falls back on the rod's key of the same name.
constexpr CaseKeySpec segment_number(std::string_view key, std::string_view units, std::string_view help,
                                     double Segment::*field) {
    return {T::segment, key, K::number, units, true, [] { return std::string("the rod's key, else [defaults]"); },
            "finite, > 0", any_string, help, nullptr, field};
}

constexpr std::array table = {
    // The top level, in the order the reader lists its keys.
    CaseKeySpec{T::top_level, "title", K::string, "", false,
                [] { return std::string("the file name without its extension"); }, "", any_string,
                "the case's name, shown in the output"},
    CaseKeySpec{T::top_level, "defaults", K::table, "", false, none, "", any_string,
                "values for any [[rod]] number, used by every rod that omits it"},
    CaseKeySpec{T::top_level, "rod", K::tables, "", true, required, "", any_string,
                "the rods, left to right, one [[rod]] table each"},
    CaseKeySpec{T::top_level, "solver", K::table, "", false, [] { return std::string("all defaults"); }, "",
                any_string, "how to solve: solver_option_table.hpp"},
    CaseKeySpec{T::top_level, "left", K::table, "", false,
                [] { return fmt::format("a {} end", to_string(ChainEnd{}.kind)); }, "", any_string,
                "the condition at the chain's left end"},
    CaseKeySpec{T::top_level, "right", K::table, "", false,
                [] { return fmt::format("a {} end", to_string(ChainEnd{}.kind)); }, "", any_string,
                "the condition at the chain's right end"},
    CaseKeySpec{T::top_level, "load", K::tables, "", false, none, "", any_string,
                "prescribed force or velocity histories at free ends"},
    CaseKeySpec{T::top_level, "gauge", K::tables, "", false, none, "", any_string,
                "stations whose histories run --gauges and run --json report"},
    CaseKeySpec{T::top_level, "ensemble", K::table, "", false, none, "", any_string,
                "an ensemble's size, seed and perturbations, for rodcollide ensemble"},
    CaseKeySpec{T::top_level, "units", K::string, "", false, [] { return quoted(unit_systems[0]); }, "",
                unit_systems, "the unit system pictures label: SI, or dimensionless (any consistent system)"},

    // [[rod]]: the numbers in Rod's order, then the segments.
    rod_number("length", "m", true, required, "finite, > 0", "L", &Rod::length, rod_, rod_),
    rod_number("area", "m²", true, required, "finite, > 0", "cross-section A", &Rod::area, rod_, rod_),
    rod_number("density", "kg/m³", true, required, "finite, > 0", "rho", &Rod::density, rod_ | ball_, rod_ | ball_),
    rod_number("youngs_modulus", "Pa", true, required, "finite, > 0", "E", &Rod::youngs_modulus, rod_ | ball_,
               rod_ | ball_),
    rod_number("velocity", "m/s", false, [] { return short_number(Rod{}.velocity); }, "finite",
               "initial uniform velocity, the rod unstrained", &Rod::velocity),
    rod_number("gap", "m", false, [] { return short_number(Rod{}.gap); }, "finite, ≥ 0",
               "distance from the previous rod's right end (none for the first rod)", &Rod::gap),
    rod_number("mass", "kg", true, [] { return std::string("required with kind = \"mass\""); }, "finite, > 0",
               "kind = \"mass\": the rigid body's mass M (a rod's mass is density area length)", &Rod::rigid_mass,
               mass_, mass_),
    rod_number("contact_stiffness", "N/m^p", false,
               [] { return std::string("none: a rigid contact"); }, "finite, > 0",
               "k of a compliant contact with the previous element: force k δ^p + c δ' while compressed",
               &Rod::contact_stiffness),
    rod_number("contact_exponent", "", false, [] { return short_number(Rod{}.contact_exponent); },
               "> 0 and ≤ 10, with contact_stiffness", "p of that contact (1: a linear cushion, 1.5: Hertz)",
               &Rod::contact_exponent),
    rod_number("contact_damping", "N s/m", false, [] { return short_number(Rod{}.contact_damping); },
               "finite, ≥ 0, with contact_stiffness or a curved side", "c of that contact: a dashpot in parallel, never pulling",
               &Rod::contact_damping),
    // Issue 24: balls, Hertz contacts and restitution (docs/physics.md §9.8).
    rod_number("radius", "m", true, [] { return std::string("required with kind = \"ball\""); }, "finite, > 0",
               "kind = \"ball\": the sphere's radius R (its mass is density 4 pi R³/3)", &Rod::radius, ball_, ball_),
    rod_number("poisson_ratio", "", false,
               [] { return fmt::format("{} (required with kind = \"ball\")", short_number(Rod{}.poisson_ratio)); },
               "in (−1, 0.5)", "ν of a rod or a ball, for Hertz's E*", &Rod::poisson_ratio, rod_ | ball_, ball_),
    rod_number("end_radius", "m", false, [] { return std::string("none: flat ends"); }, "finite, > 0",
               "a rod: both ends are spherical caps of this radius (Hertz contacts)", &Rod::end_radius, rod_),
    rod_number("left_end_radius", "m", false, [] { return std::string("end_radius"); }, "finite, > 0",
               "a rod: its left end's cap radius, over end_radius", &Rod::left_end_radius, rod_),
    rod_number("right_end_radius", "m", false, [] { return std::string("end_radius"); }, "finite, > 0",
               "a rod: its right end's cap radius, over end_radius", &Rod::right_end_radius, rod_),
    rod_number("restitution", "", false, [] { return short_number(Rod{}.restitution); }, "in (0, 1]",
               "e of the compliant contact with the previous element: it returns e² of the energy it stored",
               &Rod::restitution),
    CaseKeySpec{T::rod, "kind", K::string, "", false, [] { return quoted(rod_kind_names[0]); }, "", rod_kind_names,
                "a thin elastic rod, a rigid mass (mass, velocity, gap and the contact keys only), or a rigid ball"},
    CaseKeySpec{T::rod, "segment", K::tables, "", false, none, "", any_string,
                "the rod's pieces, left to right, welded together"},

    // [[rod.segment]]: each falls back on the rod's key, then [defaults].
    segment_number("length", "m", "the segment's length (never from the rod: it is their sum)", &Segment::length),
    segment_number("area", "m²", "the segment's cross-section", &Segment::area),
    segment_number("density", "kg/m³", "the segment's density", &Segment::density),
    segment_number("youngs_modulus", "Pa", "the segment's Young's modulus", &Segment::youngs_modulus),

    // [left] and [right].
    CaseKeySpec{T::end, "kind", K::string, "", false, [] { return quoted(to_string(ChainEnd{}.kind)); }, "",
                end_kinds, "the end condition"},
    CaseKeySpec{T::end, "gap", K::number, "m", false, [] { return short_number(ChainEnd{}.gap); }, "finite, ≥ 0", any_string,
                "a wall's distance from the chain's end at t = 0"},
    CaseKeySpec{T::end, "stiffness", K::number, "N/m", true,
                [] { return std::string("required with kind = \"spring\" or \"spring-dashpot\""); }, "finite, > 0",
                any_string, "an attached spring's k (it pulls as well as pushes)"},
    CaseKeySpec{T::end, "damping", K::number, "N s/m", true,
                [] { return std::string("required with kind = \"dashpot\" or \"spring-dashpot\""); }, "finite, > 0",
                any_string, "an attached dashpot's c (it pulls as well as pushes)"},
    CaseKeySpec{T::end, "contact_stiffness", K::number, "N/m^p", false,
                [] { return std::string("none: a rigid wall"); }, "finite, > 0", any_string,
                "a compliant wall's k: force k δ^p + c δ' while compressed"},
    CaseKeySpec{T::end, "contact_exponent", K::number, "", false, [] { return short_number(ChainEnd{}.contact_exponent); },
                "> 0 and ≤ 10, with contact_stiffness", any_string, "a compliant wall's p"},
    CaseKeySpec{T::end, "contact_damping", K::number, "N s/m", false,
                [] { return short_number(ChainEnd{}.contact_damping); }, "finite, ≥ 0, with contact_stiffness",
                any_string, "a compliant wall's c (never pulling)"},
    CaseKeySpec{T::end, "restitution", K::number, "", false, [] { return short_number(ChainEnd{}.restitution); },
                "in (0, 1]", any_string, "a compliant wall's e: it returns e² of the energy it stored"},

    // [[load]]: the end, the quantity, then the history given one of three ways.
    CaseKeySpec{T::load, "end", K::string, "", true, required, "", sides, "the free end the load acts on"},
    CaseKeySpec{T::load, "quantity", K::string, "", true, required, "", quantities,
                "what is prescribed: force (N, positive in tension) or velocity (m/s)"},
    CaseKeySpec{T::load, "time", K::numbers, "s", false, none, "finite, ≥ 0 and strictly increasing",
                any_string, "the history's times, with value"},
    CaseKeySpec{T::load, "value", K::numbers, "N or m/s", false, none, "one finite value per time", any_string,
                "the history's values, piecewise linear between the times"},
    CaseKeySpec{T::load, "shape", K::string, "", false, none, "", load_shape_names,
                "the history as a shape, with amplitude, duration, rise and fall"},
    CaseKeySpec{T::load, "amplitude", K::number, "N or m/s", true, [] { return std::string("required with shape"); },
                "finite", any_string, "the shape's largest value"},
    CaseKeySpec{T::load, "duration", K::number, "s", true, [] { return std::string("required with shape"); },
                "> 0", any_string, "the shape's length in time"},
    CaseKeySpec{T::load, "rise", K::number, "s", false, [] { return short_number(LoadShape{}.rise); }, "≥ 0",
                any_string, "a trapezoid's rise time"},
    CaseKeySpec{T::load, "fall", K::number, "s", false, [] { return short_number(LoadShape{}.fall); }, "≥ 0",
                any_string, "a trapezoid's fall time"},
    CaseKeySpec{T::load, "file", K::string, "", false, none, "", any_string,
                "the history as a CSV file of time,value lines, relative to the case file"},

    // [[gauge]].
    CaseKeySpec{T::gauge, "rod", K::integer, "", true, required, "a rod index, from 0", any_string,
                "the rod the gauge is on"},
    CaseKeySpec{T::gauge, "x", K::number, "m", true, required, "[0, L]", any_string,
                "the distance from the rod's left end"},
    CaseKeySpec{T::gauge, "name", K::string, "", false,
                [] { return fmt::format("\"{}\", \"{}\", …", default_gauge_name(0), default_gauge_name(1)); }, "",
                any_string, "the column and JSON name of its signals"},

    // [ensemble] and [[ensemble.perturb]] (ensemble_spec.hpp).
    CaseKeySpec{T::ensemble, "members", K::integer, "", false, [] { return short_number(EnsembleSpec{}.members); },
                "1 to 1,000,000", any_string, "the number of members (--members overrides)"},
    CaseKeySpec{T::ensemble, "seed", K::integer, "", false, [] { return short_number(EnsembleSpec{}.seed); }, "≥ 0",
                any_string, "member k's draws depend only on (seed, k) (--seed overrides)"},
    CaseKeySpec{T::ensemble, "perturb", K::tables, "", false, none, "", any_string,
                "the perturbed rod numbers, one [[ensemble.perturb]] table each"},
    CaseKeySpec{T::perturb, "key", K::string, "", true, required, "", perturbable_key_names,
                "the [[rod]] number drawn at random"},
    CaseKeySpec{T::perturb, "rods", K::integers, "", false,
                [] { return std::string("every rod (gap: every rod but the first)"); }, "rod indices, from 0",
                any_string, "the rods it applies to"},
    CaseKeySpec{T::perturb, "relative", K::number, "", false, none, "finite, ≥ 0", any_string,
                "the spread as a fraction of each rod's nominal value (give relative or absolute)"},
    CaseKeySpec{T::perturb, "absolute", K::number, "", false, none, "finite, ≥ 0", any_string,
                "the spread in the key's units (give relative or absolute)"},
    CaseKeySpec{T::perturb, "distribution", K::string, "", false,
                [] { return quoted(to_string(Perturbation{}.distribution)); }, "", distribution_names,
                "uniform: half-width = spread; normal: standard deviation = spread, truncated at 4"},
    CaseKeySpec{T::perturb, "shared", K::boolean, "", false,
                [] { return std::string(Perturbation{}.shared ? "true" : "false"); }, "", any_string,
                "true: one draw moves all its rods together; false: each rod draws its own"},
};

constexpr CaseTable all_tables[] = {T::top_level, T::rod, T::segment, T::end, T::load, T::gauge, T::ensemble, T::perturb};

}  // namespace

std::string_view to_string(CaseTable t) {
    switch (t) {
        case T::top_level: return "";
        case T::rod: return "rod";
        case T::segment: return "rod.segment";
        case T::end: return "end";
        case T::load: return "load";
        case T::gauge: return "gauge";
        case T::ensemble: return "ensemble";
        case T::perturb: return "ensemble.perturb";
    }
    return "?";
}

std::string_view to_string(KeyType type) {
    switch (type) {
        case K::string: return "string";
        case K::number: return "number";
        case K::integer: return "integer";
        case K::numbers: return "array of numbers";
        case K::table: return "table";
        case K::tables: return "array of tables";
        case K::integers: return "array of integers";
        case K::boolean: return "boolean";
    }
    return "?";
}

std::span<const CaseKeySpec> case_key_table() { return table; }

std::span<const std::string_view> case_keys(CaseTable t) {
    // Built once: the reader asks for them for every table it reads.
    static const auto keys = [] {
        std::array<std::vector<std::string_view>, std::size(all_tables)> k;
        for (const CaseKeySpec& row : table) k[static_cast<std::size_t>(row.table)].push_back(row.key);
        return k;
    }();
    return keys[static_cast<std::size_t>(t)];
}

std::span<const std::string_view> defaults_keys() {
    static const auto keys = [] {
        std::vector<std::string_view> k;
        for (const CaseKeySpec& row : table)
            if (row.rod_field) k.push_back(row.key);
        return k;
    }();
    return keys;
}

const CaseKeySpec* find_case_key(CaseTable t, std::string_view key) {
    const auto it = std::ranges::find_if(table, [&](const CaseKeySpec& row) { return row.table == t && row.key == key; });
    return it == table.end() ? nullptr : &*it;
}

std::string default_gauge_name(std::size_t index) { return fmt::format("gauge{}", index); }

}  // namespace rodcollide
