// The comparison of a case's wave outcome with the rigid impact laws (see compare.hpp).
#include "rodcollide/compare.hpp"

#include "analysis/laws/kinematic.hpp"
#include "rodcollide/laws/identified.hpp"
#include "rodcollide/laws/law_result.hpp"
#include "rodcollide/solve.hpp"
#include "analysis/wave_map.hpp"
#include "solvers/shared/rigid_bodies.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace rodcollide {

namespace {

/// Velocities closer than this, relative to the motion's own scale, count as equal (rounding).
constexpr double rounding = 1e-12;

/// ||x||_M = sqrt(x^T M x).
double kinetic_norm(const Eigen::VectorXd& masses, const Eigen::VectorXd& x) {
    return std::sqrt(masses.dot(x.cwiseProduct(x)));
}

/// u - u_cm(u-): the motion in the centre-of-mass frame of u-.
Eigen::VectorXd relative_motion(const Eigen::VectorXd& masses, const Eigen::VectorXd& u_pre, const Eigen::VectorXd& u) {
    return (u.array() - centre_of_mass_velocity(masses, u_pre)).matrix();
}

}  // namespace

void validate(const CompareOptions& options) {
    if (options.laws.empty()) throw InvalidInput("laws", "name at least one law");
    const auto& names = laws::law_names();
    for (const std::string& law : options.laws)
        if (!laws::is_identified_law_name(law) && std::find(names.begin(), names.end(), law) == names.end())
            throw InvalidInput("laws", input::unknown("law", law, names));
    for (const std::string& law : options.laws) {
        if (!laws::is_identified_law_name(law)) continue;
        try {
            laws::identified_law_of(law);  // a bad file is bad input, found before any work
        } catch (const InvalidInput& e) {
            throw InvalidInput("laws", e.message());
        }
    }
    if (options.restitution) input::require("restitution", input::within(*options.restitution, {0, 1}));
}

void check_compare_chain(const Chain& chain) {
    require_free_ends(chain.ends(), "compare");
    // A chain of balls and masses alone is compared as it is (docs/physics.md §9.11): its compliant
    // outcome is the ODE of its contacts. Rods with compliant contacts, masses or balls are not yet.
    if (chain.compliant() && !rigid_bodies_only(chain))
        throw InvalidInput("rod", fmt::format("{} compares the rigid impact laws with rods whose contacts are rigid, or "
                                              "with chains of balls and masses alone; {}",
                                              "compare", compliant_refusal("it")));
    if (chain.size() > max_compare_rods)
        throw InvalidInput("rods", fmt::format("compare takes at most {} rods (the rigid laws use dense matrices); "
                                               "the case has {}",
                                               max_compare_rods, chain.size()));
}

namespace {

/// The sampled properties of the wave map of the chain's touching rods, or why they are not.
void sample_wave_map(Comparison& c, const Chain& chain, const SolverOptions& solver) {
    if (chain.size() > max_property_rods) {
        c.wave_map_note = fmt::format("not sampled: {} rods (at most {}; every sample is one solve)",
                                      chain.size(), max_property_rods);
        return;
    }
    SolverOptions map_solver;  // always the exact solver: thousands of solves, each exact and fast
    map_solver.drop_tolerance = solver.drop_tolerance;
    map_solver.max_events = std::min(solver.max_events, wave_map_max_events);
    laws::PropertyOptions po = wave_map_property_options();
    const double scale = c.wave_as_law.gamma_pre.norm();
    po.velocity_scale = scale > 0 ? scale : 1.0;
    try {
        c.wave_map_properties = laws::check_properties(wave_contact_map(chain, map_solver), c.matrices, po);
        // The rods' exact solver is exact to rounding; an ODE solve is exact to its accuracy, which
        // the property checks' nearby pairs (refined to ~1e-4 of |gamma-| apart) amplify.
        if (c.rigid_bodies)
            c.wave_map_note = fmt::format("each sample is an ODE solve within {:.0e} of |gamma-|, which pairs refined "
                                          "close together amplify: a verdict that misses by less than ~1e-5 "
                                          "(relative) is not decisive",
                                          map_solver.accuracy.value_or(default_rigid_body_accuracy));
    } catch (const SolverLimitExceeded& e) {
        c.wave_map_note = fmt::format("not sampled: a sample solve reached its cap ({})", e.what());
    }
}

}  // namespace

laws::LawParameters comparison_law_parameters(const std::string& law, const std::optional<double>& restitution) {
    laws::LawParameters p;
    p.law = law;
    if (law != "sequential" && !laws::is_identified_law_name(law) && restitution) p.restitution = Eigen::VectorXd::Constant(1, *restitution);
    return p;
}

