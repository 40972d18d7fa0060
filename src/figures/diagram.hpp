// Characteristics and displacement diagrams as data, independent of any drawing library
// (Winandy & Leine 2015 §4, Fig. 6). The x-t plane uses the chain's material coordinate x (rods
// side by side, gaps not drawn) and time t upward. Every state shown comes from the WaveField:
// nothing here computes physics, it only decides what to draw and where.
#pragma once

#include "solvers/exact/characteristics.hpp"
#include "rodcollide/chain.hpp"
#include "rodcollide/figures.hpp"
#include "solvers/shared/wave_field.hpp"

#include <Eigen/Dense>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace rodcollide {

// ---------------------------------------------------------------------------------------------
// Axes and units
// ---------------------------------------------------------------------------------------------

/// How a diagram writes x and t: x/l and t c/l when every rod has the same length l and wave
/// speed c (like the paper), otherwise SI units with a prefix that suits the range (m or mm; s,
/// ms or us). Axis value = physical value * scale.
struct DiagramAxes {
    double x_scale = 1;
    double t_scale = 1;
    std::string x_label;  ///< gnuplot enhanced text, e.g. "x/l" or "x [mm]"
    std::string t_label;  ///< e.g. "t c/l" or "t [µs]"
    std::string note;     ///< what l and c are, e.g. "l = 1 m, c = 1 m/s"; empty in SI mode
    bool normalised = false;
};

/// Axes for a chain drawn over [0, t_end] [s].
DiagramAxes diagram_axes(const Chain& chain, double t_end);

/// Default end of a diagram [s]: the time by which the chain provably settled (outcome.end_time)
/// plus one longest transit time, so the free vibration after the last contact shows; just
/// outcome.end_time when the run stopped unsettled at a horizon (nothing is known beyond it).
double default_diagram_end_time(const Outcome& outcome, const Chain& chain);

/// How region states are written. Symbolic, like the paper ("2v", "-v/2", "-3v/(2c)"), when every
/// rod has the same wave speed c and every region's velocity is p/q v and strain p/q v/c with
/// q <= 64, where v is the smallest nonzero |initial velocity|; otherwise as numbers (velocity in
/// m/s, three significant digits).
struct StateUnits {
    bool symbolic = false;
    double v = 0;  ///< velocity unit [m/s] (symbolic only)
    double c = 0;  ///< common wave speed [m/s] (symbolic only)
};

/// "2v", "-v/2", "0" (symbolic) or "0.4" (in m/s).
std::string format_velocity(double velocity, const StateUnits& units);
/// "-3v/(2c)", "-v/c", "0" (symbolic) or "-7.7e-05".
std::string format_strain(double strain, const StateUnits& units);

// ---------------------------------------------------------------------------------------------
// Characteristics diagram
// ---------------------------------------------------------------------------------------------

struct DiagramOptions {
    double t_end = 0;  ///< [s], in (0, field.valid_until()]
    /// Visual threshold: fronts whose |jump| is below min_jump * velocity scale are not drawn.
    double min_jump = 1e-3;
    /// At most this many fronts are drawn, the strongest; min_jump then reports the weakest drawn.
    std::size_t max_fronts = largest_drawn_fronts;
    /// Region raster: columns across the chain; rows follow from `aspect` so cells are square on
    /// screen.
    std::size_t columns = 600;
    double aspect = 0.6;  ///< plot area height / width
    /// Size of label text as fractions of the plot area: one character's width, one line's height.
    double char_width = 0.011;
    double line_height = 0.035;
};

/// A stretch of time during which a contact carried compression (drawn thick).
struct ContactSpan {
    std::size_t contact = 0;
    double x = 0;      ///< chain material coordinate of the interface [m]
    double start = 0;  ///< [s]
    double end = 0;    ///< [s], clipped to t_end
};

