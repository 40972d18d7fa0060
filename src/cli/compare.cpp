// `rodcollide compare CASE`: solves a case and compares its outcome with the rigid impact laws
// (include/rodcollide/compare.hpp); prints a table or JSON.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/compare.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/identified.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solve.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <optional>
#include <stdexcept>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;

const char* const compare_help = R"(usage: rodcollide compare CASE [options]

Solves the collision of the case file CASE with the wave model and compares the outcome with the
rigid impact laws applied to the same chain taken as rigid bodies: masses rho*A*L, the case's
initial velocities, every contact closed at one instant (gaps are ignored by the laws; the output
says so when the case has gaps).

For each law: the final velocities u+, the distance to the wave outcome in the kinetic metric,
||u+_law - u+_wave||_M / ||u- - u_cm||_M (0 = the same outcome; undefined when nothing moves
relative to the centre of mass), the energy ratio T+/T- and the consistency flags (gamma+ >= 0,
Lambda >= 0, T+ <= T-).

About the wave outcome: its share of energy in rigid motion; its consistency as an impact law;
the sampled properties of the wave map gamma- -> gamma+ of the rods touching (non-expansivity in
the G^-1 metric, monotonicity, cyclic monotonicity, homogeneity, continuity; at most 5,475 exact
solves, chains of at most 4 rods); for three rods the cone of gamma- (Winandy & Leine 2015 Fig. 4a)
and the law that comes closest. The restitution it implies: the effective energetic coefficient
sqrt(T+_rel/T-_rel) in the centre-of-mass frame, and, when rod 1 alone strikes the others
(Brogliato, Zhang & Liu 2012 §7.1), the first column of the restitution matrix E_n
of the kinematic law.

A chain of balls and masses alone (compliant contacts: Hertz, or contact_stiffness and
contact_exponent, dashpots allowed) is compared the same way: the rigid laws at its masses and
initial velocities, every contact closed, beside its compliant outcome (the ODE of
docs/physics.md §9.9, solved by --method), labelled "compliant" ("wave" in the JSON, with
"outcome_model": "compliant contacts"). A chain of rods with compliant contacts, masses or balls is
refused.

examples:
  rodcollide compare cases/seed000_three_rods.toml
  rodcollide compare cases/compliant/hertz_cradle_3.toml
  rodcollide compare cases/steel_cradle_5.toml --laws sequential,newton --restitution 0.9
  rodcollide compare cases/saint_venant_short_striker.toml --json | jq '.laws[].distance'
)";

int run_compare(const std::vector<std::string>& args) {
    po::options_description visible("options");
    CommonSolverFlags flags;
    visible.add_options()
        ("help,h", "show this help")
        ("laws", po::value<std::string>()->value_name("L1,L2,..."),
         "laws to compare with: sequential, newton, poisson, kinematic (default: all four)")
        ("restitution", po::value<std::string>()->value_name("E"),
         "newton, poisson: global eps in [0, 1]; kinematic: E_n = E*I (default 1, elastic); the "
         "sequential law is elastic")
        ("no-properties", "do not sample the wave map's properties")
        ("json", "print one JSON document: {\"wave\": the run JSON, \"laws\": [...], ...}");
    flags.add_to(visible);
    po::variables_map vm;
    if (auto status = parse_case_command_line("compare", compare_help, args, visible, vm)) return *status;
    if (auto status = flags.read("compare", vm)) return *status;

    CompareOptions options;
    try {
        if (vm.count("laws")) options.laws = split_list(vm["laws"].as<std::string>());
        options.restitution = number_flag(vm, "restitution");
        options.wave_map_properties = !vm.count("no-properties");
        validate(options);
    } catch (const InvalidInput& e) {
        return usage_error("compare", flag_error(e, visible));
    }

    std::optional<Case> loaded = load_case_with_flags("compare", vm, flags);
    if (!loaded) return exit_bad_input;
    Case& c = *loaded;
    try {
        check_compare_chain(c.chain);
        // An identified law must be the law of this chain: its bodies and masses (before any work).
        for (const std::string& law : options.laws) {
            if (!laws::is_identified_law_name(law)) continue;
            laws::LawParameters p;
            p.law = law;
            try {
                laws::apply_law(p, impact_matrices(c.chain.masses()), Eigen::VectorXd::Zero(static_cast<Eigen::Index>(c.chain.size())));
            } catch (const InvalidInput& e) {
                throw InvalidInput("laws", e.message());
            }
        }
    } catch (const InvalidInput& e) {
        return usage_error("compare", flag_error(e, visible));
    }

    ProgressReporter progress("compare");
    c.solver.progress = progress.callback();
    std::optional<Comparison> result;
    try {
        result = compare(c, options);
    } catch (const UnsupportedMethod& e) {
        return usage_error("compare", e.what());
    } catch (const InvalidResolution& e) {  // a grid over the limits, refused before it is built
        return usage_error("compare", e.what());
    }
    progress.finish();
    if (vm.count("json"))
        fmt::print("{}\n", comparison_json(*result).dump(2));
    else
        fmt::print("{}", comparison_table(*result));
    for (const std::string& w : result->wave.warnings) fmt::print(stderr, "rodcollide compare: warning: {}\n", w);
    for (const LawComparison& lc : result->laws)
        if (lc.result.sequential && lc.result.sequential->cap_hit) {
            fmt::print(stderr, "rodcollide compare: the sequential law hit its cap of {} two-ball impacts\n",
                       lc.result.sequential->max_impacts);
            return exit_failure;
        }
    return exit_ok;
}

const RegisterCommand registered{"compare", "compare a case's wave outcome with the rigid impact laws (table or --json)",
                                 &run_compare};

}  // namespace

}  // namespace rodcollide::cli
