// Field samples from either solver (field_history.hpp).
#include "rodcollide/field_history.hpp"

#include "rodcollide/characteristics.hpp"
#include "rodcollide/solve.hpp"

#include <algorithm>

namespace rodcollide {

namespace {

/// Keeps the rows at times <= t_end (a grid solver may have run a little longer).
FieldSamples until(FieldSamples f, double t_end) {
    const auto rows = static_cast<Eigen::Index>(
        std::upper_bound(f.t.begin(), f.t.end(), t_end * (1 + 1e-12)) - f.t.begin());
    f.t.resize(static_cast<std::size_t>(rows));
    f.velocity.conservativeResize(rows, Eigen::NoChange);
    f.force.conservativeResize(rows, Eigen::NoChange);
    return f;
}

}  // namespace

FieldSamples solve_field(const Chain& chain, const SolverOptions& options, double t_end, std::size_t nt, std::size_t nx) {
    SolverOptions o = options;
    o.record_until = t_end;
    switch (options.method) {
        case Method::characteristics:
            o.keep_history = true;
            return sample_field(solve_characteristics(chain, o).field, t_end, nt, nx);
        case Method::finite_difference:
            return until(solve_with_field(chain, o, nt, nx).field, t_end);
    }
    throw UnsupportedMethod("unknown method");
}

}  // namespace rodcollide
