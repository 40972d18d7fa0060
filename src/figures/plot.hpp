// Drawing diagrams with gnuplot (through gnuplot-iostream). Each picture comes with its data
// files and the gnuplot script that draws it, so it can be restyled without rodcollide:
//   FILE.png (or .svg)   the picture
//   FILE.gp              the script; `gnuplot FILE.gp` in that directory redraws FILE.png
//   FILE.<part>.dat      its data, in SI units, columns described in each file's header
// Files are staged in a private directory beside FILE and renamed into place only when gnuplot
// succeeded (the picture last), so a failure leaves no file behind.
#pragma once

#include "rodcollide/chain.hpp"
#include "figures/diagram.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/output_file.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rodcollide {

/// A bad output path (unknown extension, or a target check_output_target() refuses): nothing was
/// written.
class PlotPathError : public OutputPathError {
public:
    using OutputPathError::OutputPathError;
};

/// gnuplot is missing or failed: nothing was written.
class PlotError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class ImageFormat { png, svg };

/// Picture size [pixels] accepted by the plotters.
inline constexpr int smallest_plot_size = 200;
inline constexpr int largest_plot_size = 10000;

struct PlotOptions {
    int width = 1000;   ///< [pixels]
    int height = 700;   ///< [pixels]
    std::string title;  ///< shown above the plot (the case title)
    /// A dimensionless case (Case::dimensionless): axes and labels without SI units or prefixes.
    bool dimensionless = false;
};

/// Checks the picture size: each side in [smallest_plot_size, largest_plot_size]. Throws
/// InvalidInput (key "size").
void validate(const PlotOptions& options);

/// The files of one picture.
struct PlotFiles {
    std::filesystem::path image;
    std::filesystem::path script;
    std::vector<std::filesystem::path> data;
};

/// A picture to render: a gnuplot script that writes the picture to its file name (it runs in the
/// picture's directory) and reads its data files, named by suffix ("fronts.dat" -> FILE.fronts.dat).
struct Picture {
    std::string script;
    std::vector<std::pair<std::string, std::string>> data;  ///< suffix, content
};

/// Writes the picture's files in a staging directory, runs gnuplot there, and moves everything
/// beside `image` (the picture last) if it succeeded. Nothing is left behind on failure. Used by
/// the plotters below and by the sweep's cone map. Throws PlotPathError, PlotError.
PlotFiles render(const Picture& picture, const std::filesystem::path& image);

/// Format from the extension (.png or .svg, any case). Throws PlotPathError otherwise.
ImageFormat image_format(const std::filesystem::path& image);

/// Checks, before any work, that `image` can be written: known extension, and the picture and its
/// script FILE.gp pass check_output_target() (the data files are checked when they are moved into
/// place, as every file is). Throws PlotPathError.
void check_output_path(const std::filesystem::path& image);

/// The gnuplot to run: $RODCOLLIDE_GNUPLOT if set (no fallback: a wrong value is an error), else
/// the gnuplot found when rodcollide was configured, else `gnuplot` on PATH. Throws PlotError if
/// it is not an executable file.
std::filesystem::path gnuplot_executable();

/// Layout of labels for a characteristics diagram of `chain` up to diagram.t_end drawn with these
/// options: fills the plot area's aspect and the label text size into `diagram`.
void fit_labels_to_plot(const PlotOptions& options, const Chain& chain, DiagramOptions& diagram);

/// Draws a characteristics diagram: fronts, rod ends and contacts, compressed contact intervals,
/// closings and openings, region labels. Throws PlotPathError, PlotError.
PlotFiles plot_characteristics(const CharacteristicsDiagram& diagram, const std::filesystem::path& image,
                               const PlotOptions& options);

enum class FieldQuantity { velocity, force };

/// Draws velocity or normal force over the x-t plane as pseudocolour, from samples of either
/// solver, with the chain's rod ends. Throws PlotPathError, PlotError.
PlotFiles plot_field(const FieldSamples& samples, FieldQuantity quantity, const Chain& chain,
                     const std::filesystem::path& image, const PlotOptions& options);

/// Draws a displacement diagram: each rod as a band between its ends, material points as lines.
/// Throws PlotPathError, PlotError.
PlotFiles plot_displacement(const DisplacementDiagram& diagram, const std::filesystem::path& image,
                            const PlotOptions& options);

}  // namespace rodcollide
