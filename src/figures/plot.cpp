// Drawing with gnuplot (plot.hpp): each plotter writes a self-contained gnuplot script and its
// data files into a staging directory beside the picture, runs gnuplot there through
// gnuplot-iostream, and moves the files into place only when the picture was drawn.
#include "figures/plot.hpp"

#include <gnuplot-iostream.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <unistd.h>

#ifndef RODCOLLIDE_GNUPLOT
#define RODCOLLIDE_GNUPLOT "gnuplot"
#endif

namespace rodcollide {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Paths, gnuplot, staging
// ---------------------------------------------------------------------------------------------

ImageFormat image_format(const fs::path& image) {
    std::string ext = image.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".png") return ImageFormat::png;
    if (ext == ".svg") return ImageFormat::svg;
    throw PlotPathError(fmt::format("{}: unknown picture format {:?} (use .png or .svg)", display_path(image), ext));
}

namespace {

fs::path directory_of(const fs::path& image) { return image.has_parent_path() ? image.parent_path() : fs::path("."); }

/// A fresh, uniquely named directory beside `image`, or PlotPathError saying why not.
fs::path make_staging_directory(const fs::path& image) {
    static std::atomic<unsigned> counter{0};
    const fs::path dir = directory_of(image);
    const fs::path stage =
        dir / fmt::format(".{}.rodcollide-{}-{}", image.filename().string(), ::getpid(), counter++);
    std::error_code ec;
    if (!fs::create_directory(stage, ec) || ec)
        throw PlotPathError(fmt::format("{}: cannot write in directory {}: {}", display_path(image), display_path(dir),
                                        ec ? ec.message() : "name taken"));
    return stage;
}

bool is_executable_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

/// 'text' for sh.
std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

namespace {

/// check_output_target() for a picture's file, as PlotPathError.
void check_plot_target(const fs::path& file) {
    try {
        check_output_target(file);
    } catch (const OutputPathError& e) {
        throw PlotPathError(e.what());
    }
}

}  // namespace

void check_output_path(const fs::path& image) {
    image_format(image);
    check_plot_target(image);
    check_plot_target(image.parent_path() / (image.stem().string() + ".gp"));
}

fs::path gnuplot_executable() {
    if (const char* env = std::getenv("RODCOLLIDE_GNUPLOT"); env && *env) {
        if (!is_executable_file(env))
            throw PlotError(fmt::format("gnuplot not found: RODCOLLIDE_GNUPLOT={} is not an executable file", env));
        return env;
    }
    if (is_executable_file(RODCOLLIDE_GNUPLOT)) return RODCOLLIDE_GNUPLOT;
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        for (std::string d; std::getline(dirs, d, ':');)
            if (!d.empty() && is_executable_file(fs::path(d) / "gnuplot")) return fs::path(d) / "gnuplot";
    }
    throw PlotError("gnuplot not found: install it (Debian: apt-get install gnuplot-nox) or set RODCOLLIDE_GNUPLOT to its path");
}

namespace {

/// Ignores SIGPIPE while alive, so a gnuplot that dies early gives an error, not a crash.
class IgnoreSigpipe {
public:
    IgnoreSigpipe() : old_(std::signal(SIGPIPE, SIG_IGN)) {}
    ~IgnoreSigpipe() { std::signal(SIGPIPE, old_); }
    IgnoreSigpipe(const IgnoreSigpipe&) = delete;
    IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

private:
    void (*old_)(int);
};

std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path& p, const std::string& content, const fs::path& image) {
    std::ofstream out(p, std::ios::binary);
    out << content;
    out.close();
    if (!out) throw PlotError(fmt::format("{}: cannot write {}", display_path(image), p.filename().string()));
}

