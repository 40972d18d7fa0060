// Characteristics and displacement diagrams as data (diagram.hpp). Regions of constant state are
// found on a raster of the x-t plane: cells are grouped when no visible front separates them,
// and each region's label goes where a box of the label's size fits, as far from the region's
// edges as possible.
#include "figures/diagram.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace rodcollide {

// ---------------------------------------------------------------------------------------------
// Axes and units
// ---------------------------------------------------------------------------------------------

namespace {

/// Every rod has the same value of f (to rounding).
template <class F>
bool same_for_all_rods(const Chain& chain, F f) {
    const double first = f(chain[0]);
    for (const Rod& r : chain.rods())
        if (std::abs(f(r) - first) > 1e-12 * std::abs(first)) return false;
    return true;
}

bool common_wave_speed(const Chain& chain) {
    return same_for_all_rods(chain, [](const Rod& r) { return r.wave_speed(); });
}

/// SI prefix for a range [0, extent]: the scale and unit text.
std::pair<double, std::string> si_time(double extent) {
    if (extent < 1e-3) return {1e6, "µs"};
    if (extent < 1) return {1e3, "ms"};
    return {1, "s"};
}

std::pair<double, std::string> si_length(double extent) {
    if (extent < 0.1) return {1e3, "mm"};
    return {1, "m"};
}

}  // namespace

DiagramAxes diagram_axes(const Chain& chain, double t_end) {
    DiagramAxes a;
    if (same_for_all_rods(chain, [](const Rod& r) { return r.length; }) && common_wave_speed(chain)) {
        const double l = chain[0].length, c = chain[0].wave_speed();
        a.normalised = true;
        a.x_scale = 1 / l;
        a.t_scale = c / l;
        a.x_label = "x/l";
        a.t_label = "t c/l";
        a.note = fmt::format("l = {:.4g} m, c = {:.4g} m/s", l, c);
        return a;
    }
    const auto [xs, xu] = si_length(chain.total_length());
    const auto [ts, tu] = si_time(t_end);
    a.x_scale = xs;
    a.t_scale = ts;
    a.x_label = fmt::format("x [{}]", xu);
    a.t_label = fmt::format("t [{}]", tu);
    return a;
}

double default_diagram_end_time(const Outcome& outcome, const Chain& chain) {
    return outcome.settled ? outcome.end_time + chain.longest_transit_time() : outcome.end_time;
}

namespace {

/// value / unit as p/q with q <= 64, if it is one (to rounding).
std::optional<std::pair<long, long>> as_fraction(double value, double unit) {
    const double r = value / unit;
    if (!std::isfinite(r) || std::abs(r) > 9999) return std::nullopt;
    for (long q = 1; q <= 64; ++q) {
        const double p = std::round(r * q);
        if (std::abs(r - p / q) <= 1e-9 * std::max(1.0, std::abs(r))) {
            const long n = static_cast<long>(p);
            const long g = std::gcd(std::abs(n), q);
            return std::pair{n / std::max(g, 1L), q / std::max(g, 1L)};
        }
    }
    return std::nullopt;
}

/// "p sym/q den" in the paper's style: "2v", "-v/2", "-3v/(2c)".
std::string fraction_text(std::pair<long, long> f, const char* symbol, const char* denominator) {
    const auto [p, q] = f;
    if (p == 0) return "0";
    std::string s = p < 0 ? "-" : "";
    if (std::abs(p) != 1) s += std::to_string(std::abs(p));
    s += symbol;
    if (q != 1 && *denominator) return s + fmt::format("/({}{})", q, denominator);  // v/(2c), not v/2 times c
    if (q != 1 || *denominator) s += "/";
    if (q != 1) s += std::to_string(q);
    s += denominator;
    return s;
}

}  // namespace

std::string format_velocity(double velocity, const StateUnits& units) {
    if (units.symbolic)
        if (auto f = as_fraction(velocity, units.v)) return fraction_text(*f, "v", "");
    return fmt::format("{:.3g}", velocity);
}

std::string format_strain(double strain, const StateUnits& units) {
    if (units.symbolic)
        if (auto f = as_fraction(strain, units.v / units.c)) return fraction_text(*f, "v", "c");
    return fmt::format("{:.3g}", strain);
}

