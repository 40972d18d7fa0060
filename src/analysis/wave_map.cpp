// The wave solver as an impact map gamma- -> gamma+ (see wave_map.hpp).
#include "analysis/wave_map.hpp"

#include "rodcollide/impact_matrices.hpp"
#include "rodcollide/laws/law.hpp"
#include "rodcollide/solve.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace rodcollide {

Chain touching_chain_with_contact_velocities(const Chain& chain, const Eigen::VectorXd& gamma_pre) {
    if (gamma_pre.size() != static_cast<Eigen::Index>(chain.contact_count()))
        throw std::invalid_argument(fmt::format("gamma-: {} entries for {} contacts", gamma_pre.size(),
                                                chain.contact_count()));
    if (!gamma_pre.allFinite()) throw std::invalid_argument("gamma-: must be finite");
    const Eigen::VectorXd u = laws::velocities_with_contact_velocities(gamma_pre);
    std::vector<Rod> rods = chain.rods();
    for (std::size_t i = 0; i < rods.size(); ++i) {
        rods[i].velocity = u[static_cast<Eigen::Index>(i)];
        rods[i].gap = 0;
    }
    return Chain(std::move(rods));
}

Outcome wave_outcome_for(const Chain& chain, const Eigen::VectorXd& gamma_pre, const SolverOptions& options) {
    return solve(touching_chain_with_contact_velocities(chain, gamma_pre), options);
}

laws::ContactMap wave_contact_map(const Chain& chain, const SolverOptions& options) {
    return [chain, options](const Eigen::VectorXd& gamma_pre) -> Eigen::VectorXd {
        return contact_velocities(wave_outcome_for(chain, gamma_pre, options).final_velocities());
    };
}

}  // namespace rodcollide
