// Pictures with gnuplot: PNG and SVG of the requested size, well-formed SVG, a script that
// redraws the picture on its own, and failures (bad extension, missing or unwritable directory,
// no gnuplot, failing gnuplot) that leave no file behind.
#include "chain_builders.hpp"
#include "figures/plot.hpp"
#include "file_text.hpp"
#include "rodcollide/figures.hpp"
#include "temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace rodcollide;
using rodcollide::testing::file_text;
using rodcollide::testing::identical_rods;
using rodcollide::testing::make_rod;
using rodcollide::testing::TempDir;
namespace fs = std::filesystem;

namespace {

/// Names of everything in a directory, hidden entries included.
std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
}

/// Width and height from a PNG's IHDR chunk (bytes 16-23, big-endian); {0, 0} if not a PNG.
std::pair<unsigned, unsigned> png_size(const fs::path& p) {
    const std::string b = file_text(p);
    if (b.size() < 24 || b.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || b.compare(12, 4, "IHDR") != 0) return {0, 0};
    auto be32 = [&](std::size_t at) {
        unsigned v = 0;
        for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(b[at + k]);
        return v;
    };
    return {be32(16), be32(20)};
}

/// Minimal XML well-formedness check: one root element, balanced and properly nested tags,
/// quoted attributes, well-formed entity references. Returns "" or what is wrong.
std::string xml_problem(const std::string& s) {
    std::vector<std::string> open;
    int roots = 0;
    std::size_t i = 0;
    auto skip_to = [&](const char* end) {
        const std::size_t e = s.find(end, i);
        if (e == std::string::npos) return false;
        i = e + std::strlen(end);
        return true;
    };
    while (i < s.size()) {
        if (s[i] == '&') {
            const std::size_t semi = s.find(';', i);
            if (semi == std::string::npos || semi == i + 1) return "bad entity at " + std::to_string(i);
            for (std::size_t k = i + 1; k < semi; ++k)
                if (!std::isalnum(static_cast<unsigned char>(s[k])) && s[k] != '#') return "bad entity at " + std::to_string(i);
            i = semi + 1;
            continue;
        }
        if (s[i] != '<') {
            if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) return "text outside the root element";
            ++i;
            continue;
        }
        if (s.compare(i, 4, "<!--") == 0) { if (!skip_to("-->")) return "unclosed comment"; continue; }
        if (s.compare(i, 9, "<![CDATA[") == 0) { if (!skip_to("]]>")) return "unclosed CDATA"; continue; }
        if (s.compare(i, 2, "<?") == 0) { if (!skip_to("?>")) return "unclosed declaration"; continue; }
        if (s.compare(i, 2, "<!") == 0) { if (!skip_to(">")) return "unclosed doctype"; continue; }
        const bool closing = s.compare(i, 2, "</") == 0;
        std::size_t k = i + (closing ? 2 : 1);
        const std::size_t name_start = k;
        while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == ':' || s[k] == '-' || s[k] == '_' || s[k] == '.')) ++k;
        const std::string name = s.substr(name_start, k - name_start);
        if (name.empty()) return "tag without a name at " + std::to_string(i);
        char quote = 0;
        while (k < s.size() && (quote || s[k] != '>')) {
            if (quote && s[k] == quote) quote = 0;
            else if (!quote && (s[k] == '"' || s[k] == '\'')) quote = s[k];
            else if (!quote && s[k] == '<') return "'<' inside tag " + name;
            ++k;
        }
        if (k >= s.size()) return "unclosed tag " + name;
        const bool self_closing = !closing && s[k - 1] == '/';
        if (closing) {
            if (open.empty() || open.back() != name) return "</" + name + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
            open.pop_back();
        } else if (!self_closing) {
            if (open.empty()) ++roots;
            open.push_back(name);
        } else if (open.empty()) {
            ++roots;
        }
        i = k + 1;
    }
    if (!open.empty()) return "unclosed element <" + open.back() + ">";
    if (roots != 1) return std::to_string(roots) + " root elements";
    return "";
}

/// Runs `gnuplot script` in a directory; returns its exit status.
int run_gnuplot_script(const fs::path& dir, const std::string& script) {
    const std::string cmd = "cd '" + dir.string() + "' && '" + gnuplot_executable().string() + "' '" + script + "' 2>/dev/null";
    return std::system(cmd.c_str());
}

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (old_) ::setenv(name_, old_->c_str(), 1);
        else ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

FigureRequest request(FigureKind kind, const fs::path& image, int width = 640, int height = 480) {
    FigureRequest r;
    r.kind = kind;
    r.image = image;
    r.plot.width = width;
    r.plot.height = height;
    r.plot.title = "test";
    return r;
}

const Chain two_rods = identical_rods({1, 0});

}  // namespace

