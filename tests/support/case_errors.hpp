// The CaseError a bad case file's text must raise, for the tests of the case reader's checks.
#pragma once

#include "rodcollide/case_file.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace rodcollide::testing {

/// The CaseError parse_case() throws for `text` (read as "bad.toml"); fails the test if it accepts
/// the text.
inline CaseError refused(const std::string& text) {
    try {
        parse_case(text, "bad.toml");
    } catch (const CaseError& e) {
        return e;
    }
    FAIL("accepted: " << text);
    throw;  // unreachable: FAIL throws
}

/// A case text the reader must refuse, and what its one-line error must say.
struct BadCase {
    std::string text, key;  ///< the text (read as "bad.toml"), the key the error names
    std::size_t line;       ///< the line it names
    std::string says;       ///< a part of its message
};

/// Each text is refused with one line naming bad.toml, its line and its key, and saying `says`.
inline void check_refusals(const std::vector<BadCase>& bad) {
    for (const BadCase& b : bad) {
        INFO(b.text);
        const CaseError e = refused(b.text);
        CHECK(e.file() == "bad.toml");
        CHECK(e.key() == b.key);
        CHECK(e.line() == b.line);
        CHECK_THAT(e.message(), Catch::Contains(b.says));
        CHECK(std::string(e.what()).find('\n') == std::string::npos);  // one line
    }
}

}  // namespace rodcollide::testing
