// `rodcollide laws`: parses options, applies one rigid impact law (include/rodcollide/laws/) to a
// chain of touching balls, optionally checks the law's properties, and prints a table or JSON.
#include "command.hpp"
#include "options.hpp"

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/laws/report.hpp"
#include "rodcollide/laws/sequential.hpp"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::cli {

namespace {

namespace po = boost::program_options;
using namespace rodcollide::laws;

/// Longest chain `laws` accepts, and longest for --check-properties (thousands of law calls).
constexpr Eigen::Index max_balls_properties = 32;

Eigen::VectorXd parse_list(const std::string& text, const std::string& option) {
    const std::vector<std::string> parts = split_list(text, ',');
    Eigen::VectorXd v(static_cast<Eigen::Index>(parts.size()));
    for (std::size_t i = 0; i < parts.size(); ++i) v[static_cast<Eigen::Index>(i)] = parse_number(parts[i], option);
    return v;
}

Eigen::MatrixXd parse_matrix(const std::string& text, const std::string& option) {
    std::vector<Eigen::VectorXd> rows;
    for (const std::string& row : split_list(text, ';')) rows.push_back(parse_list(row, option));
    Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), rows.front().size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].size() != m.cols())
            throw InvalidInput(option, fmt::format("row {} has {} entries but row 1 has {}", i + 1, rows[i].size(), m.cols()));
        m.row(static_cast<Eigen::Index>(i)) = rows[i].transpose();
    }
    return m;
}

po::options_description option_descriptions() {
    po::options_description d("options");
    d.add_options()
        ("help", "print this help and exit (also -h)")
        ("law", po::value<std::string>()->value_name("LAW"),
         "sequential | newton | poisson | kinematic (required)")
        ("masses", po::value<std::string>()->value_name("M1,M2,..."),
         "masses m_i > 0 [kg] of the balls, left to right, 2 to 1000 balls (required)")
        ("velocities", po::value<std::string>()->value_name("U1,U2,..."),
         "pre-impact velocities u-_i [m/s], one per ball (required)")
        ("restitution", po::value<std::string>()->value_name("E | E1,E2,..."),
         "newton, poisson: eps in [0,1], one value for every contact or one per contact "
         "(default 1, elastic); kinematic: E_n = e I or diag(e1,e2,...)")
        ("restitution-matrix", po::value<std::string>()->value_name("\"R1;R2;...\""),
         "kinematic only: E_n, (n-1)x(n-1), rows separated by ';', entries by ',' (default I)")
        ("order", po::value<std::string>()->value_name("ORDER"),
         "sequential only: which approaching contact impacts first: most-negative (default: the "
         "fastest approaching; ties to the left), left-to-right (the leftmost), right-to-left "
         "(the rightmost)")
        ("max-impacts", po::value<std::string>()->value_name("N"),
         "sequential only: cap on two-ball impacts (default 1000000); hitting it is reported and "
         "gives exit status 1")
        ("check-properties",
         "also sample the law's map gamma- -> gamma+: non-expansivity (G^-1 metric), monotonicity, "
         "cyclic monotonicity, positive homogeneity, continuity (fixed sample counts: at most "
         "13,245 law evaluations; at most 32 balls)")
        ("json", "print one JSON document instead of the table");
    return d;
}

void print_help(const po::options_description& d) {
    std::cout << "rodcollide laws: applies a rigid impact law to a chain of balls on a line.\n\n"
                 "usage: rodcollide laws --law LAW --masses M1,M2,... --velocities U1,U2,... [options]\n\n"
                 "The balls are listed left to right and all touch: every contact is closed. Contact k\n"
                 "lies between balls k and k+1; its velocity gamma_k = u_{k+1} - u_k is < 0 when they\n"
                 "approach. Every law gives the post-impact velocities u+, the contact impulses Lambda,\n"
                 "gamma- and gamma+, the energy ratio T+/T- (from the velocities; 1 if nothing moves) and\n"
                 "three flags: kinematic (gamma+ >= 0), kinetic (Lambda >= 0), energetic (T+ <= T-), each\n"
                 "up to a relative rounding tolerance of 1e-10. An inconsistent result is printed and\n"
                 "flagged, not refused.\n\n"
                 "laws:\n"
                 "  sequential  Sequential Impact Law (Winandy & Leine 2015 §3): elastic two-ball\n"
                 "              impacts at approaching contacts until none approaches, in the --order\n"
                 "              given. Three equal masses: exactly the cone-wise linear map of eq. (23),\n"
                 "              reported with its cone (I, IIa, IIb, III, IVa, IVb) and matrix Q.\n"
                 "  newton      generalized Newton/Moreau law (Leine & Baumann 2014 eq. 7):\n"
                 "              0 <= Lambda ⊥ gamma+ + eps gamma- >= 0 at every contact, solved exactly\n"
                 "              as an LCP by principal pivoting. --restitution, default 1.\n"
                 "  poisson     generalized Poisson law (Glocker 2001; Yunt 2014 §7): a compression LCP, then\n"
                 "              an expansion LCP with Lambda_e >= eps Lambda_c. --restitution, default 1.\n"
                 "  identified:FILE  the cone-wise linear law identified from waves by\n"
                 "              `rodcollide sweep CASE --export-law FILE` (docs/identified_law.md)\n"
                 "  kinematic   kinematic restitution law (Brogliato, Zhang & Liu 2012 eq. 12):\n"
                 "              normalised contact velocities D^-1 gamma, D = diag(sqrt(G_kk)), map as\n"
                 "              v+ = -E_n v-. No complementarity: consistency is only checked.\n"
                 "              --restitution-matrix, or --restitution; default E_n = I.\n\n"
              << d
              << "\nexamples:\n"
                 "  rodcollide laws --law newton --masses 1,1,1 --velocities 1,0,0 --restitution 0.5\n"
                 "  rodcollide laws --law sequential --masses 1,1,1 --velocities 2,0,-1 --json\n"
                 "  rodcollide laws --law kinematic --masses 1,1,1,1 --velocities 1,0,0,0 \\\n"
                 "      --restitution-matrix \"0,1,0;1,0,0;0,0,0\"\n"
                 "  rodcollide laws --law newton --masses 1,2,3 --velocities 1,0,-1 --restitution 0.9,0.7 \\\n"
                 "      --check-properties\n\n"
                 "exit status: 0 success, 1 the sequential impact cap was hit (result printed, flagged),\n"
                 "2 bad input (one line on stderr, nothing on stdout).\n";
}

