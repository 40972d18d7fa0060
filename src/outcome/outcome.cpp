// Outcome accessors and the impact-equation residual M(u+ - u-) - W Lambda.
#include "rodcollide/outcome.hpp"

#include "rodcollide/impact_matrices.hpp"

#include <cmath>

namespace rodcollide {

namespace {

template <class Items, class Field>
Eigen::VectorXd collect(const Items& items, Field field) {
    Eigen::VectorXd v(static_cast<Eigen::Index>(items.size()));
    for (std::size_t i = 0; i < items.size(); ++i) v[static_cast<Eigen::Index>(i)] = items[i].*field;
    return v;
}

}  // namespace

std::string to_string(AccuracyStatus s) {
    switch (s) {
        case AccuracyStatus::exact: return "exact";
        case AccuracyStatus::met: return "met";
        case AccuracyStatus::front_proliferation: return "front_proliferation";
        case AccuracyStatus::chaotic: return "chaotic";
        case AccuracyStatus::event_budget: return "event_budget";
        case AccuracyStatus::work_budget: return "work_budget";
        case AccuracyStatus::resolution_set: return "resolution_set";
        case AccuracyStatus::no_estimate: return "no_estimate";
    }
    return "unknown";
}

Eigen::VectorXd Outcome::initial_velocities() const { return collect(rods, &RodOutcome::initial_velocity); }
Eigen::VectorXd Outcome::final_velocities() const { return collect(rods, &RodOutcome::final_velocity); }
Eigen::VectorXd Outcome::masses() const { return collect(rods, &RodOutcome::mass); }
Eigen::VectorXd Outcome::impulses() const { return collect(contacts, &ContactOutcome::impulse); }

double Outcome::impact_equation_residual() const {
    const Eigen::VectorXd m = masses();
    const Eigen::VectorXd du = final_velocities() - initial_velocities();
    Eigen::VectorXd residual = m.cwiseProduct(du) - generalized_impulse(impulses());
    for (const EndOutcome& e : ends) residual[e.side == ChainSide::left ? 0 : residual.size() - 1] -= e.impulse;
    double scale = m.dot(initial_velocities().cwiseAbs());
    for (const EndOutcome& e : ends) scale += std::abs(e.impulse);
    return scale > 0 ? residual.cwiseAbs().maxCoeff() / scale : residual.cwiseAbs().maxCoeff();
}

}  // namespace rodcollide
