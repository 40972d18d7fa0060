// Piecewise polynomial wave histories (wave_history.hpp; docs/physics.md §9.10).
#include "solvers/exact/wave_history.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rodcollide {

namespace {

// Five-point Gauss-Legendre: exact for polynomials of degree 9 (a square of degree 4).
constexpr std::array<double, 5> gauss_x{-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831,
                                        0.9061798459386640};
constexpr std::array<double, 5> gauss_w{0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                        0.4786286704993665, 0.2369268850561891};

template <class F>
double gauss(double a, double b, F&& f) {
    if (!(b > a)) return 0;
    const double mid = 0.5 * (a + b), half = 0.5 * (b - a);
    double s = 0;
    for (std::size_t k = 0; k < 5; ++k) s += gauss_w[k] * f(mid + half * gauss_x[k]);
    return s * half;
}

}  // namespace

double WavePiece::operator()(double t) const {
    const double x = t1 > t0 ? (2 * t - t0 - t1) / (t1 - t0) : 0.0;
    return (((c[4] * x + c[3]) * x + c[2]) * x + c[1]) * x + c[0];
}

double WavePiece::integral(double a, double b) const {
    return gauss(a, b, [this](double t) { return (*this)(t); });
}

double WavePiece::integral_of_square(double a, double b) const {
    return gauss(a, b, [this](double t) {
        const double v = (*this)(t);
        return v * v;
    });
}

const std::array<double, 5>& lobatto_nodes() {
    static const std::array<double, 5> x{-1.0, -std::sqrt(0.5), 0.0, std::sqrt(0.5), 1.0};
    return x;
}

WavePiece fit_piece(double t0, double t1, const std::array<double, 5>& v, bool jump) {
    // Newton's divided differences on the nodes, then expanded to monomials in x.
    const std::array<double, 5>& x = lobatto_nodes();
    std::array<double, 5> d = v;
    for (std::size_t j = 1; j < 5; ++j)
        for (std::size_t i = 4; i >= j; --i) d[i] = (d[i] - d[i - 1]) / (x[i] - x[i - j]);
    std::array<double, 5> c{};  // Horner from the top: c = d4; c = c (x - x3) + d3; ...
    c[0] = d[4];
    std::size_t degree = 0;
    for (std::size_t j = 4; j-- > 0;) {
        // c <- c * (x - x_j) + d_j
        std::array<double, 5> n{};
        for (std::size_t k = 0; k <= degree; ++k) {
            n[k + 1] += c[k];
            n[k] -= x[j] * c[k];
        }
        n[0] += d[j];
        c = n;
        ++degree;
    }
    WavePiece p;
    p.t0 = t0;
    p.t1 = t1;
    p.c = c;
    p.jump = jump;
    return p;
}

std::size_t WaveHistory::find(double t, bool left_limit) const {
    // The first piece with t1 > t (or >= t for the left limit): the pieces' ends increase, so this
    // predicate is false up to one piece and true from it on. The last answer or the next one first
    // (the same answer as the search below, found without it).
    const auto ends_after = [&](const WavePiece& p) { return left_limit ? p.t1 >= t : p.t1 > t; };
    for (std::size_t k = hint_; k < pieces_.size() && k <= hint_ + 1; ++k)
        if (ends_after(pieces_[k]) && (k == 0 || !ends_after(pieces_[k - 1]))) return hint_ = k;
    const auto it = left_limit ? std::lower_bound(pieces_.begin(), pieces_.end(), t,
                                                  [](const WavePiece& p, double s) { return p.t1 < s; })
                               : std::upper_bound(pieces_.begin(), pieces_.end(), t,
                                                  [](double s, const WavePiece& p) { return s < p.t1; });
    const auto k = static_cast<std::size_t>(it - pieces_.begin());
    if (k < pieces_.size()) hint_ = k;
    return k;
}

double WaveHistory::at(double t, bool left_limit) const {
    if (pieces_.empty()) return before_;
    const double snap = 32 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t), delay_);
    if (left_limit ? t <= snap : t < -snap) return before_;
    std::size_t k = find(std::max(t, 0.0), left_limit);
    if (k == pieces_.size()) k = pieces_.size() - 1;  // at (or rounding past) the last emission
    // Rounding near a boundary: the side asked for.
    if (!left_limit && k + 1 < pieces_.size() && pieces_[k + 1].t0 - t <= snap) ++k;
    if (left_limit && k > 0 && t - pieces_[k].t0 <= snap) --k;
    return pieces_[k](t);
}

double WaveHistory::integral(double a, double b) const {
    double s = 0;
    if (a < 0) s += before_ * (std::min(b, 0.0) - a), a = 0;
    for (std::size_t k = find(a, false); k < pieces_.size() && pieces_[k].t0 < b; ++k)
        s += pieces_[k].integral(std::max(a, pieces_[k].t0), std::min(b, pieces_[k].t1));
    return s;
}

double WaveHistory::integral_of_square(double a, double b) const {
    double s = 0;
    if (a < 0) s += before_ * before_ * (std::min(b, 0.0) - a), a = 0;
    for (std::size_t k = find(a, false); k < pieces_.size() && pieces_[k].t0 < b; ++k)
        s += pieces_[k].integral_of_square(std::max(a, pieces_[k].t0), std::min(b, pieces_[k].t1));
    return s;
}

void WaveHistory::restricted(double a, double b, std::vector<WavePiece>& out) const {
    const double snap = 32 * std::numeric_limits<double>::epsilon() * std::max(std::abs(b), delay_);
    if (a < 0) {  // the initial state
        WavePiece p;
        p.t0 = a;
        p.t1 = std::min(b, 0.0);
        p.c = {before_, 0, 0, 0, 0};
        if (p.t1 > p.t0) out.push_back(p);
        a = 0;
    }
    for (std::size_t k = pieces_.empty() ? 0 : find(a, false); k < pieces_.size() && pieces_[k].t0 < b; ++k) {
        const WavePiece& q = pieces_[k];
        const double lo = std::max(a, q.t0), hi = std::min(b, q.t1);
        if (!(hi > lo)) continue;
        WavePiece p = q;
        if (lo != q.t0 || hi != q.t1) {
            std::array<double, 5> v{};
            for (std::size_t i = 0; i < 5; ++i) v[i] = q(lo + 0.5 * (lobatto_nodes()[i] + 1) * (hi - lo));
            p = fit_piece(lo, hi, v, q.jump);
        }
        p.jump = q.jump && q.t0 >= a - snap;
        out.push_back(p);
    }
}

void WaveHistory::jumps(double a, double b, std::vector<double>& out) const {
    for (std::size_t k = find(a, false); k < pieces_.size() && pieces_[k].t0 <= b; ++k)
        if (pieces_[k].jump && pieces_[k].t0 > a) out.push_back(pieces_[k].t0);
}

void WaveHistory::forget_before(double t) {
    while (!pieces_.empty() && pieces_.front().t1 < t) {
        pieces_.pop_front();
        if (hint_ > 0) --hint_;
    }
}

double WaveHistory::deviation(double a, double b, double value) const {
    double d = a < 0 ? std::abs(before_ - value) : 0.0;
    for (std::size_t k = find(std::max(a, 0.0), false); k < pieces_.size() && pieces_[k].t0 < b; ++k) {
        const WavePiece& p = pieces_[k];
        for (int i = 0; i <= 8; ++i) d = std::max(d, std::abs(p(p.t0 + (p.t1 - p.t0) * i / 8.0) - value));
    }
    return d;
}

}  // namespace rodcollide
