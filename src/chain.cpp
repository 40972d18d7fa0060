// Rod and Chain: derived quantities and the validation that makes every Chain valid.
#include "rodcollide/chain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rodcollide {

double Rod::wave_speed() const { return std::sqrt(youngs_modulus / density); }
double Rod::mass() const { return density * area * length; }
double Rod::transit_time() const { return length / wave_speed(); }
double Rod::impedance() const { return area * std::sqrt(youngs_modulus * density); }
double Rod::axial_stiffness() const { return youngs_modulus * area; }

InvalidModel::InvalidModel(std::optional<std::size_t> rod, std::string quantity, std::string message)
    : InvalidInput(rod ? fmt::format("rod[{}]{}{}", *rod, quantity.empty() ? "" : ".", quantity)
                       : quantity.empty() ? "rod" : quantity,
                   std::move(message)),
      rod_(rod),
      quantity_(std::move(quantity)) {}

void check_rod_count(std::size_t rods) {
    if (rods < 2) throw InvalidModel({}, {}, fmt::format("a chain needs at least 2 rods, got {}", rods));
    if (rods > max_rods)
        throw InvalidModel({}, {}, fmt::format("at most {} rods are supported, got {}", max_rods, rods));
}

void check_rod_quantity(std::optional<std::size_t> rod, std::string_view quantity, double value) {
    const input::Problem problem = quantity == "velocity" ? input::finite(value)
                                   : quantity == "gap"    ? input::non_negative(value)
                                                          : input::positive(value);
    if (problem) throw InvalidModel(rod, std::string(quantity), *problem);
}

Chain::Chain(std::vector<Rod> rods) : rods_(std::move(rods)) {
    check_rod_count(rods_.size());
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        const Rod& r = rods_[i];
        check_rod_quantity(i, "length", r.length);
        check_rod_quantity(i, "area", r.area);
        check_rod_quantity(i, "density", r.density);
        check_rod_quantity(i, "youngs_modulus", r.youngs_modulus);
        check_rod_quantity(i, "velocity", r.velocity);
        check_rod_quantity(i, "gap", r.gap);
        if (i == 0 && r.gap != 0)
            throw InvalidModel(0, "gap", "the first rod has no left neighbour, so no gap");
        // Derived quantities must be representable too (e.g. E/rho overflowing to inf).
        for (double q : {r.wave_speed(), r.mass(), r.impedance(), r.transit_time()})
            if (!std::isfinite(q) || q <= 0)
                throw InvalidModel(i, {}, "derived quantities (c, m, Z, L/c) overflow or underflow");
    }
    offsets_.resize(rods_.size());
    double x = 0;
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        offsets_[i] = x;
        x += rods_[i].length;
    }
    derive_layout();
}

void Chain::derive_layout() {
    // Each rod is one uniform element, and rods meet at unilateral contacts; a rod made of
    // segments would add an element per segment and a (welded) junction between them.
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        const Rod& r = rods_[i];
        first_element_.push_back(elements_.size());
        elements_.push_back({i, offsets_[i], r.length, r.area, r.density, r.youngs_modulus, r.velocity,
                             r.wave_speed(), r.impedance(), r.transit_time(), r.mass(), r.axial_stiffness()});
    }
    first_element_.push_back(elements_.size());
    const auto n = static_cast<std::ptrdiff_t>(elements_.size());
    for (std::ptrdiff_t j = 0; j <= n; ++j) {
        Junction q;
        q.left = j - 1;
        q.right = j < n ? j : -1;
        q.kind = j == 0 || j == n ? JunctionKind::free_end : JunctionKind::contact;
        if (has_gap(q.kind)) q.initial_gap = rods_[elements_[static_cast<std::size_t>(j)].rod].gap;
        junctions_.push_back(q);
    }
}

Eigen::VectorXd Chain::masses() const {
    Eigen::VectorXd m(size());
    for (std::size_t i = 0; i < size(); ++i) m[i] = rods_[i].mass();
    return m;
}

Eigen::VectorXd Chain::initial_velocities() const {
    Eigen::VectorXd v(size());
    for (std::size_t i = 0; i < size(); ++i) v[i] = rods_[i].velocity;
    return v;
}

double Chain::total_length() const { return offsets_.back() + rods_.back().length; }

double Chain::shortest_transit_time() const {
    double t = rods_[0].transit_time();
    for (const Rod& r : rods_) t = std::min(t, r.transit_time());
    return t;
}

double Chain::longest_transit_time() const {
    double t = rods_[0].transit_time();
    for (const Rod& r : rods_) t = std::max(t, r.transit_time());
    return t;
}

double Chain::material_offset(std::size_t i) const { return offsets_.at(i); }

double Chain::velocity_scale() const {
    auto [lo, hi] = std::minmax_element(rods_.begin(), rods_.end(),
                                        [](const Rod& a, const Rod& b) { return a.velocity < b.velocity; });
    return hi->velocity - lo->velocity;
}

double Chain::initial_kinetic_energy() const {
    double e = 0;
    for (const Rod& r : rods_) e += 0.5 * r.mass() * r.velocity * r.velocity;
    return e;
}

}  // namespace rodcollide
