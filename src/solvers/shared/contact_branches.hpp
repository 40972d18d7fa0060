// The branch each unilateral contact of the exact solver's integrators is on (docs/physics.md §9.7,
// §9.9, §9.10): whether it acts and, with restitution e < 1, its held memory δ_m, whether it acts on
// the unloading branch, and the loss of the memories already cleared; and the rules that switch
// them at a contact's events. The chains of rigid bodies (rigid_body_ode.cpp) and the delay
// network's junctions (junction_node.cpp, delay_network.cpp) share them.
#pragma once

#include "rodcollide/contact_law.hpp"

#include <cstddef>
#include <vector>

namespace rodcollide {

/// Whether an event function has crossed to the other branch between two looks: `sense` < 0 for
/// one that falls below 0 (an acting contact's force: it opens), > 0 for one that rises past 0. On
/// the other side now, and either it was not before or it is moving further in: a switch restarted
/// a rounding-sized distance on the wrong side must still be caught.
inline bool branch_crossed(int sense, double before, double now) {
    return sense < 0 ? now < 0 && (before >= 0 || now < before) : now > 0 && (before <= 0 || now > before);
}

/// A contact law with a memory: unilateral with restitution e < 1.
inline bool hysteretic(const ContactLaw& law) { return !law.bilateral && law.restitution < 1; }

struct ContactBranches {
    std::vector<char> acting;
    std::vector<char> unloading;        ///< acting on the held memory's unloading branch
    std::vector<ContactMemory> memory;  ///< held: as at the branch's start while loading
    std::vector<double> banked;         ///< hysteresis loss of memories already cleared [J]

    explicit ContactBranches(std::size_t contacts = 0)
        : acting(contacts, 0), unloading(contacts, 0), memory(contacts), banked(contacts, 0.0) {}

    /// The memory that selects contact k's law: the held one while unloading or open, none while
    /// loading (there δ_m is δ itself).
    const ContactMemory& branch(std::size_t k) const {
        static const ContactMemory none;
        return acting[k] && !unloading[k] ? none : memory[k];
    }
    /// Contact k's memory at overlap δ: remembered up to δ while loading, else the held one.
    ContactMemory memory_at(const ContactLaw& law, std::size_t k, double overlap) const {
        return acting[k] && !unloading[k] ? remember(law, memory[k], overlap) : memory[k];
    }
    /// Its hysteresis loss so far at overlap δ [J]: banked, plus (1 - e^2) of the energy stored up
    /// to its current memory.
    double hysteresis(const ContactLaw& law, std::size_t k, double overlap) const {
        return banked[k] + hysteresis_loss(law, memory_at(law, k, overlap));
    }
    /// The sense of a hysteretic contact's second event (+1: where its second event function rises
    /// past 0, -1: where it falls below 0, 0: none): loading, δ' (maximum compression); unloading,
    /// δ - δ_m (loading again); open with a memory, δ (separated: it forgets).
    int second_sense(std::size_t k) const {
        if (acting[k]) return unloading[k] ? +1 : -1;
        return memory[k].max_overlap > 0 ? -1 : 0;
    }

    /// Contact k starts or stops acting at overlap δ. With a memory: opening, it keeps the peak
    /// reached; closing below δ_m, it acts on the unloading branch.
    void switch_acting(const ContactLaw& law, std::size_t k, double overlap);
    /// A hysteretic contact k's second event at overlap δ: open, it forgets (its loss stays
    /// counted); at maximum compression it unloads from δ_m = δ; past δ_m it loads again.
    void second_event(const ContactLaw& law, std::size_t k, double overlap);

private:
    /// Holds memory m; a memory cleared or lowered banks its hysteresis loss.
    void hold(const ContactLaw& law, std::size_t k, const ContactMemory& m);
};

}  // namespace rodcollide
