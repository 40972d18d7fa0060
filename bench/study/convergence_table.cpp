// Prints the finite-difference convergence table of docs/finite_difference.md: for each study
// chain (tests/support/convergence_study.hpp), the phase-averaged and worst error of the final
// velocities against the exact solver, the order between successive N and the energy drift. A
// study, not a test: tests/solvers/fd/test_finite_difference_convergence.cpp asserts the orders.
//   build/rodcollide_convergence_table     (about 4 s)
#include "../../tests/support/convergence_study.hpp"

#include <fmt/format.h>

#include <cmath>

int main() {
    using namespace rodcollide;
    using namespace rodcollide::testing;
    const std::vector<std::size_t> cells = {50, 100, 200, 400, 800, 1600, 3200};
    std::vector<StudyChain> chains = study_chains();
    for (StudyChain& c : end_study_chains()) chains.push_back(std::move(c));
    for (const StudyChain& c : chains) {
        const Outcome exact = solve_characteristics(c.chain, {}).outcome;
        fmt::print("\n{}\n\n| cells N | mean error | max error | order | mean energy drift |\n|---:|---:|---:|---:|---:|\n", c.name);
        double previous = 0;
        std::vector<double> means;
        for (std::size_t n : cells) {
            const ErrorAt e = error_at(c.chain, exact, n);
            means.push_back(e.mean);
            fmt::print("| {} | {:.2e} | {:.2e} | {} | {:.1e} |\n", n, e.mean, e.worst,
                       previous > 0 ? fmt::format("{:.2f}", std::log2(previous / e.mean)) : "", e.drift);
            previous = e.mean;
        }
        fmt::print("\nleast-squares order, N = 100..1600: {:.2f}\n",
                   observed_order({cells.begin() + 1, cells.end() - 1}, {means.begin() + 1, means.end() - 1}));
    }
}
