// The window driver of the delay network (delay_network.hpp; docs/physics.md §9.10).
#include "solvers/exact/delay_network.hpp"

#include "solvers/exact/junction_node.hpp"
#include "solvers/exact/wave_history.hpp"
#include "solvers/shared/contact_record.hpp"
#include "solvers/shared/junction.hpp"
#include "solvers/shared/outcome_builder.hpp"
#include "solvers/shared/rigid_bodies.hpp"
#include "solvers/shared/settling.hpp"
#include "solvers/shared/tolerance_refinement.hpp"

#include <boost/numeric/odeint.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace rodcollide {

bool delay_network_chain(const Chain& chain) { return chain.compliant() && !chain.elements().empty(); }

namespace {

namespace odeint = boost::numeric::odeint;
using State = std::vector<double>;
using Dopri = odeint::runge_kutta_dopri5<State>;

/// Below this step tolerance the pieces' fits work at rounding and tightening shows nothing more.
constexpr double smallest_tolerance = 1e-13;
/// Dense-output samples per step at which the event functions are looked at.
constexpr int samples_per_step = 4;

/// What an element (a rod, or a segment of one) carries: the alpha its left end emitted and the beta
/// its right end emitted.
struct RodWaves {
    WaveHistory alpha, beta;
    double tau = 0, z = 0, v0 = 0;
};

/// A node and its integration.
struct NodeRun {
    explicit NodeRun(JunctionNode n) : node(std::move(n)) {}
    JunctionNode node;
    State x, dxdt, weight;
    ContactBranches branches;
    // Each link's impulse ∫F dt so far [N s]. The state's impulses restart at 0 every step, so that a
    // step's increment, which shapes the emitted piece (the momentum correction), is exact to its own
    // rounding rather than to that of the total (a short step would otherwise get ε I / h of noise).
    std::vector<double> impulse;
    double t = 0, dt = 0;
    bool jump_next = true;  // the next emitted piece may start with a jump
    // The integral [m] an emitted piece left uncorrected, owed to the next one (integrate()).
    double owed_beta = 0, owed_alpha = 0;
};

struct Run {
    std::vector<double> velocity;  // per chain element (rods p/m, masses u)
    std::vector<RodState> rods;
    double end_time = 0, contact_energy = 0, dissipated = 0;
    bool settled = false, at_horizon = false;
    EndReport left_end, right_end;
    std::size_t steps = 0, events = 0;
    std::array<ForceHistory, 2> attached_forces;
    std::optional<ContactHistory> contacts;
};

class Network {
public:
    Network(const Chain& chain, const SolverOptions& options, double tol, NetworkFieldSamples* samples = nullptr)
        : chain_(chain), options_(options), tol_(tol), contacts_(chain), V_(chain.velocity_scale()),
          tolerances_(contact_tolerances(chain)), samples_(samples) {
        window_ = chain.shortest_transit_time();
        snap_ = 1e-12 * window_;
        for (const Element& e : chain.elements()) {
            RodWaves w;
            w.v0 = e.initial_velocity;
            w.tau = e.transit_time;
            w.alpha = WaveHistory(w.v0, w.tau);
            w.beta = WaveHistory(w.v0, w.tau);
            w.z = e.impedance;
            waves_.push_back(std::move(w));
        }
        if (options.force_samples)
            for (std::size_t k = 0; k < contacts_.size(); ++k) contacts_[k].record_forces();
        // One node per junction that is not inside a lumped group (a lumped junction's node holds
        // the masses between its rods); junctions of the layout are at element ends.
        for (std::size_t j = 0; j < chain.junctions().size(); ++j) {
            // The arriving waves are fit to tol (V + |v|) each (§9.10): a free rate δ' is known to
            // about 4 tol V, so a maximum compression is taken below -10 tol V.
            NodeRun n{JunctionNode(chain, j, contacts_, 10 * tol * (V_ > 0 ? V_ : 1.0))};
            n.x = n.node.initial_state();
            const double ts = n.node.time_scale(V_ > 0 ? V_ : 1.0, window_);
            n.dt = 0.01 * ts;
            n.weight.assign(n.x.size(), 0.0);
            const double vs = V_ > 0 ? V_ : 1.0;
            double z = std::max(n.node.left().z, n.node.right().z);
            double mmax = 0;
            for (std::size_t k = 0; k < n.node.masses(); ++k) mmax = std::max(mmax, n.node.mass(k));
            const double impulse = std::max(z * vs * ts, mmax * vs);
            for (std::size_t i = 0; i < n.node.links().size(); ++i) {
                n.weight[i] = vs * ts;
                n.weight[n.node.i0() + i] = impulse;
            }
            for (std::size_t k = 0; k < n.node.masses(); ++k) n.weight[n.node.u0() + k] = vs;
            n.weight[n.node.d0()] = n.weight[n.node.w0()] = impulse * vs;
            const NodeArrivals a0 = arrivals(n.node, 0, false);
            n.branches = ContactBranches(n.node.links().size());
            for (std::size_t i = 0; i < n.node.links().size(); ++i) n.branches.acting[i] = n.node.acts_initially(i, a0);
            n.impulse.assign(n.node.links().size(), 0.0);
            nodes_.push_back(std::move(n));
        }
    }

