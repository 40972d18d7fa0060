// Momentum and energy that enter a chain through one of its two ends (docs/physics.md §8), kept
// the same way by both solvers: a load does work on the chain (energy.input), an anechoic end
// carries energy away (energy.radiated), a fixed end or a wall pushes without working. The end
// force N (positive in tension) and the end velocity v are piecewise constant: on the chain's
// left end the outside pushes with -N (power -N v), on its right end with +N (power N v).
#pragma once

#include "rodcollide/chain_ends.hpp"

namespace rodcollide {

class EndFlux {
public:
    explicit EndFlux(ChainSide side = ChainSide::left) : sign_(side == ChainSide::left ? -1.0 : 1.0) {}

    /// Event-driven: the end carries force N [N] at velocity v [m/s] from time t [s] on.
    void set(double force, double velocity, double t) {
        add(t - since_);
        force_ = force;
        velocity_ = velocity;
        since_ = t;
    }
    /// Momentum given to the chain up to t >= the last set() [N s].
    double impulse(double t) const { return impulse_ + sign_ * force_ * (t - since_); }
    /// Work done on the chain up to t >= the last set() [J].
    double work(double t) const { return work_ + sign_ * force_ * velocity_ * (t - since_); }
    double force() const { return force_; }

private:
    void add(double dt) {
        impulse_ += sign_ * force_ * dt;
        work_ += sign_ * force_ * velocity_ * dt;
    }

    double sign_;
    double force_ = 0, velocity_ = 0, since_ = 0;
    double impulse_ = 0, work_ = 0;
};

/// What passed through one end of the chain (EndFlux), as a solver reports it.
struct EndReport {
    double impulse = 0;          ///< [N s]
    double work = 0;             ///< [J]
    double load_step_error = 0;  ///< LoadSteps::max_error of the load acting there, if any
};

}  // namespace rodcollide
