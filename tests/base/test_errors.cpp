// The input layer's vocabulary (errors.hpp): each kind of mistake has one wording, checks
// accept what they should and refuse the rest, and the errors carry their parts as data.
#include "rodcollide/errors.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace rodcollide;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
const double not_a_number = std::nan("");

}  // namespace

TEST_CASE("input: finite, > 0 and >= 0 refuse with one wording each", "[input]") {
    CHECK_FALSE(input::finite(-1e300));
    CHECK(input::finite(not_a_number) == "must be finite, got nan");
    CHECK(input::finite(-inf) == "must be finite, got -inf");

    CHECK_FALSE(input::positive(1e-300));
    CHECK(input::positive(0) == "must be > 0, got 0");
    CHECK(input::positive(-2.5) == "must be > 0, got -2.5");
    CHECK(input::positive(inf) == "must be finite, got inf");  // finiteness first

    CHECK_FALSE(input::non_negative(0));
    CHECK(input::non_negative(-0.001) == "must be >= 0, got -0.001");
    CHECK(input::non_negative(not_a_number) == "must be finite, got nan");
}

TEST_CASE("input: intervals of real numbers, ends included or not", "[input]") {
    const input::Interval half_open{0, 1, false, true};
    CHECK(half_open.str() == "[0, 1)");
    CHECK_FALSE(input::within(0, half_open));
    CHECK_FALSE(input::within(0.999, half_open));
    CHECK(input::within(1, half_open) == "must be in [0, 1), got 1");
    CHECK(input::within(-0.5, half_open) == "must be in [0, 1), got -0.5");
    CHECK(input::within(not_a_number, half_open) == "must be finite, got nan");

    const input::Interval open{0, 1, true, true};
    CHECK(input::within(0, open) == "must be in (0, 1), got 0");
    const input::Interval closed{0, 1};
    CHECK_FALSE(input::within(1, closed));
    CHECK(input::within(1.5, closed) == "must be in [0, 1], got 1.5");
}

TEST_CASE("input: integer ranges; below 1 a count reads like any positive quantity", "[input]") {
    CHECK_FALSE(input::integer_within(1, 1, 10));
    CHECK_FALSE(input::integer_within(std::size_t{10}, 1, 10));
    CHECK(input::integer_within(11, 1, 10) == "must be in [1, 10], got 11");
    CHECK(input::integer_within(0, 1, 10) == "must be > 0, got 0");
    CHECK(input::integer_within(-5, 1, 10) == "must be > 0, got -5");
    CHECK(input::integer_within(1, 2, 2000) == "must be in [2, 2000], got 1");
    CHECK(input::integer_within(-1, 0, 3) == "must be in [0, 3], got -1");
    // Unsigned values beyond any signed type compare correctly.
    CHECK(input::integer_within(std::numeric_limits<std::size_t>::max(), 1, 10) ==
          "must be in [1, 10], got 18446744073709551615");
    CHECK(input::count(0) == "must be > 0, got 0");
    CHECK_FALSE(input::count(std::numeric_limits<std::int64_t>::max()));
}

TEST_CASE("input: types, names, lengths, missing keys and literals", "[input]") {
    CHECK(input::wrong_type("a number", "a string (\"x\")") == "must be a number, got a string (\"x\")");
    const std::vector<std::string> laws{"sequential", "newton"};
    CHECK(input::unknown("law", "newtn", laws) == "unknown law \"newtn\"; valid: sequential, newton");
    CHECK(input::wrong_count(2, "one per rod", 3) == "must have 2 values (one per rod), got 3");
    CHECK(input::wrong_count(1, "one per contact", 2) == "must have 1 value (one per contact), got 2");
    CHECK(input::wrong_count("at least 2 points", 1) == "must have at least 2 points, got 1");
    CHECK(input::missing("give it in [defaults]") == "missing; give it in [defaults]");
    CHECK(input::unrepresentable("1e999", "a double") == "1e999 is out of range for a double");
}

TEST_CASE("input: require and require_each throw InvalidInput with the key as data", "[input]") {
    CHECK_NOTHROW(input::require("end_time", input::positive(1)));
    try {
        input::require("end_time", input::positive(0));
        FAIL("accepted 0");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "end_time");
        CHECK(e.message() == "must be > 0, got 0");
        CHECK(std::string(e.what()) == "end_time: must be > 0, got 0");
    }
    try {
        input::require_each("masses", std::vector<double>{1, 2, -3}, input::positive, "ball");
        FAIL("accepted a negative mass");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "masses");
        CHECK(e.message() == "must be > 0, got -3 (ball 3)");
    }
}

TEST_CASE("InputError: the one line FILE:LINE: KEY: message and its parts", "[input]") {
    const InputError e("cases/x.toml", 7, "rod[2].length", "must be > 0, got -1");
    CHECK(std::string(e.what()) == "cases/x.toml:7: rod[2].length: must be > 0, got -1");
    CHECK(e.file() == "cases/x.toml");
    CHECK(e.line() == 7);
    CHECK(e.key() == "rod[2].length");
    CHECK(e.message() == "must be > 0, got -1");
}
