// The calibration table of the finite-difference error estimate (docs/finite_difference.md, "Error
// estimate"): on seeded random chains (tests/support/fd_calibration.hpp) the share of chains whose stated
// error covers the actual one, and the quantiles of actual / stated. A study; the test is
// tests/solvers/fd/test_finite_difference_calibration.cpp.
//   build/rodcollide_fd_calibration [--seed 2] [--chains 300] [--from 0] [--rows FILE]
//                                   [--grids 1000,707,500] [--write K] [--merge A.jsonl,B.jsonl]
// --rows writes one JSON line per chain; --grids adds each chain's final velocities on those
// fixed grids (single runs, no estimate: for studying estimators); --write K prints chain K as a
// case file; --merge prints the table of rows written by several runs (parts of one set run apart).
#include "../../tests/support/fd_calibration.hpp"

#include <fmt/format.h>
#include <fmt/os.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <cstring>
#include <optional>
#include <sstream>

using namespace rodcollide;
using namespace rodcollide::testing;

namespace {

std::string json_number(double x) { return std::isfinite(x) ? fmt::format("{:.17g}", x) : "null"; }

std::string velocities_on(const Chain& chain, std::size_t cells) {
    SolverOptions options;
    options.method = Method::finite_difference;
    try {
        const FiniteDifferenceSolution s = solve_on_grid(chain, options, choose_grid(chain, cells), std::nullopt, {});
        std::vector<std::string> v;
        for (const RodOutcome& r : s.outcome.rods) v.push_back(json_number(r.final_velocity));
        return fmt::format("[{}]", fmt::join(v, ","));
    } catch (const std::exception&) {
        return "null";
    }
}

std::string row_json(const CalibrationRow& r) {
    return fmt::format(R"({{"k":{},"label":"{}","rods":{},"scale":{},"exact_events":{},"exact_bound":{},"finished":{},)"
                       R"("error":{},"bound":{},"met":{},"exact_grid":{},"warned":{},"cells":{},"estimate_cells":{},)"
                       R"("seconds":{:.3f})",
                       r.k, r.label, r.rods, json_number(r.scale), r.exact_events, json_number(r.exact_bound),
                       r.fd_finished, json_number(r.error), json_number(r.bound), r.target_met, r.exact_grid, r.warned,
                       r.cells, r.estimate_cells, r.seconds);
}

double number_or_inf(const nlohmann::json& j) { return j.is_null() ? INFINITY : j.get<double>(); }

CalibrationRow row_from_json(const nlohmann::json& j) {
    CalibrationRow r;
    r.k = j["k"];
    r.label = j["label"];
    r.rods = j["rods"];
    r.scale = j["scale"];
    r.exact_events = j["exact_events"];
    r.exact_bound = number_or_inf(j["exact_bound"]);
    r.fd_finished = j["finished"];
    r.error = number_or_inf(j["error"]);
    r.bound = number_or_inf(j["bound"]);
    r.target_met = j["met"];
    r.exact_grid = j["exact_grid"];
    r.warned = j["warned"];
    r.cells = j["cells"];
    r.estimate_cells = j["estimate_cells"];
    r.seconds = j["seconds"];
    return r;
}

/// The calibration table: chains whose estimate came from coarser grids, and what the others did.
void print_table(const std::vector<CalibrationRow>& all) {
    std::vector<double> ratios, seconds;
    std::size_t finished = 0, compared = 0, exact_grids = 0, estimated = 0, covered = 0, within_2 = 0, warned = 0,
                missed = 0, none = 0, uncovered_claims = 0;
    for (const CalibrationRow& r : all) {
        seconds.push_back(r.seconds);
        if (!r.fd_finished) continue;
        ++finished;
        if (!r.reference_exact()) continue;
        ++compared;
        warned += r.warned;
        missed += !r.target_met;
        if (r.exact_grid) {
            ++exact_grids;
            continue;
        }
        if (!std::isfinite(r.bound)) {
            ++none;
            continue;
        }
        ++estimated;
        ratios.push_back(r.ratio());
        covered += r.error <= r.bound;
        within_2 += r.error <= 2 * r.bound;
        uncovered_claims += r.target_met && r.error > r.bound;
    }
    double total = 0;
    for (double x : seconds) total += x;
    fmt::print("{} chains: the grid finished {} (the others reached the work limit) and {} are compared ({} left out: the "
               "exact solver's own rounding check allows more than a tenth of the grid's error); {} ran on exact grids. "
               "CPU time of the grid runs: median {:.2f} s, total {:.0f} s.\n",
               all.size(), finished, compared, finished - compared, exact_grids, quantile(seconds, 0.5), total);
    fmt::print("| chains with an estimate from coarser grids | covered (error <= stated) | within 2x | actual / stated: "
               "median | 95 % | 99 % | max | target not met (warned) | no estimate | uncovered and claimed met |\n");
    fmt::print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    fmt::print("| {} | {} ({:.1f} %) | {} | {:.3g} | {:.3g} | {:.3g} | {:.3g} | {} ({}) | {} | {} |\n", estimated, covered,
               100.0 * static_cast<double>(covered) / static_cast<double>(std::max<std::size_t>(estimated, 1)), within_2,
               quantile(ratios, 0.5), quantile(ratios, 0.95), quantile(ratios, 0.99), quantile(ratios, 1.0), missed,
               warned, none, uncovered_claims);
}

}  // namespace

