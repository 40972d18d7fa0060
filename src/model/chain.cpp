// Rod and Chain: derived quantities and the validation that makes every Chain valid.
#include "rodcollide/chain.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>

namespace rodcollide {

double Rod::wave_speed() const { return is_mass() ? 0.0 : std::sqrt(youngs_modulus / density); }
std::string_view to_string(RodKind kind) { return rod_kind_names[static_cast<std::size_t>(kind)]; }

double Rod::ball_mass() const { return density * 4 * std::numbers::pi * radius * radius * radius / 3; }

double Rod::mass() const {
    if (kind == RodKind::ball) return ball_mass();
    if (kind == RodKind::mass) return rigid_mass;
    if (segments.empty()) return density * area * length;
    double m = 0;
    for (const Segment& s : segments) m += s.density * s.area * s.length;
    return m;
}
double Rod::transit_time() const {
    if (is_mass()) return 0;
    if (segments.empty()) return length / wave_speed();
    double t = 0;
    for (const Segment& s : segments) t += s.length / std::sqrt(s.youngs_modulus / s.density);
    return t;
}
double Rod::impedance() const { return area * std::sqrt(youngs_modulus * density); }
double Rod::axial_stiffness() const { return youngs_modulus * area; }

double Rod::curvature_radius(ChainSide side) const {
    if (kind == RodKind::ball) return radius;
    if (kind == RodKind::mass) return 0;
    const double own = side == ChainSide::left ? left_end_radius : right_end_radius;
    return own != 0 ? own : end_radius;
}

HertzSide Rod::hertz_side(ChainSide side) const {
    if (kind == RodKind::mass) return {};  // no elastic constants: flat and rigid (§9.8)
    // A rod of segments: the material of the piece at that end.
    const double e = kind == RodKind::rod && !segments.empty()
                         ? (side == ChainSide::left ? segments.front() : segments.back()).youngs_modulus
                         : youngs_modulus;
    const double r = curvature_radius(side);
    return {r != 0 ? 1 / r : 0.0, (1 - poisson_ratio * poisson_ratio) / e};
}

double hertz_stiffness(HertzSide a, HertzSide b) {
    const double curvature = a.curvature + b.curvature, compliance = a.compliance + b.compliance;
    if (curvature == 0 || compliance == 0) return 0;
    return 4.0 / 3.0 / compliance * std::sqrt(1 / curvature);  // (4/3) E* sqrt(R*)
}

InvalidModel::InvalidModel(std::optional<std::size_t> rod, std::string quantity, std::string message)
    : InvalidInput(rod ? fmt::format("rod[{}]{}{}", *rod, quantity.empty() ? "" : ".", quantity)
                       : quantity.empty() ? "rod" : quantity,
                   std::move(message)),
      rod_(rod),
      quantity_(std::move(quantity)) {}

void check_rod_count(std::size_t rods, bool single_allowed) {
    if (rods < (single_allowed ? 1u : 2u)) throw InvalidModel({}, {}, fmt::format("a chain needs at least 2 rods, got {}", rods));
    if (rods > max_rods)
        throw InvalidModel({}, {}, fmt::format("at most {} rods are supported, got {}", max_rods, rods));
}

namespace {

constexpr const char* magnitude_range = "[1e-100, 1e100]";  // smallest_magnitude, largest_magnitude
static_assert(smallest_magnitude == 1e-100 && largest_magnitude == 1e100);

/// "must be in [1e-100, 1e100] (...), got 1e-320" for a magnitude the solvers cannot resolve;
/// zero is allowed where `zero_ok`.
input::Problem representable(double value, bool zero_ok) {
    const double a = std::abs(value);
    if ((zero_ok && a == 0) || (a >= smallest_magnitude && a <= largest_magnitude)) return std::nullopt;
    if (zero_ok && a < smallest_magnitude)
        return fmt::format("must be 0 or of magnitude in {} (the dynamic range the solvers resolve), got {:g}",
                           magnitude_range, value);
    return fmt::format("must be of magnitude in {} (the dynamic range the solvers resolve), got {:g}", magnitude_range,
                       value);
}

}  // namespace

void check_rod_quantity(std::optional<std::size_t> rod, std::string_view quantity, double value) {
    const bool zero_ok =
        quantity == "velocity" || quantity == "gap" || quantity == "contact_damping" || quantity == "poisson_ratio";
    input::Problem problem = quantity == "velocity"                                ? input::finite(value)
                             : quantity == "gap" || quantity == "contact_damping" ? input::non_negative(value)
                                                                                   : input::positive(value);
    // Issue 24: nu in (-1, 0.5) (a stable isotropic solid's range, 1 - nu^2 > 0); e in (0, 1].
    if (quantity == "poisson_ratio")
        problem = std::isfinite(value) && value > -1 && value < 0.5
                      ? input::Problem{}
                      : input::Problem{fmt::format("must be in (-1, 0.5) (an isotropic solid's range), got {:g}", value)};
    if (quantity == "restitution")
        problem = std::isfinite(value) && value > 0 && value <= 1
                      ? input::Problem{}
                      : input::Problem{fmt::format("must be in (0, 1] (the energetic coefficient of restitution), got {:g}", value)};
    if (!problem && quantity == "contact_exponent" && value > largest_contact_exponent)
        problem = fmt::format("must be at most {:g} (δ^p of larger powers leaves double precision), got {:g}",
                              largest_contact_exponent, value);
    if (!problem) problem = representable(value, zero_ok);
    if (problem) throw InvalidModel(rod, std::string(quantity), *problem);
}

namespace {

/// check_rod_quantity's rule for `rule`, reported under `key` (a wall's "left.contact_stiffness").
void check_rod_quantity_named(std::optional<std::size_t> rod, const std::string& key, std::string_view rule,
                              double value) {
    try {
        check_rod_quantity(rod, rule, value);
    } catch (const InvalidModel& e) {
        throw InvalidModel(rod, key, e.message());
    }
}

/// A contact law given on the element to the right of a contact (`prefix` "" for a rod, the end's
/// name for a wall): stiffness > 0 when given, exponent and damping only with a stiffness.
void check_law(std::optional<std::size_t> rod, const std::string& prefix, double k, double p, double c) {
    const auto key = [&](std::string_view name) { return prefix.empty() ? std::string(name) : prefix + "." + std::string(name); };
    if (k != 0 || c != 0 || p != 1) {
        check_rod_quantity_named(rod, key("contact_stiffness"), "contact_stiffness", k);
        check_rod_quantity_named(rod, key("contact_exponent"), "contact_exponent", p);
        check_rod_quantity_named(rod, key("contact_damping"), "contact_damping", c);
    }
}

/// Issue 23's end keys: stiffness and damping on the attached kinds that take them (required
/// there), contact keys on a wall only.
void check_end_law(ChainSide side, const ChainEnd& e) {
    const std::string name(to_string(side));
    const bool spring = e.kind == EndKind::spring || e.kind == EndKind::spring_dashpot;
    const bool dashpot = e.kind == EndKind::dashpot || e.kind == EndKind::spring_dashpot;
    for (const auto& [key, value, takes] : {std::tuple{"stiffness", e.stiffness, spring},
                                            std::tuple{"damping", e.damping, dashpot}}) {
        const std::string full = fmt::format("{}.{}", name, key);
        if (!takes && value != 0)
            throw InvalidModel({}, full, fmt::format("only a {} end has a {}; this end is \"{}\"",
                                                     std::string_view(key) == "stiffness" ? "\"spring\" or \"spring-dashpot\""
                                                                                          : "\"dashpot\" or \"spring-dashpot\"",
                                                     key, to_string(e.kind)));
        if (takes) check_rod_quantity_named({}, full, "contact_stiffness", value);  // finite, > 0, in range
    }
    if (e.kind != EndKind::wall && !e.contact_law().rigid()) {
        const char* key = e.contact_stiffness != 0 ? "contact_stiffness"
                          : e.contact_damping != 0 ? "contact_damping"
                                                   : "contact_exponent";
        throw InvalidModel({}, fmt::format("{}.{}", name, key),
                           fmt::format("only a \"wall\" end has contact keys (a compliant wall); this end is \"{}\"",
                                       to_string(e.kind)));
    }
    if (e.kind == EndKind::wall) check_law({}, name, e.contact_stiffness, e.contact_exponent, e.contact_damping);
}

/// The chain's ends and loads (chain_ends.hpp): a gap only at a wall, loads only at free ends,
/// one per end, each well formed. Keys are "left.gap", "load[k].end", "load[k].time", ...
void check_ends(const ChainEnds& ends) {
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        const ChainEnd& e = ends[side];
        const std::string key = fmt::format("{}.gap", to_string(side));
        if (e.kind != EndKind::wall && e.gap != 0)
            throw InvalidModel({}, key, fmt::format("only a \"wall\" end has a gap; this end is \"{}\"",
                                                    to_string(e.kind)));
        input::Problem p = input::non_negative(e.gap);
        if (!p) p = representable(e.gap, true);
        if (p) throw InvalidModel({}, key, *p);
        check_end_law(side, e);
    }
    for (std::size_t k = 0; k < ends.loads.size(); ++k) {
        const Load& load = ends.loads[k];
        const std::string key = fmt::format("load[{}]", k);
        if (ends[load.end].kind != EndKind::free)
            throw InvalidModel({}, key + ".end", fmt::format("a load acts on a free end only; the {} end is \"{}\"",
                                                             to_string(load.end), to_string(ends[load.end].kind)));
        if (ends.load_at(load.end) != &load)
            throw InvalidModel({}, key + ".end", fmt::format("the {} end already has a load; one load per end",
                                                             to_string(load.end)));
        try {
            check_load(load);
        } catch (const InvalidInput& e) {
            throw InvalidModel({}, key + "." + e.key(), e.message());
        }
        for (const auto& [name, points] : {std::pair{"time", &load.time}, std::pair{"value", &load.value}})
            for (double x : *points)
                if (const input::Problem p = representable(x, true)) throw InvalidModel({}, key + "." + name, *p);
    }
}

/// A ball (issue 24): radius, density, youngs_modulus, poisson_ratio, velocity and gap; no length,
/// area, mass (it is rho 4 pi R^3 / 3: Chain sets rigid_mass to it), segments or end radii.
void check_ball(std::size_t i, const Rod& r) {
    const std::pair<const char*, double> not_for_balls[] = {{"length", r.length},
                                                            {"area", r.area},
                                                            {"end_radius", r.end_radius},
                                                            {"left_end_radius", r.left_end_radius},
                                                            {"right_end_radius", r.right_end_radius}};
    for (const auto& [name, value] : not_for_balls)
        if (value != 0)
            throw InvalidModel(i, name, "a ball (kind = \"ball\") has no length, area or end radius: give radius, "
                                        "density, youngs_modulus, poisson_ratio, velocity and gap");
    if (!r.segments.empty()) throw InvalidModel(i, "segment", "a ball (kind = \"ball\") has no segments");
    const std::pair<const char*, double> required[] = {
        {"radius", r.radius}, {"density", r.density}, {"youngs_modulus", r.youngs_modulus}, {"poisson_ratio", r.poisson_ratio}};
    for (const auto& [name, value] : required) check_rod_quantity(i, name, value);
    if (r.rigid_mass != 0 && r.rigid_mass != r.ball_mass())
        throw InvalidModel(i, "mass", "a ball (kind = \"ball\") takes no mass: it is density 4 pi radius^3 / 3");
    if (const input::Problem p = representable(r.ball_mass(), false))
        throw InvalidModel(i, {}, fmt::format("mass density 4 pi radius^3 / 3 {}", *p));
}

/// What issue 23 added to a rod: its kind (a mass takes mass, velocity and gap only), the law of the
/// contact on its left, and the rigid bodies a rigid contact may not join (two masses; a mass and a
/// rigid wall; a mass held fixed or continued anechoically).
void check_compliance(std::size_t i, const std::vector<Rod>& rods, const ChainEnds& ends) {
    const Rod& r = rods[i];
    const bool first = i == 0, last = i + 1 == rods.size();
    if (first && (r.contact_stiffness != 0 || r.contact_damping != 0 || r.contact_exponent != 1)) {
        const char* name = r.contact_stiffness != 0 ? "contact_stiffness"
                           : r.contact_damping != 0 ? "contact_damping"
                                                    : "contact_exponent";
        throw InvalidModel(0, name, "the first element has no left neighbour, so no contact on its left (a "
                                    "compliant wall takes the contact keys in [left])");
    }
    check_law(i, "", r.contact_stiffness, r.contact_exponent, r.contact_damping);
    if (!r.is_mass()) {
        if (r.rigid_mass != 0)
            throw InvalidModel(i, "mass", "only kind = \"mass\" takes a mass; a rod's mass is density area length");
        if (r.radius != 0)
            throw InvalidModel(i, "radius", "only kind = \"ball\" takes a radius; a rod's ends take end_radius");
        return;
    }
    if (r.is_ball()) {
        check_ball(i, r);
    } else {
        const std::pair<const char*, double> rod_only[] = {{"length", r.length},
                                                           {"area", r.area},
                                                           {"density", r.density},
                                                           {"youngs_modulus", r.youngs_modulus},
                                                           {"radius", r.radius},
                                                           {"end_radius", r.end_radius},
                                                           {"left_end_radius", r.left_end_radius},
                                                           {"right_end_radius", r.right_end_radius}};
        for (const auto& [name, value] : rod_only)
            if (value != 0)
                throw InvalidModel(i, name, "a rigid mass (kind = \"mass\") has no length, area, density, "
                                            "youngs_modulus or radius: give only mass, velocity and gap");
        if (r.poisson_ratio != Rod{}.poisson_ratio)
            throw InvalidModel(i, "poisson_ratio", "a rigid mass (kind = \"mass\") has no elastic constants: give "
                                                   "only mass, velocity and gap (or use kind = \"ball\")");
        if (!r.segments.empty()) throw InvalidModel(i, "segment", "a rigid mass (kind = \"mass\") has no segments");
        check_rod_quantity(i, "mass", r.rigid_mass);
    }
    check_rod_quantity(i, "velocity", r.velocity);
    check_rod_quantity(i, "gap", r.gap);
    if (!first && rods[i - 1].is_mass() && r.contact_law().rigid())
        throw InvalidModel(i, "kind",
                           fmt::format("rod[{}] and rod[{}] are both rigid masses and would meet through a rigid "
                                       "contact (an impact with no law); a compliant contact is needed between two "
                                       "rigid bodies: give rod[{}] contact_stiffness",
                                       i - 1, i, i));
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        if (side == ChainSide::left ? !first : !last) continue;
        const ChainEnd& e = ends[side];
        if (e.kind == EndKind::wall && e.contact_law().rigid())
            throw InvalidModel(i, "kind", fmt::format("a rigid mass would meet the rigid wall at the {} end through a "
                                                      "rigid contact; a compliant contact is needed between two rigid "
                                                      "bodies: give [{}] contact_stiffness",
                                                      to_string(side), to_string(side)));
        if (ends.load_at(side))
            throw InvalidModel(i, "kind", fmt::format("a load acts on the free end of a rod; the {} end of the chain "
                                                      "is a rigid mass", to_string(side)));
        if (e.kind == EndKind::fixed || e.kind == EndKind::anechoic)
            throw InvalidModel(i, "kind", fmt::format("a rigid mass cannot end the chain at a \"{}\" end (held still "
                                                      "forever, or continued by a rod it does not have); use a spring "
                                                      "end or a compliant wall",
                                                      to_string(e.kind)));
    }
}