// ---------------------------------------------------------------------------------------------
// Characteristics diagram
// ---------------------------------------------------------------------------------------------

int RegionMap::region_at(double x, double t) const {
    if (x < 0 || x > length || t < 0 || t > t_end || columns == 0 || rows == 0) return -1;
    const auto j = std::min(columns - 1, static_cast<std::size_t>(x / length * static_cast<double>(columns)));
    const auto i = std::min(rows - 1, static_cast<std::size_t>(t / t_end * static_cast<double>(rows)));
    return cell_region[i * columns + j];
}

namespace {

/// Union-find over raster cells.
class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
    std::size_t find(std::size_t a) {
        while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
        return a;
    }
    void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

private:
    std::vector<std::size_t> parent_;
};

/// The raster: cell states and the regions they form.
class RegionRaster {
public:
    RegionRaster(const CharacteristicsSolution& s, const DiagramOptions& o, double threshold)
        : field_(s.field), nx_(o.columns), nt_(std::max<std::size_t>(2, std::lround(o.columns * o.aspect))),
          length_(s.field.chain().total_length()), t_end_(o.t_end) {
        const Chain& chain = field_.chain();
        cells_.resize(nx_ * nt_);
        for (std::size_t i = 0; i < nt_; ++i)
            for (std::size_t j = 0; j < nx_; ++j) {
                Cell& c = cells_[i * nx_ + j];
                c.rod = field_.rod_at(x_of(j));
                c.state = field_.state_at(x_of(j), t_of(i));
            }
        // An interface lies between columns j-1 and j when their rods differ.
        DisjointSets sets(cells_.size());
        for (std::size_t i = 0; i < nt_; ++i)
            for (std::size_t j = 0; j < nx_; ++j) {
                const std::size_t k = i * nx_ + j;
                if (i > 0 && same_rod_region(cells_[k], cells_[k - nx_], threshold)) sets.join(k, k - nx_);
                if (j == 0) continue;
                const Cell &a = cells_[k - 1], &b = cells_[k];
                if (a.rod == b.rod ? same_rod_region(a, b, threshold)
                                   : compressed(s.outcome, a.rod, t_of(i)) &&
                                         same_across(a, b, chain, threshold))
                    sets.join(k, k - 1);
            }
        std::vector<int> root_region(cells_.size(), -1);
        region_of_.resize(cells_.size());
        for (std::size_t k = 0; k < cells_.size(); ++k) {
            int& r = root_region[sets.find(k)];
            if (r < 0) {
                r = static_cast<int>(region_cells_.size());
                region_cells_.push_back(0);
                first_cell_.push_back(k);
            }
            region_of_[k] = r;
            ++region_cells_[static_cast<std::size_t>(r)];
        }
        for (std::size_t j = 1; j < nx_; ++j)
            if (cells_[j].rod != cells_[j - 1].rod) interface_columns_.push_back(j);
    }

    std::size_t columns() const { return nx_; }
    std::size_t rows() const { return nt_; }
    std::size_t region_count() const { return region_cells_.size(); }
    std::size_t cells_of(std::size_t r) const { return region_cells_[r]; }
    const PointState& state(std::size_t k) const { return cells_[k].state; }
    std::size_t first_cell(std::size_t r) const { return first_cell_[r]; }
    const std::vector<int>& region_of() const { return region_of_; }
    double x_of(std::size_t j) const { return length_ * (static_cast<double>(j) + 0.5) / static_cast<double>(nx_); }
    double t_of(std::size_t i) const { return t_end_ * (static_cast<double>(i) + 0.5) / static_cast<double>(nt_); }

    /// Cells where a label may not lie: next to a rod end or interface (drawn lines).
    std::vector<bool> blocked() const {
        std::vector<bool> b(cells_.size(), false);
        auto block_column = [&](long j) {
            if (j < 0 || j >= static_cast<long>(nx_)) return;
            for (std::size_t i = 0; i < nt_; ++i) b[i * nx_ + static_cast<std::size_t>(j)] = true;
        };
        for (std::size_t j : interface_columns_)
            for (long d = -2; d <= 1; ++d) block_column(static_cast<long>(j) + d);
        return b;
    }

private:
    struct Cell {
        std::size_t rod = 0;
        PointState state;
    };

