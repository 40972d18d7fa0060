// The energetic restitution law of a compliant contact (contact_law.hpp; docs/physics.md §9.7):
// its branches meet continuously, the unloading branch returns e^2 of the energy the loading one
// stored, the work identity holds along any path, and a two-body impact integrated with the law as
// an ODE leaves the bodies separating at e times their approach speed.
#include "rodcollide/contact_law.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace rodcollide;

namespace {
/// ∫_a^b elastic_force dδ by composite Simpson (the force is smooth on each branch).
double work(const ContactLaw& law, const ContactMemory& m, double a, double b, int n = 20000) {
    const double h = (b - a) / n;
    double s = elastic_force(law, a, m) + elastic_force(law, b, m);
    for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * elastic_force(law, a + i * h, m);
    return s * h / 3;
}
}  // namespace

TEST_CASE("the unloading branch meets the loading one at the largest overlap and returns e^2 of its energy",
          "[contact_law][restitution]") {
    for (const double p : {1.0, 1.5, 2.0}) {
        for (const double e : {0.2, 0.6, 0.95}) {
            INFO("p = " << p << ", e = " << e);
            ContactLaw law{3e9, p, 0, false, e};
            const double dm = 2e-5;
            const ContactMemory m = remember(law, remember(law, {}, 0.5 * dm), dm);
            REQUIRE(m.max_overlap == dm);
            const double dr = residual_overlap(law, m);
            CHECK(dr == Approx((1 - e * e) * dm).epsilon(1e-15));
            // Continuous at both ends of the unloading branch.
            CHECK(elastic_force(law, dm, m) == Approx(law.stiffness * std::pow(dm, p)).epsilon(1e-14));
            CHECK(elastic_force(law, std::nextafter(dm, 0.0), m) == Approx(elastic_force(law, dm, {})).epsilon(1e-9));
            CHECK(elastic_force(law, dr, m) == 0);
            CHECK(elastic_force(law, 0.5 * dr, m) == 0);
            // Energies: the loading curve stores E_m, the unloading one returns e^2 E_m, the rest
            // is the hysteresis loss.
            const double stored = contact_energy(law, dm);  // the loading curve's area (no memory: elastic)
            CHECK(work(law, ContactMemory{}, 0, dm) == Approx(stored).epsilon(1e-9));
            CHECK(work(law, m, dr, dm) == Approx(e * e * stored).epsilon(1e-9));
            CHECK(contact_energy(law, dm, m) == Approx(e * e * stored).epsilon(1e-14));
            CHECK(hysteresis_loss(law, m) == Approx((1 - e * e) * stored).epsilon(1e-14));
            // The work identity at a point of the unloading branch: work done on the contact so far
            // (loading to δ_m, then unloading to δ) = recoverable energy + hysteresis loss.
            const double d = dr + 0.3 * (dm - dr);
            CHECK(stored - work(law, m, d, dm) ==
                  Approx(contact_energy(law, d, m) + hysteresis_loss(law, m)).epsilon(1e-9));
            CHECK(contact_energy(law, d, m) == Approx(work(law, m, dr, d)).epsilon(1e-9));
        }
    }
}

