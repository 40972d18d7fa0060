// The one table of [solver] options (solver_option_table.hpp): defaults and limits printed from
// SolverOptions{} and the constants of solver_options.hpp.
#include "rodcollide/solver_option_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace rodcollide {

namespace {

std::string none() { return {}; }

/// Counts below a million as they are (1000, 16384), larger ones in short form (3e8).
std::string short_count(std::size_t n) {
    return n < 1'000'000 ? fmt::format("{}", n) : short_number(static_cast<double>(n));
}

const std::string& text(const OptionValue& v) { return std::get<std::string>(v); }
double number(const OptionValue& v) { return std::get<double>(v); }
std::size_t count(const OptionValue& v) { return std::get<std::size_t>(v); }
bool on(const OptionValue& v) { return std::get<bool>(v); }

constexpr std::array table = {
    SolverOptionSpec{"method", OptionType::method, "", "METHOD", "{default} (exact, default) or finite-difference",
                     [] { return to_string(SolverOptions{}.method); }, none,
                     [](SolverOptions& o, const OptionValue& v) { o.method = method_named(text(v)); }},
    SolverOptionSpec{"end_time", OptionType::number, "s", "T",
                     "stop at this time [s] even if contacts may still happen (settled: false)", none, none,
                     [](SolverOptions& o, const OptionValue& v) { o.end_time = number(v); }},
    SolverOptionSpec{"record_until", OptionType::number, "s", "",
                     "simulate at least until this time [s], for diagrams; does not change the outcome", none, none,
                     [](SolverOptions& o, const OptionValue& v) { o.record_until = number(v); }},
    SolverOptionSpec{"drop_tolerance", OptionType::number, "", "D",
                     "characteristics: smallest jump kept at a contact, relative to the velocity scale, 0 to "
                     "{largest} (default {default})",
                     [] { return short_number(SolverOptions{}.drop_tolerance); },
                     [] { return short_number(largest_drop_tolerance); },
                     [](SolverOptions& o, const OptionValue& v) { o.drop_tolerance = number(v); }},
    SolverOptionSpec{"max_events", OptionType::count, "", "N", "characteristics: cap on event groups (default {default}); a run to end_time whose fronts must "
                     "merge aims at half of it, at most max_work",
                     [] { return short_count(SolverOptions{}.max_events); },
                     [] { return short_count(largest_max_events); },
                     [](SolverOptions& o, const OptionValue& v) { o.max_events = count(v); }},
    SolverOptionSpec{"max_fronts", OptionType::count, "", "N",
                     "characteristics: cap on stored fronts, 16 bytes each (default {default}); finite differences: "
                     "on the gauges' stored values",
                     [] { return short_count(SolverOptions{}.max_fronts); },
                     [] { return short_count(largest_max_fronts); },
                     [](SolverOptions& o, const OptionValue& v) { o.max_fronts = count(v); }},
    SolverOptionSpec{"cells", OptionType::count, "", "N",
                     "finite differences: cells in the rod or segment with the shortest transit time (default {default})",
                     [] { return short_count(default_cells); }, [] { return short_count(largest_cells); },
                     [](SolverOptions& o, const OptionValue& v) { o.cells = count(v); }},
    SolverOptionSpec{"time_resolution", OptionType::number, "", "R",
                     "characteristics, set by hand: once more than {exact_fronts} fronts are stored, fronts closer than "
                     "R shortest transit times are merged (momentum exact, the energy lost reported, the error estimated "
                     "from a second run), 0 (exact, never merge) to {largest} (default: not set, chosen from accuracy "
                     "and max_memory)",
                     none,
                     [] { return short_number(largest_time_resolution); },
                     [](SolverOptions& o, const OptionValue& v) { o.time_resolution = number(v); }},
    SolverOptionSpec{"rounding_check", OptionType::on_off, "", "on|off",
                     "characteristics: repeat a run in which contacts closed again on rods eight units in the last "
                     "place longer or shorter, and report how far rounding moves the final velocities (default "
                     "{default}; off halves such runs' time)",
                     [] { return std::string(SolverOptions{}.rounding_check ? "on" : "off"); }, none,
                     [](SolverOptions& o, const OptionValue& v) { o.rounding_check = on(v); }},
    SolverOptionSpec{"accuracy", OptionType::number, "", "A",
                     "final velocities within A of the velocity scale, {smallest} to {largest} (default {default}): "
                     "characteristics merge fronts beyond max_memory at the coarsest resolution meeting it, finite "
                     "differences refine their grid until they meet it; the outcome says what was reached and why",
                     [] {
                         return fmt::format("{}; finite differences {}", short_number(default_accuracy),
                                            short_number(default_finite_difference_accuracy));
                     },
                     [] { return short_number(largest_accuracy); },
                     [](SolverOptions& o, const OptionValue& v) { o.accuracy = number(v); }},
    SolverOptionSpec{"max_memory", OptionType::count, "MB", "MB",
                     "characteristics: memory budget of the stored fronts [MB], {resident_bytes} bytes each; they are "
                     "tracked exactly while they fit in half of it, then merged (default {default}, at most {largest})",
                     [] { return short_count(SolverOptions{}.max_memory); },
                     [] { return short_count(largest_max_memory); },
                     [](SolverOptions& o, const OptionValue& v) { o.max_memory = count(v); }},
    SolverOptionSpec{"max_work", OptionType::count, "", "N",
                     "characteristics: work budget [event groups] of a run to end_time whose fronts outgrow half of "
                     "max_memory: it merges at the resolution this pays for, at most half of max_events; larger is "
                     "finer and slower; every method: cap on the integration steps of one run of the delay network "
                     "(rods with compliant junctions) and of chains of balls and masses alone (default {default}, at "
                     "most {largest})",
                     [] { return short_count(SolverOptions{}.max_work); },
                     [] { return short_count(largest_max_events); },
                     [](SolverOptions& o, const OptionValue& v) { o.max_work = count(v); }},
};

}  // namespace

std::span<const SolverOptionSpec> solver_option_table() { return table; }

const SolverOptionSpec* find_solver_option(std::string_view key) {
    const auto it = std::ranges::find(table, key, &SolverOptionSpec::key);
    return it == table.end() ? nullptr : &*it;
}

std::string option_flag(const SolverOptionSpec& option) {
    std::string flag(option.key);
    std::ranges::replace(flag, '_', '-');
    return flag;
}

std::string option_help(const SolverOptionSpec& option) {
    return fmt::format(fmt::runtime(option.help), fmt::arg("default", option.default_text()),
                       fmt::arg("largest", option.largest_text()),
                       fmt::arg("exact_fronts", short_count(SolverOptions{}.exact_fronts)),
                       fmt::arg("smallest", short_number(smallest_accuracy)),
                       fmt::arg("resident_bytes", resident_bytes_per_front));
}

std::string short_number(double value) {
    std::string s = fmt::format("{:g}", value);
    const std::size_t e = s.find('e');
    if (e == std::string::npos) return s;
    std::string exponent = s.substr(e + 1);
    const bool negative = exponent.front() == '-';
    exponent.erase(0, exponent.find_first_not_of("+-0"));
    return s.substr(0, e + 1) + (negative ? "-" : "") + (exponent.empty() ? "0" : exponent);
}

}  // namespace rodcollide
