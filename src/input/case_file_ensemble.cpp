// Reading [ensemble] and [[ensemble.perturb]] (case_file_ensemble.hpp; docs/case_file.md
// "Ensembles"). Each value is read by type here; what depends on the chain (rod indices, spreads
// that could make a quantity non-positive) is check_ensemble_spec's, reported at the line of the
// key it names.
#include "input/case_file_ensemble.hpp"

#include "rodcollide/case_key_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace rodcollide::case_file {

using toml_input::find;

Perturbation read_perturbation(const toml_input::Reader& reader, const toml::value& table_value, const std::string& prefix) {
    const auto key = [&](std::string_view name) { return fmt::format("{}.{}", prefix, name); };
    const toml::table& t = reader.table(table_value, prefix);
    reader.reject_unknown_keys(t, case_keys(CaseTable::perturb), prefix);
    Perturbation p;
    const std::span<const std::string_view> names = find_case_key(CaseTable::perturb, "key")->choices;
    const toml::value* name = find(t, "key");
    if (!name) reader.fail(table_value, key("key"), input::missing(fmt::format("give one of: {}", fmt::join(names, ", "))));
    p.key = reader.string(*name, key("key"));
    if (std::ranges::find(names, p.key) == names.end()) reader.fail(*name, key("key"), input::unknown("rod key", p.key, names));
    if (const toml::value* rods = find(t, "rods")) {
        const toml::array& list = reader.array(*rods, key("rods"));
        if (list.empty()) reader.fail(*rods, key("rods"), input::wrong_count("at least 1 rod index (leave rods out for every rod)", 0));
        for (const toml::value& r : list) {
            const std::int64_t index = reader.integer(r, key("rods"));
            if (const input::Problem problem = input::integer_within(index, 0, max_rods - 1)) reader.fail(r, key("rods"), *problem);
            p.rods.push_back(static_cast<std::size_t>(index));
        }
    }
    const toml::value* relative = find(t, "relative");
    const toml::value* absolute = find(t, "absolute");
    if (relative && absolute) reader.fail(*absolute, key("absolute"), "give relative or absolute, not both");
    if (!relative && !absolute)
        reader.fail(table_value, key("relative"), input::missing("give the spread as relative (a fraction) or absolute"));
    p.relative = relative != nullptr;
    p.spread = reader.bounded(relative ? *relative : *absolute, key(relative ? "relative" : "absolute"), input::non_negative);
    if (const toml::value* d = find(t, "distribution")) {
        const std::string given = reader.string(*d, key("distribution"));
        const auto it = std::ranges::find(distribution_names, given);
        if (it == std::end(distribution_names)) reader.fail(*d, key("distribution"), input::unknown("distribution", given, distribution_names));
        p.distribution = static_cast<Distribution>(it - std::begin(distribution_names));
    }
    if (const toml::value* shared = find(t, "shared")) p.shared = reader.boolean(*shared, key("shared"));
    return p;
}

std::optional<EnsembleSpec> read_ensemble(const toml_input::Reader& reader, const toml::table& top, const Chain& chain) {
    const toml::value* v = find(top, "ensemble");
    if (!v) return std::nullopt;
    const toml::table& t = reader.table(*v, "ensemble");
    reader.reject_unknown_keys(t, case_keys(CaseTable::ensemble), "ensemble");
    EnsembleSpec spec;
    const toml::value* members = find(t, "members");
    if (members) {
        spec.members = reader.count(*members, "ensemble.members");
        reader.checked(*members, "ensemble.members", [&] {
            input::require("members", input::integer_within(spec.members, 1, max_ensemble_members));
        });
    }
    if (const toml::value* seed = find(t, "seed")) {
        const std::int64_t s = reader.integer(*seed, "ensemble.seed");
        if (const input::Problem p = input::integer_within(s, 0, std::numeric_limits<std::int64_t>::max()))
            reader.fail(*seed, "ensemble.seed", *p);
        spec.seed = static_cast<std::uint64_t>(s);
    }
    const toml::array* tables = nullptr;
    if (const toml::value* list = find(t, "perturb")) {
        tables = &reader.array_of_tables(*list, "ensemble.perturb", "perturbation");
        for (std::size_t i = 0; i < tables->size(); ++i) spec.perturb.push_back(read_perturbation(reader, (*tables)[i], fmt::format("ensemble.perturb[{}]", i)));
    }
    // What depends on the chain, at the line of the key the check names ("perturb[1].rods").
    try {
        check_ensemble_spec(spec, chain);
    } catch (const InvalidInput& e) {
        const toml::value* at = v;
        if (e.key() == "members" && members) at = members;
        if (tables && e.key().starts_with("perturb[")) {
            const std::size_t i = std::stoul(e.key().substr(8));
            at = &(*tables)[i];
            if (const toml::value* x = find((*tables)[i].as_table(), e.key().substr(e.key().find('.') + 1))) at = x;
        }
        reader.fail(*at, "ensemble." + e.key(), e.message());
    }
    return spec;
}

}  // namespace rodcollide::case_file
