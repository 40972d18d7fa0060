// Both solvers' state at the chain's two end junctions (docs/physics.md §8): where each load is in
// its steps (LoadSteps), and what has passed through each end (EndFlux). The physics of each end is
// junction.hpp's; this is bookkeeping around it. The exact solver asks for a load at its event
// times (loaded_response), a stepping solver for its share of each time step (loaded_response_over).
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/end_flux.hpp"
#include "solvers/shared/junction.hpp"
#include "solvers/shared/settling.hpp"

#include <array>
#include <cstddef>
#include <optional>

namespace rodcollide {

class ChainEndState {
public:
    explicit ChainEndState(const Chain& chain);

    /// At junction j and time t: the response of a load acting there (its step at t, steps due
    /// within `tolerance` [s] counted as reached), or nothing if no load acts (the end's own kind
    /// answers then). A load acts from its first time to its last.
    std::optional<JunctionResponse> loaded_response(std::size_t j, const JunctionArrivals& in, double t,
                                                    double tolerance);
    /// A stepping solver's load over its step [t, t + dt] at junction j (nothing if no load is
    /// given there): the share of the step during which the load acts, and the response at the
    /// mean of its steps over that share (the same steps as the exact solver's, so the impulse is
    /// the same). Step times within `tolerance` [s] of t or t + dt count as on them. Leaves the end
    /// as it is at t + dt (load_acting(), next_load_time()); calling it again for the same step
    /// gives the same answer.
    struct LoadedStep {
        double share = 0;         ///< in [0, 1]: 0 before the load's first time and after its last
        JunctionResponse response;  ///< valid when share > 0
        bool inside = false;      ///< a step of the load starts strictly inside the time step
        bool stepped = false;     ///< the load acts in the step or reaches a step time: a settling bound is void
    };
    std::optional<LoadedStep> loaded_response_over(std::size_t j, const JunctionArrivals& in, double t, double dt,
                                                   double tolerance);
    /// Records the response of junction j at t if it is an end of the chain. True when that voids
    /// a settling bound: a load stepped, or an anechoic end carries force (energy leaves).
    bool update(std::size_t j, const JunctionResponse& r, double t);
    /// When junction j's load takes its next step [s]; +inf if none.
    double next_load_time(std::size_t j) const;
    /// Whether a load has steps still to come at t.
    bool load_acting(double t) const;
    /// Gaps of the walls at t (from their ContactRecords).
    WallGaps wall_gaps(const ContactHistory& contacts, double t) const;
    /// What passed through one end up to t.
    EndReport report(ChainSide side, double t) const;

private:
    struct End {
        std::size_t junction = 0;
        ChainSide side = ChainSide::left;
        const Load* load = nullptr;
        LoadSteps steps;
        std::size_t next_step = 0;  // steps before it have been applied
        bool stepped = false;       // a step was applied by the last loaded_response()
        EndFlux flux;
    };
    const End* end_at(std::size_t j) const;
    End* end_at(std::size_t j) { return const_cast<End*>(std::as_const(*this).end_at(j)); }

    const Chain& chain_;
    std::array<End, 2> ends_;
};

}  // namespace rodcollide