    Run run() {
        const std::optional<double> horizon = options_.end_time;
        double T = 0;
        if (V_ == 0) {  // at rest for ever
            sample(std::numeric_limits<double>::infinity());
            return finish(0, true, false);
        }
        // The settling proof (§2.4) holds only if no contact carries force before the release time:
        // the bound is taken at the start of a force-free epoch and the run goes on to it; an event
        // meanwhile (a contact closing) ends the epoch (SettlingWatch's rule).
        std::optional<double> release;
        std::size_t events_at_release = 0;
        const auto next_window = [&] {
            double Tend = T + window_;
            if (horizon) Tend = std::min(Tend, *horizon);
            for (NodeRun& n : nodes_) advance(n, T, Tend);
            T = Tend;
            sample(T);
            for (RodWaves& r : waves_) {
                r.alpha.forget_before(T - r.tau - 2 * window_);
                r.beta.forget_before(T - r.tau - 2 * window_);
            }
        };
        for (;;) {
            next_window();
            if (horizon && T >= *horizon) return finish(T, false, true);
            if (release && events_ != events_at_release) release.reset();
            if (!release) {
                const double settle = settle_time(T);
                if (std::isfinite(settle)) release = settle, events_at_release = events_;
            }
            if (release && *release <= T) {
                Run settled = finish(*release, true, false, T);
                // The field is recorded past settling (the free vibration after the last contact).
                while (samples_ && next_sample_ < samples_->times.size()) next_window();
                return settled;
            }
        }
    }

private:
    NodeArrivals arrivals(const JunctionNode& n, double t, bool left_limit) const {
        NodeArrivals a;
        a.t = t;
        a.left_limit = left_limit;
        if (n.left().rod >= 0) {
            const RodWaves& r = waves_[static_cast<std::size_t>(n.left().element)];
            a.alpha = r.alpha.at(t - r.tau, left_limit);
        }
        if (n.right().rod >= 0) {
            const RodWaves& r = waves_[static_cast<std::size_t>(n.right().element)];
            a.beta = r.beta.at(t - r.tau, left_limit);
        }
        return a;
    }

    void advance(NodeRun& n, double T, double Tend) {
        if (reflects_freely(n.node)) return reflect(n, T, Tend);
        if (T = pass_open(n, T, Tend); T >= Tend) return;
        std::vector<double> jumps, stops;
        if (n.node.left().rod >= 0) {
            const RodWaves& r = waves_[static_cast<std::size_t>(n.node.left().element)];
            std::vector<double> j;
            r.alpha.jumps(T - r.tau - 2 * snap_, Tend - r.tau, j);
            for (double t : j) jumps.push_back(t + r.tau);
        }
        if (n.node.right().rod >= 0) {
            const RodWaves& r = waves_[static_cast<std::size_t>(n.node.right().element)];
            std::vector<double> j;
            r.beta.jumps(T - r.tau - 2 * snap_, Tend - r.tau, j);
            for (double t : j) jumps.push_back(t + r.tau);
        }
        // A load's breakpoints: its force or velocity jumps at its first and last time, kinks between.
        for (const NodeLink& l : n.node.links()) {
            if (!l.load) continue;
            const std::vector<double>& times = l.load->time;
            for (auto t = std::lower_bound(times.begin(), times.end(), T - 2 * snap_); t != times.end() && *t <= Tend; ++t)
                jumps.push_back(*t);
        }
        std::sort(jumps.begin(), jumps.end());
        // A jump at T itself: a rod whose transit time is the window's brings what the other end
        // emitted from T on, which may not have been there when the last window looked (nodes run
        // one after the other). The integration starts there anyway; what the node emits is flagged.
        if (std::any_of(jumps.begin(), jumps.end(), [&](double t) { return std::abs(t - T) <= 2 * snap_; }))
            n.jump_next = true;
        for (double t : jumps)
            if (t > T + snap_ && t < Tend - snap_ && (stops.empty() || t > stops.back() + snap_)) stops.push_back(t);
        stops.push_back(Tend);
        double a = T;
        for (double b : stops) {
            integrate(n, a, b);
            a = b;
            // An arrival jumps at b: what the node emits from b on may jump too.
            if (b < Tend || std::any_of(jumps.begin(), jumps.end(), [&](double t) { return std::abs(t - Tend) <= snap_; }))
                n.jump_next = true;
        }
    }

    /// A free chain end with no mass (and no load): it sends back exactly what arrives, N = 0.
    static bool reflects_freely(const JunctionNode& node) {
        return node.masses() == 0 && node.links().size() == 1 && node.links().front().kind == NodeLink::Kind::free;
    }

    /// A free end over [T, Tend]: what arrives, piece by piece (shifted by the rod's transit time),
    /// is what it emits (alpha_out = beta_in at a left end, beta_out = alpha_in at a right one), so
    /// nothing is integrated or refit: the pieces stay exact, and so does the rod's momentum.
    void reflect(NodeRun& n, double T, double Tend) {
        send_back(n, n.node.left().rod >= 0, T, Tend, arriving_alpha_);
        n.jump_next = false;
        n.t = Tend;
    }

    /// The pieces arriving over [T, Tend] at node n's rod end on its left (`left_side`) or on its
    /// right, in arrival time, into `arriving`: shifted by the rod's transit time (a polynomial in
    /// the piece's own x keeps its values), the first starting at T and the last ending at Tend.
    void arrivals_over(const NodeRun& n, bool left_side, double T, double Tend, std::vector<WavePiece>& arriving) const {
        const RodWaves& r = waves_[static_cast<std::size_t>(left_side ? n.node.left().element : n.node.right().element)];
        arriving.clear();
        (left_side ? r.alpha : r.beta).restricted(T - r.tau, Tend - r.tau, arriving);
        for (std::size_t k = 0; k < arriving.size(); ++k) {
            WavePiece& p = arriving[k];
            p.t1 = k + 1 < arriving.size() ? arriving[k + 1].t0 + r.tau : Tend;
            p.t0 = k == 0 ? T : p.t0 + r.tau;
        }
    }