/// Issue 24 (docs/physics.md §9.8), the one place the contact laws are derived: a contact with a
/// curved side (a ball, a rod end with an end radius) and no contact_stiffness given carries Hertz's
/// law k δ^(3/2), k = hertz_stiffness of its two sides; so does a rigid wall met by a curved end (the
/// wall flat and rigid). Stored in the element's (the wall's) contact keys, flagged hertz_contact, so
/// that every reader of Rod::contact_law() and Junction::law sees it. Then restitution: only on a
/// contact that is compliant. A ball's rigid_mass becomes its mass.
void derive_hertz(std::vector<Rod>& rods, ChainEnds& ends) {
    const auto derive = [](double& k, double& p, bool& flag, double stiffness) {
        if (flag) k = 0, p = 1, flag = false;  // derived before (a Chain built from a Chain's rods): again
        if (k != 0 || p != 1 || !(stiffness > 0) || !std::isfinite(stiffness)) return;  // given, or not curved
        k = stiffness, p = hertz_exponent, flag = true;
    };
    for (std::size_t i = 1; i < rods.size(); ++i)
        derive(rods[i].contact_stiffness, rods[i].contact_exponent, rods[i].hertz_contact,
               hertz_stiffness(rods[i - 1].hertz_side(ChainSide::right), rods[i].hertz_side(ChainSide::left)));
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        ChainEnd& e = side == ChainSide::left ? ends.left : ends.right;
        const Rod& r = side == ChainSide::left ? rods.front() : rods.back();
        if (e.kind == EndKind::wall) derive(e.contact_stiffness, e.contact_exponent, e.hertz_contact, hertz_stiffness(r.hertz_side(side), {}));
        const std::string name(to_string(side));
        if (e.restitution != 1) {
            check_rod_quantity_named({}, name + ".restitution", "restitution", e.restitution);
            if (e.kind != EndKind::wall || e.contact_law().rigid())
                throw InvalidModel({}, name + ".restitution",
                                   "restitution applies to a compliant contact: a wall with contact_stiffness, or one "
                                   "a curved end (a ball, an end_radius) meets");
        }
    }
    for (std::size_t i = 0; i < rods.size(); ++i) {
        Rod& r = rods[i];
        if (r.is_ball() && r.rigid_mass == 0) r.rigid_mass = r.ball_mass();
        if (r.restitution == 1) continue;
        check_rod_quantity(i, "restitution", r.restitution);
        if (i == 0)
            throw InvalidModel(0, "restitution", "the first element has no left neighbour, so no contact on its left "
                                                 "(a wall takes restitution in [left])");
        if (r.contact_law().rigid())
            throw InvalidModel(i, "restitution",
                               fmt::format("restitution applies to a compliant contact; the contact between rod[{}] "
                                           "and rod[{}] is rigid (flat ends: give an end_radius or contact_stiffness)",
                                           i - 1, i));
    }
}

