// The switch rules of a contact's branches (contact_branches.hpp; docs/physics.md §9.7).
#include "solvers/shared/contact_branches.hpp"

namespace rodcollide {

void ContactBranches::hold(const ContactLaw& law, std::size_t k, const ContactMemory& m) {
    if (m.max_overlap < memory[k].max_overlap) banked[k] += hysteresis_loss(law, memory[k]);
    memory[k] = m;
}

void ContactBranches::switch_acting(const ContactLaw& law, std::size_t k, double overlap) {
    if (hysteretic(law)) {
        if (acting[k]) hold(law, k, memory_at(law, k, overlap));
        unloading[k] = !acting[k] && overlap < memory[k].max_overlap;
    }
    acting[k] = !acting[k];
}

void ContactBranches::second_event(const ContactLaw& law, std::size_t k, double overlap) {
    if (!acting[k]) {
        hold(law, k, {});
    } else if (!unloading[k]) {
        hold(law, k, remember(law, memory_at(law, k, overlap), overlap));
        unloading[k] = 1;
    } else {
        unloading[k] = 0;
    }
}

}  // namespace rodcollide
