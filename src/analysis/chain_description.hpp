// The chain a sweep ran on, as both sweep reports write it (the three-rod sweep, sweep_report.cpp,
// and the cone sweep, cone_sweep_report.cpp): the JSON block "rods" and the table's "rods" line.
#pragma once

#include <Eigen/Dense>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rodcollide {

/// {"lengths": [...], "masses": [...], "impedances": [...], "transit_times": [...]}.
inline nlohmann::ordered_json rods_json(const Eigen::VectorXd& lengths, const Eigen::VectorXd& masses,
                                        const Eigen::VectorXd& impedances, const Eigen::VectorXd& transit_times) {
    auto list = [](const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); };
    return {{"lengths", list(lengths)},
            {"masses", list(masses)},
            {"impedances", list(impedances)},
            {"transit_times", list(transit_times)}};
}

}  // namespace rodcollide