    static bool same_rod_region(const Cell& a, const Cell& b, double threshold) {
        return a.rod == b.rod && std::abs(a.state.alpha - b.state.alpha) <= threshold &&
               std::abs(a.state.beta - b.state.beta) <= threshold;
    }

    /// Equal velocity and strain on both sides of an interface (strain compared as strain * c, a
    /// velocity).
    static bool same_across(const Cell& a, const Cell& b, const Chain& chain, double threshold) {
        const double c = std::max(chain[a.rod].wave_speed(), chain[b.rod].wave_speed());
        return std::abs(a.state.velocity - b.state.velocity) <= threshold &&
               std::abs(a.state.strain - b.state.strain) * c <= threshold;
    }

    static bool compressed(const Outcome& o, std::size_t contact, double t) {
        if (contact >= o.contacts.size()) return false;
        for (const Interval& iv : o.contacts[contact].intervals)
            if (iv.start <= t && t <= iv.end) return true;
        return false;
    }

    const WaveField& field_;
    std::size_t nx_, nt_;
    double length_, t_end_;
    std::vector<Cell> cells_;
    std::vector<int> region_of_;
    std::vector<std::size_t> region_cells_, first_cell_, interface_columns_;
};

/// Chamfer (3-4) distance of every cell to the edge of its region, a blocked cell or the border.
std::vector<int> distance_to_edge(const std::vector<int>& region, const std::vector<bool>& blocked, std::size_t nx,
                                  std::size_t nt) {
    const int inf = std::numeric_limits<int>::max() / 2;
    std::vector<int> d(region.size(), inf);
    auto relax = [&](std::size_t i, std::size_t j, long di, long dj, int w) {
        const long ni = static_cast<long>(i) + di, nj = static_cast<long>(j) + dj;
        const std::size_t k = i * nx + j;
        if (ni < 0 || nj < 0 || ni >= static_cast<long>(nt) || nj >= static_cast<long>(nx)) {
            d[k] = std::min(d[k], w);
            return;
        }
        const std::size_t n = static_cast<std::size_t>(ni) * nx + static_cast<std::size_t>(nj);
        d[k] = std::min(d[k], region[n] != region[k] || blocked[n] ? w : d[n] + w);
    };
    for (std::size_t k = 0; k < d.size(); ++k)
        if (blocked[k]) d[k] = 0;
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t j = 0; j < nx; ++j) {
            if (blocked[i * nx + j]) continue;
            relax(i, j, -1, 0, 3), relax(i, j, 0, -1, 3), relax(i, j, -1, -1, 4), relax(i, j, -1, 1, 4);
            relax(i, j, 1, 0, 3), relax(i, j, 0, 1, 3);  // borders and other regions below/right
        }
    for (std::size_t i = nt; i-- > 0;)
        for (std::size_t j = nx; j-- > 0;) {
            if (blocked[i * nx + j]) continue;
            relax(i, j, 1, 0, 3), relax(i, j, 0, 1, 3), relax(i, j, 1, 1, 4), relax(i, j, 1, -1, 4);
        }
    return d;
}

/// fits[k]: a w x h box of cells centred on cell k lies inside k's region and avoids blocked
/// cells. Computed by separable erosion with run lengths.
std::vector<bool> box_fits(const std::vector<int>& region, const std::vector<bool>& blocked, std::size_t nx,
                           std::size_t nt, std::size_t w, std::size_t h) {
    const std::size_t left = (w - 1) / 2, right = w - 1 - left, below = (h - 1) / 2, above = h - 1 - below;
    std::vector<std::size_t> run(region.size(), 0);
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t j = 0; j < nx; ++j) {
            const std::size_t k = i * nx + j;
            if (blocked[k]) continue;
            run[k] = (j > 0 && region[k - 1] == region[k]) ? run[k - 1] + 1 : 1;
        }
    std::vector<bool> row_fits(region.size(), false);
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t j = left; j + right < nx; ++j) {
            const std::size_t k = i * nx + j, e = k + right;
            row_fits[k] = run[e] >= w && region[e] == region[k];
        }
    std::vector<std::size_t> col(region.size(), 0);
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t j = 0; j < nx; ++j) {
            const std::size_t k = i * nx + j;
            if (row_fits[k]) col[k] = (i > 0 && row_fits[k - nx] && region[k - nx] == region[k]) ? col[k - nx] + 1 : 1;
        }
    std::vector<bool> fits(region.size(), false);
    for (std::size_t i = below; i + above < nt; ++i)
        for (std::size_t j = 0; j < nx; ++j) {
            const std::size_t k = i * nx + j, e = k + above * nx;
            fits[k] = col[e] >= h && region[e] == region[k];
        }
    return fits;
}

