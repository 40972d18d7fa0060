// Exact piecewise-constant wave field (wave_field.hpp): point queries, rod integrals and front
// segments, per element; rod queries locate or sum a rod's elements.
#include "solvers/shared/wave_field.hpp"

#include "solvers/shared/junction.hpp"
#include "solvers/shared/invariant_energy.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <ranges>
#include <stdexcept>

namespace rodcollide {

namespace {

constexpr std::size_t smallest_ring = 8;  // pieces: 128 bytes
// A ring is never shrunk below this (2 KB): a reader forgets passed pieces 64 at a time, and a
// ring that shrank to its few pieces in flight would grow again by doubling before each forgetting.
constexpr std::size_t kept_ring = 128;

}  // namespace

StepFunction::StepFunction(double initial_value) : ring_(smallest_ring), mask_(smallest_ring - 1) {
    ring_[0] = {-std::numeric_limits<double>::infinity(), initial_value};
}

void StepFunction::reallocate(std::size_t capacity) {
    std::vector<Piece> ring(capacity);
    for (std::size_t k = first_; k < end_; ++k) ring[k & (capacity - 1)] = slot(k);
    ring_ = std::move(ring);
    mask_ = capacity - 1;
}

void StepFunction::out_of_order() { throw std::logic_error("StepFunction::push: jumps out of order"); }

std::size_t StepFunction::discard_before(std::size_t k) {
    if (k <= first_) return 0;
    const std::size_t n = k - first_;
    first_ = k;
    slot(first_).time = -std::numeric_limits<double>::infinity();
    // A history that once held many fronts gives the memory back: the cap on stored fronts
    // (max_fronts) then bounds memory too, not only the fronts in flight.
    const std::size_t stored = end_ - first_;
    if (ring_.size() > kept_ring && ring_.size() >= 4 * stored) reallocate(std::max(kept_ring, std::bit_ceil(2 * stored)));
    return n;
}

std::size_t StepFunction::truncate(std::size_t k) {
    if (k >= size()) return 0;
    const std::size_t n = size() - k;
    end_ = k;
    return n;
}

double StepFunction::merge_last(double end) {
    if (end_ - first_ < 3) throw std::logic_error("StepFunction::merge_last: no finite piece to merge into");
    const Piece last = slot(end_ - 1);
    Piece& before = slot(end_ - 2);
    const double d1 = last.time - before.time, d2 = end - last.time;
    const double v1 = before.value, v2 = last.value;
    const double d = d1 + d2;
    --end_;
    if (!(d > 0)) return 0;  // both pieces empty: nothing to weigh
    // v1 + (v2 - v1) d2/d rather than (v1 d1 + v2 d2)/d: equal values stay exactly equal.
    before.value = v1 + (v2 - v1) * (d2 / d);
    return d1 * d2 * (v1 - v2) * (v1 - v2) / d;
}

void StepFunction::shift_times(const TimeShift& shift) {
    for (std::size_t k = first_; k < end_; ++k) slot(k).time = shift(slot(k).time);
}

std::size_t StepFunction::index_at(double s) const {
    // The last piece starting at or before s (upper_bound over the jumps, then one back).
    std::size_t lo = first_ + 1, count = end_ - lo;
    while (count > 0) {
        const std::size_t half = count / 2;
        if (time(lo + half) <= s) {
            lo += half + 1;
            count -= half + 1;
        } else {
            count = half;
        }
    }
    return lo - 1;
}

namespace {

template <class F>
double integrate_pieces(const StepFunction& f, double a, double b, F g) {
    double sum = 0;
    for (std::size_t k = f.index_at(a); k < f.size() && f.time(k) < b; ++k) {
        const double lo = std::max(a, f.time(k));
        const double hi = (k + 1 < f.size()) ? std::min(b, f.time(k + 1)) : b;
        if (hi > lo) sum += g(f.value(k)) * (hi - lo);
    }
    return sum;
}

}  // namespace

double StepFunction::integral(double a, double b) const {
    return integrate_pieces(*this, a, b, [](double v) { return v; });
}

double StepFunction::integral_of_square(double a, double b) const {
    return integrate_pieces(*this, a, b, [](double v) { return v * v; });
}

WaveField::WaveField(const Chain& chain) : chain_(chain) {
    alpha_.reserve(chain.elements().size());
    beta_.reserve(chain.elements().size());
    for (const Element& e : chain.elements()) {
        // Unstrained element moving at v: alpha = beta = v.
        alpha_.emplace_back(e.initial_velocity);
        beta_.emplace_back(e.initial_velocity);
    }
    frozen_shift_.resize(alpha_.size());
}

namespace {

/// The pieces of f over [t, t + T).
ArrivalWindow window(const StepFunction& f, double t, double T) {
    ArrivalWindow w;
    const std::size_t first = f.index_at(t);
    w.reserve(f.index_at(t + T) - first + 1);
    for (std::size_t k = first; k < f.size() && f.time(k) < t + T; ++k) {
        const double lo = std::max(t, f.time(k));
        const double hi = k + 1 < f.size() ? std::min(t + T, f.time(k + 1)) : t + T;
        if (hi > lo) w.push_back({hi - lo, f.value(k)});
    }
    return w;
}

}  // namespace

void WaveField::move_time_origin(const TimeShift& shift, double origin) {
    for (std::size_t e = 0; e < alpha_.size(); ++e) {
        if (frozen_shift_[e]) {
            frozen_shift_[e] = frozen_shift_[e]->then(shift);
            continue;
        }
        alpha_[e].shift_times(shift);
        beta_[e].shift_times(shift);
    }
    valid_until_ = shift(valid_until_);
    time_origin_ = origin;
}

void WaveField::freeze(std::size_t e) {
    if (!frozen_shift_[e]) frozen_shift_[e] = TimeShift{};
}

void WaveField::thaw(std::size_t e) {
    if (!frozen_shift_[e]) return;
    const TimeShift shift = *frozen_shift_[e];
    if (shift.hi != 0 || shift.lo != 0) {
        alpha_[e].shift_times(shift);
        beta_[e].shift_times(shift);
    }
    frozen_shift_[e].reset();
}

ArrivalWindow WaveField::alpha_window(std::size_t e, double t) const {
    return window(alpha_[e], t, chain_.elements()[e].transit_time);
}

ArrivalWindow WaveField::beta_window(std::size_t e, double t) const {
    return window(beta_[e], t, chain_.elements()[e].transit_time);
}

PointState WaveField::element_state(std::size_t e, double x, double t) const {
    const Element& el = chain_.elements()[e];
    const double c = el.wave_speed;
    PointState p;
    p.alpha = alpha_[e].at(t + (el.length - x) / c);
    p.beta = beta_[e].at(t + x / c);
    p.velocity = velocity_of(p.alpha, p.beta);
    p.force = force_of(el.impedance, p.alpha, p.beta);
    p.strain = p.force / el.axial_stiffness;
    return p;
}

std::pair<std::size_t, double> rod_point(const Chain& chain, std::size_t rod, double x) {
    const auto elements = chain.element_indices(rod);
    const double rod_offset = chain.elements()[elements.front()].offset;
    std::size_t e = elements.front();
    for (std::size_t next : elements | std::views::drop(1))
        if (x >= chain.elements()[next].offset - rod_offset) e = next;
    return {e, x - (chain.elements()[e].offset - rod_offset)};
}

std::pair<std::size_t, double> element_point(const Chain& chain, double x) {
    const std::vector<Element>& elements = chain.elements();
    std::size_t e = 0;
    while (e + 1 < elements.size() && x >= elements[e + 1].offset) ++e;
    return {e, std::clamp(x - elements[e].offset, 0.0, elements[e].length)};
}

PointState WaveField::state(std::size_t rod, double x, double t) const {
    const auto [e, local] = rod_point(chain_, rod, x);
    return element_state(e, local, t);
}

std::size_t WaveField::element_at(double x) const { return element_point(chain_, x).first; }

std::size_t WaveField::rod_at(double x) const { return chain_.elements()[element_at(x)].rod; }

PointState WaveField::state_at(double x, double t) const {
    const auto [e, local] = element_point(chain_, x);
    return element_state(e, local, t);
}

namespace {

/// Sum of f(e) over the elements of a rod, from the first on (a rod of one element gives f of it
/// exactly).
template <class F>
double sum_over_elements(const Chain& chain, std::size_t rod, F f) {
    const auto elements = chain.element_indices(rod);
    double sum = f(elements.front());
    for (std::size_t e : elements | std::views::drop(1)) sum += f(e);
    return sum;
}

}  // namespace

double WaveField::momentum(std::size_t rod, double t) const {
    return sum_over_elements(chain_, rod, [&](std::size_t e) {
        const Element& el = chain_.elements()[e];
        const double T = el.transit_time;
        return 0.5 * el.impedance * (alpha_[e].integral(t, t + T) + beta_[e].integral(t, t + T));
    });
}

double WaveField::energy(std::size_t rod, double t) const {
    return sum_over_elements(chain_, rod, [&](std::size_t e) {
        return invariant_energy(chain_.elements()[e].impedance, alpha_window(e, t), beta_window(e, t));
    });
}

double WaveField::displacement(std::size_t rod, double x_rod, double t) const {
    const auto [e, x] = rod_point(chain_, rod, x_rod);
    const Element& el = chain_.elements()[e];
    const double c = el.wave_speed;
    const double a0 = (el.length - x) / c, b0 = x / c;
    return 0.5 * (alpha_[e].integral(a0, a0 + t) + beta_[e].integral(b0, b0 + t));
}

std::vector<double> WaveField::front_passages(std::size_t rod, double x_rod, double t_end) const {
    const auto [e, x] = rod_point(chain_, rod, x_rod);
    const Element& el = chain_.elements()[e];
    const double c = el.wave_speed;
    std::vector<double> out;
    // A jump of A at s passes x at s - (L-x)/c; a jump of B at s passes x at s - x/c.
    for (const auto& [f, delay] : {std::pair{&alpha_[e], (el.length - x) / c}, std::pair{&beta_[e], x / c}})
        for (std::size_t k = f->index_at(delay) + 1; k < f->size() && f->time(k) - delay < t_end; ++k)
            if (f->time(k) - delay > 0) out.push_back(f->time(k) - delay);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<FrontSegment> WaveField::fronts(double t_end, double min_jump) const {
    std::vector<FrontSegment> out;
    for (std::size_t e = 0; e < chain_.elements().size(); ++e) {
        const Element& el = chain_.elements()[e];
        const double T = el.transit_time;
        const double x_left = el.offset;
        const double x_right = x_left + el.length;
        for (int dir = 0; dir < 2; ++dir) {
            const StepFunction& f = dir == 0 ? alpha_[e] : beta_[e];
            for (std::size_t k = f.first() + 1; k < f.size(); ++k) {
                const double jump = f.value(k) - f.value(k - 1);
                if (std::abs(jump) < min_jump) continue;
                const double t_emit = f.time(k) - T;
                if (t_emit > t_end) break;
                FrontSegment s;
                s.rod = el.rod;
                s.right_moving = dir == 0;
                s.jump = jump;
                s.t0 = t_emit;
                s.t1 = std::min(f.time(k), t_end);
                const double travelled = (s.t1 - s.t0) / T * el.length;
                s.x0 = dir == 0 ? x_left : x_right;
                s.x1 = dir == 0 ? x_left + travelled : x_right - travelled;
                out.push_back(s);
            }
        }
    }
    return out;
}

}  // namespace rodcollide