/// Runs `gnuplot script` in `stage` and returns "" on success, else the first error line.
std::string run_gnuplot(const fs::path& gnuplot, const fs::path& relative_stage, const std::string& script) {
    const fs::path stage = fs::absolute(relative_stage);
    const fs::path log = stage / ".gnuplot.log", status = stage / ".gnuplot.status";
    {
        // The shell reports gnuplot's status through a file: pclose() then always succeeds
        // (gnuplot-iostream would print to stderr otherwise).
        const IgnoreSigpipe guard;
        Gnuplot gp(fmt::format("cd {} && {} >{} 2>&1; echo $? >{}", shell_quote(stage.string()),
                               shell_quote(gnuplot.string()), shell_quote(log.string()), shell_quote(status.string())));
        gp << "load '" << script << "'\n";
    }
    const std::string code = read_text(status);
    if (std::atoi(code.c_str()) == 0 && !code.empty()) return "";
    std::istringstream lines(read_text(log));
    std::string first_error, line;
    while (std::getline(lines, line)) {
        const auto begin = line.find_first_not_of(" \t^");
        if (begin == std::string::npos) continue;
        first_error = line.substr(begin);
        if (line.find("line") != std::string::npos || line.find("rror") != std::string::npos) break;
    }
    return fmt::format("gnuplot ({}) failed with status {}{}{}", gnuplot.string(), code.empty() ? "?" : code.substr(0, code.find('\n')),
                       first_error.empty() ? "" : ": ", first_error);
}

}  // namespace

PlotFiles render(const Picture& picture, const fs::path& image) {
    check_output_path(image);
    const fs::path gnuplot = gnuplot_executable();
    const fs::path dir = directory_of(image);
    const std::string stem = image.stem().string();
    const fs::path stage = make_staging_directory(image);
    PlotFiles files;
    files.image = image;
    files.script = dir / (stem + ".gp");
    std::vector<std::string> names{stem + ".gp"};
    std::error_code ec;
    try {
        write_text(stage / names[0], picture.script, image);
        for (const auto& [suffix, content] : picture.data) {
            names.push_back(stem + "." + suffix);
            files.data.push_back(dir / names.back());
            write_text(stage / names.back(), content, image);
        }
        if (const std::string error = run_gnuplot(gnuplot, stage, names[0]); !error.empty()) throw PlotError(error);
        const fs::path drawn = stage / image.filename();
        if (!fs::is_regular_file(drawn, ec) || fs::file_size(drawn, ec) == 0)
            throw PlotError(fmt::format("gnuplot ({}) wrote no picture", gnuplot.string()));
        names.push_back(image.filename().string());
        for (const std::string& name : names) check_plot_target(dir / name);  // never replace a non-regular file
        for (const std::string& name : names) {
            fs::rename(stage / name, dir / name, ec);
            if (ec) throw PlotError(fmt::format("{}: cannot write {}: {}", display_path(image), name, ec.message()));
        }
    } catch (...) {
        fs::remove_all(stage, ec);
        throw;
    }
    fs::remove_all(stage, ec);
    return files;
}

void validate(const PlotOptions& o) {
    if (o.width < smallest_plot_size || o.width > largest_plot_size || o.height < smallest_plot_size ||
        o.height > largest_plot_size)
        throw InvalidInput("size", fmt::format("each side must be in [{}, {}] pixels, got {}x{}", smallest_plot_size,
                                               largest_plot_size, o.width, o.height));
}

