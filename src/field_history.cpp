// Field samples from either solver (field_history.hpp).
#include "rodcollide/field_history.hpp"

#include "rodcollide/characteristics.hpp"
#include "rodcollide/solve.hpp"

namespace rodcollide {

FieldSamples solve_field(const Chain& chain, const SolverOptions& options, double t_end, std::size_t nt, std::size_t nx) {
    switch (options.method) {
        case Method::characteristics: {
            SolverOptions o = options;
            o.keep_history = true;
            o.record_until = t_end;
            return sample_field(solve_characteristics(chain, o).field, t_end, nt, nx);
        }
        case Method::finite_difference:
            return finite_difference_field(chain, options, t_end, nt, nx);
    }
    throw UnsupportedMethod("unknown method");
}

// SEAM for the finite-difference solver (issue 4): replace this stub with its field history.
FieldSamples finite_difference_field(const Chain&, const SolverOptions&, double, std::size_t, std::size_t) {
    throw UnsupportedMethod("method finite-difference: field history not available in this build; use characteristics");
}

}  // namespace rodcollide