/// Chooses symbolic labels when every region's state is a small rational multiple of v and v/c.
StateUnits choose_units(const Chain& chain, const RegionRaster& raster) {
    StateUnits u;
    if (!common_wave_speed(chain)) return u;
    double v = 0;
    for (const Rod& r : chain.rods())
        if (r.velocity != 0 && (v == 0 || std::abs(r.velocity) < v)) v = std::abs(r.velocity);
    if (v == 0) return u;
    u.v = v;
    u.c = chain[0].wave_speed();
    for (std::size_t r = 0; r < raster.region_count(); ++r) {
        const PointState& p = raster.state(raster.first_cell(r));
        if (!as_fraction(p.velocity, u.v) || !as_fraction(p.strain, u.v / u.c)) return StateUnits{};
    }
    u.symbolic = true;
    return u;
}

/// Sets a region's state and label text from the state at one of its points.
void set_state(Region& g, const PointState& p, const StateUnits& units) {
    g.velocity = p.velocity;
    g.strain = p.strain;
    g.lines = {"u_t = " + format_velocity(p.velocity, units), "u_x = " + format_strain(p.strain, units)};
}

/// The regions of the raster, each labelled where a box of its label's size (plus a margin of
/// two cells each side) fits: farthest from the region's edges, and among those nearest the
/// region's centre. One erosion per distinct label width.
std::vector<Region> labelled_regions(const RegionRaster& raster, const std::vector<int>& region_of,
                                     const StateUnits& units, const DiagramOptions& o) {
    const std::size_t nx = raster.columns(), nt = raster.rows(), none = std::numeric_limits<std::size_t>::max();
    const std::vector<bool> blocked = raster.blocked();
    const std::vector<int> distance = distance_to_edge(region_of, blocked, nx, nt);
    std::vector<Region> regions(raster.region_count());
    std::vector<std::size_t> widths(regions.size()), best(regions.size(), none);
    std::vector<double> centre_i(regions.size(), 0), centre_j(regions.size(), 0);
    for (std::size_t r = 0; r < regions.size(); ++r) {
        regions[r].cells = raster.cells_of(r);
        set_state(regions[r], raster.state(raster.first_cell(r)), units);
        const std::size_t chars = std::max(regions[r].lines[0].size(), regions[r].lines[1].size()) - 1;  // "_" is not drawn
        widths[r] = static_cast<std::size_t>(std::ceil(static_cast<double>(chars) * o.char_width * static_cast<double>(nx))) + 4;
    }
    for (std::size_t k = 0; k < region_of.size(); ++k) {
        const auto r = static_cast<std::size_t>(region_of[k]);
        centre_i[r] += static_cast<double>(k / nx) / static_cast<double>(regions[r].cells);
        centre_j[r] += static_cast<double>(k % nx) / static_cast<double>(regions[r].cells);
    }
    auto off_centre = [&](std::size_t k, std::size_t r) {
        return std::hypot(static_cast<double>(k / nx) - centre_i[r], static_cast<double>(k % nx) - centre_j[r]);
    };
    const auto height = static_cast<std::size_t>(std::ceil(2 * o.line_height * static_cast<double>(nt))) + 4;
    std::vector<std::size_t> distinct = widths;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (std::size_t w : distinct) {
        const std::vector<bool> fits = box_fits(region_of, blocked, nx, nt, w, height);
        for (std::size_t k = 0; k < fits.size(); ++k) {
            const auto r = static_cast<std::size_t>(region_of[k]);
            if (!fits[k] || widths[r] != w) continue;
            const std::size_t b = best[r];
            if (b == none || distance[k] > distance[b] || (distance[k] == distance[b] && off_centre(k, r) < off_centre(b, r)))
                best[r] = k;
        }
    }
    for (std::size_t r = 0; r < regions.size(); ++r) {
        if (best[r] == none) continue;
        Region& g = regions[r];
        g.labelled = true;
        g.x = raster.x_of(best[r] % nx);
        g.t = raster.t_of(best[r] / nx);
        set_state(g, raster.state(best[r]), units);
    }
    return regions;
}