namespace {

// ---------------------------------------------------------------------------------------------
// Script pieces
// ---------------------------------------------------------------------------------------------

/// Screen layout shared by the pictures: plot area and header lines [fractions of the picture].
struct Layout {
    double left = 0.085, right = 0.97, bottom = 0.10, top = 0.83;
    double title = 0.965, subtitle = 0.925, key_top = 0.9;
};

/// Layout of an x-t picture. Full width, except on normalised axes (x/l, t c/l), where the plot
/// area narrows so both axes have the same unit length and fronts run at 45 degrees, as in
/// Winandy & Leine 2015 Fig. 6, unless the plot would then use less than 70% of the width: a tall
/// diagram uses the whole width instead.
Layout xt_layout(const PlotOptions& o, const DiagramAxes& axes, double length, double t_end, bool colour_box) {
    Layout l;
    const double box = colour_box ? 0.11 : 0;  // colour box and its labels, right of the plot
    l.right -= box;
    if (!axes.normalised) return l;
    const double area_h = (l.top - l.bottom) * o.height, available = (l.right - l.left) * o.width;
    const double area_w = area_h * (length * axes.x_scale) / (t_end * axes.t_scale);
    if (area_w >= available || area_w < 0.7 * available) return l;
    const double centre = 0.5 * (l.left + l.right + box), width = area_w / o.width;
    l.left = centre - 0.5 * (width + box);
    l.right = l.left + width;
    return l;
}

/// Base font size [pt]: 11 at 1000x700, scaled with the picture's area.
double font_size(const PlotOptions& o) {
    const double scale = std::clamp(std::sqrt(o.width / 1000.0 * o.height / 700.0), 0.5, 4.0);
    return std::round(11 * scale * 2) / 2;
}

/// 'text' for gnuplot (single quotes: no escapes; a quote is doubled).
std::string gp_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
}

/// "text" for gnuplot enhanced mode: backslashes and quotes escaped; a leading or operator minus
/// becomes the typographic minus.
std::string gp_text(const std::string& s, bool typographic_minus = false) {
    std::string q = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"' || c == '\\') q += '\\';
        if (c == '-' && typographic_minus && (i == 0 || s[i - 1] == ' ')) {
            q += "−";
            continue;
        }
        q += c;
    }
    return q + "\"";
}

/// "text" shown as written in gnuplot enhanced mode (a case title): the enhanced-text operators
/// _ ^ @ & ~ { } are escaped, so "impact_01" is not drawn with a subscript.
std::string gp_literal(const std::string& s) {
    std::string plain;
    for (char c : s) {
        if (std::string_view("_^@&~{}").find(c) != std::string_view::npos) plain += '\\';
        plain += c;
    }
    return gp_text(plain);  // doubles the backslash: gnuplot's string then holds \_ for enhanced text
}

/// `text` (a unit: " m/s", " [N]") for an SI case, nothing for a dimensionless one.
std::string si(const PlotOptions& o, const std::string& text) { return o.dimensionless ? "" : text; }

/// The axes as drawn: a dimensionless case has no SI prefixes (scale 1) and no units in labels.
DiagramAxes shown_axes(DiagramAxes axes, const PlotOptions& o) {
    if (!o.dimensionless || axes.normalised) return axes;
    for (std::string* label : {&axes.x_label, &axes.t_label})
        if (const auto unit = label->find(" ["); unit != std::string::npos) label->erase(unit);
    axes.x_scale = axes.t_scale = 1;
    return axes;
}

/// Terminal, output, scales, margins and the title lines.
std::string preamble(const std::string& what, const fs::path& image, const PlotOptions& o, const Layout& l,
                     const DiagramAxes& drawn_axes, const std::string& subtitle) {
    const DiagramAxes axes = shown_axes(drawn_axes, o);
    const std::string stem = image.stem().string();
    const std::string terminal = image_format(image) == ImageFormat::png ? "pngcairo" : "svg";
    const double font = font_size(o);
    return fmt::format(
        "# rodcollide: {what}\n"
        "# Redraw with `gnuplot {script}` in this directory (writes {out}); edit freely to restyle.\n"
        "# The .dat files hold SI values (x [m], t [s], velocity [m/s], force [N]); xs and ts\n"
        "# below scale them to the axes.\n"
        "reset\n"
        "set encoding utf8\n"
        "set terminal {terminal} size {w},{h} enhanced font \"Sans,{font}\" background rgb \"white\"\n"
        "set output {out_q}\n"
        "xs = {xs:.17g}   # axis value = x [m] * xs\n"
        "ts = {ts:.17g}   # axis value = t [s] * ts\n"
        "set lmargin at screen {left}; set rmargin at screen {right}\n"
        "set bmargin at screen {bottom}; set tmargin at screen {top}\n"
        "set label 101 {title} at screen 0.5,{title_y} center font \",{title_font}\"\n"
        "set label 102 {subtitle} at screen 0.5,{subtitle_y} center tc rgb \"#444444\"\n"
        "set xlabel {xlabel}\n"
        "set ylabel {tlabel}\n"
        "set border lw 1.2\n"
        "set tics out nomirror\n",
        fmt::arg("what", what), fmt::arg("script", stem + ".gp"), fmt::arg("out", image.filename().string()),
        fmt::arg("terminal", terminal), fmt::arg("w", o.width), fmt::arg("h", o.height), fmt::arg("font", font),
        fmt::arg("out_q", gp_quote(image.filename().string())), fmt::arg("xs", axes.x_scale),
        fmt::arg("ts", axes.t_scale), fmt::arg("left", l.left), fmt::arg("right", l.right),
        fmt::arg("bottom", l.bottom), fmt::arg("top", l.top), fmt::arg("title", gp_literal(o.title)),
        fmt::arg("title_y", l.title), fmt::arg("title_font", font + 3), fmt::arg("subtitle", gp_text(subtitle)),
        fmt::arg("subtitle_y", l.subtitle), fmt::arg("xlabel", gp_text(axes.x_label)),
        fmt::arg("tlabel", gp_text(axes.t_label)));
}

