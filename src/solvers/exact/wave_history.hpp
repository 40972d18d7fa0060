// What one end of a rod has emitted, as polynomial pieces in time (docs/physics.md §9.10). The exact
// solver's delay network (delay_network.cpp) keeps, per rod, the invariant alpha leaving its left end
// and the beta leaving its right end; what arrives at the other end at t is what left at t - T (T the
// rod's transit time), and before any emission the rod's initial state (v0: alpha = beta = v0).
// A piece is a polynomial of degree <= 4 in x = (2t - t0 - t1)/(t1 - t0) on [t0, t1]; `jump` says
// whether the history may jump where the piece starts (a junction integrating the arrivals must stop
// there; elsewhere consecutive pieces join continuously to the integrator's accuracy).
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <vector>

namespace rodcollide {

struct WavePiece {
    double t0 = 0, t1 = 0;
    std::array<double, 5> c{};  ///< monomial coefficients in x
    bool jump = false;

    double operator()(double t) const;
    /// ∫ over [a, b] ⊆ [t0, t1] of the piece and of its square (Gauss-Legendre, exact for degree 9).
    double integral(double a, double b) const;
    double integral_of_square(double a, double b) const;
};

class WaveHistory {
public:
    /// `before` is the value for t < 0 (the rod's initial state). Times within rounding (32 ulps
    /// of max(|t|, `delay`)) of a piece boundary count as on it: a delayed time t + T - T may round
    /// past a jump. (Never more: a short piece must not be extrapolated.)
    explicit WaveHistory(double before = 0, double delay = 0) : before_(before), delay_(delay) {}

    void append(const WavePiece& p) { pieces_.push_back(p); }
    /// The value at t; at a piece boundary the piece starting there, or with `left_limit` the one
    /// ending there.
    double at(double t, bool left_limit = false) const;
    /// ∫_a^b of the history and of its square (the initial state for t < 0).
    double integral(double a, double b) const;
    double integral_of_square(double a, double b) const;
    /// The history over [a, b] as pieces restricted to it, in order and contiguous (a piece cut at a
    /// or b is refit there, exact to rounding: the restriction of a polynomial is one; before 0,
    /// one constant piece of the initial state). A piece keeps its flag where it starts inside the
    /// span, and the first one where its piece starts at a (to rounding).
    void restricted(double a, double b, std::vector<WavePiece>& out) const;
    /// Start times of the pieces flagged `jump` in (a, b].
    void jumps(double a, double b, std::vector<double>& out) const;
    /// Drops the pieces that end before t (what can no longer arrive or be asked for).
    void forget_before(double t);
    std::size_t size() const { return pieces_.size(); }
    double before() const { return before_; }
    /// Largest |history - value| over [a, b], sampled at 9 points per piece.
    double deviation(double a, double b, double value) const;

private:
    std::size_t find(double t, bool left_limit) const;

    double before_;
    double delay_;
    std::deque<WavePiece> pieces_;
    /// The piece find() returned last: a node reads its arrivals at times that advance a little at
    /// a time, so the answer is mostly that piece or the next (one solve reads a history from one
    /// thread; the hint changes no answer).
    mutable std::size_t hint_ = 0;
};

/// Fits the degree-4 polynomial through values at the five Chebyshev-Lobatto points of [t0, t1]
/// (lobatto_nodes(): x = 1, √2/2, 0, -√2/2, -1, ordered from t0 to t1 as x = -1 ... 1).
WavePiece fit_piece(double t0, double t1, const std::array<double, 5>& values, bool jump);
/// The five fitting abscissae x in [-1, 1], increasing.
const std::array<double, 5>& lobatto_nodes();

}  // namespace rodcollide
