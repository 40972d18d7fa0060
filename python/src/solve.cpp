// Solving from Python (docs/python.md): run() -> Outcome, whose to_dict() is the `run --json`
// document (outcome_report.hpp's outcome_json and gauges_json; solve.hpp's solve_with_gauges and
// reported_force_samples, as the CLI calls them), and field(): the exact wave field (solve.hpp's
// exact_field_at) at any points (x, t), x along the rods laid end to end.
#include "bindings.hpp"

#include "rodcollide/case_file.hpp"
#include "rodcollide/contact_forces.hpp"
#include "rodcollide/gauge_signals.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/outcome_report.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::python {

namespace {

/// An outcome with the title it is reported under and, for a case with [[gauge]] tables, their
/// signals: what `run --json` prints.
struct TitledOutcome {
    std::string title;
    Outcome outcome;
    std::optional<std::vector<GaugeSignal>> gauges;
    /// The samples each force history was recorded with (SolverOptions::force_samples; 0: none).
    std::size_t force_samples = 0;

    nlohmann::ordered_json json() const { return outcome_json(title, outcome); }
    nlohmann::ordered_json document() const {
        nlohmann::ordered_json doc = json();
        if (gauges) doc["gauges"] = gauges_json(*gauges);
        return doc;
    }
};

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A read-only numpy view of `values`, which `owner` (the Python object holding them) keeps alive:
/// no copy, and the outcome stays as solved.
py::array_t<double> view(const std::vector<double>& values, py::handle owner) {
    py::array_t<double> a(static_cast<py::ssize_t>(values.size()), values.data(), owner);
    a.attr("setflags")(py::arg("write") = false);
    return a;
}

/// A property of T that views one of its vectors as a read-only numpy array.
template <class T>
auto viewed(std::vector<double> T::*member) {
    return [member](py::object self) { return view(self.cast<const T&>().*member, self); };
}

/// The force histories of contacts or ends, in order: a ForceHistory each, None where none was recorded.
template <class Parts>
py::list force_histories(const Parts& parts) {
    py::list list;
    for (const auto& p : parts) list.append(p.force_history.time.empty() ? py::none() : py::cast(p.force_history));
    return list;
}

/// Outcome.contact_forces(samples): `run --contact-forces`'s columns as numpy arrays, by name, "time" first.
py::dict contact_forces(const TitledOutcome& o, std::optional<long long> samples) {
    if (o.force_samples == 0)
        throw py::value_error(
            "contact_forces: this run recorded no force histories (a chain with free, unloaded ends and no "
            "gauges records none by default): solve with rodcollide.run(case, samples=N)");
    // Finer than the histories were recorded, the grid would only repeat their steps.
    const long long n = samples.value_or(static_cast<long long>(o.force_samples));
    if (n < 2 || static_cast<unsigned long long>(n) > o.force_samples)
        throw py::value_error(fmt::format(
            "samples: must be in [2, {}] (the samples the run recorded each history with: "
            "rodcollide.run(case, samples=N) records more), got {}",
            o.force_samples, n));
    const ContactForceSamples s = sample_contact_forces(o.outcome, static_cast<std::size_t>(n));
    if (s.names.empty()) throw py::value_error("contact_forces: the case has no contact, wall or spring/dashpot end");
    py::dict d;
    d["time"] = py::array_t<double>(static_cast<py::ssize_t>(s.time.size()), s.time.data());
    for (std::size_t k = 0; k < s.names.size(); ++k)
        d[py::str(s.names[k])] = py::array_t<double>(static_cast<py::ssize_t>(s.force[k].size()), s.force[k].data());
    return d;
}

/// The exact field at points (x[k], t[k]): velocity, strain, force and the rod holding each point.
py::tuple field(const Case& c, const std::optional<SolverOptions>& given, const Doubles& x, const Doubles& t) {
    if (x.ndim() != 1 || t.ndim() != 1 || x.size() != t.size())
        throw py::value_error("x, t: need two one-dimensional arrays of the same size");
    const py::ssize_t n = x.size();
    const double* xs = x.data();
    const double* ts = t.data();
    const double length = c.chain.total_length();
    double t_max = 0;
    for (py::ssize_t k = 0; k < n; ++k) {
        if (!(std::isfinite(xs[k]) && xs[k] >= 0 && xs[k] <= length))
            throw py::value_error(fmt::format(
                "x: must be in [0, {}] (the material coordinate of the rods laid end to end), got {}", length, xs[k]));
        if (!(std::isfinite(ts[k]) && ts[k] >= 0))
            throw py::value_error(fmt::format("t: must be finite and >= 0, got {}", ts[k]));
        t_max = std::max(t_max, ts[k]);
    }
    SolverOptions o = solver_options(c, given);
    if (given && o.method != Method::characteristics)
        throw py::value_error("method: field() uses the exact solver, method = \"characteristics\"");

    Doubles velocity(n), strain(n), force(n);
    py::array_t<std::int64_t> rod(n);
    double* v = velocity.mutable_data();
    double* e = strain.mutable_data();
    double* f = force.mutable_data();
    std::int64_t* r = rod.mutable_data();
    without_gil(o, [&] {
        const auto points = static_cast<std::size_t>(n);
        const FieldAtPoints field = exact_field_at(c.chain, o, {xs, points}, {ts, points});
        if (t_max > field.valid_until)
            throw py::value_error(fmt::format("t: the field is known only until t = {} (end_time = {}), got {}",
                                              field.valid_until, o.end_time.value_or(NAN), t_max));
        for (std::size_t k = 0; k < points; ++k) {
            v[k] = field.velocity[k];
            e[k] = field.strain[k];
            f[k] = field.force[k];
            r[k] = static_cast<std::int64_t>(field.rod[k]);
        }
        return 0;
    });
    return py::make_tuple(velocity, strain, force, rod);
}

}  // namespace

