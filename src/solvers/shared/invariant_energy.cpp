// Energy from the Riemann invariants (invariant_energy.hpp; docs/physics.md §1-2).
#include "solvers/shared/invariant_energy.hpp"

namespace rodcollide {

double invariant_mean(const ArrivalWindow& alpha, const ArrivalWindow& beta, double transit_time) {
    double sum = 0;
    for (const ArrivalWindow* w : {&alpha, &beta})
        for (const ArrivalPiece& p : *w) sum += p.value * p.duration;
    return sum / (2 * transit_time);
}

double invariant_energy(double impedance, const ArrivalWindow& alpha, const ArrivalWindow& beta, double mean) {
    double sum = 0;
    for (const ArrivalWindow* w : {&alpha, &beta})
        for (const ArrivalPiece& p : *w) sum += (p.value - mean) * (p.value - mean) * p.duration;
    return 0.25 * impedance * sum;
}

double emitted_energy_excess(double impedance, double emitted, double exact) {
    return 0.25 * impedance * (emitted * emitted - exact * exact);
}

}  // namespace rodcollide
