// Periodic end paths of free-free rods and the closing search (free_flight.hpp; docs/physics.md
// §6.6).
#include "solvers/exact/free_flight.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

PeriodicPath::PeriodicPath(const ArrivalWindow& first, const ArrivalWindow& second, double period)
    : period_(period) {
    const double half = 0.5 * period;
    double offset = 0, x = 0;
    const std::size_t breakpoints = first.size() + second.size() + 1;  // at most
    start_.reserve(breakpoints);
    velocity_.reserve(breakpoints);
    position_.reserve(breakpoints);
    for (const ArrivalWindow* w : {&first, &second}) {
        for (const ArrivalPiece& p : *w) {
            if (!velocity_.empty() && velocity_.back() == p.value) {
                x += p.value * p.duration;
                offset += p.duration;
                continue;  // no change of velocity: no breakpoint
            }
            start_.push_back(std::min(offset, period));
            velocity_.push_back(p.value);
            position_.push_back(x);
            x += p.value * p.duration;
            offset += p.duration;
        }
        // The second window starts exactly at T: anchor the phase there (the windows' durations
        // sum to T up to rounding), so that the period is exactly 2T as in the event loop.
        x = position_.empty() ? 0 : position_.back() + velocity_.back() * (half - start_.back());
        offset = half;
    }
    if (start_.empty()) {  // cannot happen for a rod (windows cover T > 0); keep the path defined
        start_ = {0};
        velocity_ = {0};
        position_ = {0};
    }
    per_period_ = position_.back() + velocity_.back() * (period - start_.back());
    start_.push_back(period);
    position_.push_back(per_period_);
    const double mean = mean_velocity();
    lowest_ = highest_ = 0;
    for (std::size_t k = 0; k < start_.size(); ++k) {
        // Position is linear on each piece, so its excursion about the mean is extreme at breakpoints.
        const double e = position_[k] - mean * start_[k];
        lowest_ = std::min(lowest_, e);
        highest_ = std::max(highest_, e);
    }
    // The iterative segment tree needs no power of two: 2n nodes, node i over nodes 2i and 2i+1.
    leaves_ = position_.size();
    tree_lo_.assign(2 * leaves_, std::numeric_limits<double>::infinity());
    tree_hi_.assign(2 * leaves_, -std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < position_.size(); ++k) tree_lo_[leaves_ + k] = tree_hi_[leaves_ + k] = position_[k];
    for (std::size_t i = leaves_ - 1; i >= 1; --i) {
        tree_lo_[i] = std::min(tree_lo_[2 * i], tree_lo_[2 * i + 1]);
        tree_hi_[i] = std::max(tree_hi_[2 * i], tree_hi_[2 * i + 1]);
    }
}

std::size_t PeriodicPath::piece_at(double r) const {
    const auto it = std::upper_bound(start_.begin(), start_.end() - 1, r);
    return static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, it - start_.begin() - 1));
}

double PeriodicPath::phase_position(double r) const {
    const std::size_t k = piece_at(r);
    return position_[k] + velocity_[k] * (r - start_[k]);
}

void PeriodicPath::split(double u, double& whole_periods, double& phase) const {
    whole_periods = std::floor(u / period_);
    phase = u - whole_periods * period_;
    if (phase < 0) phase = 0;
    if (phase >= period_) {
        whole_periods += 1;
        phase = 0;
    }
}

double PeriodicPath::position(double u) const {
    double q, r;
    split(u, q, r);
    return q * per_period_ + phase_position(r);
}

double PeriodicPath::velocity(double u) const {
    double q, r;
    split(u, q, r);
    return velocity_[piece_at(r)];
}

std::pair<double, double> PeriodicPath::breakpoint_extremes(std::size_t k1, std::size_t k2) const {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t a = k1 + leaves_, b = k2 + leaves_ + 1; a < b; a /= 2, b /= 2) {
        if (a & 1) {
            lo = std::min(lo, tree_lo_[a]);
            hi = std::max(hi, tree_hi_[a++]);
        }
        if (b & 1) {
            lo = std::min(lo, tree_lo_[--b]);
            hi = std::max(hi, tree_hi_[b]);
        }
    }
    return {lo, hi};
}

PeriodicPath::Range PeriodicPath::range(double u1, double u2) const {
    double q, r1;
    split(u1, q, r1);
    const double r2 = r1 + (u2 - u1);
    Range out;
    // Within one period [a, b] (phases), offset by `shift`: the ends and the breakpoints strictly inside.
    const auto add = [&](double a, double b, double shift, bool first) {
        const double xa = shift + phase_position(a), xb = shift + (b >= period_ ? per_period_ : phase_position(b));
        double lo = std::min(xa, xb), hi = std::max(xa, xb);
        const std::size_t k1 = static_cast<std::size_t>(std::upper_bound(start_.begin(), start_.end(), a) - start_.begin());
        const std::size_t k2 = static_cast<std::size_t>(std::lower_bound(start_.begin(), start_.end(), b) - start_.begin());
        if (k1 < k2) {  // breakpoints k1 .. k2-1 lie strictly inside (a, b)
            const auto [l, h] = breakpoint_extremes(k1, k2 - 1);
            lo = std::min(lo, shift + l);
            hi = std::max(hi, shift + h);
            out.kinked = true;
        }
        out.lo = first ? lo : std::min(out.lo, lo);
        out.hi = first ? hi : std::max(out.hi, hi);
    };
    if (r2 <= period_) {
        add(r1, r2, q * per_period_, true);
    } else {
        add(r1, period_, q * per_period_, true);
        add(0, r2 - period_, (q + 1) * per_period_, false);
        out.kinked = true;  // the period's end is a breakpoint
    }
    return out;
}

