// Parsing is safe on hostile text (docs/case_file.md "Limits"): the pre-parse scan refuses deep
// nesting, huge dotted keys, costly long lines and too many [[rod]] tables before toml11 sees them,
// each as one line "FILE:LINE: KEY: message"; reading never blocks on a FIFO and refuses devices;
// huge keys are reported quickly.
#include "rodcollide/case_file.hpp"
#include "rodcollide/validation.hpp"

#include "temp_dir.hpp"
#include "input/toml_shape.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <sys/stat.h>

// GCC 12 warns falsely (-Wrestrict, GCC bug 105329) on "literal" + std::string at -O2, which
// this file uses to build hostile texts; the warning is about libstdc++ internals, not this code.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

using namespace rodcollide;
namespace fs = std::filesystem;

namespace {

const std::string two_rods =
    "[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
    "[[rod]]\nvelocity = 1.0\n[[rod]]\n";

std::string error_of(const std::string& text) {
    try {
        parse_case(text, "bad.toml");
    } catch (const CaseError& e) {
        const std::string message = e.what();
        CHECK(message.find('\n') == std::string::npos);
        return message;
    }
    FAIL("accepted a bad case");
    return {};
}

std::string repeat(const std::string& s, std::size_t n) {
    std::string r;
    r.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) r += s;
    return r;
}

}  // namespace

TEST_CASE("nesting thousands deep is refused before the parser recurses", "[parse_safety]") {
    const std::string nested_arrays = "x = " + repeat("[", 5000) + repeat("]", 5000) + "\n";
    CHECK(error_of(nested_arrays) ==
          "bad.toml:1: x: arrays and inline tables nested more than 32 deep; at most 32 levels are read");
    const std::string nested_tables = two_rods + "[solver]\nx = " + repeat("{a=", 5000) + "1" + repeat("}", 5000) + "\n";
    CHECK(error_of(nested_tables) ==
          "bad.toml:10: solver.x: arrays and inline tables nested more than 32 deep; at most 32 levels are read");
    // Mixed, on several lines, after a string and a comment holding brackets.
    CHECK(error_of("s = \"[[[[\" # {{{{\ny = [\n" + repeat("[{a=", 40)).starts_with(
        "bad.toml:3: y: arrays and inline tables nested more than 32 deep"));
    // 32 levels are fine for the scan (the reader then says what is wrong with the key).
    CHECK(error_of("x = " + repeat("[", 32) + repeat("]", 32) + "\n" + two_rods) ==
          "bad.toml:1: x: unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units");
}

TEST_CASE("dotted keys and headers of thousands of parts are refused", "[parse_safety]") {
    CHECK(error_of("a" + repeat(".a", 5000) + " = 1\n").ends_with(
        ": a key or table header of more than 32 dotted parts; at most 32 are read"));
    CHECK(error_of(two_rods + "[x" + repeat(".x", 5000) + "]\n").starts_with("bad.toml:9: "));
    // Dots inside quoted keys and in values are no parts.
    CHECK(error_of("\"" + repeat("a.", 100) + "\" = 1.5\n" + two_rods).ends_with("unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units"));
}

TEST_CASE("lines of many values are refused above the parse budget; thousands of numbers fit", "[parse_safety]") {
    std::string numbers;
    for (int i = 0; i < 4000; ++i) numbers += (i ? ", " : "") + std::to_string(0.123456789012345 * i);
    CHECK(error_of("x = [" + numbers + "]\n" + two_rods) ==
          "bad.toml:1: x: unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units");
    std::string many;
    for (int i = 0; i < 40000; ++i) many += (i ? ", " : "") + std::to_string(0.123456789012345 * i);
    CHECK(error_of(two_rods + "x = [" + many + "]\n").starts_with("bad.toml:9: rod.x: this line holds 40000 values in "));
    // The same values over many lines cost only their length.
    std::string lines;
    for (int i = 0; i < 40000; ++i) lines += std::to_string(0.123456789012345 * i) + ",\n";
    CHECK(error_of("x = [\n" + lines + "]\n" + two_rods) ==
          "bad.toml:1: x: unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units");
}

