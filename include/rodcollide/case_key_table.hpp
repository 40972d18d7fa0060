// The keys of a case file outside [solver], described once: each row names a key of one table
// (the top level, [[rod]] and [defaults], [[rod.segment]], [left]/[right], [[load]], [[gauge]]),
// its type, its units, its default (printed from the model's own default values: Rod{},
// ChainEnd{}, LoadShape{}), its range, the strings it accepts and one line of help. The case
// reader takes its allowed keys, required keys and string choices from here; so do the Python
// module's rods and the fuzz mutator's key lists (not [ensemble]'s: an ensemble is no solve). tests/model/test_case_key_table.cpp fails if a
// consumer or docs/case_file.md misses a row. (The [solver] keys: solver_option_table.hpp.)
//
// To add a key: the field in the model (its default there), then a row here in the order the
// case reader lists the table's keys in its messages; docs/case_file.md documents it with this
// default.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/ensemble_spec.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace rodcollide {

/// The tables of a case file whose keys the table describes.
enum class CaseTable {
    top_level,  ///< before the first [table] header
    rod,        ///< [[rod]]; its numbers (not `segment`) are also the keys of [defaults]
    segment,    ///< [[rod.segment]]
    end,        ///< [left] and [right]
    load,       ///< [[load]]
    gauge,      ///< [[gauge]]
    ensemble,   ///< [ensemble] (rodcollide ensemble, ensemble_spec.hpp)
    perturb,    ///< [[ensemble.perturb]]
};

/// "" (top level), "rod", "rod.segment", "end" ([left] and [right]), "load", "gauge", "ensemble",
/// "ensemble.perturb".
std::string_view to_string(CaseTable table);

/// How a key's value is written in TOML.
enum class KeyType { string, number, integer, numbers, table, tables, integers, boolean };

/// "string", "number", "integer", "array of numbers", "table", "array of tables", "array of
/// integers", "boolean".
std::string_view to_string(KeyType type);

struct CaseKeySpec {
    CaseTable table;
    std::string_view key;
    KeyType type;
    std::string_view units;  ///< of the value ("m"; "" for none)
    /// Missing is an error (where the key applies: amplitude and duration with a shape).
    bool required;
    /// The default as docs/case_file.md shows it ("0", "\"free\"", "required"), from the model's
    /// default values where it has one.
    std::string (*default_text)();
    /// What a number must be, as docs/case_file.md says it ("finite, > 0"); "" for other types.
    std::string_view range;
    /// A string key's accepted values, in the order messages list them; empty: any string.
    std::span<const std::string_view> choices;
    std::string_view help;  ///< one line
    /// A [[rod]] number: the Rod field it sets. A [[rod.segment]] key: the Segment field.
    double Rod::*rod_field = nullptr;
    double Segment::*segment_field = nullptr;
    /// A [[rod]] number: the element kinds that take it and those that need it (rod_kind_bit()
    /// bits). Another kind given it is refused (Chain names the key); [defaults] fills only the kinds
    /// that take it.
    unsigned rod_kinds = 0;
    unsigned needed_by = 0;
};

/// The bit of `kind` in CaseKeySpec::rod_kinds and needed_by.
constexpr unsigned rod_kind_bit(RodKind kind) { return 1u << static_cast<unsigned>(kind); }
/// Whether an element of `kind` takes (needs) the [[rod]] number `row`.
inline bool takes(const CaseKeySpec& row, RodKind kind) { return (row.rod_kinds & rod_kind_bit(kind)) != 0; }
inline bool needs(const CaseKeySpec& row, RodKind kind) { return (row.needed_by & rod_kind_bit(kind)) != 0; }

/// Every key, by table, each table's keys in the order the case reader lists them.
std::span<const CaseKeySpec> case_key_table();

/// The keys of `table`, in the table's order.
std::span<const std::string_view> case_keys(CaseTable table);

/// The keys of [defaults]: the [[rod]] numbers.
std::span<const std::string_view> defaults_keys();

/// The row of `key` in `table`, or nullptr.
const CaseKeySpec* find_case_key(CaseTable table, std::string_view key);

/// The name of gauge `index` when its [[gauge]] table gives none ("gauge0", "gauge1", ...).
std::string default_gauge_name(std::size_t index);

}  // namespace rodcollide
