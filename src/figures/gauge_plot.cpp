// Gauge signals as a picture (gauge_plot.hpp).
#include "figures/gauge_plot.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace rodcollide {

namespace {

/// A string as a gnuplot double-quoted literal.
std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + "\"";
}

}  // namespace

PlotFiles plot_gauges(const std::vector<GaugeSignal>& signals, const std::filesystem::path& image,
                      const PlotOptions& o) {
    validate(o);
    if (signals.empty()) throw std::invalid_argument("gauge plot: the case has no [[gauge]] table");
    const std::string stem = image.stem().string();
    std::string data = "# t [s], then per gauge: velocity [m/s], force [N], strain [-]\n";
    const std::string csv = gauges_csv(signals);
    for (char c : csv) data += c == ',' ? ' ' : c;
    data.insert(data.find('\n') + 1, "# ");  // the header line as a comment
    const std::string terminal = image_format(image) == ImageFormat::png ? "pngcairo" : "svg";
    std::string s = fmt::format(
        "# rodcollide: gauge signals. Redraw with `gnuplot {script}` in this directory.\n"
        "reset\nset encoding utf8\n"
        "set terminal {terminal} size {w},{h} enhanced font \"Sans,11\" background rgb \"white\"\n"
        "set output {out}\n"
        "set multiplot layout 2,1 title {title}\n"
        "set grid\nset key outside right\n"
        "set ylabel \"force [kN] (tension > 0)\"\nset format x \"\"\n",
        fmt::arg("script", stem + ".gp"), fmt::arg("terminal", terminal), fmt::arg("w", o.width),
        fmt::arg("h", o.height), fmt::arg("out", quoted(image.filename().string())), fmt::arg("title", quoted(o.title)));
    const std::string file = quoted(stem + ".gauges.dat");
    const auto plot = [&](int column_offset, const char* scale) {
        std::string line = "plot ";
        for (std::size_t g = 0; g < signals.size(); ++g)
            line += fmt::format("{}{} using ($1*1e6):(column({})*{}) with lines lw 2 title {}", g ? ", " : "", file,
                                2 + 3 * g + static_cast<std::size_t>(column_offset), scale,
                                quoted(signals[g].gauge.name));
        return line + "\n";
    };
    s += plot(1, "1e-3");
    s += "set format x \"%g\"\nset xlabel \"t [µs]\"\nset ylabel \"velocity [m/s]\"\n";
    s += plot(0, "1");
    s += "unset multiplot\n";
    Picture p;
    p.script = s;
    p.data.emplace_back("gauges.dat", data);
    return render(p, image);
}

}  // namespace rodcollide
