// Drawing diagrams with gnuplot (through gnuplot-iostream): the plotters behind figures.hpp,
// which describes the files of a picture (FILE.png, FILE.gp, FILE.<part>.dat) and the options,
// errors and checks a caller sees. Files are staged in a private directory beside FILE and renamed
// into place only when gnuplot succeeded (the picture last), so a failure leaves no file behind.
#pragma once

#include "figures/diagram.hpp"
#include "rodcollide/chain.hpp"
#include "rodcollide/field_samples.hpp"
#include "rodcollide/figures.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace rodcollide {

/// A picture to render: a gnuplot script that writes the picture to its file name (it runs in the
/// picture's directory) and reads its data files, named by suffix ("fronts.dat" -> FILE.fronts.dat).
struct Picture {
    std::string script;
    std::vector<std::pair<std::string, std::string>> data;  ///< suffix, content
};

enum class ImageFormat { png, svg };

/// Writes the picture's files in a staging directory, runs gnuplot there, and moves everything
/// beside `image` (the picture last) if it succeeded. Nothing is left behind on failure. Used by
/// the plotters below and by the sweep's cone map. Throws PlotPathError, PlotError.
PlotFiles render(const Picture& picture, const std::filesystem::path& image);

/// Format from the extension (.png or .svg, any case). Throws PlotPathError otherwise.
ImageFormat image_format(const std::filesystem::path& image);

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