/// Key (legend) under the subtitle, hanging from its top edge: a key that needs a second row
/// grows down towards the plot, never up into the subtitle.
std::string key_row(const Layout& l, double font) {
    return fmt::format("set key at screen 0.5,{} center top horizontal reverse Left samplen 2 spacing 1.2 width 2 font \",{}\"\n",
                       l.key_top, font - 1);
}

/// Tics at every rod end on normalised axes (x/l), else automatic.
std::string x_tics(const DiagramAxes& axes, std::size_t rods) {
    if (!axes.normalised || rods > 20) return "";
    return "set xtics 0,1\nset mxtics 4\n";
}

const char* const ink = "#1b2a49";       // fronts, rod ends in displacement diagrams
const char* const contact_ink = "#b03a2e";  // compressed contacts, closings, openings

}  // namespace

void fit_labels_to_plot(const PlotOptions& o, const Chain& chain, DiagramOptions& d) {
    const Layout l = xt_layout(o, diagram_axes(chain, d.t_end), chain.total_length(), d.t_end, false);
    const double area_w = (l.right - l.left) * o.width, area_h = (l.top - l.bottom) * o.height;
    // Label font: one point smaller than the base; cairo draws 1 pt as 1 pixel. Label text in
    // DejaVu Sans measures ~0.68 em per character; lines are ~1.2 em apart.
    const double em = font_size(o) - 1;
    d.aspect = area_h / area_w;
    d.char_width = 0.7 * em / area_w;
    d.line_height = 1.2 * em / area_h;
}

// ---------------------------------------------------------------------------------------------
// Characteristics diagram
// ---------------------------------------------------------------------------------------------