struct Request {
    LawParameters law;
    Eigen::VectorXd masses, velocities;
    bool check_properties = false;
    bool json = false;
};

std::string required(const po::variables_map& vm, const std::string& option) {
    if (!vm.count(option)) throw InvalidInput(option, input::missing("it is required"));
    return vm[option].as<std::string>();
}

/// The request, checked by the library's own checks (masses, velocities, law parameters) and the
/// command's caps; a mistake throws InvalidInput naming the option.
Request parse_request(const po::variables_map& vm) {
    Request q;
    q.law.law = required(vm, "law");
    q.masses = parse_list(required(vm, "masses"), "masses");
    q.velocities = parse_list(required(vm, "velocities"), "velocities");
    const Eigen::Index n = q.masses.size();
    laws::validate_balls(q.masses, q.velocities);
    if (vm.count("restitution")) q.law.restitution = parse_list(vm["restitution"].as<std::string>(), "restitution");
    if (vm.count("restitution-matrix"))
        q.law.restitution_matrix = parse_matrix(vm["restitution-matrix"].as<std::string>(), "restitution-matrix");
    for (const char* option : {"order", "max-impacts"})
        if (vm.count(option) && q.law.law != "sequential") throw InvalidInput(option, "only the sequential law takes it");
    if (vm.count("order")) q.law.sequential.order = parse_impact_order(vm["order"].as<std::string>());
    if (vm.count("max-impacts"))
        q.law.sequential.max_impacts = parse_integer(vm["max-impacts"].as<std::string>(), "max-impacts");
    q.check_properties = vm.count("check-properties") > 0;
    if (q.check_properties && n > max_balls_properties)
        throw InvalidInput("check-properties", fmt::format("at most {} balls, got {}", max_balls_properties, n));
    q.json = vm.count("json") > 0;
    validate_law_parameters(q.law, n);
    return q;
}

int run_laws(const std::vector<std::string>& args) {
    const po::options_description options = option_descriptions();
    Request q;
    if (std::find(args.begin(), args.end(), "-h") != args.end()) {
        print_help(options);
        return exit_ok;
    }
    try {
        po::variables_map vm;
        // No short options besides -h, so that a value such as "-1,0,0" is not taken for one.
        const int style = po::command_line_style::unix_style ^ po::command_line_style::allow_short;
        po::store(po::command_line_parser(args)
                      .options(options)
                      .style(style)
                      .positional(po::positional_options_description{})  // no bare words
                      .run(),
                  vm);
        if (vm.count("help")) {
            print_help(options);
            return exit_ok;
        }
        q = parse_request(vm);
    } catch (const po::error& e) {
        return usage_error("laws", e.what());
    } catch (const InvalidInput& e) {
        return usage_error("laws", flag_error(e, options));
    }

    const ImpactMatrices im = impact_matrices(q.masses);
    std::optional<LawResult> applied;
    std::optional<PropertyReport> properties;
    try {  // an identified law may refuse the masses (not its chain's) or gamma- (in none of its cones)
        applied = apply_law(q.law, im, q.velocities);
        if (q.check_properties) properties = check_properties(contact_map(q.law, im), im);
    } catch (const InvalidInput& e) {
        return usage_error("laws", flag_error(e, options));
    }
    const LawResult& result = *applied;

    if (q.json) {
        nlohmann::ordered_json j = to_json(result, q.law);
        if (properties) j["properties"] = to_json(*properties);
        fmt::print("{}\n", j.dump(2));
    } else {
        fmt::print("{}", format_table(result, q.law));
        if (properties) fmt::print("{}", format_table(*properties));
    }
    if (result.sequential && result.sequential->cap_hit) {
        fmt::print(stderr, "rodcollide laws: the cap of {} two-ball impacts was hit (see --max-impacts)\n",
                   result.sequential->max_impacts);
        return exit_failure;
    }
    return exit_ok;
}

const RegisterCommand registration{"laws", "apply a rigid impact law (sequential, newton, poisson, kinematic) to a chain of balls",
                                   &run_laws};

}  // namespace

}  // namespace rodcollide::cli
