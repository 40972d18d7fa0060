// Contact history (contact_record.hpp; docs/physics.md §1-2): gap, closings and openings, impulse
// and compression intervals of each contact, shared by both solvers.
#include "solvers/shared/contact_record.hpp"

#include <algorithm>
#include <cmath>

namespace rodcollide {

void ContactRecord::set_gap(double gap, double t) {
    gap_ = gap;
    gap_time_ = t;
    gap_rate_ = 0;
}

namespace {

/// Neumaier's compensated sum: `carry` collects what each addition to `sum` rounds away.
void add_compensated(double& sum, double& carry, double term) {
    const double s = sum + term;
    carry += std::abs(sum) >= std::abs(term) ? (sum - s) + term : (term - s) + sum;
    sum = s;
}

}  // namespace

void ContactRecord::set_compressed(bool compressed, double start, double end) {
    if (compressed && !compressed_) compressed_since_ = start;
    if (!compressed && compressed_) intervals_.push_back({origin_ + compressed_since_, origin_ + end});
    compressed_ = compressed;
}

void ContactRecord::set_force(double force, double t) {
    if (force_ != 0) add_compensated(impulse_, impulse_carry_, -force_ * (t - force_since_));
    if (recording_ && force != force_) {
        history_.time.push_back(origin_ + t);
        history_.force.push_back(force);
    }
    force_ = force;
    force_since_ = t;
    set_compressed(force < 0, t, t);
}

void ContactRecord::add_step(double force, double t, double dt, double compressed_from) {
    add_compensated(impulse_, impulse_carry_, -force * dt);
    if (recording_ && (history_.force.empty() || history_.force.back() != force)) {
        history_.time.push_back(origin_ + t);
        history_.force.push_back(force);
    }
    set_compressed(force < 0, compressed_from, t);
}

void ContactRecord::move_time_origin(const TimeShift& shift, double origin) {
    gap_time_ = shift(gap_time_);
    force_since_ = shift(force_since_);
    compressed_since_ = shift(compressed_since_);
    origin_ = origin;
}

double ContactRecord::impulse(double t) const {
    double sum = impulse_, carry = impulse_carry_;
    if (force_ != 0) add_compensated(sum, carry, -force_ * (t - force_since_));  // the current force's share
    return sum + carry;
}

std::vector<Interval> ContactRecord::intervals(double t) const {
    std::vector<Interval> v = intervals_;
    if (compressed_) v.push_back({origin_ + compressed_since_, origin_ + t});
    return v;
}

ContactHistory::ContactHistory(const Chain& chain) {
    const std::vector<Junction>& junctions = chain.junctions();
    const std::vector<Element>& elements = chain.elements();
    contact_at_.assign(junctions.size(), -1);
    first_lumped_.assign(junctions.size(), -1);
    // Contacts between rods first, so that record k is Outcome::contacts[k]; walls after them.
    for (bool walls : {false, true}) {
        for (std::size_t j = 0; j < junctions.size(); ++j) {
            const Junction& q = junctions[j];
            if (q.lumped && !walls) {
                // Issue 23: the contacts between the rods on either side and the masses between.
                const std::size_t first = q.left >= 0 ? elements[static_cast<std::size_t>(q.left)].rod : 0;
                const std::size_t past = q.right >= 0 ? elements[static_cast<std::size_t>(q.right)].rod : chain.size() - 1;
                first_lumped_[j] = static_cast<std::ptrdiff_t>(records_.size());
                for (std::size_t r = first; r < past; ++r) {
                    records_.emplace_back(chain[r + 1].gap);
                    junctions_.push_back(j);
                    left_rods_.push_back(r);
                }
                continue;
            }
            if (!has_gap(q.kind) || (q.kind == JunctionKind::wall) != walls) continue;
            if (q.kind == JunctionKind::contact && q.lumped) continue;
            contact_at_[j] = static_cast<std::ptrdiff_t>(records_.size());
            records_.emplace_back(q.initial_gap);
            junctions_.push_back(j);
            left_rods_.push_back(q.left >= 0 ? elements[static_cast<std::size_t>(q.left)].rod : 0);
        }
        if (!walls) rod_contacts_ = records_.size();
    }
}

void ContactHistory::move_time_origin(const TimeShift& shift, double origin) {
    for (ContactRecord& r : records_) r.move_time_origin(shift, origin);
    origin_ = origin;
}

std::vector<double> ContactHistory::gaps(double t) const {
    std::vector<double> g;
    g.reserve(records_.size());
    for (const ContactRecord& r : records_) g.push_back(r.gap_at(t));
    return g;
}

}  // namespace rodcollide
