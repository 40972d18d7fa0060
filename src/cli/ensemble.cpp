// `rodcollide ensemble CASE`: the case solved for many members with perturbed rods, and the
// statistics of their outcomes (include/rodcollide/ensemble.hpp); `rodcollide merge PART...`: the
// shards of one ensemble joined into the report a single run gives. Table or JSON, CSV and plot.
#include "command.hpp"
#include "mpi_world.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/ensemble.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/output_file.hpp"
#include "rodcollide/solve.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const ensemble_help = R"(usage: rodcollide ensemble CASE [--members N] [--seed S] [options]

Solves CASE for N members, each with some of its rods' numbers (length, area, density,
youngs_modulus, velocity, gap) drawn at random about the case's values, and reports the statistics
of the outcomes: per rod the mean, standard deviation (std), standard error of the mean (sem) and
5/50/95 % quantiles of the final velocity; the same for the energy left in rigid motion and in
vibration, the number of contact closings and the settling time; the share of members that
settled (the others reached the horizon, [solver] end_time); and how far the means have
converged (the largest sem; with --precision P, the members needed for every rod's sem to reach P).

Long chains with gaps are chaotic (docs/physics.md §5.4): one outcome is one sample; the
distribution under the tolerances of the data is what can be reproduced (docs/ensemble.md).

The perturbations are the case file's [ensemble] table (docs/case_file.md "Ensembles"):
  [ensemble]
  members = 1000
  seed = 1
  [[ensemble.perturb]]
  key = "length"            # length, area, density, youngs_modulus, velocity, gap
  rods = [0]                # all rods when absent (gap: all but the first)
  relative = 1e-6           # or absolute = ...: half-width (uniform) or standard deviation (normal)
  distribution = "uniform"  # or "normal" (truncated at 4 standard deviations)
  shared = false            # true: one draw moves all its rods together
or --perturb 'KEYS' (repeatable; replaces the file's perturbations): the keys of one such table on
one line, e.g. --perturb 'key = "velocity", rods = [0], relative = 0.01'. A spread that could make
a length, area, density or modulus non-positive (or a gap negative) is refused before any work.

Member k's draws depend only on (seed, k): the result is the same bit for bit whatever --threads,
--shard or MPI ranks. --shard k/n computes the k-th of n contiguous blocks of members; with --json
its output carries every member's numbers, and `rodcollide merge` joins the n outputs into the
report one run gives (docs/ensemble.md has a Slurm job-array script). Members run on every hardware
thread (--threads); progress goes to stderr on a terminal. Built with -DRODCOLLIDE_MPI=ON,
`mpirun -n P rodcollide ensemble ...` makes the P ranks the shards (one thread each unless
--threads) and rank 0 prints the one result, identical to a run on one machine.

examples:
  rodcollide ensemble cases/ensembles/chain_60_gaps.toml --members 1000 --plot chain60.png
  rodcollide ensemble cases/seed000_two_rods.toml --members 200 --perturb 'key = "velocity", rods = [0], relative = 0.01'
  rodcollide ensemble my.toml --members 10000 --shard 3/8 --json > part3.json   (then: rodcollide merge part*.json)
)";

const char* const merge_help = R"(usage: rodcollide merge PART... [--json] [options]

Joins the outputs of `rodcollide ensemble CASE --shard k/n --json`, one per shard k = 1..n, into the
report a single run of the whole ensemble gives (the same numbers, bit for bit: the shards carry
every member's values). The parts must belong together: the same case and solver options (their
fingerprint), perturbations, seed, member count and shard count n, each shard exactly once.
Each part is at most 1 GiB.

examples:
  rodcollide merge part1.json part2.json part3.json part4.json --json
  rodcollide merge part*.json --csv members.csv --plot ensemble.png
)";

/// --precision: the standard error the convergence statement aims at [m/s].
std::optional<double> precision_flag(const po::variables_map& vm) {
    const std::optional<double> p = number_flag(vm, "precision");
    if (p) input::require("precision", input::positive(*p));
    return p;
}

void add_output_flags(po::options_description& visible) {
    visible.add_options()
        ("json", "print one JSON document instead of the table (with --shard: with every member's numbers, for merge)")
        ("csv", po::value<std::string>()->value_name("FILE"),
         "write one line per member: member, its perturbed values, u<i> per rod, final_rigid, final_vibration, settled, "
         "end_time, closings, failed")
        ("plot", po::value<std::string>()->value_name("FILE"),
         "draw every rod's final velocity (box plots) and the last rod's histogram (.png or .svg; NAME.gp and "
         "NAME.ensemble.dat are written beside it)")
        ("precision", po::value<std::string>()->value_name("P"),
         "convergence: the members needed for every rod's standard error to reach P [m/s]");
}

