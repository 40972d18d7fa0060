// The typed TOML reader shared by case files and validation files (src/input/toml_input.hpp): each
// kind of read refuses each kind of mistake with the file, the value's line, the key and the one
// wording of errors.hpp.
#include "input/toml_input.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <functional>
#include <string>
#include <string_view>

using namespace rodcollide;
using rodcollide::toml_input::Reader;

namespace {

/// A file whose key `k` (line 2, after a comment) holds `value`.
toml::value file_with(const Reader& reader, const std::string& value) {
    return reader.parse("# a comment\nk = " + value + "\n");
}

/// The InputError a read of `k` = `value` throws, as "LINE: KEY: message" (the file checked too).
std::string mistake(const std::string& value, const std::function<void(const Reader&, const toml::value&)>& read) {
    const Reader reader("in.toml");
    const toml::value root = file_with(reader, value);
    try {
        read(reader, *toml_input::find(root.as_table(), "k"));
    } catch (const InputError& e) {
        CHECK(e.file() == "in.toml");
        CHECK(std::string(e.what()) == "in.toml:" + std::to_string(e.line()) + ": " + e.key() + ": " + e.message());
        return std::to_string(e.line()) + ": " + e.key() + ": " + e.message();
    }
    FAIL("accepted k = " << value);
    return {};
}

auto number = [](const Reader& r, const toml::value& v) { r.number(v, "k"); };
auto finite_number = [](const Reader& r, const toml::value& v) { r.finite_number(v, "k"); };
auto positive = [](const Reader& r, const toml::value& v) { r.bounded(v, "k", input::positive); };
auto non_negative = [](const Reader& r, const toml::value& v) { r.bounded(v, "k", input::non_negative); };
auto integer = [](const Reader& r, const toml::value& v) { r.integer(v, "k"); };
auto count = [](const Reader& r, const toml::value& v) { r.count(v, "k"); };
auto string = [](const Reader& r, const toml::value& v) { r.string(v, "k"); };
auto table = [](const Reader& r, const toml::value& v) { r.table(v, "k"); };
auto array = [](const Reader& r, const toml::value& v) { r.array(v, "k"); };
auto tables = [](const Reader& r, const toml::value& v) { r.array_of_tables(v, "k", "thing"); };

}  // namespace

TEST_CASE("typed reader: malformed TOML is a (syntax) error at the culprit's line", "[toml_input]") {
    const Reader reader("in.toml");
    try {
        reader.parse("a = 1\nb = \n");
        FAIL("parsed malformed TOML");
    } catch (const InputError& e) {
        CHECK(e.line() == 2);
        CHECK(e.key() == "(syntax)");
        CHECK(std::string(e.what()).starts_with("in.toml:2: (syntax): "));
    }
}

TEST_CASE("typed reader: numbers", "[toml_input]") {
    const Reader reader("in.toml");
    CHECK(reader.number(*toml_input::find(file_with(reader, "3").as_table(), "k"), "k") == 3.0);
    CHECK(std::isnan(reader.number(*toml_input::find(file_with(reader, "nan").as_table(), "k"), "k")));
    CHECK(mistake("\"x\"", number) == "2: k: must be a number, got a string (\"x\")");
    CHECK(mistake("\"1.5\"", number) == "2: k: must be a number, got a string (\"1.5\"); remove the quotes");
    CHECK(mistake("true", number) == "2: k: must be a number, got a boolean (true)");
    CHECK(mistake("[1]", number) == "2: k: must be a number, got an array");
    CHECK(mistake("1e999", number) == "2: k: 1e999 is out of range for a double");
    CHECK(mistake("99_999_999_999_999_999_999", number) ==
          "2: k: 99999999999999999999 is out of range for a 64-bit integer");
    CHECK(mistake("nan", finite_number) == "2: k: must be finite, got nan");
    CHECK(mistake("-inf", finite_number) == "2: k: must be finite, got -inf");
}

