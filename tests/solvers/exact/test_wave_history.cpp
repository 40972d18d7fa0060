// The delay network's wave histories (src/solvers/exact/wave_history.hpp; docs/physics.md §9.10):
// a history restricted to a span, which a free end sends back as it arrives.
#include "solvers/exact/wave_history.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <vector>

using namespace rodcollide;

namespace {

/// The piece on [t0, t1] through f at the five fitting points.
template <class F>
WavePiece piece_of(F&& f, double t0, double t1, bool jump) {
    std::array<double, 5> v{};
    for (std::size_t k = 0; k < 5; ++k) v[k] = f(t0 + 0.5 * (lobatto_nodes()[k] + 1) * (t1 - t0));
    return fit_piece(t0, t1, v, jump);
}

double f(double t) { return 1 - 2 * t + 0.5 * t * t * t * t; }
double g(double t) { return 0.3 * t * t - t; }
double h(double t) { return std::sin(t); }  // only to its fit: the restriction must keep the fit

}  // namespace

TEST_CASE("wave history: a span restricted is contiguous, exact to rounding, and keeps the flags that start in it",
          "[exact][delay_network][wave_history]") {
    WaveHistory history(0.5, 1.0);  // the initial state 0.5 before t = 0
    history.append(piece_of(f, 0, 1, true));
    history.append(piece_of(g, 1, 2.5, false));
    history.append(piece_of(h, 2.5, 3, true));
    const auto check_span = [&](double a, double b, const std::vector<bool>& flags) {
        std::vector<WavePiece> out;
        history.restricted(a, b, out);
        REQUIRE(out.size() == flags.size());
        CHECK(out.front().t0 == a);
        CHECK(out.back().t1 == b);
        for (std::size_t k = 0; k < out.size(); ++k) {
            INFO("span [" << a << ", " << b << "], piece " << k);
            CHECK(out[k].jump == flags[k]);
            if (k > 0) CHECK(out[k].t0 == out[k - 1].t1);
            for (int i = 0; i <= 8; ++i) {  // the same values as the history's
                const double t = out[k].t0 + (out[k].t1 - out[k].t0) * i / 8.0;
                const bool left = i == 8;  // at a piece's end, the piece ending there
                CHECK(out[k](t) == Approx(history.at(t, left)).margin(1e-14));
            }
        }
        // The integral is the history's (what a rod's momentum is made of).
        double sum = 0;
        for (const WavePiece& p : out) sum += p.integral(p.t0, p.t1);
        CHECK(sum == Approx(history.integral(a, b)).epsilon(1e-14));
    };
    check_span(-0.5, 2.7, {false, true, false, true});  // the initial state, whole pieces, a cut one
    check_span(0.4, 1.2, {false, false});                // cut inside f: its jump at 0 is not in the span
    check_span(2.5, 3.0, {true});                        // starts where h does: h's jump is kept
    check_span(1.0, 2.0, {false});
}