/// A contact closing or opening (drawn as a mark on the interface).
struct ContactMark {
    std::size_t contact = 0;
    double x = 0;  ///< [m]
    double t = 0;  ///< [s]
    ContactEvent::Kind kind = ContactEvent::Kind::closing;
};

/// A region of constant state between fronts, as found on the raster. Regions in contact across
/// a compressed interface with equal velocity and strain are one region (Winandy & Leine 2015,
/// region 3 of eq. 33).
struct Region {
    double velocity = 0;  ///< u_t [m/s], at the label point (or at any point if unlabelled)
    double strain = 0;    ///< u_x [-]
    std::size_t cells = 0;  ///< area in raster cells
    bool labelled = false;  ///< false when the label does not fit inside the region
    double x = 0, t = 0;    ///< label centre [m], [s]
    std::array<std::string, 2> lines;  ///< "u_t = v/2", "u_x = -v/(2c)" (plain text)
};

/// Which region each raster cell belongs to.
struct RegionMap {
    std::size_t columns = 0, rows = 0;
    double length = 0, t_end = 0;
    std::vector<int> cell_region;  ///< row-major (t, then x); index into regions
    /// Region holding the point (x [m], t [s]) of the diagram; -1 outside.
    int region_at(double x, double t) const;
};

struct CharacteristicsDiagram {
    double length = 0;  ///< total material length [m]
    double t_end = 0;   ///< [s]
    std::vector<double> rod_ends;  ///< x of every rod end, left to right (size() + 1 values) [m]
    std::vector<double> joints;    ///< x of every welded joint between segments of a rod [m]
    std::vector<double> walls;     ///< x of the chain's ends that are walls (0 or length) [m]
    DiagramAxes axes;
    StateUnits units;
    std::vector<FrontSegment> fronts;  ///< drawn fronts
    std::size_t omitted_fronts = 0;    ///< fronts below the visual threshold, not drawn
    double min_jump = 0;               ///< visual threshold used [m/s]: drawn fronts have |jump| >= it
    double largest_jump = 0;           ///< largest |jump| of any front [m/s]
    std::vector<ContactSpan> compressed;
    std::vector<ContactMark> events;
    std::vector<Region> regions;
    RegionMap map;
};

/// Builds the characteristics diagram of a solution over [0, options.t_end]. Throws
/// std::invalid_argument if t_end is not in (0, solution.field.valid_until()].
CharacteristicsDiagram characteristics_diagram(const CharacteristicsSolution& solution,
                                               const DiagramOptions& options);

// ---------------------------------------------------------------------------------------------
// Displacement diagram (de Saint-Venant)
// ---------------------------------------------------------------------------------------------

/// Positions over time of a few material points of one rod: its ends and interior points.
struct RodPaths {
    std::vector<double> x;       ///< material points, local coordinate [m]; x.front() = 0, x.back() = L
    std::vector<double> t;       ///< times [s]: every front passage of those points, exact
    Eigen::MatrixXd position;    ///< rows follow t, columns follow x [m]
};

/// Where each rod is over time: position = reference + m (gap + u(x, t)), with the reference
/// the chain material coordinate and `gap` the sum of initial gaps to the rod's left. The
/// magnification m is 1 when the largest |gap + u| lies between 0.1 and 1 mean rod length;
/// otherwise a 1-2-5 value (0.1, 2000, ...) that brings it to about 0.4 of a rod, so strains of
/// 1e-4 show and the rigid drift of dimensionless cases (v ~ c) does not swamp the picture.
struct DisplacementDiagram {
    double t_end = 0;  ///< [s]
    double magnification = 1;
    DiagramAxes axes;  ///< x_label describes positions
    std::vector<RodPaths> rods;
};

/// Builds the displacement diagram with `interior_points` evenly spaced material points per rod
/// besides the two ends. Displacements are exact (WaveField::displacement).
DisplacementDiagram displacement_diagram(const WaveField& field, double t_end, std::size_t interior_points = 3);

}  // namespace rodcollide
