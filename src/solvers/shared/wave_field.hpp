// The exact wave field of a chain as produced by the characteristics solver (docs/physics.md §1).
// In element e (a uniform piece of a rod: length L, speed c, transit time T = L/c; elements.hpp)
// the invariant alpha at material point x (0 at the element's left end) and time t is the value
// that reaches the right end at s = t + (L-x)/c, and beta is the value that reaches the left end
// at s = t + x/c. So the whole field is two step functions of arrival time per element: A_e(s)
// (alpha arriving at the right end) and B_e(s) (beta arriving at the left end). Each jump of A_e
// is a front emitted at the left end at s - T. Queries by rod locate or sum its elements.
#pragma once

#include "rodcollide/chain.hpp"
#include "solvers/shared/arrival_window.hpp"
#include "solvers/shared/time_shift.hpp"

#include <cstddef>
#include <limits>
#include <utility>
#include <optional>
#include <vector>

namespace rodcollide {

/// Piecewise-constant function of time: value(k) holds on [time(k), time(k+1)); the first piece
/// starts at -inf. Indices are absolute: discarding old pieces does not renumber the others.
/// Storage is a ring of (time, value) pairs whose capacity is a power of two, so piece k sits in
/// slot k mod capacity: appending at the back and forgetting at the front move nothing, and the
/// capacity follows the pieces stored (within a factor of 4, and at least 128 once grown there)
/// rather than all pieces ever pushed.
class StepFunction {
public:
    explicit StepFunction(double initial_value);
    /// Appends a jump; `time` must not precede the last jump.
    void push(double time, double value) {
        if (time < slot(end_ - 1).time) out_of_order();
        if (end_ - first_ > mask_) reallocate(2 * (mask_ + 1));
        slot(end_++) = {time, value};
    }
    /// One past the last piece's index.
    std::size_t size() const { return end_; }
    /// Index of the oldest piece still stored.
    std::size_t first() const { return first_; }
    double time(std::size_t k) const { return slot(k).time; }
    double value(std::size_t k) const { return slot(k).value; }
    /// Forgets pieces before index k (the piece k then starts at -inf for queries); used when
    /// only the outcome is wanted, to keep memory proportional to the fronts in flight.
    /// Returns how many pieces were dropped.
    std::size_t discard_before(std::size_t k);
    /// Forgets pieces from index k on (k > first()); returns how many were dropped.
    std::size_t truncate(std::size_t k);
    /// Merges the last piece, taken to end at `end`, into the one before it (which must start at a
    /// finite time: size() - first() >= 3), with their duration-weighted mean value: the integral
    /// of f over [time(size() - 2), end) is kept, the integral of f^2 drops by
    /// d1 d2 (v1 - v2)^2 / (d1 + d2), which is returned (docs/physics.md §5.1, front merging).
    double merge_last(double end);
    /// Index of the piece containing s (a jump at s belongs to the piece it starts).
    std::size_t index_at(double s) const;
    double at(double s) const { return value(index_at(s)); }
    /// Integral of f and of f^2 over [a, b], a <= b.
    double integral(double a, double b) const;
    double integral_of_square(double a, double b) const;
    /// Pieces held in memory (the ring's capacity) [-].
    std::size_t capacity() const { return ring_.size(); }
    /// Makes every time relative to a new origin (time_shift.hpp).
    void shift_times(const TimeShift& shift);

private:
    struct Piece {
        double time;
        double value;
    };
    const Piece& slot(std::size_t k) const { return ring_[k & mask_]; }
    Piece& slot(std::size_t k) { return ring_[k & mask_]; }
    void reallocate(std::size_t capacity);
    [[noreturn]] static void out_of_order();

    std::size_t first_ = 0, end_ = 1;
    std::vector<Piece> ring_;
    std::size_t mask_ = 0;  // ring_.size() - 1
};

/// State at one material point.
struct PointState {
    double velocity = 0;  ///< v = u_t [m/s]
    double strain = 0;    ///< u_x [-], negative in compression
    double force = 0;     ///< N = E A u_x [N], positive in tension
    double alpha = 0;     ///< v - N/Z [m/s]
    double beta = 0;      ///< v + N/Z [m/s]
};

/// A front as a straight segment in the x-t plane (x in the chain's material coordinate).
struct FrontSegment {
    std::size_t rod = 0;
    bool right_moving = true;  ///< alpha front (dx/dt = +c) or beta front (dx/dt = -c)
    double x0 = 0, t0 = 0;     ///< start: emission point
    double x1 = 0, t1 = 0;     ///< end: arrival point
    double jump = 0;           ///< change of the invariant across the front [m/s]
};

/// The element holding chain material coordinate x (the right one at a boundary) and x in it,
/// within [0, L] (rods side by side; elements.hpp).
std::pair<std::size_t, double> element_point(const Chain& chain, double x);
/// The element of `rod` holding the rod's local coordinate x, and x in that element.
std::pair<std::size_t, double> rod_point(const Chain& chain, std::size_t rod, double x);

class WaveField {
public:
    /// A field with every rod in its initial state (alpha = beta = initial velocity).
    explicit WaveField(const Chain& chain);