TEST_CASE("the XML check itself rejects broken documents", "[plot][svg]") {
    CHECK(xml_problem("<?xml version=\"1.0\"?>\n<svg a=\"x>y\"><g><path d='M 0 0'/></g><!-- c --></svg>") == "");
    CHECK(xml_problem("<svg><g></svg>") != "");
    CHECK(xml_problem("<svg></svg><svg></svg>") != "");
    CHECK(xml_problem("<svg>a & b</svg>") != "");
    CHECK(xml_problem("<svg><text>unclosed</svg>") != "");
}

TEST_CASE("a characteristics PNG has the requested size, with its script and data", "[plot][png]") {
    const TempDir dir("png");
    const Figure f = draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 640, 480));
    REQUIRE(fs::exists(dir / "fig.png"));
    CHECK(fs::file_size(dir / "fig.png") > 1000);
    CHECK(png_size(dir / "fig.png") == std::pair{640u, 480u});
    CHECK(f.files.script == dir / "fig.gp");
    for (const char* part : {"fig.gp", "fig.fronts.dat", "fig.labels.dat", "fig.rods.dat", "fig.contacts.dat", "fig.events.dat"}) {
        INFO(part);
        CHECK(fs::exists(dir / part));
    }
    CHECK(listing(dir.path()).size() == 7);  // nothing else, no staging leftovers
    CHECK(f.fronts == 4);
    CHECK(f.regions == 5);
    CHECK(f.labelled_regions == 5);
    // Labels in the data file, with the typographic minus.
    CHECK_THAT(file_text(dir / "fig.labels.dat"), Catch::Contains("\"u_x = −v/(2c)\""));
}

TEST_CASE("an SVG is well-formed XML with the requested size", "[plot][svg]") {
    const TempDir dir("svg");
    draw_figure(identical_rods({2, 0, -1}), {}, request(FigureKind::characteristics, dir / "fig.svg", 900, 640));
    const std::string svg = file_text(dir / "fig.svg");
    REQUIRE(!svg.empty());
    CHECK(xml_problem(svg) == "");
    CHECK_THAT(svg, Catch::Contains("<svg"));
    CHECK_THAT(svg, Catch::Contains("width=\"900\" height=\"640\""));
    CHECK_THAT(svg, Catch::Contains("−3v/(2c)"));  // region 6 of eq. (35)
}

TEST_CASE("the .gp script redraws the picture on its own, anywhere", "[plot][script]") {
    const TempDir dir("script"), elsewhere("script_copy");
    const Figure f = draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 500, 400));
    for (const fs::path& p : f.files.data) fs::copy_file(p, elsewhere / p.filename().string());
    fs::copy_file(f.files.script, elsewhere / "fig.gp");
    REQUIRE_FALSE(fs::exists(elsewhere / "fig.png"));
    CHECK(run_gnuplot_script(elsewhere.path(), "fig.gp") == 0);
    REQUIRE(fs::exists(elsewhere / "fig.png"));
    CHECK(png_size(elsewhere / "fig.png") == std::pair{500u, 400u});
    // It really draws from the .dat files: without the fronts the picture changes.
    const std::string with_fronts = file_text(elsewhere / "fig.png");
    std::ofstream(elsewhere / "fig.fronts.dat", std::ios::trunc) << "# no fronts\n";
    CHECK(run_gnuplot_script(elsewhere.path(), "fig.gp") == 0);
    CHECK(file_text(elsewhere / "fig.png") != with_fronts);
}

TEST_CASE("velocity, force and displacement pictures", "[plot][field]") {
    const TempDir dir("kinds");
    for (FigureKind kind : {FigureKind::velocity, FigureKind::force, FigureKind::displacement}) {
        const std::string name = to_string(kind) + ".png";
        INFO(name);
        const Figure f = draw_figure(two_rods, {}, request(kind, dir / name, 700, 500));
        CHECK(png_size(dir / name) == std::pair{700u, 500u});
        CHECK(f.t_end == Approx(3));
        CHECK(fs::exists(f.files.script));
        for (const fs::path& p : f.files.data) CHECK(fs::file_size(p) > 0);
    }
    CHECK(fs::exists(dir / "velocity.field.dat"));
    CHECK(fs::exists(dir / "displacement.paths.dat"));
}

