// Comparison with the rigid impact laws and impact-map sweeps from Python (docs/python.md):
// compare() gives the `compare --json` document (comparison_json) as a dict; sweep() gives a Sweep
// whose per-direction data are numpy arrays and whose to_dict() / to_csv() are `sweep --json` / `--csv`.
#include "bindings.hpp"

#include "rodcollide/errors.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/compare.hpp"
#include "rodcollide/sweep.hpp"

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rodcollide::python {

namespace {

/// N x 2 array of per-direction 2-vectors.
Eigen::MatrixX2d rows(const std::vector<Eigen::Vector2d>& v) {
    Eigen::MatrixX2d m(static_cast<Eigen::Index>(v.size()), 2);
    for (std::size_t i = 0; i < v.size(); ++i) m.row(static_cast<Eigen::Index>(i)) = v[i].transpose();
    return m;
}

template <class Get>
Eigen::MatrixX2d point_rows(const SweepResult& r, Get get) {
    std::vector<Eigen::Vector2d> v;
    v.reserve(r.points.size());
    for (const SweepPoint& p : r.points) v.push_back(get(p));
    return rows(v);
}

}  // namespace

void bind_compare(py::module_& m) {
    m.def(
        "compare",
        [](const Case& c, const std::optional<SolverOptions>& solver, const std::optional<std::vector<std::string>>& laws,
           const std::optional<double>& restitution, bool properties) {
            CompareOptions options;
            if (laws) options.laws = *laws;
            options.restitution = restitution;
            options.wave_map_properties = properties;
            SolverOptions o = solver_options(c, solver);
            const Comparison result = without_gil(o, [&] { return compare(c.title, c.chain, o, options); });
            return to_python(comparison_json(result));
        },
        py::arg("case"), py::arg("options"), py::arg("laws"), py::arg("restitution"), py::arg("properties"));

    py::class_<SweepResult>(m, "Sweep", "An impact-map sweep; to_dict() is `sweep --json`, to_csv() `sweep --csv`")
        .def_readonly("title", &SweepResult::title)
        .def_readonly("directions", &SweepResult::directions)
        .def_property_readonly("method", [](const SweepResult& r) { return to_string(r.method); })
        .def_property_readonly("index",
                               [](const SweepResult& r) {
                                   Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1> v(static_cast<Eigen::Index>(r.points.size()));
                                   for (std::size_t i = 0; i < r.points.size(); ++i)
                                       v[static_cast<Eigen::Index>(i)] = static_cast<std::int64_t>(r.points[i].index);
                                   return v;
                               })
        .def_property_readonly("theta",
                               [](const SweepResult& r) {
                                   Eigen::VectorXd v(static_cast<Eigen::Index>(r.points.size()));
                                   for (std::size_t i = 0; i < r.points.size(); ++i)
                                       v[static_cast<Eigen::Index>(i)] = r.points[i].theta;
                                   return v;
                               },
                               "direction of gamma- [deg], 360 i / N")
        .def_property_readonly("gamma_pre", [](const SweepResult& r) { return point_rows(r, [](const SweepPoint& p) { return p.gamma_pre; }); },
                               "gamma- = (cos theta, sin theta) [m/s], N x 2")
        .def_property_readonly("gamma_post", [](const SweepResult& r) { return point_rows(r, [](const SweepPoint& p) { return p.gamma_post; }); },
                               "gamma+ of the wave solution [m/s], N x 2")
        .def_property_readonly("cones",
                               [](const SweepResult& r) {
                                   std::vector<std::string> v;
                                   for (const SweepPoint& p : r.points) v.emplace_back(laws::cone_name(p.cone));
                                   return v;
                               },
                               "Winandy & Leine 2015 cone of gamma- per direction")
        .def_property_readonly("events",
                               [](const SweepResult& r) {
                                   Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1> v(static_cast<Eigen::Index>(r.points.size()));
                                   for (std::size_t i = 0; i < r.points.size(); ++i)
                                       v[static_cast<Eigen::Index>(i)] = static_cast<std::int64_t>(r.points[i].events);
                                   return v;
                               })
        .def_property_readonly("laws",
                               [](const SweepResult& r) {
                                   std::vector<std::string> v;
                                   for (const SweepLaw& l : r.laws) v.push_back(l.law);
                                   return v;
                               })
        .def_property_readonly("errors",
                               [](const SweepResult& r) {
                                   py::dict d;
                                   for (const SweepLaw& l : r.laws)
                                       d[py::str(l.law)] = Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(
                                           l.error.data(), static_cast<Eigen::Index>(l.error.size())));
                                   return d;
                               },
                               "per law: ||gamma+_law - gamma+_wave||_G^-1 / ||gamma-||_G^-1 per direction")
        .def_property_readonly("law_gamma_post",
                               [](const SweepResult& r) {
                                   py::dict d;
                                   for (const SweepLaw& l : r.laws) d[py::str(l.law)] = rows(l.gamma_post);
                                   return d;
                               },
                               "per law: gamma+ per direction, N x 2")
        .def("to_dict", [](const SweepResult& r) { return to_python(sweep_json(r)); })
        .def("to_csv", &sweep_csv)
        .def("__repr__", [](const SweepResult& r) {
            std::vector<std::string> names;
            for (const SweepLaw& l : r.laws) names.push_back(l.law);
            return fmt::format("<rodcollide.Sweep {:?}: {} of {} directions, laws {}>", r.title, r.points.size(),
                               r.directions, fmt::join(names, ", "));
        });
    m.attr("Sweep").attr("__module__") = "rodcollide";

    m.def(
        "sweep",
        [](const Case& c, const std::optional<SolverOptions>& solver, long long directions,
           const std::optional<std::vector<std::string>>& laws, const std::optional<double>& restitution,
           std::pair<long long, long long> shard, unsigned threads, const std::optional<double>& linear_tolerance) {
            // validate() below says the rest; negative numbers must not reach a size_t first.
            input::require("directions", input::integer_within(directions, 1, max_sweep_directions));
            if (shard.first < 1 || shard.second < 1)
                throw py::value_error(fmt::format("shard: k/n needs 1 <= k <= n <= directions ({}), got {}/{}", directions,
                                                  shard.first, shard.second));
            SweepOptions options;
            options.directions = static_cast<std::size_t>(directions);
            if (laws) options.laws = *laws;
            options.restitution = restitution;
            options.shard = {static_cast<std::size_t>(shard.first), static_cast<std::size_t>(shard.second)};
            options.threads = threads;
            options.linear_tolerance = linear_tolerance;
            options.solver = solver_options(c, solver);
            py::gil_scoped_release released;  // no progress callback: the workers cannot be interrupted safely
            return sweep(c.title, c.chain, options);
        },
        py::arg("case"), py::arg("options"), py::arg("directions"), py::arg("laws"), py::arg("restitution"),
        py::arg("shard"), py::arg("threads"), py::arg("linear_tolerance"));
}

}  // namespace rodcollide::python
