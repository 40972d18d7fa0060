// One step of the staggered velocity-force scheme (finite_difference.hpp; docs/finite_difference.md
// derives the end treatment). Junction j sits between rod j-1 and rod j (junctions 0 and n are the
// chain's free ends), as in the exact solver; its response comes from interface.hpp.
//
// Invariants arriving at a face. The half-cell update of an end face,
//   N_end^(n+1/2) - N_end^(n-1/2) = 2 kappa (mean of v_end over the two half steps - v_last^n),
// is, with discrete invariants a = v - N/kappa and b = v + N/kappa, exactly
//   a_in^(n+1/2) = 2 v_last^n - b_out^(n-1/2)   (right end),   b_in = 2 v_first^n - a_out (left end):
// a characteristic relation across the half cell. At Courant 1 (kappa = Z) it is the exact method
// of characteristics; at Courant < 1 it is the consistent discrete boundary, and the junction
// rules applied with impedances kappa close it.
#include "rodcollide/finite_difference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <numeric>
#include <stdexcept>

namespace rodcollide {

namespace {

/// Cache-line aligned storage, so that the interior loop runs on aligned vectors.
template <class T>
struct CacheAligned {
    using value_type = T;
    static constexpr std::align_val_t alignment{64};
    CacheAligned() = default;
    template <class U>
    CacheAligned(const CacheAligned<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), alignment)); }
    void deallocate(T* p, std::size_t) { ::operator delete(p, alignment); }
    bool operator==(const CacheAligned&) const = default;
};

using AlignedVector = std::vector<double, CacheAligned<double>>;

/// The values one rod end emitted over the last transit time T, one per step (the oldest only
/// partly inside the window when T / dt is not whole).
class EmissionHistory {
public:
    EmissionHistory(double initial, double transit_time, double dt)
        : values_(std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(transit_time / dt - 1e-9))), initial),
          oldest_duration_(std::max(0.0, transit_time - static_cast<double>(values_.size() - 1) * dt)),
          dt_(dt) {}

    void push(double value) {
        values_[next_] = value;
        if (++next_ == values_.size()) next_ = 0;
    }

    /// Oldest first: the order in which the values arrive at the other end.
    ArrivalWindow window() const {
        ArrivalWindow w;
        w.reserve(values_.size());
        for (std::size_t k = 0; k < values_.size(); ++k)
            w.push_back({k == 0 ? oldest_duration_ : dt_, values_[(next_ + k) % values_.size()]});
        return w;
    }

private:
    std::vector<double> values_;
    std::size_t next_ = 0;  // the oldest value, overwritten next
    double oldest_duration_;
    double dt_;
};

/// Interior update of one rod: N_k += kappa (v_k - v_(k-1)) on the interior faces, then
/// v_k += b (N_(k+1) - N_k) with the new forces; the end faces N_0 and N_n already hold the
/// junction forces. Done block by block (two arrays of `block` doubles stay in L1) with the
/// velocities one cell behind the forces, so that both arrays stream from memory once per step
/// and each loop is branch-free and vectorizes (a single fused loop does not: each velocity needs
/// the force just stored).
void advance_interior(double* __restrict v, double* __restrict force, std::size_t n, double kappa, double b) {
    constexpr std::size_t block = 512;
    std::size_t velocities_done = 0;
    for (std::size_t k0 = 1; k0 < n; k0 += block) {
        const std::size_t k1 = std::min(n, k0 + block);
        for (std::size_t k = k0; k < k1; ++k) force[k] += kappa * (v[k] - v[k - 1]);
        for (std::size_t k = velocities_done; k + 1 < k1; ++k) v[k] += b * (force[k + 1] - force[k]);
        velocities_done = k1 - 1;
    }
    for (std::size_t k = velocities_done; k < n; ++k) v[k] += b * (force[k + 1] - force[k]);
}

/// (1 - theta) a + theta b, field by field.
JunctionResponse blend(const JunctionResponse& a, const JunctionResponse& b, double theta) {
    auto mix = [theta](double x, double y) { return x + theta * (y - x); };
    JunctionResponse r;
    r.beta_to_left = mix(a.beta_to_left, b.beta_to_left);
    r.alpha_to_right = mix(a.alpha_to_right, b.alpha_to_right);
    r.velocity_left = mix(a.velocity_left, b.velocity_left);
    r.velocity_right = mix(a.velocity_right, b.velocity_right);
    r.force = mix(a.force, b.force);
    return r;
}

}  // namespace