    const Chain& chain() const { return chain_; }
    /// Arrival histories of element e (Chain::elements(); today element i is rod i).
    StepFunction& alpha_arrivals(std::size_t e) { return alpha_[e]; }
    StepFunction& beta_arrivals(std::size_t e) { return beta_[e]; }
    const StepFunction& alpha_arrivals(std::size_t e) const { return alpha_[e]; }
    const StepFunction& beta_arrivals(std::size_t e) const { return beta_[e]; }
    /// The alpha arriving at element e's right end (beta at its left end) over [t, t + T), as
    /// pieces: what the element holds at t.
    ArrivalWindow alpha_window(std::size_t e, double t) const;
    ArrivalWindow beta_window(std::size_t e, double t) const;

    /// Time up to which the field is known everywhere [s].
    double valid_until() const { return valid_until_; }
    void set_valid_until(double t) { valid_until_ = t; }
    /// The field's times (histories, queries, valid_until()) are relative to this absolute time
    /// [s]: 0 unless the solver moved it forward, which it does only without keep_history (long
    /// runs keep their times small, docs/physics.md §6.6).
    double time_origin() const { return time_origin_; }
    /// Moves the time origin to `origin` [s] (absolute, for reference), shifting every stored time
    /// by `shift` (a frozen element's at its thaw(), by the sum of the shifts it skipped: not by
    /// the difference of two absolute origins, which a double holds only to an ulp of their size,
    /// time_origin.hpp).
    void move_time_origin(const TimeShift& shift, double origin);
    /// Element e's histories are not read until thaw(e) (the exact solver's rod asleep, whose ends
    /// follow their paths): moving the origin skips them, and thaw(e) shifts them to the current
    /// origin at once. Shifting every sleeper's fronts at every move took half of a 60-rod run
    /// whose events lay far apart.
    void freeze(std::size_t e);
    void thaw(std::size_t e);

    /// State at local coordinate x in [0, L] of `rod` at time t in [0, valid_until()].
    PointState state(std::size_t rod, double x, double t) const;
    /// State at chain material coordinate x in [0, total_length] (rods side by side). At a rod
    /// boundary the right rod is used.
    PointState state_at(double x, double t) const;
    /// Rod whose material span holds chain coordinate x (the right one at a boundary).
    std::size_t rod_at(double x) const;
    /// Element whose material span holds chain coordinate x (the right one at a boundary).
    std::size_t element_at(double x) const;
    /// State at local coordinate x in [0, L] of element e at time t.
    PointState element_state(std::size_t e, double x, double t) const;

    /// Momentum of a rod at time t [N s]: (Z/2) (integral of A + integral of B over [t, t+T]).
    double momentum(std::size_t rod, double t) const;
    /// Total (kinetic + strain) energy of a rod at time t [J]: (Z/4)(int A^2 + int B^2).
    double energy(std::size_t rod, double t) const;
    /// Displacement u(x, t) = integral of the velocity over [0, t] at local coordinate x in
    /// [0, L] of `rod` [m], exact: (1/2)(integral of A over [(L-x)/c, t+(L-x)/c] + integral of B
    /// over [x/c, t+x/c]). t in [0, valid_until()].
    double displacement(std::size_t rod, double x, double t) const;
    /// Times in (0, t_end) at which a front passes local coordinate x of `rod` [s], increasing:
    /// the displacement there is linear in t between them.
    std::vector<double> front_passages(std::size_t rod, double x, double t_end) const;

    /// Fronts that exist at some time in [0, t_end], clipped to that window; jumps whose size is
    /// below min_jump [m/s] are skipped (for drawing dense diagrams).
    std::vector<FrontSegment> fronts(double t_end, double min_jump = 0) const;

private:
    Chain chain_;
    std::vector<StepFunction> alpha_;
    std::vector<StepFunction> beta_;
    std::vector<std::optional<TimeShift>> frozen_shift_;  // per element, if frozen: the moves it skipped, summed
    double valid_until_ = 0;
    double time_origin_ = 0;
};

}  // namespace rodcollide
