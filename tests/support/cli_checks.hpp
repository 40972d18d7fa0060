// Checks of the command-line contract shared by the CLI tests.
#pragma once

#include "run_cli.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace rodcollide::testing {

/// Runs `rodcollide <args>` and checks the bad-input contract: exit status 2, nothing on stdout,
/// exactly one line on stderr, containing `message`.
inline void check_bad_input(const std::string& args, const std::string& message) {
    INFO(args);
    const CliResult r = run_cli(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(line_count(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains(message));
}

}  // namespace rodcollide::testing
