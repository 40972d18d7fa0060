// Exact facets of the identified cones (docs/sweep.md "Four and more bodies", "Facets"): the
// rank-one differences of neighbouring linear cones give the facets between two linear cones; a
// cone next to a region where the map is not linear (or next to a cone too thin to be sampled)
// gets those facets from the wave solver itself: the boundary is located by bisection along
// chords between the cone's directions and a direction its facets claim wrongly (to ~1e-14), and
// a hyperplane through the origin is fitted through the boundary points and verified at others.
#pragma once

#include "rodcollide/cone_sweep.hpp"

#include <Eigen/Dense>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide {

/// The wave solver at one gamma-, with at most `max_events` event groups: its signature and
/// gamma+, or nullopt if the solve did not settle within them.
struct WaveSample {
    std::string signature;
    Eigen::VectorXd gamma_post;
};
using WaveOracle = std::function<std::optional<WaveSample>(const Eigen::VectorXd&, std::size_t max_events)>;

/// What refine_facets() did.
struct FacetRefinement {
    std::size_t solves = 0;        ///< wave solves of the bisections
    std::size_t facets_added = 0;  ///< facets found by bisection (beyond the rank-one ones)
    std::size_t inexact = 0;       ///< linear cones whose facets could not be made to exclude every
                                   ///< swept direction of another matrix (left out of the law)
};

/// Whether every contact event of a run happened at a time fixed by the transit times: a multiple
/// of `unit` (to 1e-9 of it), the unit of which every transit time is a multiple
/// (commensurate_unit()); without one, whether no contact closed after t = 0.
bool fixed_event_times(const std::vector<ContactEvent>& events, std::optional<double> unit);

/// The largest u = T_min / k (k <= 64) of which every transit time is a multiple (to 1e-9), if any:
/// the front tracker's event times on touching rods are then multiples of u.
std::optional<double> commensurate_unit(const Eigen::VectorXd& transit_times);

/// The generating rays of {gamma : b . gamma >= 0 for all facets b}: every intersection of d-1
/// facets that satisfies the others (at most 200,000 subsets are tried), unit in the G^-1 metric.
std::vector<Eigen::VectorXd> rays_of(const std::vector<Eigen::VectorXd>& facets, Eigen::Index d,
                                     const Eigen::MatrixXd& G_inverse);

/// Completes the facets of every linear cone of `cones` (identify_cones()'s result for the samples
/// pre/post/signatures with `assignment`; `events`: each sample's event groups; `fixed`: whether
/// all its contact events happened at times fixed by the transit times, fixed_event_times()) until no sample of another matrix lies inside them:
/// each such sample is cut off by a facet through boundary points found with `oracle`. Cones where
/// that fails get exact[c] = 0 (and the rest 1); rays and representatives are recomputed. Work is
/// bounded: at most `max_rounds` facets per cone.
FacetRefinement refine_facets(std::vector<IdentifiedCone>& cones, const std::vector<Eigen::VectorXd>& pre,
                              const std::vector<Eigen::VectorXd>& post, const std::vector<std::string>& signatures,
                              const std::vector<std::size_t>& events, const std::vector<char>& fixed,
                              const std::vector<std::ptrdiff_t>& assignment, const Eigen::MatrixXd& G,
                              double tolerance, const WaveOracle& oracle, unsigned threads,
                              std::vector<char>& exact, std::size_t max_rounds = 64);

}  // namespace rodcollide
