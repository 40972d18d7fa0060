// The rigid impact laws from Python (docs/python.md): laws::apply_law on (masses, u-) with the
// `laws` command's parameters; the result's to_dict() is `rodcollide laws --json` (laws/report.hpp).
#include "bindings.hpp"

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/laws/report.hpp"
#include "rodcollide/laws/sequential.hpp"

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>

namespace rodcollide::python {

namespace {

/// A law's result with the parameters it was applied with (its JSON reports them).
struct AppliedLaw {
    laws::LawParameters parameters;
    laws::LawResult result;
};

}  // namespace

void bind_laws(py::module_& m) {
    py::class_<AppliedLaw>(m, "LawResult", "A rigid impact law applied to (masses, u-); to_dict() is `laws --json`")
        .def_property_readonly("law", [](const AppliedLaw& a) { return a.result.law; })
        .def_property_readonly("masses", [](const AppliedLaw& a) { return a.result.masses; })
        .def_property_readonly("initial_velocities", [](const AppliedLaw& a) { return a.result.velocities_pre; })
        .def_property_readonly("final_velocities", [](const AppliedLaw& a) { return a.result.velocities_post; })
        .def_property_readonly("impulses", [](const AppliedLaw& a) { return a.result.impulses; })
        .def_property_readonly("contact_velocities_pre", [](const AppliedLaw& a) { return a.result.gamma_pre; })
        .def_property_readonly("contact_velocities_post", [](const AppliedLaw& a) { return a.result.gamma_post; })
        .def_property_readonly("energy_ratio", [](const AppliedLaw& a) { return a.result.energy_ratio; })
        .def_property_readonly("consistency",
                               [](const AppliedLaw& a) {
                                   py::dict d;
                                   d["kinematic"] = a.result.consistency.kinematic;
                                   d["kinetic"] = a.result.consistency.kinetic;
                                   d["energetic"] = a.result.consistency.energetic;
                                   return d;
                               })
        .def_property_readonly("cone",
                               [](const AppliedLaw& a) -> std::optional<std::string> {
                                   if (!a.result.sequential) return std::nullopt;
                                   return a.result.sequential->cone;
                               },
                               "sequential law, three equal masses: the cone of Winandy & Leine 2015 eq. (23)")
        .def("to_dict", [](const AppliedLaw& a) { return to_python(laws::to_json(a.result, a.parameters)); })
        .def("__repr__", [](const AppliedLaw& a) {
            return fmt::format("<rodcollide.laws.LawResult {}: final velocities ({})>", a.result.law,
                               fmt::join(a.result.velocities_post, ", "));
        });
    m.attr("LawResult").attr("__module__") = "rodcollide.laws";

    m.def("law_names", &laws::law_names);
    m.def(
        "apply_law",
        [](const std::string& law, const Eigen::VectorXd& masses, const Eigen::VectorXd& velocities,
           const std::optional<Eigen::VectorXd>& restitution, const std::optional<Eigen::MatrixXd>& restitution_matrix,
           const std::optional<std::string>& order, const std::optional<long long>& max_impacts) {
            laws::validate_balls(masses, velocities);
            laws::LawParameters p;
            p.law = law;
            if (restitution) p.restitution = *restitution;
            if (restitution_matrix) p.restitution_matrix = *restitution_matrix;
            if ((order || max_impacts) && law != "sequential")
                throw py::value_error(fmt::format("{}: only the sequential law takes it", order ? "order" : "max_impacts"));
            if (order) p.sequential.order = laws::parse_impact_order(*order);
            if (max_impacts) p.sequential.max_impacts = *max_impacts;
            laws::validate_law_parameters(p, masses.size());
            py::gil_scoped_release released;
            const ImpactMatrices im = impact_matrices(masses);
            laws::LawResult result = laws::apply_law(p, im, velocities);
            return AppliedLaw{std::move(p), std::move(result)};
        },
        py::arg("law"), py::arg("masses"), py::arg("velocities"), py::arg("restitution"),
        py::arg("restitution_matrix"), py::arg("order"), py::arg("max_impacts"));
}

}  // namespace rodcollide::python
