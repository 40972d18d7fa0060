// Applying a rigid impact law by name (the entry point of `rodcollide laws` and of the
// comparison module), and the law as a black-box contact map for the property checks.
#include "rodcollide/laws/law.hpp"

#include "analysis/laws/kinematic.hpp"
#include "analysis/laws/newton.hpp"
#include "analysis/laws/poisson.hpp"
#include "analysis/laws/validate.hpp"
#include "rodcollide/laws/identified.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

namespace {

/// The identified law of p (identified:FILE), checked against the bodies it is applied to.
std::shared_ptr<const IdentifiedLaw> checked_identified_law(const LawParameters& p, Eigen::Index balls) {
    std::shared_ptr<const IdentifiedLaw> law = identified_law_of(p.law);
    const std::string path = p.law.substr(std::string_view("identified:").size());
    if (static_cast<Eigen::Index>(law->bodies) != balls)
        throw InvalidInput("law", fmt::format("identified law file {}: made for {} bodies, applied to {}", path,
                                              law->bodies, balls));
    if (p.restitution.size() > 0 || p.restitution_matrix.size() > 0)
        throw InvalidInput("restitution", "an identified law takes no restitution (its matrices are its parameters)");
    return law;
}

}  // namespace

void validate_law_parameters(const LawParameters& p, Eigen::Index balls) {
    if (is_identified_law_name(p.law)) {
        checked_identified_law(p, balls);
        detail::require_max_impacts(p.sequential.max_impacts);
        return;
    }
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

LawResult identified_law_result(const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u_pre) {
    const std::shared_ptr<const IdentifiedLaw> law = checked_identified_law(p, im.masses.size());
    const std::string path = p.law.substr(std::string_view("identified:").size());
    // The law is the wave map of the file's chain: gamma+ of other masses would not be that map.
    const double mass_scale = law->masses.cwiseAbs().maxCoeff();
    if ((law->masses - im.masses).cwiseAbs().maxCoeff() > 1e-6 * mass_scale)
        throw InvalidInput("masses", fmt::format("identified law file {}: made for masses ({:.9g}), got ({:.9g})", path,
                                                 fmt::join(law->masses, ", "), fmt::join(im.masses, ", ")));
    const Eigen::VectorXd gamma_pre = contact_velocities(u_pre);
    const std::optional<Eigen::VectorXd> gamma_post = apply_identified(*law, gamma_pre);
    if (!gamma_post)
        throw InvalidInput("velocities", fmt::format("identified law file {}: no answer for gamma- = ({:.6g}): it lies "
                                                     "in none of the law's linear cones",
                                                     path, fmt::join(gamma_pre, ", ")));
    const Eigen::VectorXd impulses = impulses_from_contact_velocities(im, gamma_pre, *gamma_post);
    return make_law_result(p.law, im, u_pre, velocities_after(im, u_pre, impulses), impulses);
}

LawResult apply_law(const LawParameters& p, const ImpactMatrices& im, const Eigen::VectorXd& u_pre) {
    const Eigen::Index contacts = im.masses.size() - 1;
    validate_law_parameters(p, im.masses.size());
    if (is_identified_law_name(p.law)) return identified_law_result(p, im, u_pre);
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
