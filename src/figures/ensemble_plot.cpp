// The ensemble picture: box plots of every rod's final velocity and the histogram of the last
// rod's, as a gnuplot script and its data, rendered by plot.hpp (staged beside the picture, moved
// into place only when gnuplot succeeded).
#include "rodcollide/ensemble.hpp"
#include "rodcollide/figures.hpp"

#include "figures/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rodcollide {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

/// Bins of the histogram: sqrt(n), between 5 and 60.
std::size_t bin_count(std::size_t n) {
    return std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n)))), 5, 60);
}

/// Index 0: per rod "rod q05 q25 q50 q75 q95 mean". Index 1: the last rod's histogram, "centre count".
std::string plot_data(const EnsembleResult& r, const EnsembleSummary& s) {
    std::string d = "# rod q05 q25 q50 q75 q95 mean (final velocity over the members)\n";
    auto out = std::back_inserter(d);
    for (std::size_t i = 0; i < r.rods; ++i) {
        const Statistics& v = s.final_velocity[i];
        fmt::format_to(out, "{} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g}\n", i, v.q05, v.q25, v.q50, v.q75, v.q95,
                       v.mean);
    }
    std::vector<double> last;
    for (const EnsembleMember& m : r.members)
        if (m.failure.empty()) last.push_back(m.final_velocity.back());
    const auto [lo, hi] = std::minmax_element(last.begin(), last.end());
    const std::size_t bins = bin_count(last.size());
    const double width = *hi > *lo ? (*hi - *lo) / static_cast<double>(bins) : 1.0;
    std::vector<std::size_t> count(bins, 0);
    for (double u : last)
        ++count[std::min(bins - 1, static_cast<std::size_t>(std::floor((u - *lo) / width)))];
    fmt::format_to(out, "\n\n# last rod's final velocity: bin centre, members (bin width {:.17g})\n", width);
    for (std::size_t b = 0; b < bins; ++b)
        fmt::format_to(out, "{:.17g} {}\n", *lo + (static_cast<double>(b) + 0.5) * width, count[b]);
    return d;
}

std::string plot_script(const EnsembleResult& r, const fs::path& image, const std::string& data) {
    const std::string terminal = image_format(image) == ImageFormat::svg
                                     ? "svg size 1400,640 dynamic enhanced font 'Sans,12' background rgb 'white'"
                                     : "pngcairo size 1400,640 enhanced font 'Sans,10' background rgb 'white'";
    const std::size_t n = summarize(r).solved;
    std::string s;
    auto out = std::back_inserter(s);
    fmt::format_to(out, "# rodcollide ensemble: final velocities of \"{}\" ({} members, seed {}).\n", r.title, n,
                   r.spec.seed);
    fmt::format_to(out, "# Redraw with `gnuplot {}.gp` in this directory (writes {}); edit freely to restyle.\n",
                   image.stem().string(), image.filename().string());
    fmt::format_to(out, "data = {}\nset terminal {}\nset output {}\n", quoted(data), terminal,
                   quoted(image.filename().string()));
    fmt::format_to(out, "set multiplot layout 1,2 title {} noenhanced\n",
                   quoted(fmt::format("{}: {} members, seed {}", r.title, n, r.spec.seed)));
    fmt::format_to(out, "set xlabel 'rod'\nset ylabel 'final velocity'\nset xrange [-0.7:{}]\nset key top left\n",
                   static_cast<double>(r.rods) - 0.3);
    s += "set title 'every rod: box 25-75 %, whiskers 5-95 %, median (line), mean (dot)'\n"
         "set boxwidth 0.6\nset style fill solid 0.3\n"
         "plot data index 0 using 1:3:2:6:5 with candlesticks whiskerbars lc rgb '#1f77b4' title 'quartiles, 5-95 %', \\\n"
         "     data index 0 using 1:4:4:4:4 with candlesticks lw 2 lc rgb '#000000' notitle, \\\n"
         "     data index 0 using 1:7 with points pt 7 ps 0.5 lc rgb '#d62728' title 'mean'\n";
    fmt::format_to(out, "set title 'last rod (rod {}): histogram of the final velocity'\n", r.rods - 1);
    s += "set boxwidth\nset xlabel 'final velocity'\nset ylabel 'members'\nset autoscale x\nset yrange [0:*]\nset style fill solid 0.5\n"
         "unset key\nplot data index 1 using 1:2 with boxes lc rgb '#1f77b4'\n"
         "unset multiplot\nset output\n";
    return s;
}

}  // namespace

void write_ensemble_plot(const EnsembleResult& r, const fs::path& image) {
    if (r.members.empty()) throw PlotError("plot: the ensemble has no members");
    const EnsembleSummary s = summarize(r);
    const std::string data = image.stem().string() + ".ensemble.dat";
    render(Picture{plot_script(r, image, data), {{"ensemble.dat", plot_data(r, s)}}}, image);
}

}  // namespace rodcollide