TEST_CASE("the memory grows with the overlap, keeps its largest value while open, and clears on separation",
          "[contact_law][restitution]") {
    const ContactLaw law{1e6, 1.5, 0, false, 0.5};
    ContactMemory m = remember(law, {}, 1e-4);
    m = remember(law, m, 3e-4);
    m = remember(law, m, 2e-4);
    CHECK(m.max_overlap == 3e-4);
    // Open between δ_r and 0, but remembered: a re-compression climbs the unloading branch.
    const double dr = residual_overlap(law, m);
    m = remember(law, m, 0.5 * dr);
    CHECK(m.max_overlap == 3e-4);
    CHECK(contact_force(law, 0.5 * dr, -1.0, m) == 0);
    CHECK(contact_force(law, 0.5 * (dr + 3e-4), 0.0, m) == Approx(elastic_force(law, 0.5 * (dr + 3e-4), m)));
    CHECK(contact_force(law, 0.5 * (dr + 3e-4), 0.0, m) < contact_force(law, 0.5 * (dr + 3e-4), 0.0, {}));
    m = remember(law, m, 0.0);
    CHECK(m.max_overlap == 0);
    // A damper never makes the contact pull, on either branch.
    const ContactLaw damped{1e6, 1.5, 50, false, 0.5};
    const ContactMemory dm = remember(damped, {}, 3e-4);
    CHECK(contact_force(damped, 2.9e-4, -1e3, dm) == 0);
    CHECK(contact_force(damped, 2.9e-4, -1e-3, dm) ==
          Approx(elastic_force(damped, 2.9e-4, dm) - 50 * 1e-3).epsilon(1e-14));
}

TEST_CASE("e = 1 and a bilateral law need no memory: the memory forms equal the elastic ones",
          "[contact_law][restitution]") {
    const ContactLaw elastic_law{2e7, 1.5, 3, false, 1.0};
    const ContactLaw spring{5e5, 1, 2, true, 0.5};
    const ContactMemory m{4e-4};
    for (const double d : {-1e-4, 0.0, 1e-4, 4e-4, 6e-4}) {
        for (const double v : {-2.0, 0.0, 1.5}) {
            CHECK(contact_force(elastic_law, d, v, m) == contact_force(elastic_law, d, v));
            CHECK(contact_force(spring, d, v, m) == contact_force(spring, d, v));
        }
        CHECK(contact_energy(elastic_law, d, m) == contact_energy(elastic_law, d));
        CHECK(contact_energy(spring, d, m) == contact_energy(spring, d));
    }
    CHECK(hysteresis_loss(elastic_law, m) == 0);
    CHECK(hysteresis_loss(spring, m) == 0);
}

TEST_CASE("two bodies meeting through the law separate at e times their approach speed",
          "[contact_law][restitution]") {
    // m* δ'' = -F(δ, δ_m): classical RK4 in δ with the memory updated after each step (the kink at
    // δ' = 0 is crossed inside one step: first order there, hence the fine step), written here and
    // sharing nothing with the solvers. The energy left in the relative motion must be e^2 of the
    // approach energy, and the loss must be what hysteresis_loss() says.
    const double mstar = 0.5, V = 2.0;
    for (const double p : {1.0, 1.5}) {
        for (const double e : {0.3, 0.8}) {
            INFO("p = " << p << ", e = " << e);
            const ContactLaw law{1e8, p, 0, false, e};
            const double dmax = std::pow((p + 1) * mstar * V * V / (2 * law.stiffness), 1 / (p + 1));
            double d = 0, v = V, largest = 0;
            ContactMemory m;
            const double dt = dmax / V * 2e-5;
            int steps = 0;
            while ((d > 0 || steps == 0) && steps < 10'000'000) {
                const auto acc = [&](double x) { return -elastic_force(law, x, m) / mstar; };
                const double k1x = v, k1v = acc(d);
                const double k2x = v + 0.5 * dt * k1v, k2v = acc(d + 0.5 * dt * k1x);
                const double k3x = v + 0.5 * dt * k2v, k3v = acc(d + 0.5 * dt * k2x);
                const double k4x = v + dt * k3v, k4v = acc(d + dt * k3x);
                d += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
                v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
                largest = std::max(largest, d);
                if (d > 0) m = remember(law, m, d);
                ++steps;
                if (d <= residual_overlap(law, m) && v < 0) break;  // open: free flight from here
            }
            CHECK(largest == Approx(dmax).epsilon(1e-6));
            CHECK(v == Approx(-e * V).epsilon(1e-6));
            CHECK(hysteresis_loss(law, m) == Approx((1 - e * e) * 0.5 * mstar * V * V).epsilon(1e-6));
        }
    }
}