TEST_CASE("typed reader: bounded numbers take the bound from the input layer", "[toml_input]") {
    const Reader reader("in.toml");
    CHECK(reader.bounded(*toml_input::find(file_with(reader, "0").as_table(), "k"), "k", input::non_negative) == 0);
    CHECK(mistake("0", positive) == "2: k: must be > 0, got 0");
    CHECK(mistake("inf", positive) == "2: k: must be finite, got inf");
    CHECK(mistake("-1", non_negative) == "2: k: must be >= 0, got -1");
    CHECK(mistake("\"1\"", non_negative) == "2: k: must be a number, got a string (\"1\"); remove the quotes");
}

TEST_CASE("typed reader: integers and counts", "[toml_input]") {
    const Reader reader("in.toml");
    CHECK(reader.count(*toml_input::find(file_with(reader, "10_000").as_table(), "k"), "k") == 10000);
    CHECK(reader.integer(*toml_input::find(file_with(reader, "-3").as_table(), "k"), "k") == -3);
    CHECK(mistake("1.5", integer) == "2: k: must be an integer, got a float (1.5)");
    CHECK(mistake("\"3\"", integer) == "2: k: must be an integer, got a string (\"3\")");
    CHECK(mistake("99999999999999999999", integer) == "2: k: 99999999999999999999 is out of range for a 64-bit integer");
    CHECK(mistake("0", count) == "2: k: must be > 0, got 0");
    CHECK(mistake("-7", count) == "2: k: must be > 0, got -7");
    CHECK(mistake("1e3", count) == "2: k: must be an integer, got a float (1000)");
}

TEST_CASE("typed reader: strings, tables, arrays, arrays of tables", "[toml_input]") {
    CHECK(mistake("1", string) == "2: k: must be a string, got an integer (1)");
    CHECK(mistake("\"x\"", table) == "2: k: must be a table, got a string (\"x\")");
    CHECK(mistake("{a = 1}", array) == "2: k: must be an array, got a table");
    CHECK(mistake("{a = 1}", tables) == "2: k: must be an array of tables, one [[k]] per thing, got a table");
}

TEST_CASE("typed reader: a library check is reported at the value's line, with its message", "[toml_input]") {
    auto library_check = [](const Reader& r, const toml::value& v) {
        r.checked(v, "solver.k", [] { throw InvalidInput("k", "must be in [0, 1), got 2"); });
    };
    CHECK(mistake("2", library_check) == "2: solver.k: must be in [0, 1), got 2");
}

TEST_CASE("typed reader: unknown keys, the first in file order, with a suggestion", "[toml_input]") {
    const Reader reader("in.toml");
    constexpr std::array<std::string_view, 3> known{"length", "area", "density"};
    auto unknown = [&](const std::string& text, const std::string& prefix,
                       const std::function<std::string(std::string_view)>& hint = {}) -> std::string {
        const toml::value root = reader.parse(text);
        try {
            reader.reject_unknown_keys(root.as_table(), known, prefix, hint);
        } catch (const InputError& e) {
            return std::to_string(e.line()) + ": " + e.key() + ": " + e.message();
        }
        return "(accepted)";
    };
    CHECK(unknown("length = 1\narea = 2\n", "") == "(accepted)");
    CHECK(unknown("length = 1\nlenght = 2\n", "rod[0]") == "2: rod[0].lenght: unknown key; did you mean \"length\"?");
    CHECK(unknown("zzz = 1\naaa = 2\n", "") == "1: zzz: unknown key; expected one of: length, area, density");
    CHECK(unknown("dens = 1\n", "defaults") == "1: defaults.dens: unknown key; did you mean \"density\"?");
    // A reader may word the message itself (a key that belongs elsewhere), or leave it.
    auto elsewhere = [](std::string_view key) { return key == "method" ? std::string("belongs in [solver]") : std::string(); };
    CHECK(unknown("method = 1\n", "", elsewhere) == "1: method: belongs in [solver]");
    CHECK(unknown("are = 1\n", "", elsewhere) == "1: are: unknown key; did you mean \"area\"?");
}

TEST_CASE("typed reader: a failure with no line to blame is line 0", "[toml_input]") {
    const Reader reader("in.toml");
    try {
        reader.fail(0, "rod", input::missing("a case needs at least 2 rods"));
        FAIL("did not throw");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "in.toml:0: rod: missing; a case needs at least 2 rods");
    }
}
