// Whole-chain free flight (whole_chain_flight.hpp, docs/physics.md §6.6).
#include "solvers/exact/whole_chain_flight.hpp"

#include "solvers/exact/free_flight.hpp"
#include "solvers/shared/junction.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace rodcollide::exact {

namespace {

constexpr std::size_t path_budget = 1 << 16;  // breakpoints of free-flight paths kept at once

}  // namespace

void WholeChainFlight::fly(double t, double until) {
    if (chain_ends_.load_acting(t)) return;  // its steps still drive an end (found by the fuzzer)
    const std::vector<Element>& elements = chain_.elements;
    ContactHistory& contacts = chain_.contacts;
    double longest = 0;
    for (const Element& e : elements) longest = std::max(longest, 2 * e.transit_time);
    next_try_ = t + longest;  // a failed attempt is retried one period later
    double limit = until - t;
    // Each element's two end paths, built when a contact first needs them. They copy every
    // front in flight (about 80 bytes each), so beyond a budget (2.5 MB) they are dropped
    // once the contacts on both sides are done and rebuilt for the restart: memory stays
    // that of the fronts themselves.
    std::vector<std::optional<std::pair<PeriodicPath, PeriodicPath>>> paths(elements.size());
    std::size_t kept = 0;
    const auto end_paths = [&](std::size_t e) -> const std::pair<PeriodicPath, PeriodicPath>& {
        if (!paths[e]) {
            paths[e] = chain_.end_paths_of(e, t);
            kept += paths[e]->first.breakpoints() + paths[e]->second.breakpoints();
        }
        return *paths[e];
    };
    const double margin = 4 * chain_.velocity_scale * chain_.group_tolerance(t);
    for (std::size_t k = 0; k < contacts.size() && limit > longest; ++k) {
        const Junction& q = chain_.junctions[contacts.junction(k)];
        const auto left = static_cast<std::size_t>(q.left), right = static_cast<std::size_t>(q.right);
        const PeriodicPath& l = end_paths(left).first;    // the right end of the left element
        const PeriodicPath& r = end_paths(right).second;  // the left end of the right element
        if (contacts[k].closed()) {
            // Ends touching without force stay so, inert, while neither vibrates and their
            // velocities agree within the opening tolerance (stays_touching(), §1.4).
            if (!l.steady() || !r.steady() ||
                std::abs(free_separation_velocity(l.velocity(0), r.velocity(0))) > chain_.velocity_tolerance)
                return;
        } else {
            limit = closing_lower_bound(contacts[k].gap_at(t), l, r, limit, margin, 1 << 16);
        }
        if (kept > path_budget) paths[left].reset();  // both its contacts are done
    }
    if (!(limit > longest) || !std::isfinite(limit)) return;
    const double to = std::min(t + limit, until);
    const double u = to - t;
    // Every end is free from t: what the junctions dropped adds power up to t, none in flight
    // (restart_element() below makes every emitted invariant the exact one).
    for (std::size_t j = 0; j < chain_.junctions.size(); ++j) tracker_.account_energy(j, t);
    struct EndMotion {
        double position, velocity;  // displacement over [t, to] and velocity at `to`
    };
    std::vector<EndMotion> right_end(elements.size()), left_end(elements.size());
    for (std::size_t e = 0; e < elements.size(); ++e) {
        const auto& [right, left] = end_paths(e);
        right_end[e] = {right.position(u), right.velocity(u)};
        left_end[e] = {left.position(u), left.velocity(u)};
        tracker_.restart_element(e, right.pieces(u, elements[e].transit_time), left.pieces(u, elements[e].transit_time), to);
        paths[e].reset();
    }
    for (std::size_t k = 0; k < contacts.size(); ++k) {
        const Junction& q = chain_.junctions[contacts.junction(k)];
        const auto l = static_cast<std::size_t>(q.left), r = static_cast<std::size_t>(q.right);
        ContactRecord& c = contacts[k];
        if (c.closed()) continue;
        c.set_gap(std::max(0.0, c.gap_at(t) + left_end[r].position - right_end[l].position), to);
        c.set_gap_rate(free_separation_velocity(right_end[l].velocity, left_end[r].velocity));
    }
    for (std::size_t j = 0; j < chain_.junctions.size(); ++j) tracker_.reschedule(j);
    ++flights_;
    next_try_ = to + longest;
}

}  // namespace rodcollide::exact
