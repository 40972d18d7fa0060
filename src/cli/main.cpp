// rodcollide: dispatches to the subcommand named by the first argument.
#include "command.hpp"
#include "mpi_world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#ifndef RODCOLLIDE_VERSION
#define RODCOLLIDE_VERSION "unknown"
#endif

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

/// Opens /dev/null on any of the standard descriptors 0, 1, 2 that is closed, so that no file
/// rodcollide opens later takes its number (and receives what is printed); true if stdout was.
bool stdout_was_closed() {
    bool closed = false;
    for (int fd = 0; fd <= 2; ++fd) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        if (fd == STDOUT_FILENO) closed = true;
        const int null = ::open("/dev/null", O_RDWR);
        if (null >= 0 && null != fd) {  // a lower descriptor was free after all
            ::dup2(null, fd);
            ::close(null);
        }
    }
    return closed;
}

/// Flushes stdout and reports a failed write (a full disk, a closed pipe) as one line: the output
/// is incomplete, so the command failed.
int checked_stdout(const std::string& command, int status) {
    std::cout.flush();
    if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout) return status;
    const int error = errno;
    fmt::print(stderr, "rodcollide {}: cannot write standard output: {}\n", command, std::strerror(error ? error : EIO));
    return rodcollide::cli::exit_failure;
}

/// The command line run: the command's exit status; `name` is the command's, when there is one.
int dispatch(int argc, char** argv, std::string& name) {
    using namespace rodcollide::cli;
    if (stdout_was_closed()) {
        fmt::print(stderr, "rodcollide: standard output is closed; nothing was done\n");
        return exit_failure;
    }
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        fmt::print(stderr, "rodcollide: missing COMMAND (see rodcollide --help)\n");
        return exit_bad_input;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        print_usage(stdout);
        return checked_stdout("--help", exit_ok);
    }
    if (args[0] == "--version" || args[0] == "-V") {
        fmt::print("rodcollide {}\n", RODCOLLIDE_VERSION);
        return checked_stdout("--version", exit_ok);
    }
    for (const Command& c : commands()) {
        if (c.name != args[0]) continue;
        name = c.name;
        int status = exit_failure;
        try {
            status = c.run(std::vector<std::string>(args.begin() + 1, args.end()));
        } catch (const std::exception& e) {
            // A failed print to stdout throws from fmt: say what failed, once.
            if (std::ferror(stdout)) return checked_stdout(c.name, exit_failure);
            fmt::print(stderr, "rodcollide {}: {}\n", c.name, e.what());
            return exit_failure;
        }
        return checked_stdout(c.name, status);
    }
    fmt::print(stderr, "rodcollide: unknown command {:?} (see rodcollide --help)\n", args[0]);
    return exit_bad_input;
}

}  // namespace

int main(int argc, char** argv) {
    rodcollide::cli::mpi::Session mpi_session(argc, argv);  // a no-op without -DRODCOLLIDE_MPI=ON
    std::string name;
    const int status = dispatch(argc, argv, name);
    // Under mpirun, a rank that stopped before the work was split still meets the ranks that are
    // waiting to split it (its error reaches rank 0): none is left waiting.
    return mpi_session.finish(name, status);
}