PlotFiles plot_characteristics(const CharacteristicsDiagram& d, const fs::path& image, const PlotOptions& o) {
    validate(o);
    const Layout l = xt_layout(o, d.axes, d.length, d.t_end, false);
    const double font = font_size(o);
    Picture p;
    const std::string stem = image.stem().string();
    auto file = [&](const std::string& suffix) { return gp_quote(stem + "." + suffix); };

    std::string fronts = "# fronts: x0 [m], t0 [s] (emission), x1, t1 (arrival or end of diagram), jump of the\n"
                         "# invariant [m/s], rod, direction (1: alpha, dx/dt = +c; -1: beta), weight (|jump| / largest, 0-1)\n";
    for (const FrontSegment& f : d.fronts)
        fronts += fmt::format("{:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {} {:.4f}\n", f.x0, f.t0, f.x1, f.t1, f.jump,
                              f.rod, f.right_moving ? 1 : -1,
                              d.largest_jump > 0 ? std::abs(f.jump) / d.largest_jump : 1.0);
    std::string rods = "# rod ends and contact interfaces: x [m]\n";
    for (double x : d.rod_ends) rods += fmt::format("{:.17g}\n", x);
    std::string spans = "# contact compressed: x [m], from t [s], to t [s], contact\n";
    for (const ContactSpan& c : d.compressed)
        spans += fmt::format("{:.17g} {:.17g} {:.17g} {}\n", c.x, c.start, c.end, c.contact);
    std::string events = "# contact events: x [m], t [s], kind (0 closes, 1 opens), contact\n";
    for (const ContactMark& e : d.events)
        events += fmt::format("{:.17g} {:.17g} {} {}\n", e.x, e.t, e.kind == ContactEvent::Kind::opening ? 1 : 0,
                              e.contact);
    std::string labels = "# region labels: x [m], t [s], velocity line, strain line (gnuplot enhanced text)\n";
    std::size_t unlabelled = 0;
    for (const Region& r : d.regions) {
        if (!r.labelled) {
            ++unlabelled;
            continue;
        }
        labels += fmt::format("{:.6g} {:.6g} {} {}\n", r.x, r.t, gp_text(r.lines[0], true), gp_text(r.lines[1], true));
    }

    std::string subtitle = d.units.symbolic
                               ? fmt::format("regions: velocity u_t and strain u_x in units of v = {:.4g}{} and v/c, c = {:.4g}{}",
                                             d.units.v, si(o, " m/s"), d.units.c, si(o, " m/s"))
                               : "regions: velocity u_t" + si(o, " [m/s]") + " and strain u_x";
    if (d.axes.normalised) subtitle += fmt::format("; l = {:.4g}{}", d.length / (d.rod_ends.size() - 1), si(o, " m"));
    if (unlabelled) subtitle += fmt::format(" ({} small region{} unlabelled)", unlabelled, unlabelled == 1 ? "" : "s");

    std::string s = preamble("characteristics diagram (x-t plane, material coordinate)", image, o, l, d.axes, subtitle);
    s += key_row(l, font);
    s += x_tics(d.axes, d.rod_ends.size() - 1);
    s += fmt::format("t_end = {:.17g}   # [s]\nlength = {:.17g}   # [m]\n", d.t_end, d.length);
    s += "set xrange [0:length*xs]\nset yrange [0:t_end*ts]\n";
    // Weak fronts fade towards grey: colour from the weight column (|jump| / largest).
    s += fmt::format("mix(a, b, w) = int(a*w + b*(1 - w))\n"
                     "shade(w) = 0.3 + 0.7*sqrt(w)\n"
                     "front_color(w) = 65536*mix({}, 200, shade(w)) + 256*mix({}, 205, shade(w)) + mix({}, 215, shade(w))\n",
                     0x1b, 0x2a, 0x49);
    std::vector<std::string> plots;
    plots.push_back(fmt::format("{} using ($1*xs):(0):(0):(t_end*ts) with vectors nohead lw 1 lc rgb \"#7f8c8d\" "
                                "notitle",
                                file("rods.dat")));
    p.data.emplace_back("rods.dat", rods);
    // Full-height vertical lines at the given x: segment joints (dashed) and walls (thick).
    const auto verticals = [&](const std::vector<double>& xs, const std::string& suffix, const std::string& comment,
                               const std::string& style, const std::string& title) {
        if (xs.empty()) return;
        std::string data = "# " + comment + ": x [m]\n";
        for (double x : xs) data += fmt::format("{:.17g}\n", x);
        plots.push_back(fmt::format("{} using ($1*xs):(0):(0):(t_end*ts) with vectors nohead {} title \"{}\"",
                                    file(suffix), style, title));
        p.data.emplace_back(suffix, data);
    };
    verticals(d.joints, "joints.dat", "welded joints between segments of a rod", "lw 1 dt 2 lc rgb \"#7f8c8d\"",
              "segment joint");
    verticals(d.walls, "walls.dat", "rigid walls at the chain's ends", "lw 4 lc rgb \"#34495e\"", "wall");
    if (!d.compressed.empty()) {
        plots.push_back(fmt::format("{} using ($1*xs):($2*ts):(0):(($3-$2)*ts) with vectors nohead lw 6 lc rgb \"{}\" "
                                    "title \"contact compressed\"",
                                    file("contacts.dat"), contact_ink));
        p.data.emplace_back("contacts.dat", spans);
    }
    if (!d.fronts.empty()) {
        // Short, so that the key stays one row under the subtitle (the command prints the details).
        std::string title = "fronts";
        if (d.omitted_fronts) title = fmt::format("fronts ({} weaker not drawn)", d.omitted_fronts);
        plots.push_back(fmt::format("{} using ($1*xs):($2*ts):(($3-$1)*xs):(($4-$2)*ts):(front_color($8)) "
                                    "with vectors nohead lw 1.8 lc rgb variable notitle, "
                                    "keyentry with lines lw 1.8 lc rgb \"{}\" title {}",
                                    file("fronts.dat"), ink, gp_text(title)));
        p.data.emplace_back("fronts.dat", fronts);
    }
    if (!d.events.empty()) {
        plots.push_back(fmt::format("{} using ($1*xs):($3 == 0 ? $2*ts : NaN) with points pt 7 ps 1.5 lc rgb \"{}\" "
                                    "title \"contact closes\"",
                                    file("events.dat"), contact_ink));
        plots.push_back(fmt::format("{} using ($1*xs):($3 == 1 ? $2*ts : NaN) with points pt 6 ps 1.5 lw 2 lc rgb \"{}\" "
                                    "title \"contact opens\"",
                                    file("events.dat"), contact_ink));
        p.data.emplace_back("events.dat", events);
    }
    if (d.regions.size() > unlabelled) {
        for (int line = 0; line < 2; ++line)
            plots.push_back(fmt::format("{} using ($1*xs):($2*ts):{} with labels offset 0,{} font \",{}\" "
                                        "tc rgb \"#222222\" notitle",
                                        file("labels.dat"), 3 + line, line == 0 ? 0.55 : -0.55, font - 1));
        p.data.emplace_back("labels.dat", labels);
    }
    s += "plot ";
    for (std::size_t i = 0; i < plots.size(); ++i) s += (i ? ", \\\n     " : "") + plots[i];
    s += "\n";
    p.script = s;
    return render(p, image);
}

