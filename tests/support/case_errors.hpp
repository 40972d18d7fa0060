// The CaseError a bad case file's text must raise, for the tests of the case reader's checks.
#pragma once

#include "rodcollide/case_file.hpp"

#include <catch2/catch.hpp>

#include <string>

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

}  // namespace rodcollide::testing