/// Drawn fronts and the threshold used: |jump| >= min_jump, and only the max_fronts strongest
/// when more pass.
void select_fronts(const WaveField& field, const DiagramOptions& o, CharacteristicsDiagram& d) {
    std::vector<FrontSegment> all = field.fronts(d.t_end);
    d.min_jump = o.min_jump * field.chain().velocity_scale();
    for (const FrontSegment& f : all) {
        d.largest_jump = std::max(d.largest_jump, std::abs(f.jump));
        if (std::abs(f.jump) >= d.min_jump) d.fronts.push_back(f);
    }
    if (d.fronts.size() > o.max_fronts) {
        const auto strength = [](const FrontSegment& a, const FrontSegment& b) { return std::abs(a.jump) > std::abs(b.jump); };
        std::stable_sort(d.fronts.begin(), d.fronts.end(), strength);
        d.fronts.resize(o.max_fronts);
        d.min_jump = std::abs(d.fronts.back().jump);
    }
    d.omitted_fronts = all.size() - d.fronts.size();
}

}  // namespace

CharacteristicsDiagram characteristics_diagram(const CharacteristicsSolution& s, const DiagramOptions& o) {
    const Chain& chain = s.field.chain();
    if (!(o.t_end > 0) || o.t_end > s.field.valid_until() * (1 + 1e-12))
        throw std::invalid_argument(fmt::format("diagram: t_end {} must be in (0, {}] (the solved time)", o.t_end,
                                                s.field.valid_until()));
    if (o.columns < 8 || !(o.aspect > 0) || o.max_fronts == 0)
        throw std::invalid_argument("diagram: columns >= 8, aspect > 0 and max_fronts >= 1 required");
    CharacteristicsDiagram d;
    d.length = chain.total_length();
    d.t_end = o.t_end;
    for (std::size_t i = 0; i < chain.size(); ++i) d.rod_ends.push_back(chain.material_offset(i));
    d.rod_ends.push_back(d.length);
    d.axes = diagram_axes(chain, o.t_end);
    select_fronts(s.field, o, d);

    for (std::size_t e = 1; e < chain.elements().size(); ++e)
        if (chain.elements()[e].rod == chain.elements()[e - 1].rod) d.joints.push_back(chain.elements()[e].offset);
    // Walls come after the contacts between rods in the contact numbering (contact_record.hpp).
    std::vector<std::size_t> wall_record;
    for (const EndOutcome& end : s.outcome.ends) {
        if (end.kind != EndKind::wall) continue;
        const double x = end.side == ChainSide::left ? 0.0 : d.length;
        wall_record.push_back(chain.contact_count() + d.walls.size());
        d.walls.push_back(x);
        for (const Interval& iv : end.intervals)
            if (iv.start <= o.t_end) d.compressed.push_back({wall_record.back(), x, iv.start, std::min(iv.end, o.t_end)});
    }
    for (const ContactOutcome& c : s.outcome.contacts)
        for (const Interval& iv : c.intervals)
            if (iv.start <= o.t_end)
                d.compressed.push_back({c.left_rod, d.rod_ends[c.left_rod + 1], iv.start, std::min(iv.end, o.t_end)});
    for (const ContactEvent& e : s.contact_events) {
        if (e.time > o.t_end) continue;
        const bool wall = e.contact >= chain.contact_count();
        const double x = wall ? d.walls.at(e.contact - chain.contact_count()) : d.rod_ends[e.contact + 1];
        d.events.push_back({e.contact, x, e.time, e.kind});
    }

    const RegionRaster raster(s, o, d.min_jump);
    d.units = choose_units(chain, raster);
    d.map = {raster.columns(), raster.rows(), d.length, o.t_end, raster.region_of()};

    d.regions = labelled_regions(raster, d.map.cell_region, d.units, o);
    return d;
}

