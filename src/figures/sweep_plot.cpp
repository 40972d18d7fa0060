// The empirical cone map picture of a sweep: the gnuplot script and its data, rendered by plot.hpp
// (staged beside the picture, moved into place only when gnuplot succeeded).
#include "rodcollide/sweep.hpp"
#include "rodcollide/figures.hpp"

#include "figures/plot.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace rodcollide {

namespace {

namespace fs = std::filesystem;

/// Colours of the linear cones, in angular order; stretches that are not linear are grey.
constexpr unsigned cone_colours[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf};
constexpr unsigned nonlinear_colour = 0xaaaaaa;

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

/// Index 0: one line per direction (theta, gamma1-, gamma2-, colour, error per law).
/// Index 1: Winandy & Leine 2015 boundary rays; index 2: empirical boundary rays (located ones).
std::string plot_data(const SweepResult& r) {
    std::string s = "# theta_deg gamma1_pre gamma2_pre colour error_per_law...\n";
    auto out = std::back_inserter(s);
    for (std::size_t j = 0; j < r.points.size(); ++j) {
        const SweepPoint& p = r.points[j];
        unsigned colour = nonlinear_colour;
        for (std::size_t c = 0, linear = 0; c < r.cone_map.size(); ++c) {
            const EmpiricalCone& e = r.cone_map[c];
            if (e.linear) ++linear;
            const double t = p.theta < e.begin ? p.theta + 360 : p.theta;
            if (t >= e.begin - 1e-9 && t <= e.end + 1e-9) {
                colour = e.linear ? cone_colours[(linear - 1) % std::size(cone_colours)] : nonlinear_colour;
                break;
            }
        }
        fmt::format_to(out, "{:.10g} {:.10g} {:.10g} {}", p.theta, p.gamma_pre[0], p.gamma_pre[1], colour);
        for (const SweepLaw& l : r.laws) fmt::format_to(out, " {:.6e}", std::max(l.error[j], 1e-17));
        fmt::format_to(out, "\n");
    }
    auto ray = [&](double degrees) {
        const double a = degrees * std::numbers::pi / 180;
        fmt::format_to(out, "0 0\n{:.10g} {:.10g}\n\n", 1.25 * std::cos(a), 1.25 * std::sin(a));
    };
    fmt::format_to(out, "\n\n# Winandy & Leine 2015 cone boundaries\n");
    for (laws::Cone c : laws::all_cones) ray(seed_cone_range(c).first);
    fmt::format_to(out, "\n# empirical boundaries\n0 0\n0 0\n\n");
    for (const EmpiricalCone& c : r.cone_map)
        if (c.begin_located) ray(c.begin);
    return s;
}

std::string plot_script(const SweepResult& r, const fs::path& image, const std::string& data) {
    const std::string terminal = image_format(image) == ImageFormat::svg
                                     ? "svg size 1400,640 dynamic enhanced font 'Sans,12' background rgb 'white'"
                                     : "pngcairo size 1400,640 enhanced font 'Sans,10' background rgb 'white'";
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, "# rodcollide sweep: empirical cone map of \"{}\" ({} directions).\n", r.title, r.directions);
    fmt::format_to(out, "# Redraw with `gnuplot {}.gp` in this directory (writes {}); edit freely to restyle.\n",
                   image.stem().string(), image.filename().string());
    fmt::format_to(out, "data = {}\nset terminal {}\nset output {}\n", quoted(data), terminal,
                   quoted(image.filename().string()));
    fmt::format_to(out, "set multiplot layout 1,2 title {}\n",
                   quoted(fmt::format("{}: wave map gamma- -> gamma+, {} directions", r.title, r.directions)));
    // Left: the gamma- plane.
    s += "set size ratio -1\nset xrange [-1.45:1.45]\nset yrange [-1.45:1.45]\n"
         "set xlabel 'gamma_1^-'\nset ylabel 'gamma_2^-'\nset title 'empirical cones (colours; grey: not linear) "
         "and Winandy & Leine 2015 cones (dashed)'\nunset key\n";
    int label = 1;
    for (laws::Cone c : laws::all_cones) {
        const auto [b, e] = seed_cone_range(c);
        const double a = 0.5 * (b + e) * std::numbers::pi / 180;
        fmt::format_to(out, "set label {} {} at {:.4f},{:.4f} center\n", label++,
                       quoted(std::string(laws::cone_name(c))), 1.32 * std::cos(a), 1.32 * std::sin(a));
    }
    s += "plot data index 1 using 1:2 with lines dt 2 lc rgb '#555555', \\\n"
         "     data index 2 using 1:2 with lines lw 2 lc rgb '#000000', \\\n"
         "     data index 0 using 2:3:4 with points pt 7 ps 0.6 lc rgb variable\n";
    s += "unset label\n";
    // Right: the errors against theta.
    s += "set size noratio\nset xrange [0:360]\nset autoscale y\nset logscale y\nset format y '10^{%T}'\n"
         "set xtics 45\nset xlabel 'theta [deg]'\nset ylabel '||gamma^+_{law} - gamma^+_{wave}||_{G^{-1}} / "
         "||gamma^-||_{G^{-1}}'\nset title 'error of each law against the wave map (Winandy & Leine 2015 boundaries dashed)'\n"
         "set key top left\n";
    for (laws::Cone c : laws::all_cones)
        fmt::format_to(out, "set arrow from {0:.6g}, graph 0 to {0:.6g}, graph 1 nohead dt 2 lc rgb '#555555'\n",
                       seed_cone_range(c).first);
    s += "plot ";
    for (std::size_t l = 0; l < r.laws.size(); ++l)
        fmt::format_to(out, "{}data index 0 using 1:{} with lines lw 1.5 title {}", l ? ", \\\n     " : "", 5 + l,
                       quoted(r.laws[l].law));
    s += "\nunset multiplot\nset output\n";
    return s;
}

}  // namespace

void write_sweep_plot(const SweepResult& r, const fs::path& image) {
    if (r.points.empty()) throw PlotError("plot: the sweep has no directions");
    const std::string data = image.stem().string() + ".map.dat";
    render(Picture{plot_script(r, image, data), {{"map.dat", plot_data(r)}}}, image);
}

}  // namespace rodcollide