TEST_CASE("the rod count is refused from the headers, before the tables are built", "[parse_safety]") {
    const std::string text = "title = \"many\"\n" + repeat("[[ \"rod\" ]]\n", max_rods + 1);
    const auto start = std::chrono::steady_clock::now();
    CHECK(error_of(text) == "bad.toml:2: rod: at most 100000 rods are supported, got 100001");
    // Not a timing test: the parser alone takes seconds on this text; the scan a few milliseconds.
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("a huge unknown key is reported shortened, in linear time", "[parse_safety]") {
    const std::string key(200'000, 'k');
    CHECK(error_of(key + " = 1\n" + two_rods) ==
          "bad.toml:1: " + std::string(57, 'k') + "...: unknown key; expected one of: title, defaults, rod, solver, left, right, load, gauge, ensemble, units");
    CHECK(error_of(two_rods + "[solver]\n" + key + "x = 1\n").starts_with("bad.toml:10: solver." + std::string(57, 'k') + "..."));
    // Many unknown keys: the first in file order is found without counting lines for each.
    std::string keys;
    for (int i = 0; i < 50'000; ++i) keys += "k" + std::to_string(i) + " = 1\n";
    CHECK(error_of(keys + two_rods).starts_with("bad.toml:1: k0: unknown key"));
}

TEST_CASE("reading: FIFOs without a writer fail at once, devices are refused, files are capped", "[parse_safety]") {
    const testing::TempDir dir("parse_safety");
    const fs::path fifo = dir / "case.toml";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    auto load_error = [](const fs::path& p) {
        try {
            load_case(p);
        } catch (const CaseError& e) {
            return std::string(e.what());
        }
        FAIL("accepted " << p);
        return std::string();
    };
    CHECK(load_error(fifo) ==
          fifo.string() + ":0: (file): nothing to read: a pipe or FIFO with no writer, or an empty one");
    if (fs::exists("/dev/null"))  // read only, never written
        CHECK(load_error("/dev/null") ==
              "/dev/null:0: (file): not a regular file or a pipe (a device or socket); not a case file");
    const fs::path big = dir.write("big.toml", "# " + std::string(1 << 20, 'x') + "\n");
    CHECK(load_error(big) == big.string() + ":0: (file): larger than 1 MiB; not a case file");
}

TEST_CASE("validation files get the same scan", "[parse_safety]") {
    try {
        validation::parse_validation_file("x = " + repeat("[", 100) + repeat("]", 100) + "\n", "v.toml", ".");
        FAIL("accepted");
    } catch (const validation::ValidationFileError& e) {
        CHECK(std::string(e.what()) ==
              "v.toml:1: x: arrays and inline tables nested more than 32 deep; at most 32 levels are read");
    }
}

TEST_CASE("text that is not UTF-8 is refused before the parser reads it", "[parse_safety]") {
    // Found by the fuzzer (fuzz/regressions/literal_string_invalid_utf8.toml): toml11 3.7 reads
    // past the end of a literal string holding a stray continuation byte.
    CHECK(error_of("'\x9bse '\x9bse rewtrewt") == "bad.toml:1: (encoding): not valid UTF-8 (byte 0x9B); TOML files are UTF-8");
    CHECK(error_of("title = \"x\"\n# \xed\xa0\x80 a surrogate\n") ==
          "bad.toml:2: (encoding): not valid UTF-8 (byte 0xED); TOML files are UTF-8");
    CHECK(error_of("title = \"overlong \xc0\xaf\"\n") == "bad.toml:1: (encoding): not valid UTF-8 (byte 0xC0); TOML files are UTF-8");
    CHECK(error_of("title = \"cut \xe2\x82") == "bad.toml:1: (encoding): not valid UTF-8 (byte 0xE2); TOML files are UTF-8");
    // Well-formed UTF-8 of every length passes the scan.
    const Case c = parse_case("title = \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"\n" + two_rods, "ok.toml");
    CHECK(c.title == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}