/// The output paths, checked before any work.
std::optional<int> check_outputs(const std::string& command, const po::variables_map& vm) {
    if (vm.count("plot"))
        if (auto status = check_output_flag(command, "plot", vm["plot"].as<std::string>(), OutputKind::picture))
            return status;
    if (vm.count("csv"))
        if (auto status = check_output_flag(command, "csv", vm["csv"].as<std::string>())) return status;
    return std::nullopt;
}

/// Files first, then stdout: a failure writing a file leaves stdout empty.
int write_outputs(const std::string& command, const EnsembleResult& r, const po::variables_map& vm,
                  std::optional<double> precision, bool member_data) {
    std::size_t failed = 0;
    const EnsembleMember* first = nullptr;
    for (const EnsembleMember& m : r.members)
        if (!m.failure.empty() && !failed++) first = &m;
    // A shard's output for merge carries its members, failed or not: the whole ensemble may still
    // have members that were solved (merge refuses when none were, as one run does).
    const bool for_merge = member_data && vm.count("json");
    if (failed == r.members.size() && !for_merge) {
        fmt::print(stderr, "rodcollide {}: every member failed; first: {}\n", command, first->failure);
        return exit_failure;
    }
    if (vm.count("csv")) write_file_atomically(vm["csv"].as<std::string>(), ensemble_csv(r));
    if (vm.count("plot")) write_ensemble_plot(r, vm["plot"].as<std::string>());
    if (vm.count("json"))  // a shard's member data compact: a third of the size
        fmt::print("{}\n", ensemble_json(r, precision, member_data).dump(member_data ? -1 : 2));
    else
        fmt::print("{}", ensemble_table(r, precision));
    if (failed)  // a solver defect or cap: said on stderr too, not only in the report
        fmt::print(stderr, "rodcollide {}: warning: {} of {} members failed and are left out of the statistics; first: {}\n",
                   command, failed, r.members.size(), first->failure);
    return exit_ok;
}

int run_ensemble(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    visible.add_options()
        ("help,h", "show this help")
        ("members", po::value<std::string>()->value_name("N"),
         "number of members, 1 to 1000000 (default: [ensemble] members, else 100)")
        ("seed", po::value<std::string>()->value_name("S"), "member k's draws depend only on (S, k) (default: [ensemble] seed, else 1)")
        ("perturb", po::value<std::vector<std::string>>()->value_name("KEYS")->composing(),
         "a perturbation as one line of [[ensemble.perturb]] keys: 'key = \"velocity\", rods = [0], relative = 0.01' "
         "(repeatable; replaces the case file's)")
        ("shard", po::value<std::string>()->value_name("K/N"), "compute only the K-th of N contiguous blocks of members")
        ("threads", po::value<std::string>()->value_name("T"), "worker threads, at most 1024 (default, or 0: one per hardware thread)");
    add_output_flags(visible);
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("ensemble", ensemble_help, args, visible, vm)) return *status;
    if (auto status = flags.read("ensemble", vm)) return *status;

    EnsembleOptions options;
    std::optional<std::size_t> members;
    std::optional<std::uint64_t> seed;
    std::optional<double> precision;
    std::vector<Perturbation> perturb;
    try {
        if (const auto n = integer_flag(vm, "members")) {
            input::require("members", input::integer_within(*n, 1, max_ensemble_members));
            members = static_cast<std::size_t>(*n);
        }
        if (const auto s = integer_flag(vm, "seed")) {
            input::require("seed", input::integer_within(*s, 0, std::numeric_limits<long long>::max()));
            seed = static_cast<std::uint64_t>(*s);
        }
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
        precision = precision_flag(vm);
    } catch (const InvalidInput& e) {
        return usage_error("ensemble", flag_error(e, visible));
    }
    if (vm.count("perturb"))
        for (const std::string& keys : vm["perturb"].as<std::vector<std::string>>()) {
            try {
                perturb.push_back(parse_perturbation(keys, "--perturb"));
            } catch (const CaseError& e) {
                return usage_error("ensemble", fmt::format("--perturb: {}: {}", e.key(), e.message()));
            }
        }
    if (auto status = check_outputs("ensemble", vm)) return *status;

    std::optional<Case> loaded = load_case_with_flags("ensemble", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    options.spec = c.ensemble.value_or(EnsembleSpec{});
    if (members) options.spec.members = *members;
    if (seed) options.spec.seed = *seed;
    if (!perturb.empty()) options.spec.perturb = std::move(perturb);
    options.solver = c.solver;
    options.solver.progress = nullptr;
    try {
        if (options.spec.perturb.empty())
            throw InvalidInput("perturb", "nothing is perturbed: give [[ensemble.perturb]] tables in the case file or --perturb");
        validate(options);
        check_ensemble_spec(options.spec, c.chain);
    } catch (const InvalidInput& e) {
        const std::string where = vm.count("perturb") && e.key().starts_with("perturb[") ? "--perturb: " : "";
        return usage_error("ensemble", where + flag_error(e, visible));
    }
    if (vm.count("plot")) gnuplot_executable();  // fail before solving
    if (mpi::size() > 1) {
        try {
            mpi::use_ranks_as_shards(options, vm.count("shard") > 0, vm.count("threads") > 0);
            validate(options);
        } catch (const InvalidInput& e) {
            return usage_error("ensemble", flag_error(e, visible));
        }
    }

    ProgressReporter progress("ensemble");
    options.progress = [&progress](std::size_t done, std::size_t total) { progress.report(done, total); };
    std::optional<EnsembleResult> result;
    // Every rank sends its shard (as `--shard k/n --json` prints it); rank 0 merges them as
    // `rodcollide merge` does.
    auto gathered = mpi::run_and_gather("ensemble", progress, [&] {
        result = ensemble(c.title, c.chain, options);
        return mpi::size() > 1 ? ensemble_json(*result, std::nullopt, true).dump() : std::string();
    });
    if (const int* status = std::get_if<int>(&gathered)) return *status;
    if (mpi::size() > 1) {
        const std::vector<std::string>& parts = std::get<std::vector<std::string>>(gathered);
        std::vector<EnsembleResult> shards;
        std::vector<std::string> names;
        for (std::size_t r = 0; r < parts.size(); ++r) {
            shards.push_back(ensemble_from_json(nlohmann::json::parse(parts[r])));
            names.push_back(fmt::format("rank {}", r));
        }
        result = merge_ensembles(std::move(shards), names);
    }
    return write_outputs("ensemble", *result, vm, precision, vm.count("shard") > 0);
}