/// A rod of segments takes its length as their sum and its material as its first segment's.
void adopt_segments(std::size_t i, Rod& r) {
    if (r.segments.empty()) return;
    double length = 0;
    for (std::size_t s = 0; s < r.segments.size(); ++s) {
        const Segment& g = r.segments[s];
        const std::string prefix = fmt::format("segment[{}].", s);
        check_rod_quantity(i, prefix + "length", g.length);
        check_rod_quantity(i, prefix + "area", g.area);
        check_rod_quantity(i, prefix + "density", g.density);
        check_rod_quantity(i, prefix + "youngs_modulus", g.youngs_modulus);
        length += g.length;
    }
    r.length = length;
    r.area = r.segments.front().area;
    r.density = r.segments.front().density;
    r.youngs_modulus = r.segments.front().youngs_modulus;
}

/// Derived quantities within the dynamic range, named with the keys they come from.
void check_derived(std::size_t i, const Rod& r) {
    const std::pair<double, const char*> derived[] = {
        {r.wave_speed(), "wave speed c = sqrt(youngs_modulus / density)"},
        {r.mass(), "mass m = density area length"},
        {r.impedance(), "impedance Z = area sqrt(youngs_modulus density)"},
        {r.transit_time(), "transit time L/c = length / sqrt(youngs_modulus / density)"},
        {r.axial_stiffness(), "stiffness E A = youngs_modulus area"},
    };
    for (const auto& [q, name] : derived)
        if (const input::Problem p = representable(q, false)) throw InvalidModel(i, {}, fmt::format("{} {}", name, *p));
    const double energy = 0.5 * r.mass() * r.velocity * r.velocity;
    if (!(energy <= largest_magnitude))
        throw InvalidModel(i, "velocity",
                           fmt::format("kinetic energy m v^2/2 = {:g} exceeds 1e100 (the dynamic range the solvers resolve)",
                                       energy));
}

}  // namespace

