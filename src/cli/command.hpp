// Subcommand registry of the rodcollide executable. Each src/cli/<name>.cpp registers one
// subcommand with a static RegisterCommand; main.cpp only dispatches.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rodcollide::cli {

/// Exit statuses shared by every subcommand.
enum ExitStatus : int {
    exit_ok = 0,
    exit_failure = 1,    ///< the computation ran but failed (a cap was hit, a validation failed)
    exit_bad_input = 2,  ///< bad command line or bad case file: nothing was computed or written
};

/// A subcommand gets its arguments without the program and command names.
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

struct Command {
    std::string name;
    std::string summary;  ///< one line for `rodcollide --help`
    CommandFn run;
};

const std::vector<Command>& commands();

struct RegisterCommand {
    RegisterCommand(std::string name, std::string summary, CommandFn run);
};

}  // namespace rodcollide::cli
