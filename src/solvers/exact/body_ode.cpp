// The scaled rigid-body ODE on its active set (body_ode.hpp).
#include "solvers/exact/body_ode.hpp"

#include <algorithm>
#include <cmath>

namespace rodcollide {

BodyOde::BodyOde(const RigidBodies& b, double tolerance)
    : b_(b), n_(b.bodies()), T_(std::isfinite(b.time_scale) ? b.time_scale : 1.0),
      V_(b.velocity_scale > 0 ? b.velocity_scale : 1.0), M_(*std::max_element(b.mass.begin(), b.mass.end())),
      br_(n_ + 1), threshold_(n_ + 1, 0.0), parked_(n_ + 1, 0) {
    const double theta = 1e-2 * tolerance;
    for (std::size_t k = 0; k <= n_; ++k) {
        const double left = k == 0 ? M_ : b.mass[k - 1], right = k == n_ ? M_ : b.mass[k];
        threshold_[k] = theta * std::min(left, right) * V_ / T_;
    }
}

bool BodyOde::quiet(const BodyState& x, std::size_t k) const {
    const BodyLink& l = b_.links[k];
    if (l.kind == BodyLink::Kind::free) return true;
    if (l.kind == BodyLink::Kind::attached || br_.memory[k].max_overlap > 0) return false;
    const double d = x[k], r = b_.overlap_rate(k, &x[v0()]);
    if (!br_.acting[k]) return d <= 0 && r <= 0;
    // Acting at a force below both the parked threshold and the settling rule's rounding-sized force,
    // at a rounding-sized rate (rigid_body_link_settled()): touching bodies at rest ahead of the
    // wave, or moving as one behind it at the integration's noise.
    const double force = acting_force(k, d * V_ * T_, r * V_);
    return std::abs(force) <= std::min(quiet_fraction * threshold_[k], b_.force_tolerance) && std::abs(r) <= 1e-10;
}

BodyState BodyOde::plan(const BodyState& x, double t_hat) {
    base_ = x;
    base_time_ = t_hat;
    bodies_.clear();
    links_.clear();
    bslot_.assign(n_, none);
    lslot_.assign(n_ + 1, none);
    std::vector<char> loud(n_ + 1);
    for (std::size_t k = 0; k <= n_; ++k) loud[k] = !quiet(x, k);
    for (std::size_t i = 0; i < n_; ++i)
        if (loud[i] || loud[i + 1]) bodies_.push_back(i);
    // The links of the active bodies, ascending (body i has links i and i + 1).
    for (std::size_t i : bodies_) {
        if (links_.empty() || links_.back() != i) links_.push_back(i);
        links_.push_back(i + 1);
    }
    const std::size_t m = links_.size(), a = bodies_.size();
    for (std::size_t j = 0; j < m; ++j) lslot_[links_[j]] = j;
    for (std::size_t j = 0; j < a; ++j) bslot_[bodies_[j]] = m + j;
    std::fill(parked_.begin(), parked_.end(), 0);
    for (std::size_t k : links_) {
        const bool left_waits = k > 0 && bslot_[k - 1] == none, right_waits = k < n_ && bslot_[k] == none;
        parked_[k] = br_.acting[k] && (left_waits || right_waits);
    }
    BodyState y(2 * m + a + 1);
    for (std::size_t j = 0; j < m; ++j) {
        y[j] = x[links_[j]];
        y[m + a + j] = x[i0() + links_[j]];
    }
    for (std::size_t j = 0; j < a; ++j) y[m + j] = x[v0() + bodies_[j]];
    y.back() = x[d0()];
    return y;
}

void BodyOde::expand(const BodyState& y, double t_hat, BodyState& x) const {
    x = base_;
    const double elapsed = t_hat - base_time_;
    const std::size_t m = links_.size(), a = bodies_.size();
    for (std::size_t k = 0; k <= n_; ++k)  // quiet links between bodies flying freely
        if (lslot_[k] == none) x[k] += elapsed * b_.overlap_rate(k, &base_[v0()]);
    for (std::size_t j = 0; j < m; ++j) {
        x[links_[j]] = y[j];
        x[i0() + links_[j]] = y[m + a + j];
    }
    for (std::size_t j = 0; j < a; ++j) x[v0() + bodies_[j]] = y[m + j];
    x[d0()] = y.back();
}

double BodyOde::acting_force(std::size_t k, double d, double r) const {
    if (br_.unloading[k]) return continued_force(b_.links[k].law, d, r, br_.memory[k]);
    return continued_force(b_.links[k].law, d, r);
}

double BodyOde::force(std::size_t k, double d, double r) const {
    return br_.acting[k] && !parked_[k] ? acting_force(k, d, r) : 0.0;
}

double BodyOde::event_value(std::size_t k, double d, double r) const {
    const ContactLaw& law = b_.links[k].law;
    if (br_.acting[k]) return acting_force(k, d, r);
    if (br_.memory[k].max_overlap > 0) {  // remembers (e < 1): re-closes on the unloading branch at δ_r
        const double dr = residual_overlap(law, br_.memory[k]);
        return d > dr ? continued_force(law, d, r, br_.memory[k]) : d - dr;
    }
    return d > 0 ? continued_force(law, d, r) : d;
}

int BodyOde::second_sense(std::size_t k) const {
    if (parked_[k]) return +1;
    return hysteretic(k) ? br_.second_sense(k) : 0;
}

double BodyOde::second_value(std::size_t k, double d, double r) const {
    if (parked_[k]) return event_value(k, d, r) - threshold_[k];
    switch (second_sense(k)) {
        case 0: return 0;
        case +1: return d - br_.memory[k].max_overlap;
        default: return br_.acting[k] ? r + max_compression_rate_ * V_ : d;
    }
}

double BodyOde::hysteresis(const BodyState& x) const {
    double loss = 0;
    for (std::size_t k = 0; k <= n_; ++k)
        if (hysteretic(k)) loss += br_.hysteresis(b_.links[k].law, k, full_overlap(x, k));
    return loss;
}

void BodyOde::operator()(const BodyState& y, BodyState& dydt, double /*t*/) const {
    const std::size_t m = links_.size(), a = bodies_.size();
    for (std::size_t j = 0; j < a; ++j) dydt[m + j] = 0;
    double power = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const std::size_t k = links_[j];
        const double vl = velocity(y, k, true), vr = velocity(y, k, false);
        dydt[j] = vl - vr;
        const double d = y[j] * V_ * T_, r = (vl - vr) * V_;
        const double f = force(k, d, r);
        dydt[m + a + j] = T_ * f / (M_ * V_);
        if (!br_.acting[k]) {  // an open contact still compressed releases its elastic energy
            if (b_.links[k].kind == BodyLink::Kind::contact)
                power += open_release_power(b_.links[k].law, d, r, br_.memory[k]);
            continue;
        }
        if (parked_[k]) continue;
        // An acting link that is not parked has every body it touches in the ODE.
        if (k > 0) dydt[bslot_[k - 1]] -= T_ * f / (b_.mass[k - 1] * V_);
        if (k < n_) dydt[bslot_[k]] += T_ * f / (b_.mass[k] * V_);
        const double c = b_.links[k].law.damping;
        if (c > 0) power += c * r * r;
    }
    dydt.back() = T_ * power / (M_ * V_ * V_);
}

}  // namespace rodcollide