struct StaggeredGrid::RodCells {
    std::size_t n = 0;
    double kappa = 0;         // E A dt / h: discrete impedance [N s/m] (= Z at Courant 1)
    double dt_over_mass = 0;  // dt / (rho A h) [m/(N s)]
    double impedance = 0;     // Z [N s/m]
    double cell_mass = 0;     // rho A h [kg]
    AlignedVector v;          // n cell velocities
    AlignedVector force;      // n + 1 face forces
    double alpha_out = 0;     // discrete invariant last emitted at the left end
    double beta_out = 0;      // discrete invariant last emitted at the right end
    EmissionHistory alpha_emitted;  // true alpha emitted at the left end, last transit time
    EmissionHistory beta_emitted;   // true beta emitted at the right end
};

struct StaggeredGrid::ContactState {
    bool closed = false;  // ends in contact, gap held at 0
    double gap = 0;       // [m]
    double impulse = 0;   // integral of -N [N s], summed with compensation (Neumaier):
    double impulse_carry = 0;  // thousands of steps must not cost more than rounding
    bool compressed = false;
    double compressed_since = 0;
    std::vector<Interval> intervals;
};

StaggeredGrid::StaggeredGrid(const Chain& chain, GridLayout layout)
    : chain_(chain), layout_(std::move(layout)), tolerances_(contact_tolerances(chain_)) {
    if (layout_.cells.size() != chain_.size()) throw std::invalid_argument("StaggeredGrid: layout does not fit the chain");
    const double dt = layout_.time_step;
    rods_.reserve(chain_.size());
    for (std::size_t i = 0; i < chain_.size(); ++i) {
        const rodcollide::Rod& r = chain_[i];
        const std::size_t n = layout_.cells[i];
        const double h = r.length / static_cast<double>(n);
        const double T = r.transit_time();
        rods_.push_back(RodCells{n, r.axial_stiffness() * dt / h, dt / (r.density * r.area * h), r.impedance(),
                                 r.mass() / static_cast<double>(n), AlignedVector(n, r.velocity),
                                 AlignedVector(n + 1, 0.0), r.velocity, r.velocity,
                                 EmissionHistory(r.velocity, T, dt), EmissionHistory(r.velocity, T, dt)});
    }
    contacts_.resize(chain_.size() - 1);
    for (std::size_t k = 0; k < contacts_.size(); ++k) contacts_[k].gap = chain_[k + 1].gap;
    prepared_.resize(chain_.size() + 1);
}

StaggeredGrid::~StaggeredGrid() = default;

StaggeredGrid::Prepared StaggeredGrid::contact_response(std::size_t k, double alpha_in, double beta_in) const {
    const ContactState& c = contacts_[k];
    const double z_left = rods_[k].kappa, z_right = rods_[k + 1].kappa;
    const double dt = layout_.time_step;
    Prepared p;
    if (c.closed || c.gap == 0) {
        // Touching: the unilateral rule of the exact solver (characteristics.cpp), with the same
        // rounding band on the compression side as on the opening side.
        p.response = touching_junction(z_left, alpha_in, z_right, beta_in, tolerances_.velocity);
        p.in_contact = stays_in_contact(alpha_in, beta_in, tolerances_.velocity);
        p.gap_after = p.in_contact ? 0.0 : dt * (p.response.velocity_right - p.response.velocity_left);
        return p;
    }
    const JunctionResponse open = open_junction(alpha_in, beta_in);
    const double rate = free_separation_velocity(alpha_in, beta_in);
    const double reach = c.gap + rate * dt;
    if (rate < 0 && reach <= 0) {
        // The gap closes at t^n + closing: open before, closed after, each for its share of the
        // step, so that the impulse and both rods' momenta change by exactly force * dt.
        p.closing = std::clamp(c.gap / -rate, 0.0, dt);
        p.response = blend(open, touching_junction(z_left, alpha_in, z_right, beta_in), (dt - p.closing) / dt);
        p.in_contact = true;
        p.gap_after = 0;
        return p;
    }
    p.response = open;
    p.gap_after = reach;
    return p;
}

