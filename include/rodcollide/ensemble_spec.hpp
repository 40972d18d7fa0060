// An ensemble's perturbations (docs/ensemble.md): which [[rod]] numbers of a case are drawn at
// random for each member, how, and member k's draws, which depend only on (seed, k) so that an
// ensemble is the same whatever the threads, shards or MPI ranks that compute it. The case file's
// [ensemble] table (case_key_table.hpp) and the command line fill an EnsembleSpec; the ensemble
// itself runs in ensemble.hpp.
#pragma once

#include "rodcollide/chain.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rodcollide {

/// The [[rod]] numbers a perturbation may draw: every [[rod]] number, in the key table's order
/// (tests/model/test_case_key_table.cpp checks that they are its defaults_keys()).
inline constexpr std::string_view perturbable_key_names[] = {"length",         "area",     "density",
                                                             "youngs_modulus", "velocity", "gap"};
inline std::span<const std::string_view> perturbable_keys() { return perturbable_key_names; }

/// How a perturbation is drawn.
enum class Distribution {
    uniform,  ///< uniform on [-spread, spread] about the nominal value
    normal,   ///< normal with standard deviation `spread`, truncated at ±normal_truncation sd
};

/// "uniform", "normal": the strings of `distribution`, in Distribution's order.
inline constexpr std::string_view distribution_names[] = {"uniform", "normal"};

std::string_view to_string(Distribution d);

/// Normal draws beyond this many standard deviations are drawn again (a truncated normal), so
/// that a relative spread below 1/normal_truncation can never make a length, area, density or
/// modulus non-positive, and the refusal of larger spreads is decided up front.
inline constexpr double normal_truncation = 4;

/// One [[ensemble.perturb]] table.
struct Perturbation {
    std::string key;                ///< a perturbable_keys() name
    std::vector<std::size_t> rods;  ///< 0-based; empty: every rod (for `gap`: every rod but the first)
    bool relative = true;           ///< spread is a fraction of each rod's nominal value; else absolute (the key's units)
    double spread = 0;              ///< half-width (uniform) or standard deviation (normal), >= 0
    Distribution distribution = Distribution::uniform;
    /// One draw for all the rods of the perturbation (they move together); else each rod draws
    /// its own.
    bool shared = false;
};

/// Most members an ensemble accepts (bounded work and memory).
inline constexpr std::size_t max_ensemble_members = 1'000'000;
/// Most numbers an ensemble keeps: members x (rods + perturbed values + 8) (8 bytes each: the
/// default caps the members' data at 400 MB).
inline constexpr std::size_t max_ensemble_values = 50'000'000;

/// An ensemble: its size, its seed and its perturbations.
struct EnsembleSpec {
    std::size_t members = 100;
    std::uint64_t seed = 1;
    std::vector<Perturbation> perturb;
};

/// A perturbed number of one rod: column j of an ensemble's draws.
struct PerturbedValue {
    std::size_t perturbation = 0;  ///< index into EnsembleSpec::perturb
    std::size_t rod = 0;
};

/// "<key>_rod<rod>": a column's name in the CSV and the shard files.
std::string column_name(const EnsembleSpec& spec, const PerturbedValue& column);

/// Checks a spec on its own: members in [1, max_ensemble_members], each perturbation's key known,
/// spread finite and >= 0. Keys: "members", "perturb[i].key", "perturb[i].relative" (or
/// ".absolute" when !relative), ...
/// @throws InvalidInput naming the key.
void validate(const EnsembleSpec& spec);

/// Checks a spec against the chain it perturbs, before any member is drawn: every rod index exists,
/// no rod's number is perturbed twice, the first rod has no gap to perturb, a rod made of segments
/// keeps its length, area, density and modulus (they are its segments'), and no draw can make a
/// length, area, density or modulus <= 0 or a gap < 0 (uniform: nominal - spread; normal:
/// nominal - normal_truncation x spread). Also the cap on members x values.
/// @throws InvalidInput naming the key ("perturb[1].rods", "perturb[0].relative", "members").
void check_ensemble_spec(const EnsembleSpec& spec, const Chain& chain);

/// The perturbed values of every member, in order: perturbation by perturbation, each over its
/// rods.
/// @pre check_ensemble_spec(spec, chain) passed for a chain of `rod_count` rods.
std::vector<PerturbedValue> perturbed_values(const EnsembleSpec& spec, std::size_t rod_count);

/// Member k's perturbed values (one per perturbed_values() column), a function of (seed, k) only:
/// a SplitMix64 stream seeded from the two, read in column order (a shared perturbation reads one
/// draw for all its rods). Relative: nominal x (1 + spread z); absolute: nominal + spread z, with
/// z uniform on [-1, 1) or standard normal truncated at ±normal_truncation.
/// @pre check_ensemble_spec(spec, chain) passed.
std::vector<double> member_draws(const EnsembleSpec& spec, const Chain& chain,
                                 std::span<const PerturbedValue> columns, std::size_t k);

/// The chain with member k's values (member_draws) in place of the nominal ones.
/// @throws InvalidModel if the chain refuses them (a derived quantity out of range).
Chain member_chain(const Chain& chain, const EnsembleSpec& spec, std::span<const PerturbedValue> columns,
                   std::span<const double> values);

}  // namespace rodcollide
