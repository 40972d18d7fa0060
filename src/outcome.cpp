// Outcome accessors and the impact-equation residual M(u+ - u-) - W Lambda.
#include "rodcollide/outcome.hpp"

#include "rodcollide/impact_matrices.hpp"

namespace rodcollide {

Eigen::VectorXd Outcome::initial_velocities() const {
    Eigen::VectorXd v(rods.size());
    for (std::size_t i = 0; i < rods.size(); ++i) v[i] = rods[i].initial_velocity;
    return v;
}

Eigen::VectorXd Outcome::final_velocities() const {
    Eigen::VectorXd v(rods.size());
    for (std::size_t i = 0; i < rods.size(); ++i) v[i] = rods[i].final_velocity;
    return v;
}

Eigen::VectorXd Outcome::masses() const {
    Eigen::VectorXd m(rods.size());
    for (std::size_t i = 0; i < rods.size(); ++i) m[i] = rods[i].mass;
    return m;
}

Eigen::VectorXd Outcome::impulses() const {
    Eigen::VectorXd l(contacts.size());
    for (std::size_t k = 0; k < contacts.size(); ++k) l[k] = contacts[k].impulse;
    return l;
}

double Outcome::impact_equation_residual() const {
    const Eigen::VectorXd m = masses();
    const Eigen::VectorXd du = final_velocities() - initial_velocities();
    const Eigen::VectorXd residual = m.cwiseProduct(du) - generalized_impulse(impulses());
    const double scale = m.dot(initial_velocities().cwiseAbs());
    return scale > 0 ? residual.cwiseAbs().maxCoeff() / scale : residual.cwiseAbs().maxCoeff();
}

}  // namespace rodcollide
