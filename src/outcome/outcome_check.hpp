// The self-check every Outcome passes before a solver returns it (docs/physics.md §2): all numbers
// finite, momentum conserved, the energy balance closed, every impulse >= 0, each within the
// solver's stated accuracy (Outcome::accuracy). A violation is an error, never a result.
#pragma once

#include "rodcollide/outcome.hpp"

#include <stdexcept>
#include <string>

namespace rodcollide {

/// An outcome broke an invariant. invariant() names it ("momentum conservation"), amount() is the
/// violation relative to its scale (or the offending value, for "finite numbers"), and what() is
/// the one line "outcome violates INVARIANT: DETAILS".
class InvariantViolation : public std::runtime_error {
public:
    InvariantViolation(std::string invariant, double amount, const std::string& details);
    const std::string& invariant() const noexcept { return invariant_; }
    double amount() const noexcept { return amount_; }

private:
    std::string invariant_;
    double amount_;
};

/// Throws InvariantViolation for the first invariant `o` breaks (in the order of the header
/// comment); tolerances are o.accuracy relative to each quantity's scale.
void check_outcome(const Outcome& o);

}  // namespace rodcollide
