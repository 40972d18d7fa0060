// `rodcollide sweep CASE`: the impact map of a three-rod chain over the circle of gamma- directions,
// compared with the rigid laws (include/rodcollide/sweep.hpp); table or JSON, CSV and plot files.
#include "command.hpp"
#include "mpi_world.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/cone_sweep.hpp"
#include "rodcollide/laws/identified.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/output_file.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <cstring>
#include <cstdint>
#include <limits>
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

Three balls or masses with power-law contacts of one exponent p (Hertz, or contact_stiffness and
contact_exponent; restitution e <= 1 allowed) are swept the same way, their compliant outcome (the
ODE of docs/physics.md §9.9) in place of the wave solution: the map is positively homogeneous,
gamma+(s gamma-) = s gamma+(gamma-) for s > 0 (docs/physics.md §9.11), so the circle of directions
is again the whole map; it is not linear in cones (only p = 1 can be). Refused, because they break
homogeneity: contacts of two exponents, and a dashpot (contact_damping) beside p != 1.

Directions are solved on every hardware thread (--threads). A long sweep can be split into
shards: --shard k/n computes the k-th of n contiguous blocks of directions; the CSVs of shards 1..n,
concatenated in order, are the CSV of the whole sweep (only shard 1 writes the header line).

Four and more rods (up to 8): gamma- runs over N quasi-uniform directions of the unit sphere
S^(n-2) in the G^-1 metric (a spherical Fibonacci lattice for 4 rods, a seeded low-discrepancy set
above, --seed), plus the coordinate directions and the rays of the equal-mass sequential law's
cones. The cones of the wave map are identified exactly from each run's combinatorial signature
(its contacts' openings and closings): one matrix J per signature, gamma+ = J gamma-, verified at
every direction of the cone; cones with equal matrices are merged and regions where the map is not
linear are marked. The sequential law's cones are identified the same way and compared; the
identified map's properties are measured. --export-law FILE writes the identified law (also for
three rods), for `rodcollide laws --law identified:FILE` (docs/identified_law.md).

With the MPI build, `mpirun -n P rodcollide sweep ...` splits the directions (of three rods or more)
over the P ranks, one thread each unless --threads (not with --shard), and rank 0 prints the one
result and writes the files, byte for byte those of the threaded run; for four rods and more, rank 0
then finds the cones, facets and law on all its hardware threads (docs/ensemble.md "MPI").

examples:
  rodcollide sweep cases/seed000_three_rods.toml --directions 3600
  rodcollide sweep cases/cones/four_identical_rods.toml --directions 20000 --json --export-law four.json
  rodcollide sweep my_rods_121.toml --directions 3600 --laws sequential,newton --plot map.png
  for k in 1 2 3 4; do rodcollide sweep my.toml --directions 100000 --shard $k/4 --csv part$k.csv; done
  cat part1.csv part2.csv part3.csv part4.csv > all.csv
  mpirun -n 8 rodcollide sweep cases/cones/four_identical_rods.toml --directions 100000 --json
)";

