// Python bindings of rodcollide (docs/python.md): the pieces each binding file registers on the module
// `rodcollide._core`, and the conversions they share. Only the library's public API is used:
// load_case/parse_case (and Chain for plain rods), solve, outcome_json, compare/comparison_json,
// sweep/sweep_json/sweep_csv, ensemble/ensemble_json/merge_ensembles, laws::apply_law/to_json, solve_characteristics + WaveField::state_at.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/solver_options.hpp"

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <optional>

namespace rodcollide::python {

namespace py = pybind11;

/// A JSON document as Python objects (dict, list, float, int, str, bool, None), exactly as
/// json.loads would read the CLI's output: non-finite numbers become None, as nlohmann writes
/// them as null.
py::object to_python(const nlohmann::ordered_json& j);

/// The solver options of a run: the given ones (the case's with keyword overrides) or the case's.
inline SolverOptions solver_options(const Case& c, const std::optional<SolverOptions>& given) {
    SolverOptions o = given ? *given : c.solver;
    o.progress = nullptr;
    return o;
}

/// Raised instead of finishing a run when Python has a pending signal (see without_gil).
struct Interrupted {};

/// Runs `solve` with the GIL released. The options get a progress callback that takes the GIL
/// now and then to check for signals, so that Ctrl-C (KeyboardInterrupt) stops a long run; the
/// solver calls it from this thread only.
template <class Solve>
auto without_gil(SolverOptions& options, Solve&& solve) -> decltype(solve()) {
    options.progress = [](double, std::size_t) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw Interrupted{};
    };
    try {
        py::gil_scoped_release released;
        return solve();
    } catch (const Interrupted&) {
        throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals set
    }
}

void bind_case(py::module_& m);      // Case, SolverOptions, load_case, parse_case, plain_case
void bind_solve(py::module_& m);     // run -> Outcome, field
void bind_compare(py::module_& m);   // compare, sweep -> Sweep
void bind_laws(py::module_& m);      // apply_law -> LawResult, law_names
void bind_ensemble(py::module_& m);  // ensemble -> Ensemble, merge_ensembles

}  // namespace rodcollide::python