Chain::Chain(std::vector<Rod> rods, ChainEnds ends) : rods_(std::move(rods)), ends_(std::move(ends)) {
    check_ends(ends_);
    check_rod_count(rods_.size(), ends_.any());
    derive_hertz(rods_, ends_);
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        check_compliance(i, rods_, ends_);
        if (rods_[i].is_mass()) continue;  // check_compliance checked it whole
        adopt_segments(i, rods_[i]);
        const Rod& r = rods_[i];
        check_rod_quantity(i, "length", r.length);
        check_rod_quantity(i, "area", r.area);
        check_rod_quantity(i, "density", r.density);
        check_rod_quantity(i, "youngs_modulus", r.youngs_modulus);
        check_rod_quantity(i, "velocity", r.velocity);
        check_rod_quantity(i, "gap", r.gap);
        check_rod_quantity(i, "poisson_ratio", r.poisson_ratio);
        for (const auto& [name, value] : {std::pair{"end_radius", r.end_radius}, std::pair{"left_end_radius", r.left_end_radius},
                                          std::pair{"right_end_radius", r.right_end_radius}})
            if (value != 0) check_rod_quantity(i, name, value);  // 0: not given (a flat end)
        if (i == 0 && r.gap != 0)
            throw InvalidModel(0, "gap", "the first rod has no left neighbour, so no gap");
        // Derived quantities must be representable too (e.g. E/rho overflowing to inf).
        check_derived(i, r);
        for (const Segment& g : r.segments) check_derived(i, Rod{g.length, g.area, g.density, g.youngs_modulus, 0, 0, {}});
    }
    offsets_.resize(rods_.size());
    double x = 0;
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        offsets_[i] = x;
        x += rods_[i].length;
    }
    derive_layout();
    check_scale_ratios();
}

