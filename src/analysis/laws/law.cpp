// Applying a rigid impact law by name (the entry point of `rodcollide laws` and of the
// comparison module), and the law as a black-box contact map for the property checks.
#include "rodcollide/laws/law.hpp"

#include "analysis/laws/kinematic.hpp"
#include "analysis/laws/newton.hpp"
#include "analysis/laws/poisson.hpp"
#include "analysis/laws/validate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rodcollide::laws {

const std::vector<std::string>& law_names() {
    static const std::vector<std::string> names{"sequential", "newton", "poisson", "kinematic"};
    return names;
}

namespace {

// eps per contact from the user's one (global) or n-1 entries; `fallback` if none.
Eigen::VectorXd per_contact(const Eigen::VectorXd& restitution, Eigen::Index contacts, double fallback) {
    if (restitution.size() == 0) return Eigen::VectorXd::Constant(contacts, fallback);
    if (restitution.size() == 1) return Eigen::VectorXd::Constant(contacts, restitution[0]);
    return restitution;
}

Eigen::MatrixXd restitution_matrix_of(const LawParameters& p, Eigen::Index contacts) {
    if (p.restitution_matrix.size() > 0) return p.restitution_matrix;
    return per_contact(p.restitution, contacts, 1.0).asDiagonal();
}

}  // namespace

void validate_balls(const Eigen::VectorXd& masses, const Eigen::VectorXd& velocities) {
    if (masses.size() > max_law_balls)
        throw InvalidInput("masses", fmt::format("at most {} balls, got {}", max_law_balls, masses.size()));
    validate_masses(masses);
    validate_velocities(masses, velocities);
}

void validate_law_parameters(const LawParameters& p, Eigen::Index balls) {
    const auto& names = law_names();
    if (std::find(names.begin(), names.end(), p.law) == names.end())
        throw InvalidInput("law", input::unknown("law", p.law, names));
    const Eigen::Index contacts = balls - 1;
    if (p.restitution.size() > 1 && p.restitution.size() != contacts)
        throw InvalidInput("restitution", input::wrong_count(fmt::format("1 value or one per contact ({})", contacts),
                                                             p.restitution.size()));
    input::require_each("restitution", p.restitution, input::finite, "value");
    const bool has_matrix = p.restitution_matrix.size() > 0;
    if (p.law == "sequential" && p.restitution.size() > 0)
        throw InvalidInput("restitution", "the sequential law is elastic and takes none");
    if (has_matrix && p.law != "kinematic")
        throw InvalidInput("restitution_matrix", "only the kinematic law takes a matrix");
    if (has_matrix && p.restitution.size() > 0)
        throw InvalidInput("restitution", "give either restitution or a restitution matrix, not both");
    if (has_matrix) detail::require_restitution_matrix(contacts, p.restitution_matrix);
    if (p.law == "newton" || p.law == "poisson") detail::require_unit_restitution(p.restitution);
    detail::require_max_impacts(p.sequential.max_impacts);
}

LawResult apply_law(const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u_pre) {
    const Eigen::Index contacts = im.masses.size() - 1;
    validate_law_parameters(p, im.masses.size());
    if (p.law == "sequential") return sequential_law(im, u_pre, p.sequential);
    if (p.law == "newton") return newton_law(im, u_pre, per_contact(p.restitution, contacts, 1.0));
    if (p.law == "poisson") return poisson_law(im, u_pre, per_contact(p.restitution, contacts, 1.0));
    return kinematic_law(im, u_pre, restitution_matrix_of(p, contacts));
}

Eigen::VectorXd velocities_with_contact_velocities(const Eigen::VectorXd& gamma) {
    Eigen::VectorXd u = Eigen::VectorXd::Zero(gamma.size() + 1);
    for (Eigen::Index k = 0; k < gamma.size(); ++k) u[k + 1] = u[k] + gamma[k];
    return u;
}

ContactMap contact_map(const LawParameters& p, const ImpactMatrices& im) {
    validate_law_parameters(p, im.masses.size());
    return [p, im](const Eigen::VectorXd& gamma_pre) -> Eigen::VectorXd {
        const LawResult r = apply_law(p, im, velocities_with_contact_velocities(gamma_pre));
        if (r.sequential && r.sequential->cap_hit)
            throw std::runtime_error(fmt::format("sequential law: the cap of {} impacts was hit",
                                                 r.sequential->max_impacts));
        return r.gamma_post;
    };
}

}  // namespace rodcollide::laws
