// The library's errors and the one wording of each kind of mistake (see errors.hpp).
#include "rodcollide/errors.hpp"

#include <algorithm>
#include <cmath>

namespace rodcollide {

InvalidInput::InvalidInput(std::string key, std::string message)
    : std::invalid_argument(key + ": " + message), key_(std::move(key)), message_(std::move(message)) {}

InvariantViolation::InvariantViolation(std::string invariant, double amount, const std::string& details)
    : std::runtime_error(fmt::format("outcome violates {}: {}", invariant, details)),
      invariant_(std::move(invariant)),
      amount_(amount) {}

std::string display_path(const std::string& path) {
    const bool printable = std::none_of(path.begin(), path.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
    return printable ? path : fmt::format("{:?}", path);
}

InputError::InputError(std::string file, std::size_t line, std::string key, std::string message)
    : std::runtime_error(fmt::format("{}:{}: {}: {}", display_path(file), line, key, message)),
      file_(std::move(file)),
      line_(line),
      key_(std::move(key)),
      message_(std::move(message)) {}

namespace input {

std::string wrong_type(std::string_view expected, std::string_view got) {
    return fmt::format("must be {}, got {}", expected, got);
}

std::string wrong_count(std::string_view expected, std::size_t got) {
    return fmt::format("must have {}, got {}", expected, got);
}

std::string wrong_count(std::size_t expected, std::string_view each, std::size_t got) {
    return wrong_count(fmt::format("{} value{} ({})", expected, expected == 1 ? "" : "s", each), got);
}

std::string missing(std::string_view hint) { return fmt::format("missing; {}", hint); }

std::string unrepresentable(std::string_view literal, std::string_view type) {
    return fmt::format("{} is out of range for {}", literal, type);
}

Problem finite(double x) {
    if (!std::isfinite(x)) return fmt::format("must be finite, got {}", x);
    return std::nullopt;
}

Problem positive(double x) {
    if (Problem p = finite(x)) return p;
    if (!(x > 0)) return fmt::format("must be > 0, got {}", x);
    return std::nullopt;
}

Problem non_negative(double x) {
    if (Problem p = finite(x)) return p;
    if (!(x >= 0)) return fmt::format("must be >= 0, got {}", x);
    return std::nullopt;
}

bool Interval::contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
}

std::string Interval::str() const {
    return fmt::format("{}{}, {}{}", lo_open ? '(' : '[', lo, hi, hi_open ? ')' : ']');
}

Problem within(double x, const Interval& range) {
    if (Problem p = finite(x)) return p;
    if (!range.contains(x)) return fmt::format("must be in {}, got {}", range.str(), x);
    return std::nullopt;
}

void require(std::string_view key, const Problem& problem) {
    if (problem) throw InvalidInput(std::string(key), *problem);
}

}  // namespace input

}  // namespace rodcollide