    /// Node n's rod end on its left (`left_side`) or right, free over [T, Tend]: it emits what
    /// arrives (the first piece flagged as a possible jump if the node's next piece is).
    void send_back(const NodeRun& n, bool left_side, double T, double Tend, std::vector<WavePiece>& scratch) {
        arrivals_over(n, left_side, T, Tend, scratch);
        RodWaves& r = waves_[static_cast<std::size_t>(left_side ? n.node.left().element : n.node.right().element)];
        WaveHistory& out = left_side ? r.beta : r.alpha;
        for (std::size_t k = 0; k < scratch.size(); ++k) {
            if (k == 0) scratch[k].jump = scratch[k].jump || n.jump_next;
            out.append(scratch[k]);
        }
    }

    /// An open contact between two rod ends, with no mass at it and nothing remembered (δ < 0, no
    /// restitution memory, no correction owed): each end is free, so it sends back what arrives,
    /// exactly, as reflect() does, while the gap δ, integrated exactly over the arriving pieces
    /// (δ' = alpha - beta, the free ends' rate), provably stays open: from T up to Tend, or to the
    /// first stretch where δ may reach 0, from which the integrator takes over and finds the closing
    /// itself (docs/physics.md §9.10). Returns where it stopped (T: not such a node, or no stretch
    /// proven open). An open contact between rods took most of the integrator's step attempts (the
    /// hammer-cushion-pile benchmark: 57 %, bench/bench_compliant.cpp).
    double pass_open(NodeRun& n, double T, double Tend) {
        const JunctionNode& node = n.node;
        if (node.masses() != 0 || node.links().size() != 1 || !node.links().front().unilateral() ||
            node.left().rod < 0 || node.right().rod < 0 || n.branches.acting[0] || node.second_sense(0, n.branches) != 0 ||
            n.owed_alpha != 0 || n.owed_beta != 0)
            return T;
        const double touching = snap_ * (V_ > 0 ? V_ : 1.0);  // what closes in a snap [m]
        const double delta0 = n.x[0];
        // Open, and closing where δ rises through 0 (the event function of an open link is δ).
        if (!(delta0 < -touching) || node.event_value(0, n.x.data(), arrivals(node, T, false), n.branches) != delta0) return T;
        std::vector<WavePiece>& pa = arriving_alpha_;
        std::vector<WavePiece>& pb = arriving_beta_;
        arrivals_over(n, true, T, Tend, pa);
        arrivals_over(n, false, T, Tend, pb);
        double until = T, delta = delta0;
        for (std::size_t ia = 0, ib = 0; until < Tend && ia < pa.size() && ib < pb.size();) {
            const WavePiece& a = pa[ia];
            const WavePiece& b = pb[ib];
            const double end = std::max(until, std::min({a.t1, b.t1, Tend}));  // (a join rounded below it)
            // On [until, end] both arrivals are single polynomials: so is δ' = alpha - beta (degree
            // 4, fit exactly through five points), and |δ'| <= the sum of its |coefficients|.
            std::array<double, 5> rate{};
            for (std::size_t k = 0; k < 5; ++k) {
                const double t = until + 0.5 * (lobatto_nodes()[k] + 1) * (end - until);
                rate[k] = a(t) - b(t);
            }
            double lipschitz = 0;
            for (double c : fit_piece(until, end, rate, false).c) lipschitz += std::abs(c);
            const double from = until, delta_from = delta;
            const auto delta_at = [&](double t) { return delta_from + a.integral(from, t) - b.integral(from, t); };
            // Up to where δ < -touching is proven, by bisection: on [p, q], δ is at most the mean of
            // its ends plus lipschitz (q - p) / 2.
            const auto open_until = [&](auto& self, double p, double q, double dp, double dq, int depth) -> double {
                if (0.5 * (dp + dq) + 0.5 * lipschitz * (q - p) < -touching) return q;
                if (depth == 0 || !(dp < -touching)) return p;
                const double m = 0.5 * (p + q), dm = delta_at(m);
                const double left = self(self, p, m, dp, dm, depth - 1);
                return left < m ? left : self(self, m, q, dm, dq, depth - 1);
            };
            const double delta_end = delta_at(end);
            until = open_until(open_until, from, end, delta_from, delta_end, 12);
            delta = until == end ? delta_end : delta_at(until);
            if (until < end) break;
            if (a.t1 <= end) ++ia;
            if (b.t1 <= end) ++ib;
        }
        if (!(until > T)) return T;
        send_back(n, true, T, until, arriving_alpha_);
        send_back(n, false, T, until, arriving_alpha_);
        // No force over the stretch: the record ends a compression at T, as the first open step does.
        if (const std::ptrdiff_t k = node.links().front().record; k >= 0)
            contacts_[static_cast<std::size_t>(k)].add_step(0.0, T, until - T, T);
        n.x[0] = delta;
        n.jump_next = false;
        n.t = until;
        return until;
    }