/// A shard's points and laws' values as bytes for MPI (every rank runs the same binary: the doubles'
/// bits travel as they are): per point index, theta, gamma-, gamma+, cone, events, accuracy, then
/// per law gamma+ and the error.
std::string pack_points(const SweepResult& r) {
    std::vector<double> v;
    for (std::size_t j = 0; j < r.points.size(); ++j) {
        const SweepPoint& p = r.points[j];
        v.insert(v.end(), {static_cast<double>(p.index), p.theta, p.gamma_pre[0], p.gamma_pre[1], p.gamma_post[0],
                           p.gamma_post[1], static_cast<double>(p.cone), static_cast<double>(p.events), p.accuracy});
        for (const SweepLaw& l : r.laws) v.insert(v.end(), {l.gamma_post[j][0], l.gamma_post[j][1], l.error[j]});
    }
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

/// Shard `shard` of the sweep `like` (rank 0's own shard: same chain and options) from pack_points().
SweepResult unpack_points(const SweepResult& like, const Shard& shard, const std::string& bytes) {
    std::vector<double> v(bytes.size() / sizeof(double));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
    SweepResult r = like;
    r.shard = shard;
    std::tie(r.first, r.last) = shard_range(r.directions, shard);
    const std::size_t per_point = 9 + 3 * r.laws.size();
    const std::size_t n = v.size() / per_point;
    r.points.assign(n, SweepPoint{});
    for (SweepLaw& l : r.laws) {
        l.gamma_post.assign(n, Eigen::Vector2d::Zero());
        l.error.assign(n, 0);
    }
    for (std::size_t j = 0; j < n; ++j) {
        const double* x = v.data() + j * per_point;
        SweepPoint& p = r.points[j];
        p.index = static_cast<std::size_t>(x[0]);
        p.theta = x[1];
        p.gamma_pre = {x[2], x[3]};
        p.gamma_post = {x[4], x[5]};
        p.cone = static_cast<laws::Cone>(static_cast<int>(x[6]));
        p.events = static_cast<std::size_t>(x[7]);
        p.accuracy = x[8];
        for (std::size_t l = 0; l < r.laws.size(); ++l) {
            r.laws[l].gamma_post[j] = {x[9 + 3 * l], x[10 + 3 * l]};
            r.laws[l].error[j] = x[11 + 3 * l];
        }
    }
    return r;
}

/// The n-body options from the three-rod ones the flags filled.
ConeSweepOptions cone_options(const SweepOptions& o, std::uint64_t seed) {
    ConeSweepOptions c;
    c.directions = o.directions;
    c.laws = o.laws;
    c.restitution = o.restitution;
    c.shard = o.shard;
    c.threads = o.threads;
    c.seed = seed;
    if (o.linear_tolerance) c.tolerance = *o.linear_tolerance;
    c.solver = o.solver;
    return c;
}

/// Four and more rods: the cone sweep (cone_sweep.hpp). Under mpirun every rank solves its shard
/// of the directions and rank 0 joins the solves into the one sweep (the cones, facets and law
/// are found there, on all its hardware threads unless --threads says otherwise).
int run_cone_sweep(const Case& c, const SweepOptions& flags, std::uint64_t seed, const po::variables_map& vm,
                   const po::options_description& visible) {
    ConeSweepOptions options = cone_options(flags, seed);
    try {
        check_cone_sweep_chain(c.chain);
        if (vm.count("plot") && c.chain.size() != 4)
            throw InvalidInput("plot", "the picture is drawn for three or four rods only (the circle or sphere of gamma- directions)");
        validate(options);
        if (mpi::size() > 1) {
            mpi::use_ranks_as_shards(options, vm.count("shard") > 0, vm.count("threads") > 0);
            validate(options);
        }
    } catch (const InvalidInput& e) {
        return usage_error("sweep", flag_error(e, visible));
    }
    ProgressReporter progress("sweep");
    options.progress = [&progress](std::size_t done, std::size_t total) { progress.report(done, total); };
    std::optional<ConeSweepResult> result;
    std::optional<ConeSweepSolves> solves;  // under MPI: this rank's shard
    auto gathered = mpi::run_and_gather("sweep", progress, [&] {
        if (mpi::size() == 1) {
            result = cone_sweep(c.title, c.chain, options);
            return std::string();
        }
        solves = solve_cone_sweep_shard(c.chain, options);
        return mpi::rank() == 0 ? std::string() : cone_sweep_solves_bytes(*solves);  // rank 0 keeps its own
    });
    if (const int* status = std::get_if<int>(&gathered)) return *status;
    if (mpi::size() > 1) {  // rank 0 joins the ranks' solves into the one sweep
        const std::vector<std::string>& parts = std::get<std::vector<std::string>>(gathered);
        std::vector<ConeSweepSolves> shards;
        shards.push_back(std::move(*solves));
        for (std::size_t r = 1; r < parts.size(); ++r)
            shards.push_back(cone_sweep_solves_from_bytes(parts[r], c.chain.size(), options.laws.size()));
        options.shard = Shard{};
        options.threads = flags.threads;  // --threads, or all hardware threads: the other ranks are done
        result = join_cone_sweep(c.title, c.chain, options, std::move(shards));
    }
    if (vm.count("export-law"))
        write_file_atomically(vm["export-law"].as<std::string>(), laws::identified_law_json(result->law).dump(1) + "\n");
    if (vm.count("csv")) write_file_atomically(vm["csv"].as<std::string>(), cone_sweep_csv(*result));
    if (vm.count("plot")) write_cone_sweep_plot(*result, vm["plot"].as<std::string>());
    if (vm.count("json"))
        fmt::print("{}\n", cone_sweep_json(*result).dump(2));
    else
        fmt::print("{}", cone_sweep_table(*result));
    return exit_ok;
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
         "draw the empirical cone map (.png or .svg; NAME.gp and NAME.map.dat are written beside it); "
         "three rods: the circle of gamma-, four: the sphere in an equal-area projection")
        ("json", "print the summary as one JSON document instead of the table")
        ("export-law", po::value<std::string>()->value_name("FILE"),
         "write the identified law (cones, facets, rays, matrices; JSON) for laws --law identified:FILE")
        ("seed", po::value<std::string>()->value_name("S"),
         "four and more rods: the seed of the low-discrepancy directions (5 rods and more; default 1)");
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
    if (vm.count("export-law"))
        if (auto status = check_output_flag("sweep", "export-law", vm["export-law"].as<std::string>())) return *status;
    std::uint64_t seed = 1;
    try {
        if (const auto s = integer_flag(vm, "seed")) {
            input::require("seed", input::integer_within(*s, 0, std::numeric_limits<long long>::max()));
            seed = static_cast<std::uint64_t>(*s);
        }
    } catch (const InvalidInput& e) {
        return usage_error("sweep", flag_error(e, visible));
    }

    std::optional<Case> loaded = load_case_with_flags("sweep", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    options.solver = c.solver;
    if (c.chain.size() > 3) {
        return run_cone_sweep(c, options, seed, vm, visible);
    }
    try {
        check_sweep_chain(c.chain);
        if (vm.count("export-law")) check_cone_sweep_chain(c.chain);  // the law comes from a cone sweep
        validate(options);
    } catch (const InvalidInput& e) {
        return usage_error("sweep", flag_error(e, visible));
    }

    const unsigned threads = options.threads;  // --threads, or all hardware threads
    if (mpi::size() > 1) {
        try {
            mpi::use_ranks_as_shards(options, vm.count("shard") > 0, vm.count("threads") > 0);
            validate(options);
        } catch (const InvalidInput& e) {
            return usage_error("sweep", flag_error(e, visible));
        }
    }

    ProgressReporter progress("sweep");
    options.progress = [&progress](std::size_t done, std::size_t total) { progress.report(done, total); };
    std::optional<SweepResult> result;
    auto gathered = mpi::run_and_gather("sweep", progress, [&] {
        result = sweep(c.title, c.chain, options);
        return mpi::size() > 1 ? pack_points(*result) : std::string();
    });
    if (const int* status = std::get_if<int>(&gathered)) return *status;
    if (mpi::size() > 1) {  // rank 0 joins the ranks' shards into the one sweep
        const std::vector<std::string>& parts = std::get<std::vector<std::string>>(gathered);
        std::vector<SweepResult> shards;
        for (std::size_t r = 0; r < parts.size(); ++r)
            shards.push_back(r == 0 ? *result : unpack_points(*result, {r + 1, parts.size()}, parts[r]));
        result = merge_sweeps(std::move(shards), options.linear_tolerance);
        options.shard = Shard{};
        options.threads = threads;  // the law's cone sweep, on rank 0 alone: the other ranks are done
    }
    if (vm.count("export-law")) {  // three rods: the printed sweep stays as it is; the law comes from a cone sweep
        ConeSweepOptions cone = cone_options(options, seed);
        cone.properties = false;
        cone.progress = nullptr;
        write_file_atomically(vm["export-law"].as<std::string>(),
                              laws::identified_law_json(cone_sweep(c.title, c.chain, cone).law).dump(1) + "\n");
    }
    if (vm.count("csv")) write_file_atomically(vm["csv"].as<std::string>(), sweep_csv(*result));
    if (vm.count("plot")) write_sweep_plot(*result, vm["plot"].as<std::string>());
    if (vm.count("json"))
        fmt::print("{}\n", sweep_json(*result).dump(2));
    else
        fmt::print("{}", sweep_table(*result));
    return exit_ok;
}

const RegisterCommand registered{"sweep", "sweep the impact map of three or more rods over all gamma- directions, find its cones, compare with the laws",
                                 &run_sweep};

}  // namespace

}  // namespace rodcollide::cli