std::string Chain::element_name(std::size_t e) const {
    const std::size_t rod = elements_[e].rod;
    if (rods_[rod].segments.empty()) return fmt::format("rod[{}]", rod);
    return fmt::format("rod[{}].segment[{}]", rod, e - first_element_[rod]);
}

namespace {
/// Shortest piece of a load, in shortest transit times (check_scale_ratios()).
constexpr double shortest_load_piece = 1e-6;
}  // namespace

void Chain::check_scale_ratios() const {
    // Times: every time up to the longest rod's transit (the period its vibration repeats with)
    // must be resolved to the simultaneity tolerance, a fraction of the shortest element's transit.
    if (elements_.empty()) return;  // rigid masses only: no waves to resolve
    const auto by_transit = [](const Element& a, const Element& b) { return a.transit_time < b.transit_time; };
    const std::size_t shortest =
        static_cast<std::size_t>(std::min_element(elements_.begin(), elements_.end(), by_transit) - elements_.begin());
    const double tau = elements_[shortest].transit_time;
    const auto longest = std::max_element(rods_.begin(), rods_.end(), [](const Rod& a, const Rod& b) {
        return a.transit_time() < b.transit_time();
    });
    if (longest->transit_time() > largest_scale_ratio * tau)
        throw InvalidModel(static_cast<std::size_t>(longest - rods_.begin()), {},
                           fmt::format("transit time L/c = {:g} is more than {:g} times that of {} ({:g}); double "
                                       "precision cannot resolve both (length, density, youngs_modulus)",
                                       longest->transit_time(), largest_scale_ratio, element_name(shortest), tau));
    // Loads: what they impose within the range (a force as the velocity F/Z it drives into its
    // rod), and done within largest_scale_ratio transit times, like a gap closing.
    for (std::size_t k = 0; k < ends_.loads.size(); ++k) {
        const Load& load = ends_.loads[k];
        const Element& end = load.end == ChainSide::left ? elements_.front() : elements_.back();
        double imposed = 0;
        for (double v : load.value)
            imposed = std::max(imposed, std::abs(load.quantity == LoadQuantity::force ? v / end.impedance : v));
        if (!(imposed <= largest_magnitude))
            throw InvalidModel({}, fmt::format("load[{}].value", k),
                               fmt::format("drives velocities up to {:g} into its rod (a force F as F/Z), beyond 1e100 "
                                           "(the dynamic range the solvers resolve)",
                                           imposed));
        if (load.end_time() > largest_scale_ratio * tau)
            throw InvalidModel({}, fmt::format("load[{}].time", k),
                               fmt::format("the load acts until t = {:g}, more than {:g} times the shortest transit "
                                           "time L/c = {:g} ({}); double precision cannot resolve both",
                                           load.end_time(), largest_scale_ratio, tau, element_name(shortest)));
        // Pieces of a load at least shortest_load_piece transit times long (10^4 x the simultaneity
        // tolerance). A piece much shorter falls below the simultaneity tolerance's reach once its fronts
        // have travelled: its impulse would come out with the rounding of the times that bound it
        // (fuzz/regressions/load_short_force_pulse.toml: 1e-12 s against transit times of 1e-2 s).
        for (std::size_t i = 0; i + 1 < load.time.size(); ++i) {
            const double d = load.time[i + 1] - load.time[i];
            if (d > 0 && d < shortest_load_piece * tau)
                throw InvalidModel({}, fmt::format("load[{}].time", k),
                                   fmt::format("the load's points t = {:g} and {:g} are {:g} apart, less than {:g} of "
                                               "the shortest transit time L/c = {:g} ({}); double precision cannot "
                                               "resolve both",
                                               load.time[i], load.time[i + 1], d, shortest_load_piece, tau,
                                               element_name(shortest)));
        }
    }
    // Velocities: each within largest_scale_ratio of the velocity scale (differences, walls, loads).
    const double scale = velocity_scale();
    if (scale == 0) return;  // everything moves together and nothing acts: no contact can close or open
    const auto widest = std::max_element(rods_.begin(), rods_.end(), [](const Rod& a, const Rod& b) {
        return std::abs(a.velocity) < std::abs(b.velocity);
    });
    if (std::abs(widest->velocity) > largest_scale_ratio * scale)
        throw InvalidModel(static_cast<std::size_t>(widest - rods_.begin()), "velocity",
                           fmt::format("|velocity| {:g} is more than {:g} times the velocity scale {:g} (velocity "
                                       "differences, speeds at non-free ends, what loads drive); double precision "
                                       "cannot resolve the difference (subtract a common velocity from every rod)",
                                       std::abs(widest->velocity), largest_scale_ratio, scale));
    // Gaps, between rods and to walls: the time they take to close at the velocity scale.
    double gaps = 0, largest = -1;
    std::optional<std::size_t> largest_rod;
    std::string largest_key;
    const auto consider = [&](double gap, std::optional<std::size_t> rod, std::string key) {
        gaps += gap;
        if (gap > largest) largest = gap, largest_rod = rod, largest_key = std::move(key);
    };
    for (std::size_t i = 0; i < rods_.size(); ++i) consider(rods_[i].gap, i, "gap");
    for (ChainSide side : {ChainSide::left, ChainSide::right})
        if (ends_[side].kind == EndKind::wall) consider(ends_[side].gap, std::nullopt, fmt::format("{}.gap", to_string(side)));
    if (gaps / scale > largest_scale_ratio * tau)
        throw InvalidModel(largest_rod, largest_key,
                           fmt::format("the gaps (sum {:g}, between rods and to walls) take {:g} to close at the "
                                       "velocity scale {:g}, more than {:g} times the shortest transit time L/c = "
                                       "{:g} ({}); double precision cannot resolve both",
                                       gaps, gaps / scale, scale, largest_scale_ratio, tau, element_name(shortest)));
}

