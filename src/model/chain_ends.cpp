// Chain ends and loads (chain_ends.hpp; docs/physics.md §8): names, load evaluation, the exact
// solver's steps of a load, shapes, and the load's own checks.
#include "rodcollide/chain_ends.hpp"

#include "rodcollide/errors.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rodcollide {

std::string_view to_string(ChainSide side) { return side == ChainSide::left ? "left" : "right"; }

std::string_view to_string(EndKind kind) {
    switch (kind) {
        case EndKind::free: return "free";
        case EndKind::fixed: return "fixed";
        case EndKind::wall: return "wall";
        case EndKind::anechoic: return "anechoic";
        case EndKind::spring: return "spring";
        case EndKind::dashpot: return "dashpot";
        case EndKind::spring_dashpot: return "spring-dashpot";
    }
    return "free";
}

ContactLaw ChainEnd::law() const {
    if (kind == EndKind::wall) return contact_law();
    if (attached()) return {stiffness, 1, damping, true};
    return {};
}

std::string_view to_string(LoadQuantity quantity) {
    return quantity == LoadQuantity::force ? "force" : "velocity";
}

double Load::at(double t) const {
    if (t < time.front() || t > time.back()) return 0;
    const auto k = static_cast<std::size_t>(std::upper_bound(time.begin(), time.end(), t) - time.begin());
    if (k >= time.size()) return value.back();
    const double f = (t - time[k - 1]) / (time[k] - time[k - 1]);
    return value[k - 1] + f * (value[k] - value[k - 1]);
}

const Load* ChainEnds::load_at(ChainSide side) const {
    for (const Load& l : loads)
        if (l.end == side) return &l;
    return nullptr;
}

bool ChainEnds::any() const {
    return left.kind != EndKind::free || right.kind != EndKind::free || !loads.empty();
}

LoadSteps load_steps(const Load& load) {
    LoadSteps s;
    double scale = 0;
    for (double v : load.value) scale = std::max(scale, std::abs(v));
    const double target = 1e-3 * scale;
    for (std::size_t k = 0; k + 1 < load.time.size(); ++k) {
        const double t0 = load.time[k], t1 = load.time[k + 1];
        const double v0 = load.value[k], v1 = load.value[k + 1];
        if (v0 == v1) {
            s.time.push_back(t0);
            s.value.push_back(v0);
            continue;
        }
        // Midpoint steps: exact impulse per step, error |v1 - v0| / (2 n) at most.
        const double wanted = std::ceil(std::abs(v1 - v0) / (2 * target));
        const std::size_t n = static_cast<std::size_t>(
            std::clamp(wanted, 1.0, static_cast<double>(max_steps_per_load_piece)));
        for (std::size_t i = 0; i < n; ++i) {
            const double a = static_cast<double>(i) / static_cast<double>(n);
            const double b = static_cast<double>(i + 1) / static_cast<double>(n);
            s.time.push_back(t0 + a * (t1 - t0));
            s.value.push_back(v0 + 0.5 * (a + b) * (v1 - v0));
        }
        s.max_error = std::max(s.max_error, std::abs(v1 - v0) / (2.0 * static_cast<double>(n)));
    }
    // A single point, or the value at the last point, acts for no time: 0 after the last time.
    s.time.push_back(load.time.back());
    s.value.push_back(0);
    return s;
}

void shape_points(const LoadShape& shape, std::vector<double>& time, std::vector<double>& value) {
    const double a = shape.amplitude, d = shape.duration;
    input::require("amplitude", input::finite(a));
    input::require("duration", input::positive(d));
    time.clear();
    value.clear();
    if (shape.name == "rectangle") {
        time = {0, d};
        value = {a, a};
    } else if (shape.name == "trapezoid") {
        input::require("rise", input::non_negative(shape.rise));
        input::require("fall", input::non_negative(shape.fall));
        if (shape.rise + shape.fall > d)
            throw InvalidInput("rise", fmt::format("rise + fall must be <= duration ({:g}), got {:g}", d,
                                                   shape.rise + shape.fall));
        time = {0};
        value = {shape.rise > 0 ? 0.0 : a};
        if (shape.rise > 0) time.push_back(shape.rise), value.push_back(a);
        if (shape.fall > 0) time.push_back(d - shape.fall), value.push_back(a);
        time.push_back(d);
        value.push_back(shape.fall > 0 ? 0.0 : a);
        // Equal consecutive times (a hold of zero length) are merged.
        for (std::size_t k = 1; k < time.size();)
            if (time[k] == time[k - 1]) {
                time.erase(time.begin() + static_cast<std::ptrdiff_t>(k));
                value.erase(value.begin() + static_cast<std::ptrdiff_t>(k));
            } else {
                ++k;
            }
    } else if (shape.name == "half-sine") {
        constexpr int pieces = 64;
        for (int i = 0; i <= pieces; ++i) {
            const double f = static_cast<double>(i) / pieces;
            time.push_back(f * d);
            value.push_back(i == 0 || i == pieces ? 0.0 : a * std::sin(std::numbers::pi * f));
        }
    } else {
        throw InvalidInput("shape", input::unknown("shape", shape.name, load_shape_names));
    }
}

void require_free_ends(const ChainEnds& ends, std::string_view what) {
    if (ends.any())
        throw InvalidInput("ends", fmt::format("{} takes a chain with free, unloaded ends (the rigid impact laws "
                                               "know no walls, held or anechoic ends, or loads); use run",
                                               what));
}

std::string compliant_refusal(std::string_view what) {
    // Since stop 39 `run` carries issue 23's parts next to rods by both methods (the exact solver
    // through its delay network, docs/physics.md §9.10): what refuses them is the front tracker and
    // the rigid-law analyses, so the line says what does carry them rather than naming a method
    // that the refuser would refuse too.
    return fmt::format("{} does not carry compliant contacts or walls, masses, balls or spring/dashpot ends in a "
                       "chain with rods; run carries them (by both methods: the exact solver's delay network, "
                       "docs/physics.md §9.10, or --method finite-difference, which also gives their wave field)",
                       what);
}

std::string rigid_bodies_field_refusal() {
    return "a chain of rigid bodies only (no rod) has no wave field, diagram or gauge signals: its outcome and "
           "contact forces come from run alone (run --contact-forces FILE.csv)";
}

std::string compliant_field_refusal(std::string_view what) {
    return fmt::format("{} does not draw the characteristics or displacement diagram, nor keep the whole wave field, "
                       "of a chain with rods and compliant contacts or walls, masses, balls or spring/dashpot ends: "
                       "its waves are smooth, and its delay network gives the outcome, field samples (--field-csv, "
                       "diagram --kind velocity or force, Python's field()) and gauge signals (docs/physics.md "
                       "§9.10); for the rest use --method finite-difference ([solver] method = \"finite-difference\")",
                       what);
}

void check_load(const Load& load) {
    if (load.time.empty()) throw InvalidInput("time", input::wrong_count("at least 1 point", 0));
    if (load.value.size() != load.time.size())
        throw InvalidInput("value", input::wrong_count(load.time.size(), "one per time", load.value.size()));
    for (std::size_t k = 0; k < load.time.size(); ++k) {
        input::require("time", input::non_negative(load.time[k]));
        if (k > 0 && !(load.time[k] > load.time[k - 1]))
            throw InvalidInput("time", fmt::format("must be increasing, got {:g} after {:g} (point {})",
                                                   load.time[k], load.time[k - 1], k + 1));
    }
    input::require_each("value", load.value, input::finite, "point");
}

}  // namespace rodcollide