    /// Integrates node n over [a, b], inside which its arrivals do not jump.
    void integrate(NodeRun& n, double a, double b) {
        const JunctionNode& node = n.node;
        const double mid = 0.5 * (a + b);
        const auto arrive = [&](double t) { return arrivals(node, t, t > mid); };
        const auto system = [&](const State& y, State& dy, double t) { node.rhs(y.data(), dy.data(), arrive(t), n.branches); };
        const std::size_t links = node.links().size();
        // The arrivals may jump at a: a link whose event function they took across 0 there switches
        // there (a tension front reaching a closed contact opens it at once; the crossing test below
        // sees only what changes inside a step).
        take_branches(n, arrive(n.t));
        n.dxdt.resize(n.x.size());
        system(n.x, n.dxdt, n.t);
        Dopri stepper;
        State xn(n.x.size()), dxn(n.x.size()), err(n.x.size()), s(n.x.size());
        // Each link's event function (g) and, with restitution e < 1, its second one (g2).
        std::vector<double> g_prev(links), g(links), g2_prev(links), g2(links);
        // A step redone to end at an event (NaN: none). Not an optional: g++ 12 warned that its
        // payload may be read uninitialized (-Wmaybe-uninitialized, a false positive).
        const double unforced = std::numeric_limits<double>::quiet_NaN();
        double forced = unforced;
        const auto is_forced = [&] { return !std::isnan(forced); };
        std::vector<char> toggles(links, 0);  // the links that switch there: 1 acting <-> not, 2 second event
        bool has_events = false;
        for (const NodeLink& l : node.links()) has_events = has_events || l.unilateral();
        while (n.t < b) {
            if (++steps_ > options_.max_work)
                throw SolverLimitExceeded(fmt::format(
                    "the exact solver's delay network took more than max_work = {} integration steps by t = {:g} s "
                    "(bounded work): raise [solver] max_work or set end_time{}",
                    options_.max_work, n.t, segments_hint()));
            double t_new = is_forced() ? forced : std::min(n.t + n.dt, b);
            if (b - t_new <= snap_) t_new = b;
            const double h = t_new - n.t;
            // A step of a few snaps is the shortest there is (a stop a snap away cannot be stepped
            // short of): it is accepted at any finite error, which acts over a rounding-sized time.
            const bool sliver = h <= 4 * snap_;
            if (!(h > 0)) break;  // b within rounding of the current time
            stepper.do_step(system, n.x, n.dxdt, n.t, xn, dxn, h, err);
            double e = 0;
            for (std::size_t i = 0; i < n.x.size(); ++i)
                e = std::max(e, std::abs(err[i]) / (tol_ * (n.weight[i] + std::max(std::abs(n.x[i]), std::abs(xn[i])))));
            if (!(e <= 1) && !(sliver && std::isfinite(e))) {
                n.dt = h * std::max(0.2, 0.9 * std::pow(e, -0.2));
                forced = unforced;  // the event is looked for again on the shorter step
                std::fill(toggles.begin(), toggles.end(), 0);
                continue;
            }
            const auto state_at = [&](double tt, State& out) {
                stepper.calc_state(tt, out, n.x, n.dxdt, n.t, xn, dxn, t_new);
            };
            // Events: where does a unilateral link first change branch in (t, t_new)?
            if (has_events) {
                const NodeArrivals a0 = arrive(n.t);
                for (std::size_t i = 0; i < links; ++i) {
                    g_prev[i] = node.links()[i].unilateral() ? node.event_value(i, n.x.data(), a0, n.branches) : 0;
                    g2_prev[i] = node.second_value(i, n.x.data(), a0, n.branches);
                }
                // (branch_crossed(), contact_branches.hpp)
                const auto crossed = [&](std::size_t i, double before, double now) {
                    return node.links()[i].unilateral() && branch_crossed(n.branches.acting[i] ? -1 : +1, before, now);
                };
                const auto second_crossed = [&](std::size_t i, double before, double now) {
                    const int sense = node.second_sense(i, n.branches);
                    return sense != 0 && branch_crossed(sense, before, now);
                };
                const auto any_crossed = [&](double tt, const State& at) {
                    const NodeArrivals ar = arrive(tt);
                    bool any = false;
                    for (std::size_t i = 0; i < links; ++i) {
                        g[i] = node.links()[i].unilateral() ? node.event_value(i, at.data(), ar, n.branches) : 0;
                        g2[i] = node.second_value(i, at.data(), ar, n.branches);
                        any = any || crossed(i, g_prev[i], g[i]) || second_crossed(i, g2_prev[i], g2[i]);
                    }
                    return any;
                };
                double lo = n.t, hi = t_new;
                bool event = false;
                // A redone step looks inside only: its end is the event.
                const int last = is_forced() ? samples_per_step - 1 : samples_per_step;
                for (int j = 1; j <= last && !event; ++j) {
                    const double tj = j == samples_per_step ? t_new : n.t + h * j / samples_per_step;
                    if (j == samples_per_step) s = xn;
                    else state_at(tj, s);
                    if (any_crossed(tj, s)) {
                        event = true;
                        hi = tj;
                    } else {
                        lo = tj;
                        g_prev = g;
                        g2_prev = g2;
                    }
                }
                if (event) {
                    while (hi - lo > 4 * std::numeric_limits<double>::epsilon() * std::max(std::abs(hi), snap_)) {
                        const double m = 0.5 * (lo + hi);
                        state_at(m, s);
                        if (any_crossed(m, s)) {
                            hi = m;
                        } else {
                            lo = m;
                            g_prev = g;
                            g2_prev = g2;
                        }
                    }
                    state_at(hi, s);
                    any_crossed(hi, s);
                    for (std::size_t i = 0; i < links; ++i)
                        toggles[i] = crossed(i, g_prev[i], g[i]) ? 1 : second_crossed(i, g2_prev[i], g2[i]) ? 2 : 0;
                    if (hi - n.t <= snap_) {
                        // At the step's start (to rounding): switch there, without a step.
                        if (switch_links(n, toggles)) system(n.x, n.dxdt, n.t);
                        forced = unforced;
                        continue;
                    }
                    if (hi < t_new) {
                        forced = hi;  // redo the step to end there: no accepted step spans the kink
                        continue;
                    }
                    forced = hi;
                }
            }
            // The emitted waves over the step, as degree-4 pieces through the Lobatto points; the fit
            // is checked between them (its error counts as the step's).
            const std::array<double, 5>& xl = lobatto_nodes();
            std::array<double, 5> beta_out{}, alpha_out{};
            const auto emitted_at = [&](double tt, const State& st) { return node.emitted(st.data(), arrive(tt), n.branches); };
            for (std::size_t k = 0; k < 5; ++k) {
                const double tt = k == 0 ? n.t : k == 4 ? t_new : n.t + 0.5 * (xl[k] + 1) * h;
                if (k == 0) s = n.x;
                else if (k == 4) s = xn;
                else state_at(tt, s);
                const NodeArrivals em = emitted_at(tt, s);
                beta_out[k] = em.beta;
                alpha_out[k] = em.alpha;
            }
            WavePiece pb = fit_piece(n.t, t_new, beta_out, n.jump_next), pa = fit_piece(n.t, t_new, alpha_out, n.jump_next);
            double fit_error = 0;
            const double vs = V_ > 0 ? V_ : 1.0;
            for (std::size_t k = 0; k + 1 < 5; ++k) {
                const double tt = n.t + 0.5 * (0.5 * (xl[k] + xl[k + 1]) + 1) * h;
                state_at(tt, s);
                const NodeArrivals em = emitted_at(tt, s);
                if (node.left().rod >= 0) fit_error = std::max(fit_error, std::abs(pb(tt) - em.beta) / (tol_ * (vs + std::abs(em.beta))));
                if (node.right().rod >= 0) fit_error = std::max(fit_error, std::abs(pa(tt) - em.alpha) / (tol_ * (vs + std::abs(em.alpha))));
            }
            if (!(fit_error <= 1) && !(sliver && std::isfinite(fit_error))) {
                n.dt = h * std::max(0.2, 0.9 * std::pow(fit_error, -0.2));
                forced = unforced;
                std::fill(toggles.begin(), toggles.end(), 0);
                continue;
            }
            e = std::max(e, fit_error);
            // Momentum is exact: each piece's integral is corrected (by a multiple of 1 - x^2, which
            // keeps its ends) to what the arrivals and the link's impulse over the step make it (by
            // about the fit's tolerance). Not where it would exceed 100 times that: on a short step the delayed
            // times t - T are rounded at ulp(t)/h of its length, so its arrivals' integral is that
            // rough, and the correction, divided by the length, would be a spike that the nodes
            // reading it cannot fit (they stalled). Then the difference is owed to the next piece of
            // the same history.
            const std::size_t m = node.masses();
            // A link whose force the arriving waves alone make gets its impulse from their exact
            // integrals (what the correction below holds the pieces to): the integrator's is right
            // only to its tolerance, and at an anechoic end, whose steps are all long, the
            // difference was owed for ever and grew until the outcome failed its momentum check.
            double alpha_in = 0, beta_in = 0;
            if (node.left().rod >= 0) {
                const RodWaves& r = waves_[static_cast<std::size_t>(node.left().element)];
                alpha_in = r.alpha.integral(n.t - r.tau, t_new - r.tau);
            }
            if (node.right().rod >= 0) {
                const RodWaves& r = waves_[static_cast<std::size_t>(node.right().element)];
                beta_in = r.beta.integral(n.t - r.tau, t_new - r.tau);
            }
            for (std::size_t i = 0; i < links; ++i)
                if (const double exact = node.exact_impulse(i, n.branches.acting[i], alpha_in, beta_in, h); std::isfinite(exact))
                    xn[node.i0() + i] = exact;
            // Likewise the energy an anechoic end radiates (the energy balance's `radiated`).
            if (node.links().front().kind == NodeLink::Kind::anechoic) {
                const RodWaves& r = waves_[static_cast<std::size_t>(node.left().rod >= 0 ? node.left().element : node.right().element)];
                const double square = node.left().rod >= 0 ? r.alpha.integral_of_square(n.t - r.tau, t_new - r.tau)
                                                            : r.beta.integral_of_square(n.t - r.tau, t_new - r.tau);
                const double work = node.exact_anechoic_work(square, h);
                if (std::isfinite(work)) xn[node.w0()] = n.x[node.w0()] + work;
            }
            const auto correct = [&](WavePiece& p, double target, double& owed) {
                owed += target - p.integral(p.t0, p.t1);
                const double lambda = owed / (2 * h / 3);
                if (!(std::abs(lambda) <= 100 * tol_ * (vs + std::abs(p.c[0])))) return;
                owed = 0;
                p.c[0] += lambda;
                p.c[2] -= lambda;
            };
            if (node.left().rod >= 0) {
                RodWaves& r = waves_[static_cast<std::size_t>(node.left().element)];
                correct(pb, alpha_in - 2 * xn[node.i0()] / r.z, n.owed_beta);
                r.beta.append(pb);
            }
            if (node.right().rod >= 0) {
                RodWaves& r = waves_[static_cast<std::size_t>(node.right().element)];
                correct(pa, beta_in + 2 * xn[node.i0() + m] / r.z, n.owed_alpha);
                r.alpha.append(pa);
            }
            n.jump_next = false;
            for (std::size_t i = 0; i < links; ++i) {
                const double mean = -xn[node.i0() + i] / h;  // N, tension > 0
                const NodeLink& l = node.links()[i];
                if (l.record >= 0) contacts_[static_cast<std::size_t>(l.record)].add_step(n.branches.acting[i] ? mean : 0.0, n.t, h, n.t);
                if (l.kind == NodeLink::Kind::attached && options_.force_samples) {
                    ForceHistory& f = attached_[i == 0 && node.left().rod < 0 ? 0 : 1];
                    if (f.force.empty() || f.force.back() != mean) {
                        f.time.push_back(n.t);
                        f.force.push_back(mean);
                    }
                }
            }
            for (std::size_t i = 0; i < links; ++i) {
                if (!n.branches.acting[i]) xn[node.d0()] += node.release_while_open(i, n.x[i], xn[i], n.branches);
                n.impulse[i] += xn[node.i0() + i];
                xn[node.i0() + i] = 0;
            }
            const bool clamped = !is_forced() && t_new < n.t + n.dt;
            n.t = t_new;
            n.x = xn;
            n.dxdt = dxn;
            const double grow = h * std::min(5.0, 0.9 * std::pow(std::max(e, 1e-10), -0.2));
            if (!clamped || grow > n.dt) n.dt = is_forced() ? std::max(n.dt, grow) : grow;
            if (is_forced()) {
                forced = unforced;
                if (switch_links(n, toggles)) system(n.x, n.dxdt, n.t);
            }
        }
    }