bool StaggeredGrid::prepare_step() {
    const std::size_t n = rods_.size();
    bool forced = false;
    for (std::size_t j = 0; j <= n; ++j) {
        Prepared& p = prepared_[j];
        // Invariants arriving at the junction's faces at t^(n+1/2) (see the file comment).
        const double alpha_in = j > 0 ? 2 * rods_[j - 1].v.back() - rods_[j - 1].beta_out : 0.0;
        const double beta_in = j < n ? 2 * rods_[j].v.front() - rods_[j].alpha_out : 0.0;
        if (j == 0) {
            p = {};
            p.response.alpha_to_right = free_end_reflection(beta_in);
            p.response.velocity_right = beta_in;
        } else if (j == n) {
            p = {};
            p.response.beta_to_left = free_end_reflection(alpha_in);
            p.response.velocity_left = alpha_in;
        } else {
            p = contact_response(j - 1, alpha_in, beta_in);
            forced = forced || p.response.force != 0;
        }
    }
    is_prepared_ = true;
    return forced;
}

void StaggeredGrid::finish_step() {
    if (!is_prepared_) prepare_step();
    is_prepared_ = false;
    const std::size_t n = rods_.size();
    const double t = time(), dt = layout_.time_step;
    for (std::size_t j = 0; j <= n; ++j) {
        const Prepared& p = prepared_[j];
        const double force = p.response.force;
        if (j > 0) {
            RodCells& left = rods_[j - 1];
            left.force[left.n] = force;
            left.beta_out = p.response.beta_to_left;
            left.beta_emitted.push(beta_of(p.response.velocity_left, force, left.impedance));
        }
        if (j < n) {
            RodCells& right = rods_[j];
            right.force[0] = force;
            right.alpha_out = p.response.alpha_to_right;
            right.alpha_emitted.push(alpha_of(p.response.velocity_right, force, right.impedance));
        }
        if (j == 0 || j == n) continue;
        ContactState& c = contacts_[j - 1];
        const double start = p.closing >= 0 ? t + p.closing : t;
        if (p.closing >= 0)
            events_.push_back({j - 1, start, ContactEvent::Kind::closing});
        else if (p.in_contact != c.closed)
            events_.push_back({j - 1, t, p.in_contact ? ContactEvent::Kind::closing : ContactEvent::Kind::opening});
        c.closed = p.in_contact;
        c.gap = p.gap_after;
        const double term = -force * dt, sum = c.impulse + term;
        c.impulse_carry += std::abs(c.impulse) >= std::abs(term) ? (c.impulse - sum) + term : (term - sum) + c.impulse;
        c.impulse = sum;
        const bool compressed = force < 0;
        if (compressed && !c.compressed) c.compressed_since = start;
        if (!compressed && c.compressed) c.intervals.push_back({c.compressed_since, t});
        c.compressed = compressed;
    }
    for (RodCells& r : rods_) advance_interior(r.v.data(), r.force.data(), r.n, r.kappa, r.dt_over_mass);
    ++steps_;
}

std::span<const double> StaggeredGrid::velocity(std::size_t rod) const { return {rods_[rod].v.data(), rods_[rod].n}; }

std::span<const double> StaggeredGrid::force(std::size_t rod) const {
    return {rods_[rod].force.data(), rods_[rod].n + 1};
}

double StaggeredGrid::momentum(std::size_t rod) const {
    const RodCells& r = rods_[rod];
    return r.cell_mass * std::accumulate(r.v.begin(), r.v.end(), 0.0);
}

FreeRodMotion StaggeredGrid::free_motion(std::size_t rod) const {
    const RodCells& r = rods_[rod];
    return {momentum(rod) / chain_[rod].mass(), r.alpha_emitted.window(), r.beta_emitted.window()};
}

std::vector<double> StaggeredGrid::gaps() const {
    std::vector<double> g;
    for (const ContactState& c : contacts_) g.push_back(c.closed ? 0.0 : c.gap);
    return g;
}

double StaggeredGrid::impulse(std::size_t contact) const {
    return contacts_[contact].impulse + contacts_[contact].impulse_carry;
}

std::vector<Interval> StaggeredGrid::compression_intervals(std::size_t contact) const {
    const ContactState& c = contacts_[contact];
    std::vector<Interval> v = c.intervals;
    if (c.compressed) v.push_back({c.compressed_since, time()});
    return v;
}

}  // namespace rodcollide