TEST_CASE("field plots take samples from any solver, on any grid", "[plot][field]") {
    const TempDir dir("samples");
    // A hand-made grid as a grid solver would give: uneven cells (rod 0 coarse, rod 1 fine).
    const Chain chain({make_rod(1, 1), make_rod(1, 0)});
    FieldSamples s;
    s.t = {0, 1, 2};
    s.x = {0.25, 0.75, 1.1, 1.3, 1.5, 1.7, 1.9};
    s.rod = {0, 0, 1, 1, 1, 1, 1};
    s.velocity = Eigen::MatrixXd::Constant(3, 7, 0.5);
    s.velocity(0, 0) = 1;
    s.force = -s.velocity;
    plot_field(s, FieldQuantity::force, chain, dir / "f.png", PlotOptions{});
    CHECK(png_size(dir / "f.png") == std::pair{1000u, 700u});
    // The raster keeps the samples' values: the nearest sample wins.
    std::istringstream data(file_text(dir / "f.field.dat"));
    std::string line;
    while (std::getline(data, line) && line[0] == '#') {}
    CHECK(line.rfind("7 ", 0) == 0);  // 7 columns (no finer than the samples)
    std::getline(data, line);         // t = 0
    INFO(line);
    CHECK(line.rfind("0 -1 -1 -0.5 -0.5 ", 0) == 0);  // columns at x = 1/7, 3/7, 5/7, 1, ...
}

TEST_CASE("bad output paths give one clear error and leave no file", "[plot][errors]") {
    const TempDir dir("badpath");
    std::ofstream(dir / "a_file") << "x";
    const auto before = listing(dir.path());
    struct Bad {
        fs::path path;
        const char* says;
    };
    for (const Bad& b : {Bad{dir / "fig.jpg", "use .png or .svg"}, Bad{dir / "fig", "use .png or .svg"},
                         Bad{dir / "missing" / "fig.png", "does not exist"},
                         Bad{dir / "a_file" / "fig.png", "is not a directory"},
                         Bad{"/sys/rodcollide_test_fig.png", "cannot write in directory /sys"}}) {
        INFO(b.path);
        try {
            draw_figure(two_rods, {}, request(FigureKind::characteristics, b.path));
            FAIL("no error");
        } catch (const PlotPathError& e) {
            CHECK_THAT(e.what(), Catch::Contains(b.says));
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
    CHECK(listing(dir.path()) == before);
    CHECK_FALSE(fs::exists("/sys/rodcollide_test_fig.png"));
}

TEST_CASE("no gnuplot, or a failing one, gives an error and leaves no file", "[plot][errors]") {
    const TempDir dir("nognuplot");
    {
        const ScopedEnv env("RODCOLLIDE_GNUPLOT", "/nonexistent/gnuplot");
        CHECK_THROWS_WITH(gnuplot_executable(), Catch::Contains("gnuplot not found") && Catch::Contains("/nonexistent/gnuplot"));
        CHECK_THROWS_AS(draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png")), PlotError);
    }
    {
        const ScopedEnv env("RODCOLLIDE_GNUPLOT", "/bin/false");
        CHECK_THROWS_WITH(draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png")),
                          Catch::Contains("failed with status 1"));
    }
    // A "gnuplot" that reports an error in the script, and one that succeeds without drawing.
    const TempDir bin("fakegnuplot");
    std::ofstream(bin / "broken") << "#!/bin/sh\necho '\"fig.gp\" line 3: undefined variable: foo' >&2\nexit 1\n";
    std::ofstream(bin / "silent") << "#!/bin/sh\ncat >/dev/null\nexit 0\n";
    fs::permissions(bin / "broken", fs::perms::owner_all);
    fs::permissions(bin / "silent", fs::perms::owner_all);
    {
        const ScopedEnv env("RODCOLLIDE_GNUPLOT", (bin / "broken").string());
        CHECK_THROWS_WITH(draw_figure(two_rods, {}, request(FigureKind::velocity, dir / "fig.png")),
                          Catch::Contains("line 3: undefined variable: foo"));
    }
    {
        const ScopedEnv env("RODCOLLIDE_GNUPLOT", (bin / "silent").string());
        CHECK_THROWS_WITH(draw_figure(two_rods, {}, request(FigureKind::displacement, dir / "fig.svg")),
                          Catch::Contains("wrote no picture"));
    }
    CHECK(listing(dir.path()).empty());
}

TEST_CASE("a picture replaces an older one and its companions", "[plot]") {
    const TempDir dir("replace");
    draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 400, 300));
    draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 600, 500));
    CHECK(png_size(dir / "fig.png") == std::pair{600u, 500u});
    CHECK_THAT(file_text(dir / "fig.gp"), Catch::Contains("size 600,500"));
    CHECK(listing(dir.path()).size() == 7);
}

TEST_CASE("picture sizes and t_end are checked", "[plot][errors]") {
    const TempDir dir("sizes");
    CHECK_THROWS_AS(draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "a.png", 50, 400)),
                    std::invalid_argument);
    FigureRequest r = request(FigureKind::characteristics, dir / "a.png");
    r.t_end = -1;
    CHECK_THROWS_AS(draw_figure(two_rods, {}, r), std::invalid_argument);
    SolverOptions horizon;
    horizon.end_time = 1;
    r.t_end = 2;  // beyond the solver's end time
    CHECK_THROWS_AS(draw_figure(two_rods, horizon, r), std::invalid_argument);
    CHECK(listing(dir.path()).empty());
}