    /// What the max_work message adds on a chain with rods of segments: every jump splits in two at
    /// their welded junctions, and the nodes stop at each (docs/physics.md §9.10).
    std::string segments_hint() const {
        bool segments = false;
        for (std::size_t i = 0; i < chain_.size(); ++i) segments = segments || chain_.element_indices(i).size() > 1;
        if (!segments) return "";
        std::vector<double> at;
        for (const RodWaves& r : waves_) {
            r.alpha.jumps(-1, std::numeric_limits<double>::infinity(), at);
            r.beta.jumps(-1, std::numeric_limits<double>::infinity(), at);
        }
        return fmt::format("; the waves held {} jumps: they multiply at the welded junctions of rods of segments "
                           "(docs/physics.md §9.10), which finite differences carry at a cost fixed by the grid "
                           "(--method finite-difference)", at.size());
    }

    /// Switches every link whose event functions, at the current state and arrivals `ar`, say it is on
    /// the other branch (acting with a tensile force, open with a compressive one, loading past its
    /// maximum compression...), until none does; whether any switched.
    bool take_branches(NodeRun& n, const NodeArrivals& ar) {
        const JunctionNode& node = n.node;
        std::vector<char> toggles(node.links().size(), 0);
        bool any = false;
        // Each switch leaves its link consistent (or flags its second event): a few rounds suffice.
        for (int round = 0; round < 4; ++round) {
            bool found = false;
            for (std::size_t i = 0; i < toggles.size(); ++i) {
                const NodeLink& l = node.links()[i];
                const int sense = node.second_sense(i, n.branches);
                if (l.unilateral()) {
                    const double g = node.event_value(i, n.x.data(), ar, n.branches);
                    if (n.branches.acting[i] ? g < 0 : g > 0) toggles[i] = 1;
                }
                if (!toggles[i] && sense != 0 && sense * node.second_value(i, n.x.data(), ar, n.branches) > 0) toggles[i] = 2;
                found = found || toggles[i];
            }
            if (!found) break;
            any = switch_links(n, toggles) || any;
        }
        return any;
    }

