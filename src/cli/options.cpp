// Shared command-line plumbing (see options.hpp).
#include "options.hpp"

#include "command.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <unistd.h>

namespace rodcollide::cli {

namespace po = boost::program_options;

std::optional<int> parse_command_line(const std::string& command, const std::vector<std::string>& args,
                                      const po::options_description& options,
                                      const po::positional_options_description& positional,
                                      po::variables_map& vm) {
    try {
        po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        return usage_error(command, fmt::format("{} (see rodcollide {} --help)", e.what(), command));
    }
    return std::nullopt;
}

std::optional<int> parse_case_command_line(const std::string& command, const char* help_text,
                                           const std::vector<std::string>& args, const po::options_description& visible,
                                           po::variables_map& vm) {
    po::options_description all;
    all.add(visible).add_options()("case", po::value<std::string>(), "case file");
    po::positional_options_description positional;
    positional.add("case", 1);
    if (auto status = parse_command_line(command, args, all, positional, vm)) return status;
    if (vm.count("help")) {
        fmt::print("{}\n{}", help_text, to_string(visible));
        return exit_ok;
    }
    if (!vm.count("case"))
        return usage_error(command, fmt::format("missing CASE (a case file; see rodcollide {} --help)", command));
    return std::nullopt;
}

std::optional<Case> load_case_or_report(const std::filesystem::path& path) {
    try {
        return load_case(path);
    } catch (const CaseError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return std::nullopt;
    }
}

int usage_error(const std::string& command, const std::string& message) {
    fmt::print(stderr, "rodcollide {}: {}\n", command, message);
    return exit_bad_input;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
    auto trim = [](const std::string& s) {
        const auto b = s.find_first_not_of(" \t");
        return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t") - b + 1);
    };
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(trim(text.substr(start, end - start)));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

std::string to_string(const po::options_description& options) {
    std::ostringstream s;
    s << options;
    return s.str();
}

void CommonSolverFlags::add_to(po::options_description& options) {
    options.add_options()
        ("method", po::value<std::string>(), "characteristics (exact, default) or finite-difference")
        ("end-time", po::value<double>(), "stop at this time [s] even if contacts may still happen (settled: false)")
        ("cells", po::value<long long>(), "finite differences: cells in the rod with the shortest transit time (default 1000)")
        ("drop-tolerance", po::value<double>(), "characteristics: smallest jump kept at a contact, relative to the velocity scale (default 1e-12)")
        ("max-events", po::value<long long>(), "characteristics: cap on event groups (default 1e7)");
}

namespace {

/// A positive integer flag, at most `largest`, into `out`; a one-line error otherwise.
std::optional<int> read_count(const std::string& command, const po::variables_map& vm, const char* flag,
                              std::size_t largest, std::size_t& out) {
    if (!vm.count(flag)) return std::nullopt;
    const long long n = vm[flag].as<long long>();
    if (n <= 0 || static_cast<unsigned long long>(n) > largest)
        return usage_error(command, fmt::format("--{}: must be between 1 and {}, got {}", flag, largest, n));
    out = static_cast<std::size_t>(n);
    return std::nullopt;
}

}  // namespace

std::optional<int> CommonSolverFlags::apply(const std::string& command, const po::variables_map& vm,
                                            SolverOptions& solver) const {
    if (vm.count("method")) {
        const std::string name = vm["method"].as<std::string>();
        const std::optional<Method> m = parse_method(name);
        if (!m)
            return usage_error(command, fmt::format("--method: unknown method '{}' (use characteristics or finite-difference)", name));
        solver.method = *m;
    }
    if (vm.count("end-time")) {
        const double t = vm["end-time"].as<double>();
        if (!std::isfinite(t) || t <= 0) return usage_error(command, fmt::format("--end-time: must be finite and > 0, got {}", t));
        solver.end_time = t;
    }
    if (auto status = read_count(command, vm, "cells", largest_cells, solver.cells)) return status;
    if (vm.count("drop-tolerance")) {
        const double d = vm["drop-tolerance"].as<double>();
        if (!std::isfinite(d) || d < 0 || d >= 1)
            return usage_error(command, fmt::format("--drop-tolerance: must be in [0, 1), got {}", d));
        solver.drop_tolerance = d;
    }
    if (auto status = read_count(command, vm, "max-events", largest_max_events, solver.max_events)) return status;
    return std::nullopt;
}

ProgressReporter::ProgressReporter(std::string command)
    : command_(std::move(command)), start_(std::chrono::steady_clock::now()), last_(start_) {}

std::function<void(double, std::size_t)> ProgressReporter::callback() {
    return [this](double t, std::size_t events) { show(fmt::format("t = {:.6g}, {} events", t, events)); };
}

void ProgressReporter::report(std::size_t done, std::size_t total) {
    show(fmt::format("{}/{} ({:.0f}%)", done, total, total ? 100.0 * done / total : 100.0));
}

void ProgressReporter::show(const std::string& text) {
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(200)) return;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (::isatty(STDERR_FILENO)) {
        // One line, rewritten in place.
        fmt::print(stderr, "\rrodcollide {}: {} [{:.1f} s]\x1b[K", command_, text, elapsed);
        shown_ = true;
    } else {
        // Logs get a line every few seconds instead of control characters.
        if (now - last_ < std::chrono::seconds(5) && last_ != start_) return;
        fmt::print(stderr, "rodcollide {}: {} [{:.1f} s]\n", command_, text, elapsed);
    }
    last_ = now;
    std::fflush(stderr);
}

void ProgressReporter::finish() {
    if (shown_) fmt::print(stderr, "\r\x1b[K");
    shown_ = false;
}

}  // namespace rodcollide::cli