// ---------------------------------------------------------------------------------------------
// Field plots
// ---------------------------------------------------------------------------------------------

namespace {

/// Index of the sample nearest to v in an increasing vector.
std::size_t nearest(const std::vector<double>& xs, double v) {
    const auto it = std::lower_bound(xs.begin(), xs.end(), v);
    if (it == xs.begin()) return 0;
    if (it == xs.end()) return xs.size() - 1;
    const auto k = static_cast<std::size_t>(it - xs.begin());
    return v - xs[k - 1] <= xs[k] - v ? k - 1 : k;
}

}  // namespace

PlotFiles plot_field(const FieldSamples& f, FieldQuantity quantity, const Chain& chain, const fs::path& image,
                     const PlotOptions& o) {
    validate(o);
    if (f.t.size() < 2 || f.x.empty())
        throw std::invalid_argument("field plot: need at least two sample times and one position");
    const Eigen::MatrixXd& values = quantity == FieldQuantity::velocity ? f.velocity : f.force;
    const double t_end = f.t.back(), length = chain.total_length();
    const DiagramAxes axes = diagram_axes(chain, t_end);
    const Layout l = xt_layout(o, axes, length, t_end, true);

    // Resampled (nearest sample) onto a regular raster, as gnuplot's image style needs.
    const std::size_t nx = std::min<std::size_t>(f.x.size(), 600), nt = std::min<std::size_t>(f.t.size(), 400);
    std::string data = fmt::format("# {} [{}] on a regular x-t raster (gnuplot nonuniform matrix): first row: columns, then x\n"
                                   "# [m] of each column; each further row: t [s], then the values\n",
                                   quantity == FieldQuantity::velocity ? "velocity" : "normal force",
                                   quantity == FieldQuantity::velocity ? "m/s" : "N, tension > 0");
    data += std::to_string(nx);
    std::vector<std::size_t> column(nx);
    for (std::size_t j = 0; j < nx; ++j) {
        const double x = length * (static_cast<double>(j) + 0.5) / static_cast<double>(nx);
        column[j] = nearest(f.x, x);
        data += fmt::format(" {:.9g}", x);
    }
    data += "\n";
    double largest = 0;
    for (std::size_t i = 0; i < nt; ++i) {
        const double t = t_end * static_cast<double>(i) / static_cast<double>(nt - 1);
        const std::size_t row = nearest(f.t, t);
        data += fmt::format("{:.9g}", t);
        for (std::size_t j = 0; j < nx; ++j) {
            const double v = values(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(column[j]));
            largest = std::max(largest, std::abs(v));
            data += fmt::format(" {:.6g}", v);
        }
        data += "\n";
    }
    std::string rods = "# rod ends and contact interfaces: x [m]\n";
    for (std::size_t i = 0; i < chain.size(); ++i) rods += fmt::format("{:.17g}\n", chain.material_offset(i));
    rods += fmt::format("{:.17g}\n", length);

    const bool velocity = quantity == FieldQuantity::velocity;
    const std::string what = velocity ? "velocity field" : "normal force field";
    std::string subtitle = velocity ? "particle velocity u_t" + si(o, " [m/s]")
                                    : "normal force N" + si(o, " [N]") + ": compression < 0 (blue), tension > 0 (red)";
    if (axes.normalised)
        subtitle += "; " + (o.dimensionless ? fmt::format("l = {:.4g}, c = {:.4g}", chain[0].length, chain[0].wave_speed())
                                            : axes.note);
    Picture p;
    const std::string stem = image.stem().string();
    std::string s = preamble(what + " (x-t plane, material coordinate)", image, o, l, axes, subtitle);
    s += x_tics(axes, chain.size());
    s += fmt::format("t_end = {:.17g}   # [s]\nlength = {:.17g}   # [m]\nlargest = {:.17g}   # largest |value|\n",
                     t_end, length, largest > 0 ? largest : 1.0);
    s += "set xrange [0:length*xs]\nset yrange [0:t_end*ts]\n"
         "set cbrange [-largest:largest]\n"
         "set palette defined (-1 '#2166ac', -0.5 '#92c5de', 0 '#f7f7f7', 0.5 '#f4a582', 1 '#b2182b')\n";
    s += fmt::format("set colorbox vertical user origin screen {},{} size screen 0.025,{}\n", l.right + 0.02, l.bottom,
                     l.top - l.bottom);
    s += fmt::format("set cblabel {}\nunset key\n", gp_text(velocity ? "u_t" + si(o, " [m/s]") : "N" + si(o, " [N]")));
    s += fmt::format("plot {} nonuniform matrix using ($1*xs):($2*ts):3 with image, \\\n"
                     "     {} using ($1*xs):(0):(0):(t_end*ts) with vectors nohead lw 1 lc rgb \"#555555\"\n",
                     gp_quote(stem + ".field.dat"), gp_quote(stem + ".rods.dat"));
    p.script = s;
    p.data.emplace_back("field.dat", data);
    p.data.emplace_back("rods.dat", rods);
    return render(p, image);
}