    /// Switches the links flagged in `toggles` (and clears them); whether any switched. 1: the link
    /// starts or stops acting; 2: a link with restitution e < 1 changes branch at its second event
    /// (the rules of contact_branches.hpp, shared with rigid_body_ode.cpp; docs/physics.md §9.7).
    bool switch_links(NodeRun& n, std::vector<char>& toggles) {
        bool any = false;
        ContactBranches& b = n.branches;
        for (std::size_t i = 0; i < toggles.size(); ++i) {
            if (!toggles[i]) continue;
            any = true;
            const ContactLaw& law = n.node.links()[i].law;
            if (toggles[i] == 1) b.switch_acting(law, i, n.x[i]);
            else b.second_event(law, i, n.x[i]);
        }
        std::fill(toggles.begin(), toggles.end(), 0);
        if (!any) return false;
        if (++events_ > options_.max_events)
            throw SolverLimitExceeded(fmt::format(
                "the exact solver's delay network needed more than max_events = {} contact events by t = {:g} s "
                "(bounded work): raise [solver] max_events or set end_time",
                options_.max_events, n.t));
        // A rigid contact's force jumps where it closes; a compliant one's derivative jumps where it
        // opens or closes, and its second derivative where it changes branch (restitution): the nodes
        // that read what it emits stop there (a kink inside a step would shrink their steps).
        n.jump_next = true;
        return true;
    }

    /// The field samples at times up to T (NetworkFieldSamples): every emission they read is
    /// known and still kept (within a transit of T, the last window's included).
    void sample(double T) {
        if (!samples_) return;
        NetworkFieldSamples& s = *samples_;
        for (; next_sample_ < s.times.size() && s.times[next_sample_] <= T; ++next_sample_) {
            const double t = s.times[next_sample_];
            for (std::size_t j = 0; j < s.points.size(); ++j) {
                const Element& el = chain_.elements()[s.points[j].element];
                const RodWaves& r = waves_[s.points[j].element];
                const double x = s.points[j].x;
                const double alpha = r.alpha.at(t - x / el.wave_speed), beta = r.beta.at(t - (el.length - x) / el.wave_speed);
                const auto row = static_cast<Eigen::Index>(next_sample_);
                const auto col = static_cast<Eigen::Index>(j);
                s.velocity(row, col) = velocity_of(alpha, beta);
                s.force(row, col) = force_of(el.impedance, alpha, beta);
                s.strain(row, col) = s.force(row, col) / el.axial_stiffness;
            }
        }
    }

