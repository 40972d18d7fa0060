// Ensembles from Python (docs/python.md, docs/ensemble.md): ensemble() gives an Ensemble whose
// members' numbers are numpy arrays and whose to_dict() / to_csv() are `ensemble --json` /
// `--csv`; merge_ensembles() joins shards (as `rodcollide merge`). An Ensemble pickles as its
// shard JSON (every member's numbers, 17 digits), so dask can move it between processes and the
// merged result is the serial run's, bit for bit.
#include "bindings.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/ensemble.hpp"
#include "rodcollide/errors.hpp"

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rodcollide::python {

namespace {

/// One column per member of `get(member)`.
template <class Get>
Eigen::VectorXd member_column(const EnsembleResult& r, Get get) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(r.members.size()));
    for (std::size_t k = 0; k < r.members.size(); ++k) v[static_cast<Eigen::Index>(k)] = get(r.members[k]);
    return v;
}

/// members x n matrix of `get(member)[j]`.
template <class Get>
Eigen::MatrixXd member_rows(const EnsembleResult& r, std::size_t n, Get get) {
    Eigen::MatrixXd m(static_cast<Eigen::Index>(r.members.size()), static_cast<Eigen::Index>(n));
    for (std::size_t k = 0; k < r.members.size(); ++k)
        for (std::size_t j = 0; j < n; ++j)
            m(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(j)) = get(r.members[k])[j];
    return m;
}

}  // namespace

void bind_ensemble(py::module_& m) {
    py::class_<EnsembleResult>(m, "Ensemble",
                               "An ensemble (or one shard of it); to_dict() is `ensemble --json`, to_csv() `--csv`")
        .def_readonly("title", &EnsembleResult::title)
        .def_property_readonly("members", [](const EnsembleResult& r) { return r.spec.members; })
        .def_property_readonly("seed", [](const EnsembleResult& r) { return r.spec.seed; })
        .def_property_readonly("shard", [](const EnsembleResult& r) { return std::pair(r.shard.index, r.shard.count); })
        .def_property_readonly("method", [](const EnsembleResult& r) { return to_string(r.method); })
        .def_readonly("fingerprint", &EnsembleResult::fingerprint)
        .def_property_readonly("index", [](const EnsembleResult& r) {
            return member_column(r, [](const EnsembleMember& x) { return static_cast<double>(x.index); });
        })
        .def_property_readonly("columns", [](const EnsembleResult& r) {
            std::vector<std::string> names;
            for (const PerturbedValue& c : r.columns) names.push_back(column_name(r.spec, c));
            return names;
        })
        .def_property_readonly("perturbed", [](const EnsembleResult& r) {
            return member_rows(r, r.columns.size(), [](const EnsembleMember& x) { return x.perturbed; });
        })
        .def_property_readonly("final_velocities", [](const EnsembleResult& r) {
            return member_rows(r, r.rods, [](const EnsembleMember& x) { return x.final_velocity; });
        })
        .def_property_readonly("final_rigid", [](const EnsembleResult& r) {
            return member_column(r, [](const EnsembleMember& x) { return x.final_rigid; });
        })
        .def_property_readonly("final_vibration", [](const EnsembleResult& r) {
            return member_column(r, [](const EnsembleMember& x) { return x.final_vibration; });
        })
        .def_property_readonly("end_time", [](const EnsembleResult& r) {
            return member_column(r, [](const EnsembleMember& x) { return x.end_time; });
        })
        .def_property_readonly("closings", [](const EnsembleResult& r) {
            return member_column(r, [](const EnsembleMember& x) { return static_cast<double>(x.closings); });
        })
        .def_property_readonly("settled", [](const EnsembleResult& r) {
            std::vector<bool> s;
            for (const EnsembleMember& x : r.members) s.push_back(x.settled);
            return s;
        })
        .def(
            "to_dict",
            [](const EnsembleResult& r, const std::optional<double>& precision) {
                if (precision) input::require("precision", input::positive(*precision));
                return to_python(ensemble_json(r, precision, r.shard.count > 1));
            },
            py::arg("precision") = py::none())
        .def("to_csv", &ensemble_csv)
        .def(py::pickle([](const EnsembleResult& r) { return ensemble_json(r, std::nullopt, true).dump(); },
                        [](const std::string& s) { return ensemble_from_json(nlohmann::json::parse(s)); }))
        .def("__repr__", [](const EnsembleResult& r) {
            return fmt::format("<rodcollide.Ensemble {:?}: {} of {} members, seed {}>", r.title, r.members.size(),
                               r.spec.members, r.spec.seed);
        });
    m.attr("Ensemble").attr("__module__") = "rodcollide";

    m.def(
        "ensemble",
        [](const Case& c, const std::optional<SolverOptions>& solver, const std::optional<long long>& members,
           const std::optional<long long>& seed, const std::optional<std::vector<std::string>>& perturb,
           std::pair<long long, long long> shard, unsigned threads) {
            EnsembleOptions options;
            options.spec = c.ensemble.value_or(EnsembleSpec{});
            if (members) {
                input::require("members", input::integer_within(*members, 1, max_ensemble_members));
                options.spec.members = static_cast<std::size_t>(*members);
            }
            if (seed) {
                input::require("seed", input::integer_within(*seed, 0, std::numeric_limits<long long>::max()));
                options.spec.seed = static_cast<std::uint64_t>(*seed);
            }
            if (perturb) {
                options.spec.perturb.clear();
                for (const std::string& keys : *perturb) options.spec.perturb.push_back(parse_perturbation(keys, "<perturb>"));
            }
            if (options.spec.perturb.empty())
                throw InvalidInput("perturb", "nothing is perturbed: give perturb= or [[ensemble.perturb]] in the case");
            if (shard.first < 1 || shard.second < 1)
                throw InvalidInput("shard", fmt::format("k/n needs 1 <= k <= n <= members, got {}/{}", shard.first,
                                                        shard.second));
            options.shard = {static_cast<std::size_t>(shard.first), static_cast<std::size_t>(shard.second)};
            options.threads = threads;
            options.solver = solver_options(c, solver);
            py::gil_scoped_release released;  // no progress callback: the workers cannot be interrupted safely
            return ensemble(c.title, c.chain, options);
        },
        py::arg("case"), py::arg("options"), py::arg("members"), py::arg("seed"), py::arg("perturb"), py::arg("shard"),
        py::arg("threads"));

    m.def(
        "merge_ensembles",
        [](std::vector<EnsembleResult> parts) {
            std::vector<std::string> names;
            for (std::size_t i = 0; i < parts.size(); ++i) names.push_back(fmt::format("part {}", i + 1));
            return merge_ensembles(std::move(parts), names);
        },
        py::arg("parts"));
}

}  // namespace rodcollide::python
