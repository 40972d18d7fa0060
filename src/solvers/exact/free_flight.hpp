// Free flight: a chain in which no contact carries force, advanced to just before its next
// closing without processing each reflection (docs/physics.md §6.6). Every rod is then free-free,
// so each end's velocity is periodic with period 2T (§6.1) and its position is that period's
// displacement times the number of whole periods plus a piecewise-linear part. The gap of an open
// contact is the difference of two such positions; PeriodicPath evaluates them at any later time
// and bounds them over any window, and closing_lower_bound() walks windows of time on which the
// gap provably stays positive, so that whole stretches of periods cost one bound each.
#pragma once

#include "solvers/shared/settling.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace rodcollide {

/// Displacement of one free end over [t0, t0 + u] for every u >= 0 while its rod stays free, from
/// the end's velocity over one period.
class PeriodicPath {
public:
    /// The end's velocity over one period from t0: the pieces of `first` over [0, period/2),
    /// then those of `second` over [period/2, period) (§6.1: the right end moves at the alpha
    /// window, then at the beta window shifted by T; the left end the other way round).
    PeriodicPath(const ArrivalWindow& first, const ArrivalWindow& second, double period);

    double period() const { return period_; }
    /// Mean velocity: displacement per period / period [m/s].
    double mean_velocity() const { return per_period_ / period_; }
    /// Displacement over [t0, t0 + u] [m], u >= 0.
    double position(double u) const;
    /// Breakpoints of the velocity over one period (what the path stores) [-].
    std::size_t breakpoints() const { return start_.size(); }
    /// Whether the end moves at one velocity throughout (its rod does not vibrate there).
    bool steady() const { return velocity_.size() == 1; }
    /// Velocity at t0 + u (the piece that starts at or before it) [m/s].
    double velocity(double u) const;
    /// Slowest and fastest velocity of the end over all time [m/s].
    std::pair<double, double> velocity_range() const {
        const auto [lo, hi] = std::ranges::minmax_element(velocity_);
        return {*lo, *hi};
    }

    /// Extremes of position() over [u1, u2] (u1 <= u2 <= u1 + period), and whether the velocity may
    /// change inside (u1, u2) (if not, position() is linear there).
    struct Range {
        double lo = 0, hi = 0;
        bool kinked = false;
    };
    Range range(double u1, double u2) const;
    /// Extremes over all u >= 0 of position(u) - mean_velocity() u [m] (§6.2).
    double lowest_excursion() const { return lowest_; }
    double highest_excursion() const { return highest_; }

    /// The velocity over [t0 + u, t0 + u + duration) as pieces, equal neighbours merged.
    ArrivalWindow pieces(double u, double duration) const;

private:
    std::size_t piece_at(double r) const;  // piece holding phase r in [0, period)
    double phase_position(double r) const; // displacement over [0, r], r in [0, period]
    std::pair<double, double> breakpoint_extremes(std::size_t k1, std::size_t k2) const;  // over X_k, k in [k1, k2]
    void split(double u, double& whole_periods, double& phase) const;

    double period_ = 0, per_period_ = 0, lowest_ = 0, highest_ = 0;
    std::vector<double> start_;     // start_[k]: phase at which piece k starts; start_[n] = period
    std::vector<double> velocity_;  // velocity on piece k
    std::vector<double> position_;  // displacement at start_[k]
    std::vector<double> tree_lo_, tree_hi_;  // segment trees over position_ for window extremes
    std::size_t leaves_ = 1;
};

/// `elapsed` [s] (any sign) reduced to [0, period): where on a periodic path a time falls.
double periodic_phase(double elapsed, double period);

/// One side of a gap as closing_lower_bound() sees it, from a time t on: an end on a periodic path
/// that started `elapsed` before t (a rod free since then), or an end moving at one velocity.
class EndView {
public:
    /// The end moves at `velocity` [m/s] throughout.
    static EndView steady(double velocity);
    /// The end follows `path` (which must outlive the view), `elapsed` [s] after its start (any
    /// sign: only the phase counts).
    static EndView periodic(const PeriodicPath& path, double elapsed);

    /// The path's period; +infinity when steady [s].
    double period() const;
    double mean_velocity() const { return path_ ? path_->mean_velocity() : velocity_; }
    /// Slowest and fastest velocity of the end from t on [m/s].
    std::pair<double, double> velocity_range() const {
        return path_ ? path_->velocity_range() : std::pair{velocity_, velocity_};
    }
    /// Displacement over [t, t + u] [m], u >= 0.
    double position(double u) const { return path_ ? path_->position(phase_ + u) - start_ : velocity_ * u; }
    /// As PeriodicPath::range(), from t.
    PeriodicPath::Range range(double u1, double u2) const;
    /// Extremes over all u >= 0 of position(u) - mean_velocity() u [m].
    double lowest_excursion() const { return path_ ? path_->lowest_excursion() - start_excursion_ : 0; }
    double highest_excursion() const { return path_ ? path_->highest_excursion() - start_excursion_ : 0; }

private:
    const PeriodicPath* path_ = nullptr;
    double phase_ = 0;            // [s] in [0, period): where on the path t falls
    double velocity_ = 0;         // [m/s] when steady
    double start_ = 0;            // path position at phase_ [m]
    double start_excursion_ = 0;  // start_ - mean velocity x phase_ [m]
};

/// A lower bound in [0, limit] of the first u at which the gap
///   g(u) = g0 + right_rod_left_end.position(u) - left_rod_right_end.position(u)
/// closes (reaches `margin` while decreasing), both rods staying free; `limit` if it provably does
/// not close before. At most `budget` windows are examined (the bound reached so far is returned).
/// g0 >= 0 [m]; `margin` [m] > 0 keeps the bound clear of closings the event loop would count as
/// simultaneous with an arrival.
double closing_lower_bound(double g0, const PeriodicPath& left_rod_right_end, const PeriodicPath& right_rod_left_end,
                           double limit, double margin, std::size_t budget);
/// Same, for ends seen from a later time or moving steadily (the exact solver's rods asleep in
/// free flight next to rods still awake, docs/physics.md §6.7).
double closing_lower_bound(double g0, const EndView& left_rod_right_end, const EndView& right_rod_left_end,
                           double limit, double margin, std::size_t budget);

}  // namespace rodcollide
