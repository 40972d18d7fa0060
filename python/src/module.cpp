// The extension module rodcollide._core (docs/python.md): exceptions and the bindings of each part
// of the library. The public Python API (rodcollide/__init__.py) is built on top of it.
#include "bindings.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/solver_options.hpp"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace rodcollide::python {

py::object to_python(const nlohmann::ordered_json& j) {
    using value_t = nlohmann::ordered_json::value_t;
    switch (j.type()) {
    case value_t::null: return py::none();
    case value_t::boolean: return py::bool_(j.get<bool>());
    case value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case value_t::number_float: {
        const double x = j.get<double>();
        return std::isfinite(x) ? py::object(py::float_(x)) : py::object(py::none());
    }
    case value_t::string: return py::str(j.get_ref<const std::string&>());
    case value_t::array: {
        py::list list;
        for (const auto& item : j) list.append(to_python(item));
        return list;
    }
    case value_t::object: {
        py::dict dict;
        for (const auto& [key, value] : j.items()) dict[py::str(key)] = to_python(value);
        return dict;
    }
    default: throw std::runtime_error("to_python: unsupported JSON value");
    }
}

}  // namespace rodcollide::python

PYBIND11_MODULE(_core, m) {
    namespace py = pybind11;
    using namespace rodcollide::python;
    m.doc() = "rodcollide's C++ library; use the package `rodcollide`, not this module";
    m.attr("__version__") = RODCOLLIDE_VERSION;

    // Bad input is a ValueError carrying the CLI's one-line "FILE:LINE: KEY: message".
    auto case_error = py::register_exception<rodcollide::CaseError>(m, "CaseError", PyExc_ValueError);
    case_error.attr("__module__") = "rodcollide";
    case_error.doc() = "Bad case input: the CLI's one-line message \"FILE:LINE: KEY: message\".";
    auto limit = py::register_exception<rodcollide::SolverLimitExceeded>(m, "SolverLimitExceeded",
                                                                          PyExc_RuntimeError);
    limit.attr("__module__") = "rodcollide";
    limit.doc() = "A solver cap (max_events, max_fronts, cells, work) was reached; the message says how to raise it.";

    bind_case(m);
    bind_solve(m);
    bind_compare(m);
    bind_laws(m);
    bind_ensemble(m);
}
