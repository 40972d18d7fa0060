// Shared command-line plumbing (see options.hpp).
#include "options.hpp"

#include "command.hpp"

#include "rodcollide/output_file.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/solver_option_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <type_traits>
#include <variant>
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
                                           po::variables_map& vm, const po::options_description* hidden) {
    po::options_description all;
    all.add(visible).add_options()("case", po::value<std::string>(), "case file");
    if (hidden) all.add(*hidden);
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

int usage_error(const std::string& command, const std::string& message) {
    fmt::print(stderr, "rodcollide {}: {}\n", command, message);
    return exit_bad_input;
}

std::optional<int> check_output_flag(const std::string& command, const std::string& flag, const std::string& path,
                                     OutputKind kind) {
    try {
        if (kind == OutputKind::picture)
            check_output_path(path);
        else
            check_output_target(path);
    } catch (const OutputPathError& e) {
        return usage_error(command, fmt::format("--{}: {}", flag, e.what()));
    }
    return std::nullopt;
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

std::optional<Shard> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos) return std::nullopt;
    Shard s;
    const char* b = text.data();
    const char* e = b + text.size();
    const auto [p1, e1] = std::from_chars(b, b + slash, s.index);
    const auto [p2, e2] = std::from_chars(b + slash + 1, e, s.count);
    if (e1 != std::errc() || p1 != b + slash || e2 != std::errc() || p2 != e || slash == 0) return std::nullopt;
    return s;
}

std::string to_string(const po::options_description& options) {
    std::ostringstream s;
    s << options;
    return s.str();
}

// ---- Flag values -------------------------------------------------------------------------------

double parse_number(std::string_view text, const std::string& key) {
    if (text.starts_with('+')) text.remove_prefix(1);
    double x = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec == std::errc::result_out_of_range) throw InvalidInput(key, input::unrepresentable(text, "a double"));
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw InvalidInput(key, input::wrong_type("a number", fmt::format("{:?}", text)));
    return x;
}

std::int64_t parse_integer(std::string_view text, const std::string& key) {
    if (text.starts_with('+')) text.remove_prefix(1);
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc::result_out_of_range) throw InvalidInput(key, input::unrepresentable(text, "a 64-bit integer"));
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
        // "1.5" reads as in a case file, "got a float (1.5)"; other text is quoted.
        double x = 0;
        const auto [number_end, number_ec] = std::from_chars(text.data(), text.data() + text.size(), x);
        std::string got = fmt::format("{:?}", text);
        if (!text.empty() && number_end == text.data() + text.size())
            got = number_ec == std::errc() ? fmt::format("a float ({})", x) : fmt::format("a float ({})", text);
        throw InvalidInput(key, input::wrong_type("an integer", got));
    }
    return n;
}

std::optional<double> number_flag(const po::variables_map& vm, const std::string& flag) {
    if (!vm.count(flag)) return std::nullopt;
    return parse_number(vm[flag].as<std::string>(), flag);
}

std::optional<std::int64_t> integer_flag(const po::variables_map& vm, const std::string& flag) {
    if (!vm.count(flag)) return std::nullopt;
    return parse_integer(vm[flag].as<std::string>(), flag);
}

std::optional<bool> switch_flag(const po::variables_map& vm, const std::string& flag) {
    if (!vm.count(flag)) return std::nullopt;
    const std::string& text = vm[flag].as<std::string>();
    if (text == "on") return true;
    if (text == "off") return false;
    throw InvalidInput(flag, input::wrong_type("on or off", fmt::format("{:?}", text)));
}

std::size_t to_count(const std::string& key, std::int64_t n) {
    input::require(key, input::count(n));
    return static_cast<std::size_t>(n);
}

namespace {

/// The flag that sets an option: "max_events" -> "max-events".
std::string flag_name(std::string key) {
    std::replace(key.begin(), key.end(), '_', '-');
    return key;
}

}  // namespace

std::string flag_error(const InvalidInput& e, const po::options_description& options) {
    const std::string flag = flag_name(e.key());
    if (!options.find_nothrow(flag, false)) return e.what();
    return fmt::format("--{}: {}", flag, e.message());
}

void CommonSolverFlags::add_to(po::options_description& options, po::options_description* hidden_end_time) {
    for (const SolverOptionSpec& o : solver_option_table()) {
        if (o.value_name.empty()) continue;  // set in the case file only
        const std::string flag = option_flag(o), help = option_help(o);
        po::options_description& group = hidden_end_time && o.key == "end_time" ? *hidden_end_time : options;
        group.add_options()(flag.c_str(), po::value<std::string>()->value_name(std::string(o.value_name)), help.c_str());
    }
}

std::optional<int> CommonSolverFlags::read(const std::string& command, const po::variables_map& vm) {
    const auto table = solver_option_table();
    values_.assign(table.size(), std::nullopt);
    try {
        for (std::size_t i = 0; i < table.size(); ++i) {
            const SolverOptionSpec& o = table[i];
            if (o.value_name.empty()) continue;
            const std::string flag = option_flag(o);
            switch (o.type) {
                case OptionType::method:
                    if (vm.count(flag)) values_[i] = vm[flag].as<std::string>();
                    break;
                case OptionType::number:
                    if (const auto x = number_flag(vm, flag)) values_[i] = *x;
                    break;
                case OptionType::count:
                    if (const auto n = integer_flag(vm, flag)) values_[i] = *n;
                    break;
                case OptionType::on_off:
                    if (const auto b = switch_flag(vm, flag)) values_[i] = *b;
                    break;
            }
        }
    } catch (const InvalidInput& e) {
        return usage_error(command, fmt::format("--{}: {}", e.key(), e.message()));
    }
    return std::nullopt;
}

std::optional<int> CommonSolverFlags::apply(const std::string& command, SolverOptions& solver) const {
    // Checked one at a time, in the table's order, so that the first mistake is the one reported.
    const auto table = solver_option_table();
    try {
        for (std::size_t i = 0; i < values_.size(); ++i) {
            if (!values_[i]) continue;
            const SolverOptionSpec& o = table[i];
            const std::string key(o.key);
            std::visit(
                [&](const auto& v) {
                    using T = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<T, std::int64_t>)
                        o.set(solver, to_count(key, v));
                    else
                        o.set(solver, v);
                },
                *values_[i]);
            validate(solver);
        }
    } catch (const InvalidInput& e) {  // every solver option has its flag
        return usage_error(command, fmt::format("--{}: {}", flag_name(e.key()), e.message()));
    }
    return std::nullopt;
}

std::optional<Case> load_case_with_flags(const std::string& command, const po::variables_map& vm,
                                         const CommonSolverFlags& flags) {
    std::optional<Case> c;
    try {
        c = load_case(vm["case"].as<std::string>());
    } catch (const CaseError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return std::nullopt;
    }
    if (flags.apply(command, c->solver)) return std::nullopt;
    return c;
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
    // Only a terminal gets progress: one line, rewritten in place and cleared by finish(). A log
    // gets none, so that a failure's one line is all it holds.
    if (!::isatty(STDERR_FILENO)) return;
    fmt::print(stderr, "\rrodcollide {}: {} [{:.1f} s]\x1b[K", command_, text, elapsed);
    shown_ = true;
    last_ = now;
    std::fflush(stderr);
}

void ProgressReporter::finish() {
    if (shown_) {
        std::fputs("\r\x1b[K", stderr);
        std::fflush(stderr);
    }
    shown_ = false;
}

}  // namespace rodcollide::cli
