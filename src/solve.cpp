// Method dispatch for solve().
#include "rodcollide/solve.hpp"

#include "rodcollide/characteristics.hpp"

namespace rodcollide {

Outcome solve(const Chain& chain, const SolverOptions& options) {
    switch (options.method) {
        case Method::characteristics: {
            SolverOptions o = options;
            o.keep_history = false;  // only the outcome is wanted
            return solve_characteristics(chain, o).outcome;
        }
        case Method::finite_difference:
            break;
    }
    throw UnsupportedMethod("method finite-difference: not available yet; use characteristics");
}

}  // namespace rodcollide