// ---------------------------------------------------------------------------------------------
// Displacement diagram
// ---------------------------------------------------------------------------------------------

PlotFiles plot_displacement(const DisplacementDiagram& d, const fs::path& image, const PlotOptions& o) {
    validate(o);
    if (d.rods.empty()) throw std::invalid_argument("displacement plot: no rods");
    const Layout l;
    const double font = font_size(o);
    const std::size_t points = d.rods[0].x.size();
    std::string paths = fmt::format("# positions of material points over time, one block per rod (gnuplot index = rod):\n"
                                    "# t [s], then the position [m] of each point, left end first, right end last\n"
                                    "# (reference position + {:g} x (gaps + displacement))\n",
                                    d.magnification);
    std::string bands = "# each rod's outline as a closed polygon (one block per rod): position [m], t [s]\n";
    double lo = 0, hi = 0;
    for (const RodPaths& r : d.rods) {
        paths += "# material points x [m]:";
        for (double x : r.x) paths += fmt::format(" {:.9g}", x);
        paths += "\n";
        for (std::size_t a = 0; a < r.t.size(); ++a) {
            paths += fmt::format("{:.17g}", r.t[a]);
            for (Eigen::Index b = 0; b < r.position.cols(); ++b)
                paths += fmt::format(" {:.17g}", r.position(static_cast<Eigen::Index>(a), b));
            paths += "\n";
        }
        paths += "\n\n";
        const Eigen::Index last = r.position.cols() - 1;
        for (std::size_t a = 0; a < r.t.size(); ++a)
            bands += fmt::format("{:.17g} {:.17g}\n", r.position(static_cast<Eigen::Index>(a), 0), r.t[a]);
        for (std::size_t a = r.t.size(); a-- > 0;)
            bands += fmt::format("{:.17g} {:.17g}\n", r.position(static_cast<Eigen::Index>(a), last), r.t[a]);
        bands += "\n\n";
        lo = std::min(lo, r.position.minCoeff());
        hi = std::max(hi, r.position.maxCoeff());
    }
    const double pad = 0.03 * (hi - lo);
    std::vector<std::string> notes;
    if (d.magnification != 1) notes.push_back(fmt::format("displacements and gaps drawn ×{:g}", d.magnification));
    if (d.axes.normalised) notes.push_back(d.axes.note);
    std::string subtitle = "positions over time; gaps between rods are white";
    for (const std::string& n : notes) subtitle += "; " + n;

    const std::string stem = image.stem().string();
    Picture p;
    std::string s = preamble("displacement diagram (de Saint-Venant): positions of material points over time", image, o,
                             l, d.axes, subtitle);
    s += key_row(l, font);
    s += fmt::format("t_end = {:.17g}   # [s]\nrods = {}\npoints = {}   # per rod, ends included\n", d.t_end,
                     d.rods.size(), points);
    s += fmt::format("set xrange [{:.17g}*xs:{:.17g}*xs]\nset yrange [0:t_end*ts]\n", lo - pad, hi + pad);
    s += "band(i) = i % 2 ? '#f5cba7' : '#aed6f1'\n";
    s += fmt::format(
        "plot for [i=0:rods-1] {bands} index i using ($1*xs):($2*ts) with filledcurves closed fc rgb band(i) "
        "fs solid 0.6 noborder notitle, \\\n"
        "     for [i=0:rods-1] for [k=3:points] {paths} index i using (column(k)*xs):($1*ts) with lines lw 0.8 "
        "lc rgb \"#7f8c8d\" notitle, \\\n"
        "     for [i=0:rods-1] {paths} index i using ($2*xs):($1*ts) with lines lw 2.2 lc rgb \"{ink}\" notitle, \\\n"
        "     for [i=0:rods-1] {paths} index i using (column(points+1)*xs):($1*ts) with lines lw 2.2 lc rgb \"{ink}\" "
        "notitle, \\\n"
        "     keyentry with boxes fs solid 0.6 noborder fc rgb '#aed6f1' title \"rod\", \\\n"
        "     keyentry with lines lw 2.2 lc rgb \"{ink}\" title \"rod ends\", \\\n"
        "     keyentry with lines lw 0.8 lc rgb \"#7f8c8d\" title \"material points\"\n",
        fmt::arg("bands", gp_quote(stem + ".bands.dat")), fmt::arg("paths", gp_quote(stem + ".paths.dat")),
        fmt::arg("ink", ink));
    p.script = s;
    p.data.emplace_back("paths.dat", paths);
    p.data.emplace_back("bands.dat", bands);
    return render(p, image);
}

}  // namespace rodcollide
