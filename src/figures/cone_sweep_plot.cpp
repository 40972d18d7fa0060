// The cone map picture of a four-rod cone sweep (docs/sweep.md "Four and more bodies"): gamma- on
// the unit sphere S^2 of the G^-1 metric, x = L^-1 gamma- (G = L L^T), each hemisphere in Lambert's
// azimuthal equal-area projection (X, Y) = sqrt(2 / (1 + |z|)) (x, y), so that equal areas of the
// sphere are equal areas of the picture and shares of points are shares of the sphere. Top row:
// the directions coloured by cone (grey: not linear), the identified law's facets drawn as arcs;
// below, one row per law (the compared laws, then the identified law): log10 of its error.
#include "rodcollide/cone_sweep.hpp"
#include "rodcollide/figures.hpp"
#include "rodcollide/impact_matrices.hpp"

#include "figures/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace rodcollide {

namespace {

namespace fs = std::filesystem;

constexpr unsigned cone_colours[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
                                     0x17becf, 0xbcbd22, 0x393b79, 0xad494a, 0x637939, 0x7b4173, 0x3182bd};
constexpr unsigned nonlinear_colour = 0xbbbbbb;
constexpr unsigned unsettled_colour = 0x000000;

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

/// Lambert azimuthal equal-area coordinates of unit x in its hemisphere (0: z >= 0, 1: z < 0).
struct Projected {
    int hemisphere;
    double X, Y;
};
Projected project(const Eigen::Vector3d& x) {
    const int h = x[2] >= 0 ? 0 : 1;
    const double k = std::sqrt(2 / (1 + std::abs(x[2])));
    return {h, k * x[0], k * x[1]};
}

/// Index 0: one line per direction (hemisphere, X, Y, colour, log10 error per law, of the
/// identified law: NaN where it declines). Index 1: the facets' arcs, one blank-line-separated
/// piece per arc and hemisphere (hemisphere, X, Y).
std::string plot_data(const ConeSweepResult& r, const Eigen::MatrixXd& L) {
    std::string s = "# hemisphere X Y colour log10_error_per_law... log10_error_identified\n";
    auto out = std::back_inserter(s);
    for (const ConeSweepPoint& p : r.points) {
        const Eigen::Vector3d x = Eigen::Vector3d(L.triangularView<Eigen::Lower>().solve(p.gamma_pre)).normalized();
        const Projected q = project(x);
        unsigned colour = p.unsettled ? unsettled_colour : nonlinear_colour;
        if (p.cone >= 0 && r.cone_map[static_cast<std::size_t>(p.cone)].linear)
            colour = cone_colours[static_cast<std::size_t>(p.cone) % std::size(cone_colours)];
        fmt::format_to(out, "{} {:.8g} {:.8g} {}", q.hemisphere, q.X, q.Y, colour);
        for (double e : p.law_error) fmt::format_to(out, " {:.5g}", std::isfinite(e) ? std::log10(std::max(e, 1e-17)) : NAN);
        const std::optional<Eigen::VectorXd> g = p.unsettled ? std::nullopt : laws::apply_identified(r.law, p.gamma_pre);
        const double e = g ? (*g - p.gamma_post).lpNorm<Eigen::Infinity>() / p.gamma_pre.lpNorm<Eigen::Infinity>() : NAN;
        fmt::format_to(out, " {:.5g}\n", std::isfinite(e) ? std::log10(std::max(e, 1e-17)) : NAN);
    }
    fmt::format_to(out, "\n\n# facets of the identified law's cones: hemisphere X Y\n");
    bool any = false;
    for (const laws::IdentifiedLawCone& c : r.law.cones)
        for (const Eigen::VectorXd& b : c.facets) {
            // The great circle b . (L x) = 0: x orthogonal to c = L^T b; kept where the cone's
            // other facets hold.
            const Eigen::Vector3d n = (L.transpose() * b).normalized();
            const Eigen::Vector3d u = n.unitOrthogonal(), v = n.cross(u);
            int last = -1;
            constexpr int steps = 720;
            for (int k = 0; k <= steps; ++k) {
                const double a = 2 * std::numbers::pi * k / steps;
                const Eigen::Vector3d x = std::cos(a) * u + std::sin(a) * v;
                const Eigen::VectorXd gamma = L * x;
                bool inside = true;
                for (const Eigen::VectorXd& f : c.facets)
                    if (&f != &b && f.dot(gamma) < -1e-9 * gamma.norm()) inside = false;
                const Projected q = project(x);
                if (!inside || (last >= 0 && q.hemisphere != last)) {
                    if (last >= 0) fmt::format_to(out, "\n");
                    last = -1;
                    if (!inside) continue;
                }
                fmt::format_to(out, "{} {:.6g} {:.6g}\n", q.hemisphere, q.X, q.Y);
                last = q.hemisphere;
                any = true;
            }
            if (last >= 0) fmt::format_to(out, "\n");
        }
    if (!any) fmt::format_to(out, "0 NaN NaN\n");  // gnuplot needs the index to exist
    return s;
}

std::string plot_script(const ConeSweepResult& r, const fs::path& image, const std::string& data) {
    const std::size_t rows = 2 + r.laws.size();
    const bool svg = image_format(image) == ImageFormat::svg;
    const std::string terminal = fmt::format("{} size 1100,{} {} background rgb 'white'",
                                             svg ? "svg" : "pngcairo", 520 * rows,
                                             svg ? "dynamic enhanced font 'Sans,12'" : "enhanced font 'Sans,10'");
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, "# rodcollide sweep: cone map of \"{}\" ({} directions + {} rays), four rods.\n", r.title,
                   r.directions, r.rays);
    fmt::format_to(out, "# Redraw with `gnuplot {}.gp` in this directory (writes {}); edit freely to restyle.\n",
                   image.stem().string(), image.filename().string());
    fmt::format_to(out, "data = {}\nset terminal {}\nset output {}\n", quoted(data), terminal, quoted(image.filename().string()));
    fmt::format_to(out, "set multiplot layout {},2 title {}\n", rows,
                   quoted(fmt::format("{}: gamma- on the G^{{-1}} unit sphere, Lambert equal-area projection of each "
                                      "hemisphere", r.title)));
    s += "set size ratio -1\nset xrange [-1.5:1.5]\nset yrange [-1.5:1.5]\nunset key\nunset xtics\nunset ytics\n"
         "set parametric\nset trange [0:2*pi]\nset samples 200\n";
    const char* hemispheres[] = {"x_3 >= 0", "x_3 < 0"};
    for (int h = 0; h < 2; ++h)
        fmt::format_to(out,
                       "set title {0}\nplot sqrt(2)*cos(t), sqrt(2)*sin(t) with lines lc rgb '#888888', \\\n"
                       "     data index 0 using ($1=={1}?$2:NaN):3:4 with points pt 7 ps 0.35 lc rgb variable, \\\n"
                       "     data index 1 using ($1=={1}?$2:NaN):3 with lines lw 1.2 lc rgb '#000000'\n",
                       quoted(fmt::format("cones ({} linear, grey: not linear, black: unsettled); identified law's "
                                          "facets; {}",
                                          std::count_if(r.cone_map.begin(), r.cone_map.end(), [](const IdentifiedCone& c) { return c.linear; }),
                                          hemispheres[h])),
                       h);
    s += "set cbrange [-16:0]\nset palette defined (-16 '#2166ac', -8 '#92c5de', -4 '#fddbc7', 0 '#b2182b')\n"
         "set colorbox\nset cblabel 'log_{10} error'\n";
    std::vector<std::string> names = r.laws;
    names.push_back("identified law (blank: no answer)");
    for (std::size_t l = 0; l < names.size(); ++l)
        for (int h = 0; h < 2; ++h)
            fmt::format_to(out,
                           "set title {}\nplot sqrt(2)*cos(t), sqrt(2)*sin(t) with lines lc rgb '#888888', \\\n"
                           "     data index 0 using ($1=={}?$2:NaN):3:{} with points pt 7 ps 0.35 lc palette\n",
                           quoted(fmt::format("{}: |law - wave| / |gamma-|, {}", names[l], hemispheres[h])), h, 5 + l);
    s += "unset multiplot\nset output\n";
    return s;
}

}  // namespace

void write_cone_sweep_plot(const ConeSweepResult& r, const fs::path& image) {
    if (r.bodies != 4) throw PlotError(fmt::format("plot: the cone map is drawn for four rods (the sphere S^2); this sweep has {}", r.bodies));
    if (r.points.empty()) throw PlotError("plot: the sweep has no directions");
    const Eigen::MatrixXd L = Eigen::LLT<Eigen::MatrixXd>(impact_matrices(r.masses).G).matrixL();
    const std::string data = image.stem().string() + ".map.dat";
    render(Picture{plot_script(r, image, data), {{"map.dat", plot_data(r, L)}}}, image);
}

}  // namespace rodcollide
