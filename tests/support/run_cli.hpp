// Runs the rodcollide executable from a test and captures its stdout, stderr and exit status.
#pragma once

#include "file_text.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace rodcollide::testing {

struct CliResult {
    int status = -1;  ///< exit status of the process
    std::string out;  ///< stdout
    std::string err;  ///< stderr
};

/// Where and how to run the executable.
struct CliOptions {
    std::string dir = RODCOLLIDE_SOURCE_DIR;  ///< working directory
    std::string env;                          ///< assignments put before the command, "A=1 B=2"
};

/// Runs `rodcollide <args>` through the shell (args are passed verbatim: quote them yourself),
/// by default in the source directory so that relative paths like cases/x.toml work.
inline CliResult run_cli(const std::string& args, const CliOptions& options = {}) {
    namespace fs = std::filesystem;
    const fs::path err_file =
        fs::temp_directory_path() / ("rodcollide_test_err_" + std::to_string(::getpid()) + "_" +
                                     std::to_string(std::rand()));
    const std::string cmd = "cd '" + options.dir + "' && " + options.env + " '" + RODCOLLIDE_BINARY + "' " + args +
                            " 2>'" + err_file.string() + "'";
    CliResult r;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int raw = ::pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.err = file_text(err_file);
    fs::remove(err_file);
    return r;
}

/// Number of lines in s (a trailing newline does not start a new line).
inline int line_count(const std::string& s) {
    int n = 0;
    for (char c : s) n += (c == '\n');
    if (!s.empty() && s.back() != '\n') ++n;
    return n;
}

}  // namespace rodcollide::testing