ArrivalWindow PeriodicPath::pieces(double u, double duration) const {
    double q, r;
    split(u, q, r);
    ArrivalWindow w;
    double done = 0;
    std::size_t k = piece_at(r);
    while (done < duration) {
        const double end = start_[k + 1];
        const double d = std::min(end - r, duration - done);
        if (d > 0) {
            if (!w.empty() && w.back().value == velocity_[k]) w.back().duration += d;
            else w.push_back({d, velocity_[k]});
        }
        done += std::max(d, 0.0);
        if (++k + 1 >= start_.size()) k = 0;
        r = start_[k];
    }
    return w;
}

double periodic_phase(double elapsed, double period) {
    double r = std::fmod(elapsed, period);  // exact
    if (r < 0) r += period;
    return r < period ? r : 0;  // -tiny + period rounds up to the period
}

EndView EndView::steady(double velocity) {
    EndView v;
    v.velocity_ = velocity;
    return v;
}

EndView EndView::periodic(const PeriodicPath& path, double elapsed) {
    EndView v;
    v.path_ = &path;
    // Only the phase matters (the path is periodic); reducing it (fmod is exact) keeps position()
    // free of the rounding of many whole periods. `elapsed` may be negative: a path's start can
    // be moved forward by whole periods (the exact solver does so when it moves its time origin).
    v.phase_ = periodic_phase(elapsed, path.period());
    v.start_ = path.position(v.phase_);
    v.start_excursion_ = v.start_ - path.mean_velocity() * v.phase_;
    return v;
}

double EndView::period() const { return path_ ? path_->period() : std::numeric_limits<double>::infinity(); }

PeriodicPath::Range EndView::range(double u1, double u2) const {
    if (!path_) return {std::min(velocity_ * u1, velocity_ * u2), std::max(velocity_ * u1, velocity_ * u2), false};
    PeriodicPath::Range r = path_->range(phase_ + u1, phase_ + u2);
    r.lo -= start_;
    r.hi -= start_;
    return r;
}

namespace {

/// closing_lower_bound() for either kind of end (PeriodicPath from its start, or EndView).
template <class Path>
double lower_bound_of_closing(double g0, const Path& left, const Path& right, double limit, double margin,
                              std::size_t budget) {
    const auto gap = [&](double u) { return g0 + right.position(u) - left.position(u); };
    // For all u: g(u) >= c0 + dv u (§6.3 with the exact excursions of both ends).
    const double dv = right.mean_velocity() - left.mean_velocity();
    const double c0 = g0 + right.lowest_excursion() - left.highest_excursion() - margin;
    double a = 0, end = limit;
    if (c0 > 0) {
        if (dv >= 0) return limit;
        a = std::min(limit, c0 / -dv);
    } else if (dv > 0) {
        end = std::min(limit, -c0 / dv);  // from here on the linear bound is positive
    }
    const double shortest = std::min(left.period(), right.period());
    const double smallest = shortest * 1e-9;
    double h = shortest / 8;
    for (std::size_t n = 0; a < end; ++n) {
        if (n >= budget) return a;
        const double b = std::min(a + h, end);
        const PeriodicPath::Range l = left.range(a, b), r = right.range(a, b);
        if (g0 + r.lo - l.hi > margin) {  // positive on the whole window
            a = b;
            h = std::min(2 * h, shortest);
            continue;
        }
        if (!l.kinked && !r.kinked && gap(b) > margin && gap(a) >= 0) {
            a = b;  // linear on [a, b] and positive at both ends: positive throughout
            h = std::min(2 * h, shortest);
            continue;
        }
        if (h <= smallest) return a;  // the closing, or a near miss, lies within h of a
        h *= 0.5;
    }
    return limit;
}

}  // namespace

double closing_lower_bound(double g0, const PeriodicPath& left, const PeriodicPath& right, double limit,
                           double margin, std::size_t budget) {
    return lower_bound_of_closing(g0, left, right, limit, margin, budget);
}

double closing_lower_bound(double g0, const EndView& left, const EndView& right, double limit, double margin,
                           std::size_t budget) {
    return lower_bound_of_closing(g0, left, right, limit, margin, budget);
}

}  // namespace rodcollide