void Chain::derive_layout() {
    // One element per uniform piece (a rod, or each of its segments); pieces of a rod meet at
    // welded junctions, rods at unilateral contacts, and the chain's ends carry its end conditions.
    for (std::size_t i = 0; i < rods_.size(); ++i) {
        const Rod& r = rods_[i];
        first_element_.push_back(elements_.size());
        if (r.is_mass()) continue;  // a rigid body: no element (Junction::lumped marks its contacts)
        const std::vector<Segment> pieces =
            r.segments.empty() ? std::vector<Segment>{{r.length, r.area, r.density, r.youngs_modulus}} : r.segments;
        double x = offsets_[i];
        for (const Segment& g : pieces) {
            const Rod piece{g.length, g.area, g.density, g.youngs_modulus, r.velocity, 0, {}};
            elements_.push_back({i, x, g.length, g.area, g.density, g.youngs_modulus, r.velocity,
                                 piece.wave_speed(), piece.impedance(), piece.transit_time(), piece.mass(),
                                 piece.axial_stiffness()});
            x += g.length;
        }
    }
    first_element_.push_back(elements_.size());
    const auto n = static_cast<std::ptrdiff_t>(elements_.size());
    if (n == 0) return;  // rigid masses only
    for (std::ptrdiff_t j = 0; j <= n; ++j) {
        Junction q;
        q.left = j - 1;
        q.right = j < n ? j : -1;
        if (j == 0 || j == n) {
            const ChainEnd& end = ends_[j == 0 ? ChainSide::left : ChainSide::right];
            q.kind = end_junction_kind(end.kind);
            q.initial_gap = end.gap;
            q.law = end.law();
            q.outside_velocity = elements_[static_cast<std::size_t>(j == 0 ? 0 : n - 1)].initial_velocity;
            const std::size_t rod = elements_[static_cast<std::size_t>(j == 0 ? 0 : n - 1)].rod;
            q.lumped = j == 0 ? rod != 0 : rod + 1 != rods_.size();
        } else {
            const std::size_t left_rod = elements_[static_cast<std::size_t>(j - 1)].rod;
            const std::size_t right_rod = elements_[static_cast<std::size_t>(j)].rod;
            q.kind = left_rod == right_rod ? JunctionKind::welded : JunctionKind::contact;
            if (q.kind == JunctionKind::contact) {
                q.initial_gap = rods_[right_rod].gap;
                q.law = rods_[right_rod].contact_law();
            }
            q.lumped = right_rod > left_rod + 1;  // masses between the two rods
        }
        junctions_.push_back(q);
    }
}

