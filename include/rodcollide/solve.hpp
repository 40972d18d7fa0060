// Runs the solver a case asks for and returns its Outcome: the single entry point the CLI, the
// comparison module and the validation suite use, so both solvers answer the same questions.
#pragma once

#include "rodcollide/chain.hpp"
#include "rodcollide/outcome.hpp"
#include "rodcollide/solver_options.hpp"

#include <stdexcept>

namespace rodcollide {

/// The requested method is not available in this build.
class UnsupportedMethod : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Solves with options.method. Throws UnsupportedMethod, SolverLimitExceeded.
Outcome solve(const Chain& chain, const SolverOptions& options);

}  // namespace rodcollide
