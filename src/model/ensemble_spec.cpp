// An ensemble's perturbations and member k's draws (ensemble_spec.hpp, docs/ensemble.md).
#include "rodcollide/ensemble_spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <utility>

namespace rodcollide {

namespace {

/// SplitMix64's output function (Steele, Lea & Flood 2014): a bijection of 64-bit words that
/// mixes every input bit into every output bit.
constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Member k's random stream: SplitMix64 started from a hash of (seed, k). Counter-based: no
/// member's draws depend on another's, so any split of the members gives the same draws.
class MemberStream {
public:
    MemberStream(std::uint64_t seed, std::uint64_t k) : state_(mix(mix(seed + 0x9e3779b97f4a7c15ULL) ^ k)) {}
    std::uint64_t next() { return mix(state_ += 0x9e3779b97f4a7c15ULL); }
    /// Uniform on [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform on [-1, 1).
    double symmetric() { return 2 * unit() - 1; }
    /// Standard normal truncated at ±normal_truncation (Box-Muller's cosine branch; a draw beyond
    /// the truncation is drawn again).
    double normal() {
        for (;;) {
            const double u1 = 1 - unit();  // (0, 1]: log is finite
            const double u2 = unit();
            const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
            if (std::abs(z) <= normal_truncation) return z;
        }
    }

private:
    std::uint64_t state_;
};

std::string perturb_key(std::size_t i, std::string_view name) { return fmt::format("perturb[{}].{}", i, name); }

/// The Rod field of a perturbable key (validate() has checked the key).
double Rod::*field_of(std::string_view key) {
    if (key == "length") return &Rod::length;
    if (key == "area") return &Rod::area;
    if (key == "density") return &Rod::density;
    if (key == "youngs_modulus") return &Rod::youngs_modulus;
    if (key == "velocity") return &Rod::velocity;
    return &Rod::gap;
}

/// The rods a perturbation applies to.
std::vector<std::size_t> rods_of(const Perturbation& p, std::size_t rod_count) {
    if (!p.rods.empty()) return p.rods;
    std::vector<std::size_t> all;
    for (std::size_t i = p.key == "gap" ? 1 : 0; i < rod_count; ++i) all.push_back(i);
    return all;
}

}  // namespace

std::string_view to_string(Distribution d) { return distribution_names[static_cast<std::size_t>(d)]; }

std::string column_name(const EnsembleSpec& spec, const PerturbedValue& column) {
    return fmt::format("{}_rod{}", spec.perturb[column.perturbation].key, column.rod);
}

void validate(const EnsembleSpec& spec) {
    input::require("members", input::integer_within(spec.members, 1, max_ensemble_members));
    for (std::size_t i = 0; i < spec.perturb.size(); ++i) {
        const Perturbation& p = spec.perturb[i];
        if (std::ranges::find(perturbable_keys(), p.key) == perturbable_keys().end())
            throw InvalidInput(perturb_key(i, "key"), input::unknown("rod key", p.key, perturbable_keys()));
        input::require(perturb_key(i, p.relative ? "relative" : "absolute"), input::non_negative(p.spread));
    }
}

void check_ensemble_spec(const EnsembleSpec& spec, const Chain& chain) {
    validate(spec);
    std::set<std::pair<std::string, std::size_t>> seen;
    std::size_t columns = 0;
    for (std::size_t i = 0; i < spec.perturb.size(); ++i) {
        const Perturbation& p = spec.perturb[i];
        const std::string spread_key = perturb_key(i, p.relative ? "relative" : "absolute");
        const bool positive = p.key != "velocity" && p.key != "gap";
        // How far below nominal a draw can go, in units of the spread.
        const double reach = p.distribution == Distribution::normal ? normal_truncation : 1.0;
        if (p.relative && positive && reach * p.spread >= 1)
            throw InvalidInput(spread_key,
                               fmt::format("a {} spread of {} could make {} non-positive: it must be < {} ({} draws "
                                           "reach {} times the spread)",
                                           to_string(p.distribution), p.spread, p.key, 1 / reach,
                                           to_string(p.distribution), reach));
        if (p.relative && p.key == "gap" && reach * p.spread > 1)
            throw InvalidInput(spread_key, fmt::format("a {} spread of {} could make a gap negative: it must be <= {}",
                                                       to_string(p.distribution), p.spread, 1 / reach));
        const std::vector<std::size_t> rods = rods_of(p, chain.size());
        for (std::size_t r : rods) {
            if (r >= chain.size())
                throw InvalidInput(perturb_key(i, "rods"),
                                   fmt::format("must be rod indices in [0, {}], got {}", chain.size() - 1, r));
            if (p.key == "gap" && r == 0)
                throw InvalidInput(perturb_key(i, "rods"), "the first rod has no gap to perturb");
            if (positive && p.key != "velocity" && !chain[r].segments.empty())
                throw InvalidInput(perturb_key(i, "rods"),
                                   fmt::format("rod {} is made of segments: its {} is theirs and is not perturbed",
                                               r, p.key));
            if (!seen.insert({p.key, r}).second)
                throw InvalidInput(perturb_key(i, "rods"),
                                   fmt::format("rod {}'s {} is already perturbed by an earlier [[ensemble.perturb]]", r,
                                               p.key));
            const double nominal = chain[r].*field_of(p.key);
            const double lowest = p.relative ? nominal * (1 - reach * p.spread) : nominal - reach * p.spread;
            if (!p.relative && positive && !(lowest > 0))
                throw InvalidInput(spread_key,
                                   fmt::format("could make rod {}'s {} non-positive: {} - {} x {} <= 0 ({} draws reach "
                                               "{} times the spread)",
                                               r, p.key, nominal, reach, p.spread, to_string(p.distribution), reach));
            if (p.key == "gap" && !(lowest >= 0))
                throw InvalidInput(spread_key, fmt::format("could make rod {}'s gap negative: {} - {} x {} < 0", r,
                                                           nominal, reach, p.spread));
        }
        columns += rods.size();
    }
    const std::size_t per_member = chain.size() + columns + 8;
    if (spec.members > max_ensemble_values / per_member)
        throw InvalidInput("members", fmt::format("{} members of {} numbers each exceed the cap of {} numbers; at most {}",
                                                  spec.members, per_member, max_ensemble_values,
                                                  max_ensemble_values / per_member));
}

std::vector<PerturbedValue> perturbed_values(const EnsembleSpec& spec, std::size_t rod_count) {
    std::vector<PerturbedValue> columns;
    for (std::size_t i = 0; i < spec.perturb.size(); ++i)
        for (std::size_t r : rods_of(spec.perturb[i], rod_count)) columns.push_back({i, r});
    return columns;
}

std::vector<double> member_draws(const EnsembleSpec& spec, const Chain& chain,
                                 std::span<const PerturbedValue> columns, std::size_t k) {
    MemberStream stream(spec.seed, k);
    std::vector<double> values(columns.size());
    double z = 0;
    for (std::size_t j = 0; j < columns.size(); ++j) {
        const Perturbation& p = spec.perturb[columns[j].perturbation];
        const bool first_of_perturbation = j == 0 || columns[j - 1].perturbation != columns[j].perturbation;
        if (!p.shared || first_of_perturbation)
            z = p.distribution == Distribution::normal ? stream.normal() : stream.symmetric();
        const double nominal = chain[columns[j].rod].*field_of(p.key);
        values[j] = p.relative ? nominal * (1 + p.spread * z) : nominal + p.spread * z;
    }
    return values;
}

Chain member_chain(const Chain& chain, const EnsembleSpec& spec, std::span<const PerturbedValue> columns,
                   std::span<const double> values) {
    std::vector<Rod> rods = chain.rods();
    for (std::size_t j = 0; j < columns.size(); ++j)
        rods[columns[j].rod].*field_of(spec.perturb[columns[j].perturbation].key) = values[j];
    return Chain(std::move(rods), chain.ends());
}

}  // namespace rodcollide