TEST_CASE("on x/l, t c/l axes both units have the same length: fronts at 45 degrees", "[plot][layout]") {
    const TempDir dir("layout");
    // x: 0-2, t: 0-3; at 600x900 equal units fill 82% of the available width, so they are kept.
    draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 600, 900));
    const std::string gp = file_text(dir / "fig.gp");
    auto value_after = [&](const std::string& key) {
        const auto at = gp.find(key);
        REQUIRE(at != std::string::npos);
        return std::stod(gp.substr(at + key.size()));
    };
    const double left = value_after("set lmargin at screen ");
    const double right = value_after("set rmargin at screen ");
    const double bottom = value_after("set bmargin at screen ");
    const double top = value_after("set tmargin at screen ");
    const double unit_x = (right - left) * 600 / 2, unit_t = (top - bottom) * 900 / 3;  // pixels per l, per l/c
    CHECK(unit_x == Approx(unit_t).epsilon(1e-6));
}

TEST_CASE("a tall diagram on a wide picture uses the whole width rather than 45 degree fronts", "[plot][layout]") {
    const TempDir dir("layout_wide");
    // x: 0-2, t: 0-3 at the default 1000x700: equal units would use 38% of the width.
    draw_figure(two_rods, {}, request(FigureKind::characteristics, dir / "fig.png", 1000, 700));
    const std::string gp = file_text(dir / "fig.gp");
    CHECK_THAT(gp, Catch::Contains("set lmargin at screen 0.085;"));
    CHECK_THAT(gp, Catch::Contains("set rmargin at screen 0.97\n"));
}

TEST_CASE("picture sizes: each side in [smallest, largest], the option named as data", "[plot][errors]") {
    CHECK_NOTHROW(validate(PlotOptions{smallest_plot_size, largest_plot_size, ""}));
    try {
        validate(PlotOptions{1000, smallest_plot_size - 1, ""});
        FAIL("accepted a picture too small");
    } catch (const InvalidInput& e) {
        CHECK(e.key() == "size");
        CHECK(e.message() == "each side must be in [200, 10000] pixels, got 1000x199");
    }
}

/// The lines of a script that put text on the picture: subtitle, axis and colour-box labels.
std::string labels_of(const std::string& gp) {
    std::istringstream in(gp);
    std::string shown;
    for (std::string line; std::getline(in, line);)
        for (const char* start : {"set label 102 ", "set xlabel ", "set ylabel ", "set cblabel "})
            if (line.rfind(start, 0) == 0) shown += line + "\n";
    return shown;
}

TEST_CASE("a dimensionless case is labelled without SI units or prefixes", "[plot][units]") {
    const TempDir dir("dimensionless");
    // Unequal lengths: SI axes (x [m], t [s]), unless the case is dimensionless.
    const Chain chain({make_rod(1.0, 1.0), make_rod(2.0, 0.0)});
    FigureRequest r = request(FigureKind::characteristics, dir / "si.png");
    draw_figure(chain, {}, r);
    const std::string si = labels_of(file_text(dir / "si.gp"));
    CHECK_THAT(si, Catch::Contains(" m/s"));
    CHECK_THAT(si, Catch::Contains("set xlabel \"x [m]\""));
    for (FigureKind kind : {FigureKind::characteristics, FigureKind::velocity, FigureKind::force, FigureKind::displacement}) {
        r = request(kind, dir / "unitless.png");
        r.plot.dimensionless = true;
        draw_figure(chain, {}, r);
        const std::string shown = labels_of(file_text(dir / "unitless.gp"));
        INFO(to_string(kind) << ":\n" << shown);
        CHECK_THAT(shown, !Catch::Contains("m/s") && !Catch::Contains("[m]") && !Catch::Contains("[N]") &&
                              !Catch::Contains("[s]") && !Catch::Contains("µs"));
        CHECK_THAT(shown, Catch::Contains("set ylabel \"t\""));
    }
}

TEST_CASE("a case title is drawn as written: gnuplot's enhanced-text operators are escaped", "[plot][title]") {
    const TempDir dir("title");
    FigureRequest r = request(FigureKind::characteristics, dir / "fig.svg");
    r.plot.title = "impact_01 ^2 {a}";
    draw_figure(two_rods, {}, r);
    // In the script's double-quoted string \\_ is gnuplot's \_: a literal underscore.
    CHECK_THAT(file_text(dir / "fig.gp"), Catch::Contains(R"("impact\\_01 \\^2 \\{a\\}")"));
    const std::string svg = file_text(dir / "fig.svg");
    CHECK_THAT(svg, Catch::Contains("impact_01"));
}
