// One step of the staggered velocity-force scheme (finite_difference.hpp; docs/finite_difference.md
// derives the end treatment). Each element (elements.hpp) is a grid of its own; junction j sits at
// the left end of element j and the right end of element j-1, as in the exact solver. Its response
// comes from junction.hpp (every junction kind: contacts, welded joints, fixed, wall and anechoic
// ends), a load's from chain_end_state.hpp, a contact's or wall's history goes to its
// ContactRecord and what passes through the chain's ends to its EndFlux: the exact solver's code.
//
// Invariants arriving at a face. The half-cell update of an end face,
//   N_end^(n+1/2) - N_end^(n-1/2) = 2 kappa (mean of v_end over the two half steps - v_last^n),
// is, with discrete invariants a = v - N/kappa and b = v + N/kappa, exactly
//   a_in^(n+1/2) = 2 v_last^n - b_out^(n-1/2)   (right end),   b_in = 2 v_first^n - a_out (left end):
// a characteristic relation across the half cell. At Courant 1 (kappa = Z) it is the exact method
// of characteristics; at Courant < 1 it is the consistent discrete boundary, and the junction
// rules applied with impedances kappa close it.
#include "solvers/fd/finite_difference.hpp"

#include "solvers/shared/free_rod_motion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
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

/// The values one element end emitted over the last transit time T and one step more, one per
/// step (value k from the newest holds over [t - (k+1) dt, t - k dt)), so that what the element
/// holds can be read at any time in the last step (window()).
class EmissionHistory {
public:
    EmissionHistory(double initial, double transit_time, double dt)
        : values_(std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(transit_time / dt - 1e-9))) + 1, initial),
          transit_time_(transit_time),
          dt_(dt) {}

    void push(double value) {
        values_[next_] = value;
        if (++next_ == values_.size()) next_ = 0;
    }

    /// The newest value (emitted over the last step).
    double newest() const { return values_[(next_ + values_.size() - 1) % values_.size()]; }

    /// What was emitted over [t - lag - T, t - lag) (t the grid's time, 0 <= lag <= dt), oldest
    /// first: the order in which the values arrive at the other end.
    ArrivalWindow window(double lag = 0) const {
        ArrivalWindow w;
        double cover = transit_time_;
        for (std::size_t k = 1; k <= values_.size() && cover > 0; ++k) {
            double piece = k == 1 ? dt_ - lag : dt_;  // the newest value holds up to t - lag
            // A remainder within rounding of a step belongs to it: no sliver pieces.
            if (cover - piece <= 1e-9 * dt_) piece = cover;
            if (piece > 0) w.push_back({piece, values_[(next_ + values_.size() - k) % values_.size()]});
            cover -= piece;
        }
        std::reverse(w.begin(), w.end());
        return w;
    }

private:
    std::vector<double> values_;
    std::size_t next_ = 0;  // the oldest value, overwritten next
    double transit_time_;
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

