// The case-file keys that bound a chain and record it (docs/case_file.md "Ends, loads,
// segments and gauges"): [left], [right], [[load]], [[rod.segment]] and [[gauge]], read with the
// shared typed reader and reported as "FILE:LINE: KEY: message". Internal to the library.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/gauge.hpp"

#include "input/toml_input.hpp"

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace rodcollide::case_file {

/// [left] and [right] (absent: free), and the [[load]] tables; each load is checked against its
/// end here, at its keys' lines.
ChainEnds read_ends(const toml_input::Reader& reader, const toml::table& top);

/// Rod i's [[rod.segment]] tables, each key from the segment, else the rod's table `rod`, else
/// [defaults] (`defaults` gives a default's value by key, if any). Empty if the rod has none.
std::vector<Segment> read_segments(const toml_input::Reader& reader, const toml::table& rod, std::size_t i,
                                   const std::function<std::optional<double>(std::string_view)>& default_of);

/// The [[gauge]] tables, each checked against the chain.
std::vector<Gauge> read_gauges(const toml_input::Reader& reader, const toml::table& top, const Chain& chain);

}  // namespace rodcollide::case_file