/// Largest part `merge` reads: about 400,000 members of a 60-rod chain with every length drawn
/// (2.5 kB each); more members need more shards.
constexpr std::uintmax_t largest_part = std::uintmax_t{1} << 30;

int run_merge(const std::vector<std::string>& args) {
    po::options_description visible("options");
    visible.add_options()("help,h", "show this help");
    add_output_flags(visible);
    po::options_description all;
    all.add(visible).add_options()("part", po::value<std::vector<std::string>>(), "shard outputs");
    po::positional_options_description positional;
    positional.add("part", -1);
    po::variables_map vm;
    if (auto status = parse_command_line("merge", args, all, positional, vm)) return *status;
    if (vm.count("help")) {
        fmt::print("{}\n{}", merge_help, to_string(visible));
        return exit_ok;
    }
    if (!vm.count("part")) return usage_error("merge", "missing PART (shard outputs of ensemble --shard K/N --json; see rodcollide merge --help)");
    std::optional<double> precision;
    try {
        precision = precision_flag(vm);
    } catch (const InvalidInput& e) {
        return usage_error("merge", flag_error(e, visible));
    }
    if (auto status = check_outputs("merge", vm)) return *status;

    const std::vector<std::string> names = vm["part"].as<std::vector<std::string>>();
    std::vector<EnsembleResult> parts;
    for (const std::string& name : names) {
        const std::string shown = display_path(name);
        std::error_code ec;
        if (!std::filesystem::is_regular_file(name, ec))
            return usage_error("merge", fmt::format("{}: not a readable file", shown));
        if (std::filesystem::file_size(name, ec) > largest_part)
            return usage_error("merge", fmt::format("{}: larger than 1 GiB; split the ensemble into more shards", shown));
        std::ifstream in(name, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        if (!in) return usage_error("merge", fmt::format("{}: cannot be read", shown));
        const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
        if (doc.is_discarded())
            return usage_error("merge", fmt::format("{}: not JSON (a shard output of ensemble --shard K/N --json)", shown));
        try {
            parts.push_back(ensemble_from_json(doc));
        } catch (const InvalidInput& e) {
            return usage_error("merge", fmt::format("{}: {}", shown, e.what()));
        }
    }
    std::vector<std::string> shown_names;
    for (const std::string& n : names) shown_names.push_back(display_path(n));
    std::optional<EnsembleResult> whole;
    try {
        whole = merge_ensembles(std::move(parts), shown_names);
    } catch (const InvalidInput& e) {
        return usage_error("merge", e.message());
    }
    if (vm.count("plot")) gnuplot_executable();
    return write_outputs("merge", *whole, vm, precision, false);
}

const RegisterCommand registered_ensemble{
    "ensemble", "solve a case for many members with perturbed rods; statistics of the outcomes", &run_ensemble};
const RegisterCommand registered_merge{"merge", "join the shard outputs of ensemble --shard K/N --json into one report",
                                       &run_merge};

}  // namespace

}  // namespace rodcollide::cli
