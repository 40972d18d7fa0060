// rodcollide: dispatches to the subcommand named by the first argument.
#include "command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace rodcollide::cli {

namespace {
std::vector<Command>& registry() {
    static std::vector<Command> r;
    return r;
}
}  // namespace

const std::vector<Command>& commands() { return registry(); }

RegisterCommand::RegisterCommand(std::string name, std::string summary, CommandFn run) {
    registry().push_back({std::move(name), std::move(summary), std::move(run)});
}

}  // namespace rodcollide::cli

namespace {

void print_usage(std::FILE* out) {
    using namespace rodcollide::cli;
    auto cmds = commands();
    std::sort(cmds.begin(), cmds.end(), [](const Command& a, const Command& b) { return a.name < b.name; });
    fmt::print(out,
               "rodcollide: collisions of thin elastic rods, solved exactly (characteristics) or on a\n"
               "grid (finite differences), and compared with rigid-body impact laws.\n\n"
               "usage: rodcollide COMMAND [options]    (rodcollide COMMAND --help for details)\n\n"
               "commands:\n");
    for (const Command& c : cmds) fmt::print(out, "  {:<10} {}\n", c.name, c.summary);
    fmt::print(out, "\nexit status: 0 success, 1 failure during the computation, 2 bad input.\n");
}

}  // namespace

int main(int argc, char** argv) {
    using namespace rodcollide::cli;
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        print_usage(stderr);
        return exit_bad_input;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        print_usage(stdout);
        return exit_ok;
    }
    for (const Command& c : commands()) {
        if (c.name != args[0]) continue;
        try {
            return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
        } catch (const std::exception& e) {
            fmt::print(stderr, "rodcollide {}: {}\n", c.name, e.what());
            return exit_failure;
        }
    }
    fmt::print(stderr, "rodcollide: unknown command '{}' (try rodcollide --help)\n", args[0]);
    return exit_bad_input;
}