// ---------------------------------------------------------------------------------------------
// Displacement diagram
// ---------------------------------------------------------------------------------------------

namespace {

/// Largest 1-2-5 number (..., 0.1, 0.2, 0.5, 1, 2, 5, ...) not above x > 0.
double nice_floor(double x) {
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    for (double m : {5.0, 2.0, 1.0})
        if (m * decade <= x) return m * decade;
    return decade;
}

/// Path times for a rod: every front passage of its material points, capped for dense fields.
std::vector<double> path_times(const WaveField& field, std::size_t rod, const std::vector<double>& xs, double t_end) {
    constexpr std::size_t max_times = 20000;
    std::vector<double> t{0.0, t_end};
    for (double x : xs) {
        const std::vector<double> p = field.front_passages(rod, x, t_end);
        t.insert(t.end(), p.begin(), p.end());
        if (t.size() > max_times) break;
    }
    if (t.size() > max_times) {  // too dense to be exact and light: sample evenly instead
        t.resize(max_times / 4);
        for (std::size_t k = 0; k < t.size(); ++k) t[k] = t_end * static_cast<double>(k) / static_cast<double>(t.size() - 1);
    }
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    return t;
}

}  // namespace

DisplacementDiagram displacement_diagram(const WaveField& field, double t_end, std::size_t interior_points) {
    const Chain& chain = field.chain();
    if (!(t_end > 0) || t_end > field.valid_until() * (1 + 1e-12))
        throw std::invalid_argument(fmt::format("displacement diagram: t_end {} must be in (0, {}] (the solved time)",
                                                t_end, field.valid_until()));
    DisplacementDiagram d;
    d.t_end = t_end;
    d.axes = diagram_axes(chain, t_end);
    // Displacements (with gaps) before magnification, to choose it.
    double gaps = 0, largest = 0;
    std::vector<double> gap_before(chain.size());
    for (std::size_t i = 0; i < chain.size(); ++i) {
        gaps += chain[i].gap;
        gap_before[i] = gaps;
        RodPaths p;
        for (std::size_t k = 0; k <= interior_points + 1; ++k)
            p.x.push_back(chain[i].length * static_cast<double>(k) / static_cast<double>(interior_points + 1));
        p.t = path_times(field, i, p.x, t_end);
        p.position.resize(static_cast<Eigen::Index>(p.t.size()), static_cast<Eigen::Index>(p.x.size()));
        for (std::size_t a = 0; a < p.t.size(); ++a)
            for (std::size_t b = 0; b < p.x.size(); ++b) {
                const double u = gaps + field.displacement(i, p.x[b], p.t[a]);
                p.position(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)) = u;
                largest = std::max(largest, std::abs(u));
            }
        d.rods.push_back(std::move(p));
    }
    // Physical scale when displacements are comparable with the rods; otherwise scaled so the
    // largest is about 0.4 of a rod (strains v/c ~ 1e-4 become visible, v ~ c stays sane).
    const double mean_length = chain.total_length() / static_cast<double>(chain.size());
    const bool physical = largest == 0 || (largest >= 0.1 * mean_length && largest <= mean_length);
    d.magnification = physical ? 1.0 : nice_floor(0.4 * mean_length / largest);
    for (std::size_t i = 0; i < chain.size(); ++i) {
        RodPaths& p = d.rods[i];
        for (Eigen::Index b = 0; b < p.position.cols(); ++b)
            p.position.col(b) = (chain.material_offset(i) + p.x[static_cast<std::size_t>(b)]) +
                                d.magnification * p.position.col(b).array();
    }
    d.axes.x_label = d.axes.normalised ? "position/l" : "position" + d.axes.x_label.substr(1);
    return d;
}

}  // namespace rodcollide