    /// Rod i's momentum and vibration energy at T, summed over its elements (segments).
    RodState rod_state(std::size_t i, double T) const {
        RodState s;
        double energy = 0;
        for (const std::size_t e : chain_.element_indices(i)) {
            const RodWaves& r = waves_[e];
            s.momentum += 0.5 * r.z * (r.alpha.integral(T - r.tau, T) + r.beta.integral(T - r.tau, T));
            energy += 0.25 * r.z * (r.alpha.integral_of_square(T - r.tau, T) + r.beta.integral_of_square(T - r.tau, T));
        }
        s.vibration_energy = std::max(0.0, energy - 0.5 * s.momentum * s.momentum / chain_[i].mass());
        return s;
    }

    /// The settling rule of docs/physics.md §2.4 at T (energy_excursion_bound() for the rods), or +inf.
    double settle_time(double T) const {
        constexpr double inf = std::numeric_limits<double>::infinity();
        // What the junctions alone refuse, first: the rods' states below integrate their whole
        // histories, which costs the pieces a rod holds at every window (an attached end never
        // settles; a contact acting or compressed is waited for: with a memory, an open contact at
        // 0 < δ <= δ_r carries no force, but it forgets only below δ = 0, where it could close again).
        for (const NodeRun& n : nodes_)
            for (std::size_t i = 0; i < n.node.links().size(); ++i) {
                const NodeLink& l = n.node.links()[i];
                if (l.kind == NodeLink::Kind::attached) return inf;
                if (l.load && T < l.load->end_time()) return inf;  // §8.3: not while a load is to come
                if (l.unilateral() && (n.branches.acting[i] || (l.kind == NodeLink::Kind::compliant && n.x[i] > 0)))
                    return inf;
            }
        std::vector<double> mean(chain_.size(), 0.0), excursion(chain_.size(), 0.0);
        std::vector<double> periods;  // of the rods' free motions (masses fly uniformly)
        bool periodic = true;         // every rod's free motion is periodic (no segments)
        const ChainEnds& ends = chain_.ends();
        for (std::size_t i = 0; i < chain_.size(); ++i) {
            if (chain_[i].is_mass()) continue;
            const bool first = i == 0, last = i + 1 == chain_.size();
            const bool fixed = (first && ends.left.kind == EndKind::fixed) || (last && ends.right.kind == EndKind::fixed);
            const bool anechoic = (first && ends.left.kind == EndKind::anechoic) || (last && ends.right.kind == EndKind::anechoic);
            if (anechoic) {  // settled once only its continuation's state is left in it
                for (const std::size_t e : chain_.element_indices(i)) {
                    const RodWaves& r = waves_[e];
                    if (std::max(r.alpha.deviation(T - r.tau, T, r.v0), r.beta.deviation(T - r.tau, T, r.v0)) > 1e-10 * V_)
                        return inf;
                }
                mean[i] = chain_[i].velocity;
                continue;
            }
            // Segments: the rod's length and its smallest axial stiffness bound the excursion (§8.1).
            double length = 0, axial = inf;
            for (const std::size_t e : chain_.element_indices(i)) {
                length += chain_.elements()[e].length;
                axial = std::min(axial, chain_.elements()[e].axial_stiffness);
            }
            const RodState s = rod_state(i, T);
            const double mass = chain_[i].mass();
            const double energy = s.vibration_energy + 0.5 * s.momentum * s.momentum / mass;
            mean[i] = fixed ? 0.0 : s.momentum / mass;
            excursion[i] = energy_excursion_bound(length, fixed ? energy : s.vibration_energy, axial);
            if (const std::optional<double> period = free_motion_period(chain_, i)) periods.push_back(*period);
            else periodic = false;  // a rod of segments has none
        }
        double settle = T;  // by the energy bound (+inf once a contact's bound proves nothing)
        std::vector<double> separations;
        for (const NodeRun& n : nodes_) {
            const JunctionNode& node = n.node;
            for (std::size_t k = 0; k < node.masses(); ++k) mean[node.bodies()[k]] = n.x[node.u0() + k];
            for (std::size_t i = 0; i < node.links().size(); ++i) {
                // (Attached, acting and compressed links were refused above.)
                if (!node.links()[i].unilateral()) continue;
                const auto side = [&](bool left_side, double& v, double& d) {
                    v = 0, d = 0;
                    std::ptrdiff_t body = -1;
                    if (left_side) body = i > 0 ? static_cast<std::ptrdiff_t>(node.bodies()[i - 1]) : node.left().rod;
                    else body = i < node.masses() ? static_cast<std::ptrdiff_t>(node.bodies()[i]) : node.right().rod;
                    if (body < 0) return;  // the ground
                    v = mean[static_cast<std::size_t>(body)];
                    d = excursion[static_cast<std::size_t>(body)];
                };
                double vl, dl, vr, dr;
                side(true, vl, dl);
                side(false, vr, dr);
                if (vr - vl < -tolerances_.velocity) return inf;  // the means approach: a contact is certain
                separations.push_back(vr - vl);
                settle = std::max(settle, contact_release_time(T, std::max(0.0, -n.x[i]), vr - vl, dl + dr,
                                                               tolerances_.gap, tolerances_.velocity));
            }
        }
        // With commensurate periods every gap is its mean growth plus a motion of the common period:
        // a period watched without a closing proves there is none after it (docs/physics.md §6.9).
        // run() resets the release at a closing.
        if (options_.settle_by_period && periodic)
            settle = std::min(settle, watched_release_time(T, periods, separations, tolerances_.velocity));
        return settle;
    }

