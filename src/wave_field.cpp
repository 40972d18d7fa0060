// Exact piecewise-constant wave field: point queries, rod integrals and front segments.
#include "rodcollide/wave_field.hpp"

#include "rodcollide/interface.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rodcollide {

StepFunction::StepFunction(double initial_value)
    : times_{-std::numeric_limits<double>::infinity()}, values_{initial_value} {}

void StepFunction::push(double time, double value) {
    if (time < times_.back()) throw std::logic_error("StepFunction::push: jumps out of order");
    times_.push_back(time);
    values_.push_back(value);
}

std::size_t StepFunction::discard_before(std::size_t k) {
    if (k <= first_) return 0;
    const std::size_t n = k - first_;
    times_.erase(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(n));
    values_.erase(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(n));
    times_.front() = -std::numeric_limits<double>::infinity();
    first_ = k;
    return n;
}

std::size_t StepFunction::index_at(double s) const {
    auto it = std::upper_bound(times_.begin() + 1, times_.end(), s);
    return first_ + static_cast<std::size_t>(it - times_.begin()) - 1;
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
    alpha_.reserve(chain.size());
    beta_.reserve(chain.size());
    for (const Rod& r : chain.rods()) {
        // Unstrained rod moving at v: alpha = beta = v.
        alpha_.emplace_back(r.velocity);
        beta_.emplace_back(r.velocity);
    }
}

PointState WaveField::state(std::size_t rod, double x, double t) const {
    const Rod& r = chain_[rod];
    const double c = r.wave_speed();
    PointState p;
    p.alpha = alpha_[rod].at(t + (r.length - x) / c);
    p.beta = beta_[rod].at(t + x / c);
    p.velocity = velocity_of(p.alpha, p.beta);
    p.force = force_of(r.impedance(), p.alpha, p.beta);
    p.strain = p.force / r.axial_stiffness();
    return p;
}

std::size_t WaveField::rod_at(double x) const {
    std::size_t i = 0;
    while (i + 1 < chain_.size() && x >= chain_.material_offset(i + 1)) ++i;
    return i;
}

PointState WaveField::state_at(double x, double t) const {
    const std::size_t i = rod_at(x);
    return state(i, std::clamp(x - chain_.material_offset(i), 0.0, chain_[i].length), t);
}

double WaveField::momentum(std::size_t rod, double t) const {
    const double T = chain_[rod].transit_time();
    return 0.5 * chain_[rod].impedance() *
           (alpha_[rod].integral(t, t + T) + beta_[rod].integral(t, t + T));
}

double WaveField::energy(std::size_t rod, double t) const {
    const double T = chain_[rod].transit_time();
    return 0.25 * chain_[rod].impedance() *
           (alpha_[rod].integral_of_square(t, t + T) + beta_[rod].integral_of_square(t, t + T));
}

double WaveField::displacement(std::size_t rod, double x, double t) const {
    const Rod& r = chain_[rod];
    const double c = r.wave_speed();
    const double a0 = (r.length - x) / c, b0 = x / c;
    return 0.5 * (alpha_[rod].integral(a0, a0 + t) + beta_[rod].integral(b0, b0 + t));
}

std::vector<double> WaveField::front_passages(std::size_t rod, double x, double t_end) const {
    const Rod& r = chain_[rod];
    const double c = r.wave_speed();
    std::vector<double> out;
    // A jump of A at s passes x at s - (L-x)/c; a jump of B at s passes x at s - x/c.
    for (const auto& [f, delay] : {std::pair{&alpha_[rod], (r.length - x) / c}, std::pair{&beta_[rod], x / c}})
        for (std::size_t k = f->index_at(delay) + 1; k < f->size() && f->time(k) - delay < t_end; ++k)
            if (f->time(k) - delay > 0) out.push_back(f->time(k) - delay);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<FrontSegment> WaveField::fronts(double t_end, double min_jump) const {
    std::vector<FrontSegment> out;
    for (std::size_t i = 0; i < chain_.size(); ++i) {
        const Rod& r = chain_[i];
        const double T = r.transit_time();
        const double x_left = chain_.material_offset(i);
        const double x_right = x_left + r.length;
        for (int dir = 0; dir < 2; ++dir) {
            const StepFunction& f = dir == 0 ? alpha_[i] : beta_[i];
            for (std::size_t k = f.first() + 1; k < f.size(); ++k) {
                const double jump = f.value(k) - f.value(k - 1);
                if (std::abs(jump) < min_jump) continue;
                const double t_emit = f.time(k) - T;
                if (t_emit > t_end) break;
                FrontSegment s;
                s.rod = i;
                s.right_moving = dir == 0;
                s.jump = jump;
                s.t0 = t_emit;
                s.t1 = std::min(f.time(k), t_end);
                const double travelled = (s.t1 - s.t0) / T * r.length;
                s.x0 = dir == 0 ? x_left : x_right;
                s.x1 = dir == 0 ? x_left + travelled : x_right - travelled;
                out.push_back(s);
            }
        }
    }
    return out;
}

}  // namespace rodcollide
