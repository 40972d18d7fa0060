// `rodcollide sweep CASE`: the impact map of a three-rod chain over the circle of gamma- directions,
// compared with the rigid laws (include/rodcollide/sweep.hpp); table or JSON, CSV and plot files.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/output_file.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <optional>
#include <stdexcept>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const sweep_help = R"(usage: rodcollide sweep CASE [--directions N] [options]

Sweeps the impact map of a three-rod chain: the rods of CASE (lengths, sections, materials;
touching, whatever gaps the case has) start with the velocities of the pre-impact contact
velocity gamma- = (cos theta, sin theta), for N directions theta = 360 i/N degrees around the
whole circle (u- = (0, gamma1, gamma1 + gamma2): only velocity differences matter). Each direction
is solved with the wave solver and gamma+ is compared with the Sequential Impact Law (and with
the laws given by --laws).

It reports the largest error ||gamma+_law - gamma+_wave||_G^-1 / ||gamma-||_G^-1 in each of the six
cones of Winandy & Leine 2015 Fig. 4a, and the empirical cone map: the ranges of directions where
the wave map is linear, gamma+ = J gamma-, with J and the boundaries (located exactly where
neighbouring matrices agree), next to Winandy & Leine's cones and Q matrices. For identical rods the
wave map is the Sequential Impact Law all around the circle.

Directions are solved on every hardware thread (--threads). A long sweep can be split into
shards: --shard k/n computes the k-th of n contiguous blocks of directions; the CSVs of shards 1..n,
concatenated in order, are the CSV of the whole sweep (only shard 1 writes the header line).

examples:
  rodcollide sweep cases/seed000_three_rods.toml --directions 3600
  rodcollide sweep my_rods_121.toml --directions 3600 --laws sequential,newton --plot map.png
  for k in 1 2 3 4; do rodcollide sweep my.toml --directions 100000 --shard $k/4 --csv part$k.csv; done
  cat part1.csv part2.csv part3.csv part4.csv > all.csv
)";

/// "k/n" -> Shard; nullopt if malformed.
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

int run_sweep(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    visible.add_options()
        ("help,h", "show this help")
        ("directions", po::value<std::string>()->value_name("N"),
         "number of directions theta = 360 i/N around the circle (default 360; at most 1000000)")
        ("laws", po::value<std::string>()->value_name("L1,L2,..."),
         "laws compared with the wave map: sequential, newton, poisson, kinematic (default: sequential)")
        ("restitution", po::value<std::string>()->value_name("E"),
         "newton, poisson: global eps in [0, 1]; kinematic: E_n = E*I (default 1)")
        ("shard", po::value<std::string>()->value_name("K/N"), "compute only the K-th of N contiguous blocks of directions")
        ("threads", po::value<std::string>()->value_name("T"), "worker threads, at most 1024 (default, or 0: one per hardware thread)")
        ("linear-tolerance", po::value<std::string>()->value_name("TOL"),
         "relative tolerance for 'the same matrix' in the empirical cone map (default 1e-9 exact, 1e-2 finite differences)")
        ("csv", po::value<std::string>()->value_name("FILE"),
         "write one line per direction: index, theta_deg, gamma1_pre, gamma2_pre, gamma1_wave, gamma2_wave, "
         "cone, events, then <law>_gamma1, <law>_gamma2, <law>_error per law")
        ("plot", po::value<std::string>()->value_name("FILE"),
         "draw the empirical cone map (.png or .svg; NAME.gp and NAME.map.dat are written beside it)")
        ("json", "print the summary as one JSON document instead of the table");
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("sweep", sweep_help, args, visible, vm)) return *status;
    if (auto status = flags.read("sweep", vm)) return *status;

    SweepOptions options;
    try {
        if (const auto n = integer_flag(vm, "directions")) options.directions = to_count("directions", *n);
        if (vm.count("laws")) options.laws = split_list(vm["laws"].as<std::string>());
        options.restitution = number_flag(vm, "restitution");
        if (vm.count("shard")) {
            const std::string text = vm["shard"].as<std::string>();
            const std::optional<Shard> s = parse_shard(text);
            if (!s) throw InvalidInput("shard", input::wrong_type("K/N with integers, e.g. 2/4", fmt::format("{:?}", text)));
            options.shard = *s;
        }
        if (const auto n = integer_flag(vm, "threads")) {
            input::require("threads", input::integer_within(*n, 0, largest_sweep_threads));
            options.threads = static_cast<unsigned>(*n);
        }
        options.linear_tolerance = number_flag(vm, "linear-tolerance");
        SweepOptions work;  // the cap on the work is checked before the case is read, the rest with the chain
        work.directions = options.directions;
        work.threads = options.threads;
        validate(work);
    } catch (const InvalidInput& e) {
        return usage_error("sweep", flag_error(e, visible));
    }

    // Output paths are checked before any work: bad input computes and writes nothing.
    if (vm.count("plot"))
        if (auto status = check_output_flag("sweep", "plot", vm["plot"].as<std::string>(), OutputKind::picture)) return *status;
    if (vm.count("csv"))
        if (auto status = check_output_flag("sweep", "csv", vm["csv"].as<std::string>())) return *status;

    std::optional<Case> loaded = load_case_with_flags("sweep", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    options.solver = c.solver;
    try {
        check_sweep_chain(c.chain);
        validate(options);
    } catch (const InvalidInput& e) {
        return usage_error("sweep", flag_error(e, visible));
    }

    ProgressReporter progress("sweep");
    options.progress = [&progress](std::size_t done, std::size_t total) { progress.report(done, total); };
    std::optional<SweepResult> result;
    try {
        result = sweep(c.title, c.chain, options);
    } catch (const UnsupportedMethod& e) {
        return usage_error("sweep", e.what());
    } catch (const InvalidResolution& e) {  // a grid over the limits, refused before it is built
        return usage_error("sweep", e.what());
    }
    progress.finish();
    if (vm.count("csv")) write_file_atomically(vm["csv"].as<std::string>(), sweep_csv(*result));
    if (vm.count("plot")) write_sweep_plot(*result, vm["plot"].as<std::string>());
    if (vm.count("json"))
        fmt::print("{}\n", sweep_json(*result).dump(2));
    else
        fmt::print("{}", sweep_table(*result));
    return exit_ok;
}

const RegisterCommand registered{"sweep", "sweep the impact map of three rods over all gamma- directions and compare with the laws",
                                 &run_sweep};

}  // namespace

}  // namespace rodcollide::cli
