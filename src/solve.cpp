// Method dispatch for solve() and solve_with_field().
#include "rodcollide/solve.hpp"

#include "rodcollide/characteristics.hpp"
#include "rodcollide/finite_difference.hpp"

#include <algorithm>

namespace rodcollide {

Outcome solve(const Chain& chain, const SolverOptions& options) {
    validate(options);
    switch (options.method) {
        case Method::characteristics: {
            SolverOptions o = options;
            o.keep_history = false;  // only the outcome is wanted
            return solve_characteristics(chain, o).outcome;
        }
        case Method::finite_difference:
            return solve_finite_difference(chain, options).outcome;
    }
    throw UnsupportedMethod("unknown method");
}

SolutionWithField solve_with_field(const Chain& chain, const SolverOptions& options, std::size_t times,
                                   std::size_t positions) {
    validate(options);
    validate(FieldResolution{times, positions});
    if (options.method == Method::finite_difference) {
        FiniteDifferenceSolution s = solve_finite_difference(chain, options, FieldResolution{times, positions});
        return {std::move(s.outcome), std::move(*s.field)};
    }
    SolverOptions o = options;
    o.keep_history = true;
    CharacteristicsSolution s = solve_characteristics(chain, o);
    const double t_end = std::min(std::max(s.outcome.end_time, options.record_until.value_or(0.0)),
                                  s.field.valid_until());
    FieldSamples field = sample_field(s.field, t_end, t_end > 0 ? times : 1, positions);
    return {std::move(s.outcome), std::move(field)};
}

}  // namespace rodcollide