int main(int argc, char** argv) {
    unsigned seed = 2, chains = 300, from = 0;
    std::optional<unsigned> write;
    std::vector<std::size_t> grids;
    std::vector<std::string> merge;
    std::optional<fmt::ostream> rows;
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string key = argv[a], value = argv[a + 1];
        std::vector<std::string> items;
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');) items.push_back(item);
        if (key == "--seed") seed = static_cast<unsigned>(std::stoul(value));
        else if (key == "--chains") chains = static_cast<unsigned>(std::stoul(value));
        else if (key == "--from") from = static_cast<unsigned>(std::stoul(value));
        else if (key == "--write") write = static_cast<unsigned>(std::stoul(value));
        else if (key == "--rows") rows.emplace(fmt::output_file(value));
        else if (key == "--merge") merge = items;
        else if (key == "--grids") {
            for (const std::string& item : items) grids.push_back(std::stoul(item));
        } else {
            fmt::print(stderr, "unknown option {}\n", key);
            return 2;
        }
    }
    if (write) {
        std::string label;
        const Chain chain = calibration_chain(seed, *write, &label);
        fmt::print("{}", case_text(chain, label));
        return 0;
    }
    std::vector<CalibrationRow> all;
    if (!merge.empty()) {
        for (const std::string& file : merge) {
            std::ifstream in(file);
            for (std::string line; std::getline(in, line);)
                if (!line.empty()) all.push_back(row_from_json(nlohmann::json::parse(line)));
        }
        print_table(all);
        return 0;
    }

    for (unsigned k = from; k < from + chains; ++k) {
        CalibrationRow r = calibrate_one(seed, k);
        fmt::print(stderr, "{:4} {:2} rods  error {:9.2e}  stated {:9.2e}  ratio {:7.3f}  {}{}{} {:6.2f} s  {}\n", k, r.rods,
                   r.error / r.scale, r.bound / r.scale, r.ratio(), r.target_met ? "met " : "MISS",
                   r.warned ? " warn" : "     ", r.exact_grid ? " exact" : "      ", r.seconds,
                   r.fd_finished ? "" : r.fd_failure.substr(0, 60));
        if (rows) {
            std::string line = row_json(r);
            if (!grids.empty() && r.fd_finished && !r.exact_grid) {  // an exact grid is exact on every grid
                const Chain chain = calibration_chain(seed, k);
                const Outcome exact = solve_characteristics(chain, {}).outcome;
                std::vector<std::string> u;
                for (const RodOutcome& x : exact.rods) u.push_back(json_number(x.final_velocity));
                line += fmt::format(R"(,"u_exact":[{}],"grids":{{)", fmt::join(u, ","));
                for (std::size_t g = 0; g < grids.size(); ++g)
                    line += fmt::format(R"({}"{}":{})", g ? "," : "", grids[g], velocities_on(chain, grids[g]));
                line += "}";
            }
            rows->print("{}}}\n", line);
            rows->flush();
        }
        all.push_back(std::move(r));
    }
    fmt::print("seed {}, chains {} to {}. ", seed, from, from + chains - 1);
    print_table(all);
}
