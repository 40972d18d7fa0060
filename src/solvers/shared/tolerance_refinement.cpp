// The statement of the exact solver's tolerance loop (tolerance_refinement.hpp).
#include "solvers/shared/tolerance_refinement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

double pair_bound(const std::vector<double>& coarse_velocity, const std::vector<double>& fine_velocity,
                  bool coarse_settled, bool fine_settled, std::size_t fine_steps, double V) {
    if (coarse_settled != fine_settled) return std::numeric_limits<double>::infinity();
    double d = 0;
    for (std::size_t i = 0; i < coarse_velocity.size(); ++i)
        d = std::max(d, std::abs(coarse_velocity[i] - fine_velocity[i]));
    return d + 10 * std::numeric_limits<double>::epsilon() * V * std::sqrt(static_cast<double>(fine_steps + 1));
}

AccuracyReport refined_accuracy_report(const char* integrator, const char* source, double bound, double V,
                                       double target, double tol, const std::string& stopped,
                                       std::vector<std::string>& warnings) {
    AccuracyReport r;
    r.target = target;
    const double reached = V > 0 ? bound / V : 0.0;
    if (bound <= target * V) {
        r.status = AccuracyStatus::met;
        r.statement = fmt::format("{:.2g} V reached ({} at step tolerance {:.0e}, bound from the run at 100x the "
                                  "tolerance), within the {:.2g} V asked for",
                                  reached, integrator, tol, target);
        return r;
    }
    if (stopped.empty()) {
        r.status = AccuracyStatus::work_budget;
        r.statement = fmt::format("{:.2g} V reached at the smallest step tolerance {:.0e}; {:.2g} V asked for", reached,
                                  tol, target);
    } else {
        // The finer run's own message names its cap (SolverLimitExceeded).
        r.status = stopped.find("max_events") != std::string::npos ? AccuracyStatus::event_budget
                                                                     : AccuracyStatus::work_budget;
        r.statement = fmt::format("{:.2g} V reached at step tolerance {:.0e}; {:.2g} V asked for, but the next finer "
                                  "run stopped: {}",
                                  reached, tol, target, stopped);
    }
    warnings.push_back(fmt::format("{}: velocity error bound {:.3g} m/s ({:.3g} of the velocity scale) misses the "
                                   "target {:.0e}",
                                   source, bound, reached, target));
    return r;
}

}  // namespace rodcollide