    Run finish(double end_time, bool settled, bool at_horizon, std::optional<double> taken = std::nullopt) {
        const double T = taken.value_or(end_time);
        Run r;
        r.end_time = end_time;
        r.settled = settled;
        r.at_horizon = at_horizon;
        r.rods.resize(chain_.size());
        r.velocity.resize(chain_.size());
        for (std::size_t i = 0; i < chain_.size(); ++i)
            if (!chain_[i].is_mass()) r.rods[i] = rod_state(i, T);
        for (const NodeRun& n : nodes_) {
            const JunctionNode& node = n.node;
            for (std::size_t k = 0; k < node.masses(); ++k) r.rods[node.bodies()[k]] = {node.mass(k) * n.x[node.u0() + k], 0.0};
            r.contact_energy += node.stored_energy(n.x.data(), n.branches);
            r.dissipated += std::max(0.0, n.x[node.d0()]) + node.hysteresis(n.x.data(), n.branches);
            if (node.left().rod < 0) {
                r.left_end.impulse = n.impulse[0];
                r.left_end.work = n.x[node.w0()];
            }
            if (node.right().rod < 0) {
                r.right_end.impulse = -n.impulse[node.masses()];
                r.right_end.work = n.x[node.w0()];
            }
        }
        for (std::size_t i = 0; i < chain_.size(); ++i) r.velocity[i] = r.rods[i].momentum / chain_[i].mass();
        r.steps = steps_;
        r.events = events_;
        r.attached_forces = attached_;
        r.contacts = contacts_;  // a copy: a run sampling its field goes on past settling
        return r;
    }

    const Chain& chain_;
    const SolverOptions& options_;
    double tol_;
    ContactHistory contacts_;
    double V_;
    ContactTolerances tolerances_;
    double window_ = 0, snap_ = 0;
    std::vector<RodWaves> waves_;  // per element (Chain::elements())
    std::vector<NodeRun> nodes_;
    std::size_t steps_ = 0, events_ = 0;
    std::vector<WavePiece> arriving_alpha_, arriving_beta_;  // pass_open()'s scratch
    std::array<ForceHistory, 2> attached_;
    NetworkFieldSamples* samples_ = nullptr;
    std::size_t next_sample_ = 0;  // the first sample time not yet reached
};

/// The velocity error [m/s] the run's energy defect reveals (as energy_defect_error() for rigid
/// bodies): energy created (initial + input < final + contact + dissipated + radiated) means a relative
/// velocity error of at least sqrt(1 + created/scale) - 1; 0 when none was created.
double energy_defect_velocity_error(const Chain& chain, const Run& run, double V) {
    double initial = chain.initial_kinetic_energy();  // and what loads put in (§8.3)
    if (chain.ends().load_at(ChainSide::left)) initial += run.left_end.work;
    if (chain.ends().load_at(ChainSide::right)) initial += run.right_end.work;
    double final_energy = run.contact_energy + run.dissipated;
    for (std::size_t i = 0; i < chain.size(); ++i)
        final_energy += run.rods[i].vibration_energy + 0.5 * run.rods[i].momentum * run.rods[i].momentum / chain[i].mass();
    // Radiated through anechoic ends: minus the work done on the chain there.
    if (chain.ends().left.kind == EndKind::anechoic) final_energy -= run.left_end.work;
    if (chain.ends().right.kind == EndKind::anechoic) final_energy -= run.right_end.work;
    const double scale = std::max(initial, final_energy);
    if (!(final_energy > initial) || !(scale > 0)) return 0;
    const double created = (final_energy - initial) / scale;
    return 1.01 * created / (std::sqrt(1 + created) + 1) * V;
}

}  // namespace

Outcome solve_delay_network(const Chain& chain, const SolverOptions& options, NetworkFieldSamples* samples) {
    check_rigid_bodies_options(chain, options);  // an attached end never settles: end_time is needed
    const double V = chain.velocity_scale();
    const double target = options.accuracy.value_or(default_rigid_body_accuracy);
    const auto bound_of = [&](const Run& a, const Run& b) {
        return pair_bound(a.velocity, b.velocity, a.settled, b.settled, b.steps, V);
    };
    RefinedRuns<Run> runs = refine_tolerance<Run>(
        target, V, smallest_tolerance, [&](double tol) { return Network(chain, options, tol).run(); }, bound_of);
    Run& fine = runs.fine;
    if (samples) {  // the fine run again, sampling its field over the span its outcome sets
        samples->times = samples->times_for(fine.end_time, fine.settled);
        const auto rows = static_cast<Eigen::Index>(samples->times.size());
        const auto cols = static_cast<Eigen::Index>(samples->points.size());
        samples->velocity.setZero(rows, cols);
        samples->force.setZero(rows, cols);
        samples->strain.setZero(rows, cols);
        (void)Network(chain, options, runs.tol, samples).run();
    }
    const double bound = std::max(runs.bound, energy_defect_velocity_error(chain, fine, V));
    SolverReport report;
    report.method = Method::characteristics;
    report.end_time = fine.end_time;
    report.settled = fine.settled;
    report.at_horizon = fine.at_horizon;
    report.rods = fine.rods;
    report.contact_energy = fine.contact_energy;
    report.dissipated = fine.dissipated;
    report.velocity_error_bound = bound;
    report.accuracy = V > 0 ? bound / V : 0.0;
    report.stats.events = fine.events;
    report.stats.steps = fine.steps;
    report.stats.estimate_events = runs.coarse.events;
    report.left_end = fine.left_end;
    report.right_end = fine.right_end;
    report.force_samples = options.force_samples;
    report.attached_end_forces = fine.attached_forces;
    AccuracyReport acc = refined_accuracy_report("delay network", "delay network", bound, V, target, runs.tol,
                                                 runs.stopped, report.warnings);
    Outcome o = build_outcome(chain, *fine.contacts, std::move(report));
    o.accuracy_report = std::move(acc);
    return o;
}

}  // namespace rodcollide
