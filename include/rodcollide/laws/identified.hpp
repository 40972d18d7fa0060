// A cone-wise linear impact law identified from waves (docs/identified_law.md): cones of gamma-
// given by their facets (inward normals b, the cone is {gamma : b . gamma >= 0 for every b}) and
// generating rays, each with its matrix J, gamma+ = J gamma-. `rodcollide sweep ... --export-law`
// writes it; `laws --law identified:FILE`, `compare --laws identified:FILE` and Python apply it.
// Where no cone holds gamma- the law has no answer and says so.
#pragma once

#include "rodcollide/impact_matrices.hpp"

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rodcollide::laws {

struct IdentifiedLawCone {
    Eigen::MatrixXd matrix;                ///< (n-1) x (n-1)
    std::vector<Eigen::VectorXd> facets;   ///< inward normals (unit, Euclidean)
    std::vector<Eigen::VectorXd> rays;     ///< generating rays (unit, G^-1 metric)
    std::size_t directions = 0;            ///< swept directions it was identified from
};

struct IdentifiedLaw {
    std::size_t bodies = 0;
    nlohmann::ordered_json chain;          ///< the chain it came from (title, masses, lengths, ...)
    Eigen::VectorXd masses;                ///< of the chain [kg]
    std::vector<IdentifiedLawCone> cones;
    /// Directions where the map was found not linear (G^-1-normalised gamma-): the law has no
    /// answer there (a cone's facets may still claim them: see the sweep's law check).
    std::vector<Eigen::VectorXd> non_linear_directions;
};

/// Slack of the facet test, relative to |gamma-|: a direction on a boundary belongs to both cones.
inline constexpr double facet_slack = 1e-9;

/// gamma+ for gamma- (n-1 entries) from the first cone whose facets hold; nullopt if none does.
/// gamma- = 0 gives 0.
std::optional<Eigen::VectorXd> apply_identified(const IdentifiedLaw& law, const Eigen::VectorXd& gamma_pre);

/// The file format (docs/identified_law.md).
nlohmann::ordered_json identified_law_json(const IdentifiedLaw& law);

/// Reads a law file. Throws InvalidInput with key "law" and a message that names the file and what
/// is wrong (unreadable, not JSON, a missing or malformed key, matrices of the wrong size).
IdentifiedLaw read_identified_law(const std::string& path);

/// The law of "identified:FILE", read once per path and kept (thread-safe).
std::shared_ptr<const IdentifiedLaw> identified_law_of(const std::string& law_name);

/// "identified:" prefix test.
bool is_identified_law_name(const std::string& law_name);

}  // namespace rodcollide::laws
