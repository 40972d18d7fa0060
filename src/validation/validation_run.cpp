// Running a validation suite (validation.hpp; format: docs/validation.md): computes each check's
// quantity with the solvers, laws, comparison and sweep, sharing solutions between checks of the
// same case, and scores it against the reference into PASS/FAIL rows.
#include "rodcollide/validation.hpp"

#include "rodcollide/compare.hpp"
#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/properties.hpp"
#include "rodcollide/solve.hpp"
#include "rodcollide/sweep.hpp"
#include "solvers/solve_with_wave_field.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace rodcollide::validation {

namespace {

namespace fs = std::filesystem;

std::string vector_text(const std::vector<double>& v) {
    return v.size() == 1 ? fmt::format("{:.10g}", v[0]) : fmt::format("({:.8g})", fmt::join(v, ", "));
}

std::vector<double> list(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

/// Solutions shared between checks of the same case (solving is the expensive part).
class Runner {
public:
    std::vector<Row> run(const Check& c) {
        switch (c.kind) {
            case Kind::outcome: return {row(c, label(c), c.expected, outcome_quantity(c))};
            case Kind::law: return {row(c, c.quantity, c.expected, law_quantity(c))};
            case Kind::compare: return {row(c, label(c), c.expected, compare_quantity(c))};
            case Kind::sweep: return sweep_rows(c);
            case Kind::cross_method: {
                const std::string q = fmt::format("{} ({} vs {})", c.quantity, to_string(*c.method), to_string(c.reference_method));
                const std::vector<double> reference = cross_quantity(c, c.reference_method);
                Row r;
                try {
                    r = row(c, q, reference, cross_quantity(c, *c.method));
                } catch (const std::exception& e) {
                    r = failed_row(c, q, e.what());
                }
                r.expected = vector_text(reference);
                return {r};
            }
        }
        return {};
    }

private:
    std::map<std::string, Outcome> outcomes_;
    std::map<std::string, SweepResult> sweeps_;

    static std::string label(const Check& c) {
        // An outcome from the other solver than the case's says so.
        const std::string by = c.kind == Kind::outcome && c.method && *c.method != c.case_data->solver.method
                                   ? fmt::format(" [{}]", to_string(*c.method))
                                   : "";
        if (c.x) return fmt::format("{}(x={:g}, t={:g}){}", c.quantity, *c.x, *c.t, by);
        if (c.contact) return fmt::format("{}[{}]{}", c.quantity, *c.contact, by);
        if (c.quantity == "distance") return fmt::format("distance({})", c.law.law);
        return c.quantity + by;
    }

    static SolverOptions solver_of(const Check& c, std::optional<Method> method) {
        SolverOptions o = c.case_data->solver;
        if (method) o.method = *method;
        return o;
    }

    const Outcome& outcome(const Check& c, std::optional<Method> method) {
        const SolverOptions o = solver_of(c, method);
        const std::string key = c.case_data->path.lexically_normal().string() + "|" + to_string(o.method);
        auto it = outcomes_.find(key);
        if (it == outcomes_.end()) it = outcomes_.emplace(key, solve(c.case_data->chain, o)).first;
        return it->second;
    }

    std::vector<double> outcome_quantity(const Check& c) {
        if (c.x) {
            // The wave field of either solver (the grid's is rebuilt from its element ends).
            SolverOptions o = solver_of(c, c.method);
            o.record_until = std::max(*c.t, 1e-300);
            std::vector<std::size_t> rods(c.case_data->chain.size());
            std::iota(rods.begin(), rods.end(), std::size_t{0});
            const SolutionWithWaveField s = solve_with_wave_field(c.case_data->chain, o, rods);
            if (*c.t > s.field.valid_until())
                throw std::runtime_error(fmt::format("the field is known only until t = {:g}", s.field.valid_until()));
            const PointState p = s.field.state_at(*c.x, *c.t);
            return {c.quantity == "velocity" ? p.velocity : c.quantity == "strain" ? p.strain : p.force};
        }
        return outcome_values(c, outcome(c, c.method));
    }

    /// A quantity of an outcome (not a field quantity).
    static std::vector<double> outcome_values(const Check& c, const Outcome& o) {
        const EnergyBalance& e = o.energy;
        if (c.quantity == "final_velocities") return list(o.final_velocities());
        if (c.quantity == "impulses") return list(o.impulses());
        if (c.quantity == "energy_initial") return {e.initial};
        if (c.quantity == "energy_rigid") return {e.final_rigid};
        if (c.quantity == "energy_vibration") return {e.final_vibration};
        if (c.quantity == "rigid_energy_share") return {e.final_rigid / (e.final_rigid + e.final_vibration)};
        if (c.quantity == "last_contact_time") return {o.last_contact_time};
        if (c.quantity == "energy_radiated") return {e.radiated};
        if (c.quantity == "energy_input") return {e.input};
        if (c.quantity == "end_impulses")  // a chain with free, unloaded ends gets none
            return o.ends.empty() ? std::vector<double>{0, 0} : std::vector<double>{o.ends[0].impulse, o.ends[1].impulse};
        std::vector<double> intervals;  // contact_intervals, wall_intervals (both walls, left first)
        if (c.quantity == "wall_intervals") {
            for (const EndOutcome& end : o.ends)
                for (const Interval& iv : end.intervals) intervals.insert(intervals.end(), {iv.start, iv.end});
            return intervals;
        }
        for (const Interval& iv : o.contacts.at(*c.contact).intervals) intervals.insert(intervals.end(), {iv.start, iv.end});
        return intervals;
    }

    static std::vector<double> law_quantity(const Check& c) {
        if (c.quantity == "cycle_value") {
            const ImpactMatrices im = impact_matrices(c.masses);
            return {laws::cycle_value(laws::contact_map(c.law, im), im, c.cycle)};
        }
        const laws::LawResult r = laws::apply_law(c.law, impact_matrices(c.masses), c.velocities);
        if (c.quantity == "final_velocities") return list(r.velocities_post);
        if (c.quantity == "impulses") return list(r.impulses);
        return {r.energy_ratio};
    }

    static std::vector<double> compare_quantity(const Check& c) {
        CompareOptions o;
        o.laws = {c.law.law};
        if (c.law.restitution.size() == 1) o.restitution = c.law.restitution[0];
        o.wave_map_properties = false;
        const Comparison cmp = compare(c.case_data->title, c.case_data->chain, solver_of(c, c.method), o);
        if (c.quantity == "distance") return {cmp.laws.front().distance};
        if (c.quantity == "effective_restitution") {
            if (!cmp.effective_restitution) throw std::runtime_error("undefined: no relative motion before impact");
            return {*cmp.effective_restitution};
        }
        if (!cmp.restitution_column)
            throw std::runtime_error("not applicable: the case is not rod 1 alone striking the others, touching");
        return list(*cmp.restitution_column);
    }

    std::vector<Row> sweep_rows(const Check& c) {
        const std::string key = fmt::format("{}|{}|{}|{}", c.case_data->path.lexically_normal().string(), c.directions,
                                            c.law.law, c.law.restitution.size() ? c.law.restitution[0] : 1.0);
        auto it = sweeps_.find(key);
        if (it == sweeps_.end()) {
            SweepOptions o;
            o.directions = c.directions;
            o.laws = {c.law.law};
            if (c.law.restitution.size() == 1) o.restitution = c.law.restitution[0];
            o.solver = c.case_data->solver;
            it = sweeps_.emplace(key, sweep(c.case_data->title, c.case_data->chain, o)).first;
        }
        const SweepResult& r = it->second;
        const std::string dirs = fmt::format("{} dirs", c.directions);
        if (c.quantity == "cone_errors") {
            std::vector<Row> rows;
            for (std::size_t k = 0; k < 6; ++k) {
                const std::string q = fmt::format("max error {} vs wave, cone {} ({})", c.law.law,
                                                  laws::cone_name(laws::all_cones[k]), dirs);
                if (r.laws.front().cone_worst_theta[k] < 0) {
                    rows.push_back(failed_row(c, q, "no direction of the sweep lies in this cone"));
                } else {
                    rows.push_back(row(c, q, c.expected, {r.laws.front().cone_max_error[k]}));
                }
            }
            return rows;
        }
        std::vector<double> got;
        if (c.quantity == "boundaries") {
            for (const EmpiricalCone& e : r.cone_map) got.push_back(e.begin);
            std::sort(got.begin(), got.end());
        } else {  // cone_matrix_deviation
            double worst = 0;
            for (const EmpiricalCone& e : r.cone_map)
                worst = std::max(worst, e.linear ? e.seed_matrix_deviation : std::numeric_limits<double>::infinity());
            got = {worst};
        }
        return {row(c,
                    fmt::format("{} ({})", c.quantity == "boundaries" ? "empirical cone boundaries [deg]" : "max |J - Q|, empirical cones", dirs),
                    c.expected, got)};
    }

    std::vector<double> cross_quantity(const Check& c, Method method) {
        return outcome_values(c, outcome(c, method));
    }

public:
    static Row base_row(const Check& c, std::string quantity) {
        Row r;
        r.file = fs::path(c.file).filename().string();
        r.line = c.line;
        r.name = c.name;
        r.quantity = std::move(quantity);
        r.expected = c.expected_text.size() == 1 ? c.expected_text[0] : fmt::format("({})", fmt::join(c.expected_text, ", "));
        r.tolerance = fmt::format("{:g}{}", c.tolerance,
                                  c.scale == Check::Scale::expected         ? " rel"
                                  : c.scale == Check::Scale::velocity_scale ? " of V"
                                                                            : "");
        r.source = c.source;
        return r;
    }

    static Row failed_row(const Check& c, std::string quantity, const std::string& message) {
        Row r = base_row(c, std::move(quantity));
        r.got = "error: " + message;
        r.error = std::numeric_limits<double>::quiet_NaN();
        r.pass = false;
        return r;
    }

    static Row row(const Check& c, std::string quantity, const std::vector<double>& expected, const std::vector<double>& got) {
        Row r = base_row(c, std::move(quantity));
        r.got = vector_text(got);
        if (got.size() != expected.size()) {
            r.error = std::numeric_limits<double>::infinity();
            r.pass = false;
            r.got += fmt::format(" ({} values, expected {})", got.size(), expected.size());
            return r;
        }
        double error = 0, scale = 0;
        for (std::size_t k = 0; k < got.size(); ++k) {
            const double d = std::abs(got[k] - expected[k]);
            error = std::isnan(d) ? d : std::max(error, d);
            scale = std::max(scale, std::abs(expected[k]));
        }
        if (c.scale == Check::Scale::velocity_scale) scale = c.case_data->chain.velocity_scale();
        if (c.scale != Check::Scale::absolute && scale > 0) error /= scale;
        r.error = error;
        r.pass = error <= c.tolerance;  // false for NaN
        return r;
    }
};

}  // namespace

std::size_t Report::failures() const {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return !r.pass; }));
}

Report run(const Suite& suite, const std::function<void(std::size_t, std::size_t)>& progress) {
    Report report;
    Runner runner;
    for (std::size_t i = 0; i < suite.checks.size(); ++i) {
        const Check& c = suite.checks[i];
        try {
            for (Row& r : runner.run(c)) report.rows.push_back(std::move(r));
        } catch (const std::exception& e) {
            std::string what = e.what();
            std::replace(what.begin(), what.end(), '\n', ' ');
            report.rows.push_back(Runner::failed_row(c, c.quantity, what));
        }
        if (progress) progress(i + 1, suite.checks.size());
    }
    return report;
}

}  // namespace rodcollide::validation
