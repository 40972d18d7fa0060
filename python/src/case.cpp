// Cases and solver options from Python (docs/python.md): load_case / parse_case (the library's one
// input layer, whose CaseError messages the module raises unchanged), read-only views of a Case
// (rods, segments, ends, loads, gauges: dicts keyed as the case file's tables, docs/case_file.md),
// and SolverOptions, whose fields are named as the keys of a case file's [solver] table.
#include "bindings.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/case_key_table.hpp"
#include "rodcollide/solver_option_table.hpp"

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::python {

namespace {

/// A segment as its [[rod.segment]] table: every key of the key table (case_key_table.hpp).
py::dict segment_dict(const Segment& g) {
    py::dict d;
    for (const CaseKeySpec& row : case_key_table())
        if (row.segment_field) d[py::str(row.key.data(), row.key.size())] = g.*row.segment_field;
    return d;
}

/// A rod as its [[rod]] table: every number of the key table (case_key_table.hpp) its kind takes.
/// Issue 23's and 24's keys appear only where they apply, so that a rod's dict is what it always
/// was: a mass has kind, mass, velocity and gap, a ball kind, radius, density, youngs_modulus,
/// poisson_ratio, velocity and gap; the contact keys appear when the contact is compliant (not the
/// Hertz law Chain derived: its stiffness and exponent follow the radii), a rod's poisson_ratio,
/// end radii and restitution when not their defaults.
py::dict rod_dict(const Rod& r) {
    py::dict d;
    const bool compliant = !r.contact_law().rigid();
    const Rod plain{};
    for (const CaseKeySpec& row : case_key_table()) {
        if (!row.rod_field || !takes(row, r.kind)) continue;
        if (row.key.starts_with("contact_") &&
            (!compliant || (r.hertz_contact && row.rod_field != &Rod::contact_damping)))
            continue;
        const bool optional24 = row.rod_field == &Rod::end_radius || row.rod_field == &Rod::left_end_radius ||
                                row.rod_field == &Rod::right_end_radius || row.rod_field == &Rod::restitution ||
                                (row.rod_field == &Rod::poisson_ratio && !r.is_ball());
        if (optional24 && r.*row.rod_field == plain.*row.rod_field) continue;
        d[py::str(row.key.data(), row.key.size())] = r.*row.rod_field;
    }
    if (r.kind != RodKind::rod) d["kind"] = std::string(to_string(r.kind));
    return d;
}

/// A chain end as its [left] / [right] table: kind, gap for a wall only (the only end that takes
/// one), and the keys of a spring/dashpot end or a compliant wall, so that Case(left=case.ends["left"]) reads it back.
py::dict end_dict(const ChainEnd& e) {
    py::dict d;
    d["kind"] = std::string(to_string(e.kind));
    if (e.kind == EndKind::wall) d["gap"] = e.gap;
    if (e.kind == EndKind::spring || e.kind == EndKind::spring_dashpot) d["stiffness"] = e.stiffness;
    if (e.kind == EndKind::dashpot || e.kind == EndKind::spring_dashpot) d["damping"] = e.damping;
    if (e.kind == EndKind::wall && !e.contact_law().rigid()) {
        if (!e.hertz_contact) {  // a Hertz wall's law is derived from the end that meets it (Chain)
            d["contact_stiffness"] = e.contact_stiffness;
            d["contact_exponent"] = e.contact_exponent;
        }
        d["contact_damping"] = e.contact_damping;
        if (e.restitution != ChainEnd{}.restitution) d["restitution"] = e.restitution;
    }
    return d;
}

/// A load as a [[load]] table of points (the reader's, after a shape or a file).
py::dict load_dict(const Load& l) {
    py::dict d;
    d["end"] = std::string(to_string(l.end));
    d["quantity"] = std::string(to_string(l.quantity));
    d["time"] = py::array_t<double>(static_cast<py::ssize_t>(l.time.size()), l.time.data());
    d["value"] = py::array_t<double>(static_cast<py::ssize_t>(l.value.size()), l.value.data());
    return d;
}

py::dict gauge_dict(const Gauge& g) {
    py::dict d;
    d["rod"] = g.rod;
    d["x"] = g.x;
    d["name"] = g.name;
    return d;
}

std::optional<std::size_t> unless_zero(std::size_t n) { return n ? std::optional(n) : std::nullopt; }

/// A plain number as the case reader reads it: a float it reads back exactly (normal or zero,
/// so that TOML's text round trip cannot change it) or an integer of at most 2^53 in magnitude
/// (exact as a double). nullopt for anything else (bool, other types, NaN, huge integers, ...).
std::optional<double> plain_number(py::handle v) {
    if (PyFloat_Check(v.ptr())) {
        const double x = PyFloat_AS_DOUBLE(v.ptr());
        if (x == 0 || std::isnormal(x)) return x;
        return std::nullopt;
    }
    if (PyLong_Check(v.ptr()) && !PyBool_Check(v.ptr())) {
        int overflow = 0;
        const long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        if (overflow || (n == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return std::nullopt;
        }
        constexpr long long exact = 1LL << 53;  // far from int64's ends, and exact as a double
        if (n < -exact || n > exact) return std::nullopt;
        return static_cast<double>(n);
    }
    return std::nullopt;
}

/// The case Case(rods=..., title=...) describes, built without the TOML round trip when the
/// input is plain: a list of 2 to max_rods dicts whose keys are all rod keys, with plain numbers,
/// the required ones present, no gap on the first rod, and a Chain that accepts them (its
/// constructor holds the bounds). That is exactly input the case reader accepts, and it gives the same Case;
/// for anything else the result is nullopt, and the caller goes through the reader (the only
/// source of error messages). The reader's parser (toml11) takes ~0.2 ms for three rods, which
/// would dominate a loop over thousands of cases.
std::optional<Case> plain_case(py::handle rods, py::handle title, const std::string& name) {
    if (!PyList_Check(rods.ptr()) && !PyTuple_Check(rods.ptr())) return std::nullopt;
    if (!title.is_none() && !PyUnicode_Check(title.ptr())) return std::nullopt;
    const py::sequence list = py::reinterpret_borrow<py::sequence>(rods);
    const std::size_t n = list.size();
    if (n < 2 || n > max_rods) return std::nullopt;
    std::vector<Rod> chain(n);
    for (std::size_t i = 0; i < n; ++i) {
        const py::handle item = list[i];
        if (!PyDict_Check(item.ptr())) return std::nullopt;
        std::size_t found = 0;
        for (const CaseKeySpec& key : case_key_table()) {  // the [[rod]] numbers, as the case reader
            if (!key.rod_field) continue;
            const std::string name(key.key);
            PyObject* v = PyDict_GetItemString(item.ptr(), name.c_str());  // borrowed; never raises
            if (!v || v == Py_None) {
                if (needs(key, RodKind::rod)) return std::nullopt;  // a rod's material
                if (v) ++found;
                continue;
            }
            ++found;
            if (i == 0 && key.rod_field == &Rod::gap) return std::nullopt;
            const std::optional<double> x = plain_number(v);
            if (!x) return std::nullopt;  // bounds: Chain's constructor, the one check, below
            chain[i].*key.rod_field = *x;
        }
        if (found != static_cast<std::size_t>(PyDict_Size(item.ptr()))) return std::nullopt;  // an unknown key
    }
    try {
        return Case{title.is_none() ? std::filesystem::path(name).stem().string() : title.cast<std::string>(), name,
                    Chain(std::move(chain)), SolverOptions{}, {}, false, std::nullopt};
    } catch (const InvalidModel&) {
        return std::nullopt;
    }
}

}  // namespace

void bind_case(py::module_& m) {
    // The [solver] keys, from the option table (solver_option_table.hpp): the keyword arguments
    // run(), compare(), sweep() and Case.with_solver() accept.
    py::list keys;
    for (const SolverOptionSpec& o : solver_option_table()) keys.append(std::string(o.key));
    m.attr("solver_option_keys") = py::tuple(keys);
    // The other keys of a case file (case_key_table.hpp) as (table, key) pairs, table "" for the
    // top level: what Case(...) takes (python/tests/test_input.py checks it against them).
    py::list case_keys;
    for (const CaseKeySpec& row : case_key_table())
        case_keys.append(py::make_tuple(std::string(to_string(row.table)), std::string(row.key)));
    m.attr("case_keys") = py::tuple(case_keys);

    py::class_<SolverOptions>(m, "SolverOptions",
                              "Solver options, named as the keys of a case file's [solver] table")
        .def(py::init<>())
        .def_property(
            "method", [](const SolverOptions& o) { return to_string(o.method); },
            [](SolverOptions& o, const std::string& name) { o.method = method_named(name); })
        .def_readwrite("end_time", &SolverOptions::end_time)
        .def_readwrite("record_until", &SolverOptions::record_until)
        .def_readwrite("drop_tolerance", &SolverOptions::drop_tolerance)
        .def_readwrite("max_events", &SolverOptions::max_events)
        .def_readwrite("max_fronts", &SolverOptions::max_fronts)
        .def_readwrite("time_resolution", &SolverOptions::time_resolution)
        .def_readwrite("rounding_check", &SolverOptions::rounding_check)
        .def_readwrite("accuracy", &SolverOptions::accuracy)
        .def_readwrite("max_memory", &SolverOptions::max_memory)
        .def_readwrite("max_work", &SolverOptions::max_work)
        .def_property(
            "cells", [](const SolverOptions& o) { return unless_zero(o.cells); },
            [](SolverOptions& o, std::optional<std::size_t> n) { o.cells = n.value_or(0); })
        .def("__copy__", [](const SolverOptions& o) { return o; });

    py::class_<Case>(m, "Case")
        .def_readonly("title", &Case::title)
        .def_property_readonly("path", [](const Case& c) { return c.path.string(); })
        .def_property_readonly("rods",
                               [](const Case& c) {
                                   py::list rods;
                                   for (const Rod& r : c.chain.rods()) rods.append(rod_dict(r));
                                   return rods;
                               })
        .def_property_readonly("segments",
                               [](const Case& c) {
                                   py::list rods;
                                   for (const Rod& r : c.chain.rods()) {
                                       py::list segments;
                                       for (const Segment& g : r.segments) segments.append(segment_dict(g));
                                       rods.append(segments);
                                   }
                                   return rods;
                               })
        .def_property_readonly("ends",
                               [](const Case& c) {
                                   py::dict d;
                                   d["left"] = end_dict(c.chain.ends().left);
                                   d["right"] = end_dict(c.chain.ends().right);
                                   return d;
                               })
        .def_property_readonly("loads",
                               [](const Case& c) {
                                   py::list loads;
                                   for (const Load& l : c.chain.ends().loads) loads.append(load_dict(l));
                                   return loads;
                               })
        .def_property_readonly("gauges",
                               [](const Case& c) {
                                   py::list gauges;
                                   for (const Gauge& g : c.gauges) gauges.append(gauge_dict(g));
                                   return gauges;
                               })
        .def_property_readonly("masses", [](const Case& c) { return c.chain.masses(); })
        .def_property_readonly("initial_velocities", [](const Case& c) { return c.chain.initial_velocities(); })
        .def_property_readonly("total_length", [](const Case& c) { return c.chain.total_length(); })
        .def_property_readonly(
            "solver", [](const Case& c) { return c.solver; }, "a copy of the case's [solver] options")
        .def("with_solver",
             [](const Case& c, const SolverOptions& o) {
                 Case copy = c;
                 copy.solver = o;
                 copy.solver.progress = nullptr;
                 return copy;
             });

    m.def("plain_case", &plain_case, py::arg("rods"), py::arg("title"), py::arg("name"),
          "Case(rods=..., title=...) without the TOML round trip for plain input; None otherwise");
    m.def("load_case", &load_case, py::arg("path"), py::call_guard<py::gil_scoped_release>(),
          "Reads and validates a case file; raises CaseError");
    m.def("parse_case", &parse_case, py::arg("text"), py::arg("name"),
          py::call_guard<py::gil_scoped_release>(),
          "Reads and validates TOML text; `name` stands for the file in messages; raises CaseError");
}

}  // namespace rodcollide::python