void bind_solve(py::module_& m) {
    py::class_<ForceHistory>(m, "ForceHistory", "A force history: time [s] and force [N] (negative in compression)")
        .def_property_readonly("time", viewed(&ForceHistory::time), "[s], increasing")
        .def_property_readonly("force", viewed(&ForceHistory::force), "[N], positive in tension")
        .def("__repr__", [](const ForceHistory& h) {
            return fmt::format("<rodcollide.ForceHistory: {} samples over [{}, {}] s>", h.time.size(),
                               h.time.empty() ? 0.0 : h.time.front(), h.time.empty() ? 0.0 : h.time.back());
        });
    m.attr("ForceHistory").attr("__module__") = "rodcollide";

    py::class_<GaugeSignal>(m, "GaugeSignal", "A [[gauge]] station's record, as in `run --json`'s \"gauges\"")
        .def_property_readonly("name", [](const GaugeSignal& g) { return g.gauge.name; })
        .def_property_readonly("rod", [](const GaugeSignal& g) { return g.gauge.rod; }, "rod index from 0")
        .def_property_readonly("x", [](const GaugeSignal& g) { return g.gauge.x; }, "from the rod's left end [m]")
        .def_property_readonly("time", viewed(&GaugeSignal::time), "[s], equally spaced from 0")
        .def_property_readonly("velocity", viewed(&GaugeSignal::velocity), "[m/s]")
        .def_property_readonly("force", viewed(&GaugeSignal::force), "N = E A u_x [N], positive in tension")
        .def_property_readonly("strain", viewed(&GaugeSignal::strain), "u_x [-], negative in compression")
        .def("__repr__", [](const GaugeSignal& g) {
            return fmt::format("<rodcollide.GaugeSignal {:?}: rod {} at x = {} m, {} samples>", g.gauge.name,
                               g.gauge.rod, g.gauge.x, g.time.size());
        });
    m.attr("GaugeSignal").attr("__module__") = "rodcollide";

    py::class_<TitledOutcome>(m, "Outcome", "The outcome of a collision; to_dict() is `rodcollide run --json`")
        .def_readonly("title", &TitledOutcome::title)
        .def_property_readonly("method", [](const TitledOutcome& o) { return to_string(o.outcome.method); })
        .def_property_readonly("final_velocities", [](const TitledOutcome& o) { return o.outcome.final_velocities(); },
                               "u+ = momentum / mass once no contact can happen again [m/s], one per rod")
        .def_property_readonly("initial_velocities", [](const TitledOutcome& o) { return o.outcome.initial_velocities(); })
        .def_property_readonly("masses", [](const TitledOutcome& o) { return o.outcome.masses(); })
        .def_property_readonly("vibration_energies",
                               [](const TitledOutcome& o) {
                                   Eigen::VectorXd e(o.outcome.rods.size());
                                   for (std::size_t i = 0; i < o.outcome.rods.size(); ++i)
                                       e[static_cast<Eigen::Index>(i)] = o.outcome.rods[i].vibration_energy;
                                   return e;
                               })
        .def_property_readonly("impulses", [](const TitledOutcome& o) { return o.outcome.impulses(); },
                               "Lambda = integral of -N dt per contact [N s]")
        .def_property_readonly("contacts", [](const TitledOutcome& o) { return to_python(o.json()["contacts"]); },
                               "as in the JSON: [{'rods': [k, k+1], 'impulse': ..., 'intervals': [[start, end], ...]}]")
        .def_property_readonly("energy", [](const TitledOutcome& o) { return to_python(o.json()["energy"]); },
                               "{'initial', 'final_rigid', 'final_vibration', 'dropped'} [J], and 'radiated', "
                               "'input' for a chain with ends, 'contact', 'dissipated' for one with compliant parts")
        .def_property_readonly(
            "ends",
            [](const TitledOutcome& o) {
                const nlohmann::ordered_json j = o.json();
                return j.contains("ends") ? to_python(j["ends"]) : py::list();
            },
            "as in the JSON: [{'side', 'kind', 'gap' (wall), 'intervals' (wall), 'loaded', 'impulse', 'work', ...}]; "
            "[] for free, unloaded ends")
        .def_property_readonly(
            "force_history", [](const TitledOutcome& o) { return force_histories(o.outcome.contacts); },
            "per contact: ForceHistory, or None when not recorded (run(samples=N), or a case with gauges or ends)")
        .def_property_readonly(
            "end_force_history", [](const TitledOutcome& o) { return force_histories(o.outcome.ends); },
            "per end, as in `ends`: a wall's ForceHistory, None for other ends")
        .def("contact_forces", &contact_forces, py::arg("samples") = py::none(),
             "The force of every contact, wall and spring/dashpot end on one grid, as `run --contact-forces "
             "--samples N` writes it: {'time': [s], 'contact_0': [N], ..., 'left_wall', 'right_wall', 'left_end', "
             "'right_end'} (numpy arrays, positive in tension), at `samples` equally spaced times over [0, end_time] "
             "and at every closing and opening. samples: 2 to the N the run recorded its histories with "
             "(run(case, samples=N); default 1000 for a case with ends or gauges), default that N.")
        .def_property_readonly(
            "gauges", [](const TitledOutcome& o) { return o.gauges ? *o.gauges : std::vector<GaugeSignal>{}; },
            "per [[gauge]] of the case: GaugeSignal")
        .def_property_readonly("settled", [](const TitledOutcome& o) { return o.outcome.settled; })
        .def_property_readonly("end_time", [](const TitledOutcome& o) { return o.outcome.end_time; })
        .def_property_readonly("last_contact_time", [](const TitledOutcome& o) { return o.outcome.last_contact_time; })
        .def_property_readonly("impact_equation_residual",
                               [](const TitledOutcome& o) { return o.outcome.impact_equation_residual(); })
        .def_property_readonly("stats", [](const TitledOutcome& o) { return to_python(o.json()["stats"]); })
        .def_property_readonly("warnings", [](const TitledOutcome& o) { return o.outcome.warnings; })
        .def("to_dict", [](const TitledOutcome& o) { return to_python(o.document()); },
             "The `rodcollide run --json` document as a dict (same keys and values)")
        .def("__repr__", [](const TitledOutcome& o) {
            std::vector<double> u(o.outcome.rods.size());
            for (std::size_t i = 0; i < u.size(); ++i) u[i] = o.outcome.rods[i].final_velocity;
            return fmt::format("<rodcollide.Outcome {:?} [{}]: final velocities ({}), settled {}>", o.title,
                               to_string(o.outcome.method), fmt::join(u, ", "), o.outcome.settled);
        });
    m.attr("Outcome").attr("__module__") = "rodcollide";

    m.def(
        "run",
        [](const Case& c, const std::optional<SolverOptions>& options, std::optional<long long> samples) {
            // As `run --json [--samples N]`: the same force histories and gauge signals.
            if (samples) input::require("samples", input::integer_within(*samples, 2, largest_samples));
            const std::optional<std::size_t> n = samples ? std::optional(static_cast<std::size_t>(*samples)) : std::nullopt;
            SolverOptions o = solver_options(c, options);
            o.force_samples = reported_force_samples(c.chain, !c.gauges.empty(), n);
            if (c.gauges.empty()) {
                Outcome out = without_gil(o, [&] { return solve(c.chain, o); });
                return TitledOutcome{c.title, std::move(out), std::nullopt, o.force_samples};
            }
            SolutionWithGauges s =
                without_gil(o, [&] { return solve_with_gauges(c.chain, o, c.gauges, n.value_or(default_samples)); });
            return TitledOutcome{c.title, std::move(s.outcome), std::move(s.gauges), o.force_samples};
        },
        py::arg("case"), py::arg("options") = py::none(), py::arg("samples") = py::none());
    m.def("field", &field, py::arg("case"), py::arg("options"), py::arg("x"), py::arg("t"));
}

}  // namespace rodcollide::python