bool Chain::has_masses() const {
    return std::ranges::any_of(rods_, [](const Rod& r) { return r.is_mass(); });
}

bool Chain::compliant() const {
    return has_masses() || ends_.left.compliant() || ends_.right.compliant() ||
           std::ranges::any_of(rods_, [](const Rod& r) { return !r.contact_law().rigid(); });
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
    if (elements_.empty()) return 0;
    double t = elements_[0].transit_time;
    for (const Element& e : elements_) t = std::min(t, e.transit_time);
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
    double scale = hi->velocity - lo->velocity;
    if (!ends_.any()) return scale;
    // Ends that hold still measure velocities from 0; a load from what it imposes.
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        const Rod& r = side == ChainSide::left ? rods_.front() : rods_.back();
        if (ends_[side].kind != EndKind::free) scale = std::max(scale, std::abs(r.velocity));
        if (const Load* load = ends_.load_at(side))
            for (double v : load->value)
                scale = std::max(scale, std::abs(load->quantity == LoadQuantity::force ? v / r.impedance() : v));
    }
    return scale;
}

double Chain::initial_kinetic_energy() const {
    double e = 0;
    for (const Rod& r : rods_) e += 0.5 * r.mass() * r.velocity * r.velocity;
    return e;
}

}  // namespace rodcollide