laws::PropertyOptions wave_map_property_options() {
    laws::PropertyOptions o;
    o.pairs = 500;
    o.pair_refine_steps = 100;
    o.cycle_points = 20;
    o.cycle_refine_steps = 100;
    o.homogeneity_points = 50;
    o.continuity_segments = 20;
    o.continuity_steps = 32;
    o.continuity_max_boundaries = 50;
    return o;
}

double relative_distance(const Eigen::VectorXd& masses, const Eigen::VectorXd& u_pre, const Eigen::VectorXd& u_a,
                         const Eigen::VectorXd& u_b) {
    const double difference = kinetic_norm(masses, u_a - u_b);
    const double motion = kinetic_norm(masses, relative_motion(masses, u_pre, u_pre));
    if (motion > rounding * kinetic_norm(masses, u_pre)) return difference / motion;
    return difference <= rounding * kinetic_norm(masses, u_pre) ? 0.0 : std::numeric_limits<double>::infinity();
}

std::optional<double> effective_restitution(const Eigen::VectorXd& masses, const Eigen::VectorXd& u_pre,
                                            const Eigen::VectorXd& u_post) {
    const double before = kinetic_norm(masses, relative_motion(masses, u_pre, u_pre));
    if (!(before > rounding * kinetic_norm(masses, u_pre))) return std::nullopt;
    return kinetic_norm(masses, relative_motion(masses, u_pre, u_post)) / before;
}

std::optional<Eigen::VectorXd> implied_restitution_column(const ImpactMatrices& im, const Eigen::VectorXd& u_pre,
                                                          const Eigen::VectorXd& u_post) {
    const Eigen::VectorXd gamma_pre = contact_velocities(u_pre);
    const double strike = gamma_pre[0];
    if (!(strike < 0)) return std::nullopt;
    if (gamma_pre.size() > 1 && gamma_pre.tail(gamma_pre.size() - 1).cwiseAbs().maxCoeff() > rounding * -strike)
        return std::nullopt;
    const Eigen::VectorXd d = laws::kinematic_normalisation(im);
    const Eigen::VectorXd normalised_post = contact_velocities(u_post).cwiseQuotient(d);
    return Eigen::VectorXd(-normalised_post / (strike / d[0]));
}

Comparison compare(const std::string& title, const Chain& chain, const SolverOptions& solver,
                   const CompareOptions& options) {
    validate(options);
    check_compare_chain(chain);
    Comparison c;
    c.title = title;
    c.wave = solve(chain, solver);
    c.matrices = impact_matrices(chain.masses());
    c.velocities_pre = chain.initial_velocities();
    c.restitution = options.restitution;
    c.has_gaps = std::any_of(chain.rods().begin(), chain.rods().end(), [](const Rod& r) { return r.gap > 0; });
    c.rigid_bodies = rigid_bodies_only(chain);
    const Eigen::VectorXd& masses = c.matrices.masses;
    const Eigen::VectorXd u_wave = c.wave.final_velocities();

    for (const std::string& law : options.laws) {
        LawComparison lc;
        lc.parameters = comparison_law_parameters(law, options.restitution);
        lc.result = laws::apply_law(lc.parameters, c.matrices, c.velocities_pre);
        lc.distance = relative_distance(masses, c.velocities_pre, lc.result.velocities_post, u_wave);
        c.laws.push_back(std::move(lc));
    }
    for (std::size_t i = 0; i < c.laws.size(); ++i)
        if (std::isfinite(c.laws[i].distance) && (!c.closest || c.laws[i].distance < c.laws[*c.closest].distance))
            c.closest = i;

    c.wave_tolerance = c.wave.accuracy;
    c.wave_as_law = laws::make_law_result("wave", c.matrices, c.velocities_pre, u_wave, c.wave.impulses(),
                                          c.wave_tolerance);
    const double rigid = c.wave.energy.final_rigid, total = rigid + c.wave.energy.final_vibration;
    c.rigid_energy_share = total > 0 ? rigid / total : 1.0;
    if (chain.size() == 3) c.cone = laws::cone_of(Eigen::Vector2d(c.wave_as_law.gamma_pre));
    c.effective_restitution = effective_restitution(masses, c.velocities_pre, u_wave);
    if (!c.has_gaps) c.restitution_column = implied_restitution_column(c.matrices, c.velocities_pre, u_wave);
    if (options.wave_map_properties) sample_wave_map(c, chain, solver);
    return c;
}

Comparison compare(const Case& c, const CompareOptions& options) { return compare(c.title, c.chain, c.solver, options); }

}  // namespace rodcollide