/// (1 - theta) a + theta b, field by field; a or b themselves for theta 0 or 1.
JunctionResponse blend(const JunctionResponse& a, const JunctionResponse& b, double theta) {
    if (theta == 0) return a;
    if (theta == 1) return b;
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

struct StaggeredGrid::ElementCells {
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

StaggeredGrid::StaggeredGrid(const Chain& chain, GridLayout layout)
    : chain_(chain), layout_(std::move(layout)), tolerances_(contact_tolerances(chain_)), contacts_(chain_),
      ends_(chain_) {
    const std::vector<Element>& elements = chain_.elements();
    if (layout_.cells.size() != elements.size()) throw std::invalid_argument("StaggeredGrid: layout does not fit the chain");
    const double dt = layout_.time_step;
    cells_.reserve(elements.size());
    for (std::size_t e = 0; e < elements.size(); ++e) {
        const Element& el = elements[e];
        const std::size_t n = layout_.cells[e];
        const double h = el.length / static_cast<double>(n);
        const double T = el.transit_time;
        const double v0 = el.initial_velocity;
        cells_.push_back(ElementCells{n, el.axial_stiffness * dt / h, dt / (el.density * el.area * h), el.impedance,
                                      el.mass / static_cast<double>(n), AlignedVector(n, v0), AlignedVector(n + 1, 0.0),
                                      v0, v0, EmissionHistory(v0, T, dt), EmissionHistory(v0, T, dt)});
    }
    prepared_.resize(chain_.junctions().size());
    const std::vector<Junction>& junctions = chain_.junctions();
    compliant_.assign(junctions.size(), 0);
    overlap_.assign(junctions.size(), 0.0);
    memory_.assign(junctions.size(), ContactMemory{});
    lumped_at_.assign(junctions.size(), -1);
    for (std::size_t j = 0; j < junctions.size(); ++j) {
        const Junction& q = junctions[j];
        if (q.lumped) {
            lumped_at_[j] = static_cast<std::ptrdiff_t>(lumped_.size());
            lumped_.emplace_back(chain_, j);
            continue;
        }
        if (q.kind != JunctionKind::attached_end && q.law.rigid()) continue;
        compliant_[j] = 1;
        ++compliant_count_;
        overlap_[j] = -q.initial_gap;  // open by the gap; an attached end starts at rest length
    }
}

StaggeredGrid::Prepared StaggeredGrid::compliant_response(std::size_t j, const JunctionArrivals& in) const {
    // The junction ODE of contact_law.hpp in one scalar form: δ' = -s + N/z with the arrivals held
    // over the step (docs/physics.md §9.4). Between two elements δ is the overlap of their ends
    // (s = beta_in - alpha_in, z = Z_L Z_R/(Z_L + Z_R)); at the right end the end's displacement into
    // the wall or spring (s = -alpha_in, z = Z_L), at the left end its mirror (s = beta_in, z = Z_R).
    const Junction& q = chain_.junctions()[j];
    double s = 0, z = 0;
    if (q.left >= 0 && q.right >= 0) {
        s = in.beta_in - in.alpha_in;
        z = in.z_left * in.z_right / (in.z_left + in.z_right);
    } else if (q.left >= 0) {
        s = -in.alpha_in;
        z = in.z_left;
    } else {
        s = in.beta_in;
        z = in.z_right;
    }
    const JunctionOdeStep step = integrate_junction(q.law, z, overlap_[j], s, layout_.time_step, memory_[j]);
    Prepared p;
    const double force = step.mean_force;
    // Each side's end: v_L = alpha_in + N/Z_L sends beta = alpha_in + 2N/Z_L; v_R = beta_in - N/Z_R
    // sends alpha = beta_in - 2N/Z_R.
    p.response.force = force;
    if (q.left >= 0) {
        p.response.velocity_left = in.alpha_in + force / in.z_left;
        p.response.beta_to_left = in.alpha_in + 2 * force / in.z_left;
    }
    if (q.right >= 0) {
        p.response.velocity_right = in.beta_in - force / in.z_right;
        p.response.alpha_to_right = in.beta_in - 2 * force / in.z_right;
    }
    p.overlap_after = step.overlap;
    p.dissipated = step.dissipated;
    p.memory_after = step.memory;
    p.in_contact = force != 0;
    p.gap_after = std::max(0.0, -step.overlap);
    return p;
}

double StaggeredGrid::mass_velocity(std::size_t rod) const {
    for (const LumpedNode& node : lumped_)
        for (std::size_t m = 0; m < node.masses().size(); ++m)
            if (node.masses()[m] == rod) return node.velocity(m);
    throw std::logic_error("StaggeredGrid::mass_velocity: not a mass");
}

double StaggeredGrid::contact_energy() const {
    double e = 0;
    for (const LumpedNode& node : lumped_) e += node.stored_energy();
    for (std::size_t j = 0; j < overlap_.size(); ++j)
        if (compliant_[j]) e += rodcollide::contact_energy(chain_.junctions()[j].law, overlap_[j], memory_[j]);
    return e;
}

StaggeredGrid::~StaggeredGrid() = default;

StaggeredGrid::Prepared StaggeredGrid::contact_response(JunctionKind kind, const ContactRecord& contact,
                                                        const JunctionArrivals& in) const {
    const double dt = layout_.time_step;
    Prepared p;
    if (contact.touching()) {
        // Touching: the unilateral rule of the exact solver (front_tracker.cpp), with the same
        // rounding band on the compression side as on the opening side.
        p.response = junction_response(kind, true, in, tolerances_.velocity);
        p.in_contact = stays_touching(kind, in, tolerances_.velocity);
        p.gap_after = p.in_contact ? 0.0 : gap_after(0.0, p.response.velocity_right - p.response.velocity_left, dt);
        return p;
    }
    const JunctionResponse open = junction_response(kind, false, in);
    const double rate = free_separation_velocity(in.alpha_in, in.beta_in);
    const double gap = contact.gap_at(time());
    const double reach = gap_after(gap, rate, dt);
    if (rate < 0 && reach <= 0) {
        // The gap closes at t^n + closing: open before, closed after, each for its share of the
        // step, so that the impulse and both rods' momenta change by exactly force * dt.
        p.closing = std::clamp(closing_delay(gap, rate), 0.0, dt);
        p.response = blend(open, junction_response(kind, true, in), (dt - p.closing) / dt);
        p.in_contact = true;
        p.gap_after = 0;
        return p;
    }
    p.response = open;
    p.gap_after = reach;
    return p;
}

bool StaggeredGrid::prepare_step() {
    const std::vector<Junction>& junctions = chain_.junctions();
    const double t = time(), dt = layout_.time_step;
    bool forced = false;
    radiating_ = false;
    for (std::size_t j = 0; j < junctions.size(); ++j) {
        const Junction& q = junctions[j];
        // Invariants arriving at the junction's faces at t^(n+1/2) (see the file comment).
        JunctionArrivals in;
        if (q.left >= 0) {
            const ElementCells& left = cells_[static_cast<std::size_t>(q.left)];
            in.z_left = left.kappa;
            in.alpha_in = 2 * left.v.back() - left.beta_out;
        }
        if (q.right >= 0) {
            const ElementCells& right = cells_[static_cast<std::size_t>(q.right)];
            in.z_right = right.kappa;
            in.beta_in = 2 * right.v.front() - right.alpha_out;
        }
        in.outside = q.outside_velocity;
        Prepared& p = prepared_[j];
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (lumped_at_[j] >= 0) {
            // Rigid masses at the junction (lumped_node.hpp): each rod face gets its link's mean force.
            const LumpedNode& node = lumped_[static_cast<std::size_t>(lumped_at_[j])];
            p = {};
            p.lumped = node.integrate(in.z_left, in.alpha_in, in.z_right, in.beta_in, dt);
            const LumpedNode::Step& s = *p.lumped;
            const std::size_t last = s.mean_force.size() - 1;
            JunctionResponse end;  // what passes through the chain's end, if it is one
            if (q.left >= 0) {
                const double n = s.mean_force[0];
                p.response.velocity_left = in.alpha_in + n / in.z_left;
                p.response.beta_to_left = in.alpha_in + 2 * n / in.z_left;
                end.force = s.mean_force[last];
                end.velocity_left = s.mean_velocity.back();
            }
            if (q.right >= 0) {
                const double n = s.mean_force[last];
                p.response.velocity_right = in.beta_in - n / in.z_right;
                p.response.alpha_to_right = in.beta_in - 2 * n / in.z_right;
                end.force = s.mean_force[0];
                end.velocity_right = s.mean_velocity.front();
            }
            p.response.force = q.left >= 0 ? s.mean_force[0] : s.mean_force[last];
            bool acting = false;
            for (bool a : s.acting) acting = acting || a;
            forced = forced || acting || node.engaged();
            if (q.left < 0 || q.right < 0) ends_.update(j, end, t);
            continue;
        }
        if (compliant_[j]) {
            p = compliant_response(j, in);
            // No settling bound while it pushes or overlaps (docs/physics.md §9.5: a compliant
            // contact is open while δ <= 0); an attached end never lets go.
            forced = forced || p.response.force != 0 || p.overlap_after > 0 || overlap_[j] > 0 ||
                     q.kind == JunctionKind::attached_end;
        } else if (k >= 0) {
            p = contact_response(q.kind, contacts_[static_cast<std::size_t>(k)], in);
            forced = forced || p.response.force != 0;
        } else {
            p = {};
            p.response = junction_response(q.kind, false, in);
            // A load acts on a free end for its share of the step, the end is free for the rest:
            // the step's impulse is that of the load's steps, as in the exact solver.
            if (const auto load = ends_.loaded_response_over(j, in, t, dt, off_grid_tolerance * dt)) {
                p.response = blend(p.response, load->response, load->share);
                p.load_inside = load->inside;
                forced = forced || load->stepped;
            }
        }
        // What passes through the chain's ends from t on. Radiation is reported apart from the
        // return value (solve_on_grid decides what it voids): rounding, and at Courant < 1 the
        // grid's own short waves, keep an anechoic end's force from ever being 0, so it counts
        // when the arriving invariant is further from the continuation's than the contact rule's
        // band (1e-10 V; N = Z (outside - arriving)/2), the band within which a rod is quiet.
        ends_.update(j, p.response, t);
        if (q.kind == JunctionKind::anechoic_end)
            radiating_ = radiating_ ||
                         std::abs(p.response.force) > 0.5 * (q.left >= 0 ? in.z_left : in.z_right) * tolerances_.velocity;
    }
    is_prepared_ = true;
    return forced;
}

void StaggeredGrid::finish_step() {
    if (!is_prepared_) prepare_step();
    is_prepared_ = false;
    const std::vector<Junction>& junctions = chain_.junctions();
    const double t = time(), dt = layout_.time_step;
    for (std::size_t j = 0; j < junctions.size(); ++j) {
        const Junction& q = junctions[j];
        const Prepared& p = prepared_[j];
        if (p.lumped) {
            const LumpedNode::Step& s = *p.lumped;
            LumpedNode& node = lumped_[static_cast<std::size_t>(lumped_at_[j])];
            const std::size_t last = s.mean_force.size() - 1;
            if (q.left >= 0) {
                ElementCells& left = cells_[static_cast<std::size_t>(q.left)];
                left.force[left.n] = s.mean_force[0];
                left.beta_out = p.response.beta_to_left;
                left.beta_emitted.push(beta_of(p.response.velocity_left, s.mean_force[0], left.impedance));
            }
            if (q.right >= 0) {
                ElementCells& right = cells_[static_cast<std::size_t>(q.right)];
                right.force[0] = s.mean_force[last];
                right.alpha_out = p.response.alpha_to_right;
                right.alpha_emitted.push(alpha_of(p.response.velocity_right, s.mean_force[last], right.impedance));
            }
            // The links' records: the contacts between bodies in rod order, and the end's wall.
            const std::ptrdiff_t first = contacts_.first_lumped_contact(j);
            for (std::size_t i = 0; i <= last; ++i) {
                const bool end_link = (i == 0 && q.left < 0) || (i == last && q.right < 0);
                const std::ptrdiff_t record =
                    end_link ? contacts_.contact_at(j) : first + static_cast<std::ptrdiff_t>(i) - (q.left < 0 ? 1 : 0);
                if (record < 0) continue;
                ContactRecord& contact = contacts_[static_cast<std::size_t>(record)];
                contacts_.set_closed(static_cast<std::size_t>(record), s.acting[i], t);
                contact.set_gap(std::max(0.0, -s.overlap[i]), t + dt);
                contact.add_step(s.mean_force[i], t, dt, t);
            }
            if (q.left < 0) record_attached(j, s.mean_force[0], t);
            if (q.right < 0) record_attached(j, s.mean_force[last], t);
            const double sum = dissipated_ + s.dissipated;
            dissipated_carry_ += std::abs(dissipated_) >= s.dissipated ? (dissipated_ - sum) + s.dissipated
                                                                        : (s.dissipated - sum) + dissipated_;
            dissipated_ = sum;
            node.accept(s);
            continue;
        }
        const double force = p.response.force;
        if (q.left >= 0) {
            ElementCells& left = cells_[static_cast<std::size_t>(q.left)];
            left.force[left.n] = force;
            left.beta_out = p.response.beta_to_left;
            left.beta_emitted.push(beta_of(p.response.velocity_left, force, left.impedance));
        }
        if (q.right >= 0) {
            ElementCells& right = cells_[static_cast<std::size_t>(q.right)];
            right.force[0] = force;
            right.alpha_out = p.response.alpha_to_right;
            right.alpha_emitted.push(alpha_of(p.response.velocity_right, force, right.impedance));
        }
        if (p.load_inside) ++off_grid_load_steps_;
        if (compliant_[j]) {
            if (q.kind == JunctionKind::attached_end) record_attached(j, force, t);
            overlap_[j] = p.overlap_after;
            memory_[j] = p.memory_after;
            const double sum = dissipated_ + p.dissipated;  // Neumaier: millions of steps
            dissipated_carry_ += std::abs(dissipated_) >= p.dissipated ? (dissipated_ - sum) + p.dissipated
                                                                        : (p.dissipated - sum) + dissipated_;
            dissipated_ = sum;
        }
        const std::ptrdiff_t k = contacts_.contact_at(j);
        if (k < 0) continue;
        ContactRecord& contact = contacts_[static_cast<std::size_t>(k)];
        const double start = p.closing >= 0 ? t + p.closing : t;
        if (p.closing > off_grid_tolerance * dt && p.closing < (1 - off_grid_tolerance) * dt) ++off_grid_closings_;
        contacts_.set_closed(static_cast<std::size_t>(k), p.in_contact, start);
        contact.set_gap(p.gap_after, t + dt);
        contact.add_step(force, t, dt, start);
    }
    for (ElementCells& c : cells_) advance_interior(c.v.data(), c.force.data(), c.n, c.kappa, c.dt_over_mass);
    ++steps_;
}

void StaggeredGrid::record_forces() {
    for (std::size_t k = 0; k < contacts_.size(); ++k) contacts_[k].record_forces();
    recording_ = true;
}

void StaggeredGrid::record_attached(std::size_t j, double force, double t) {
    if (!recording_) return;
    const bool left = j == 0;
    if (!chain_.ends()[left ? ChainSide::left : ChainSide::right].attached()) return;
    ForceHistory& h = attached_forces_[left ? 0 : 1];
    if (h.force.empty() || h.force.back() != force) {
        h.time.push_back(t);
        h.force.push_back(force);
    }
}

std::span<const double> StaggeredGrid::velocity(std::size_t e) const { return {cells_[e].v.data(), cells_[e].n}; }

std::span<const double> StaggeredGrid::force(std::size_t e) const {
    return {cells_[e].force.data(), cells_[e].n + 1};
}

double StaggeredGrid::momentum(std::size_t e, double lag) const {
    const ElementCells& c = cells_[e];
    // The last step's end forces act uniformly over it (the interior ones cancel in the sum).
    return c.cell_mass * std::accumulate(c.v.begin(), c.v.end(), 0.0) - lag * (c.force[c.n] - c.force[0]);
}

ArrivalWindow StaggeredGrid::alpha_emitted(std::size_t e, double lag) const { return cells_[e].alpha_emitted.window(lag); }

ArrivalWindow StaggeredGrid::beta_emitted(std::size_t e, double lag) const { return cells_[e].beta_emitted.window(lag); }

double StaggeredGrid::newest_alpha_emitted(std::size_t e) const { return cells_[e].alpha_emitted.newest(); }

double StaggeredGrid::newest_beta_emitted(std::size_t e) const { return cells_[e].beta_emitted.newest(); }

RodWindows StaggeredGrid::rod_windows(std::size_t rod, double lag) const {
    RodWindows w;
    for (std::size_t e : chain_.element_indices(rod)) {
        w.momentum += momentum(e, lag);
        w.alpha.push_back(alpha_emitted(e, lag));
        w.beta.push_back(beta_emitted(e, lag));
    }
    return w;
}

FreeRodMotion StaggeredGrid::free_motion(std::size_t rod) const {
    // At Courant < 1 leapfrog keeps short waves of its own where fronts were made: near 2 cells
    // per wavelength they barely move, so a rod with an anechoic end never empties of them
    // (docs/finite_difference.md "Settling"). An exact grid has none.
    return free_rod_motion(chain_, rod, rod_windows(rod), time(), tolerances_.velocity, !layout_.exact());
}

double StaggeredGrid::release_time(bool watch_period) const {
    if (ends_.load_acting(time())) return std::numeric_limits<double>::infinity();
    std::vector<FreeRodMotion> rods;
    for (std::size_t i = 0; i < chain_.size(); ++i) {
        if (chain_[i].is_mass()) {  // a rigid body: its ends move with it, no excursions
            FreeRodMotion m;
            m.mean_velocity = mass_velocity(i);
            m.excursions = EndExcursions{};
            rods.push_back(std::move(m));
            continue;
        }
        rods.push_back(free_motion(i));
    }
    const WallGaps walls = ends_.wall_gaps(contacts_, time());
    const double bound = chain_release_time(time(), rods, contacts_.gaps(time()), walls, tolerances_);
    return watch_period ? std::min(bound, watched_release_time(rods, walls)) : bound;
}

double StaggeredGrid::watched_release_time(const std::vector<FreeRodMotion>& rods, const WallGaps& walls) const {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // At Courant 1 in every element a free rod's cells repeat exactly every 2N steps; elsewhere
    // leapfrog's dispersion breaks the period. An anechoic end is left to its own proof. Chains
    // without compliant parts keep the front tracker's rule alone, so that the two solvers' settling
    // times agree there (the exact solver watches in its delay network only).
    const ChainEnds& ends = chain_.ends();
    if (!layout_.exact() || !chain_.compliant() || ends.left.kind == EndKind::anechoic ||
        ends.right.kind == EndKind::anechoic)
        return inf;
    std::vector<double> periods, separations;
    for (std::size_t i = 0; i < chain_.size(); ++i) {
        if (chain_[i].is_mass()) continue;
        const std::optional<double> period = free_motion_period(chain_, i);
        if (!period) return inf;  // segments reflect inside: no period
        periods.push_back(*period);
    }
    for (std::size_t k = 0; k + 1 < rods.size(); ++k) separations.push_back(rods[k + 1].mean_velocity - rods[k].mean_velocity);
    if (walls.left) separations.push_back(rods.front().mean_velocity);
    if (walls.right) separations.push_back(-rods.back().mean_velocity);
    return rodcollide::watched_release_time(time(), periods, separations, tolerances_.velocity);
}

EndReport StaggeredGrid::end_report(ChainSide side, double t) const { return ends_.report(side, t); }

}  // namespace rodcollide
