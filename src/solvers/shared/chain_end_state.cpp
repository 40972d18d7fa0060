// State at the chain's ends for both solvers (chain_end_state.hpp; docs/physics.md §8).
#include "solvers/shared/chain_end_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rodcollide {

ChainEndState::ChainEndState(const Chain& chain) : chain_(chain) {
    for (ChainSide side : {ChainSide::left, ChainSide::right}) {
        End& e = ends_[side == ChainSide::left ? 0 : 1];
        e.side = side;
        e.junction = side == ChainSide::left ? 0 : chain.junctions().size() - 1;
        e.load = chain.ends().load_at(side);
        if (e.load) e.steps = load_steps(*e.load);
        e.flux = EndFlux(side);
    }
}

const ChainEndState::End* ChainEndState::end_at(std::size_t j) const {
    for (const End& e : ends_)
        if (e.junction == j) return &e;
    return nullptr;
}

std::optional<JunctionResponse> ChainEndState::loaded_response(std::size_t j, const JunctionArrivals& in, double t,
                                                               double tolerance) {
    End* e = end_at(j);
    if (!e || !e->load) return std::nullopt;
    e->stepped = false;
    while (e->next_step < e->steps.time.size() && e->steps.time[e->next_step] <= t + tolerance) {
        ++e->next_step;
        e->stepped = true;
    }
    if (e->next_step == 0 || e->next_step == e->steps.time.size()) return std::nullopt;  // before or after
    return loaded_end_response(e->load->quantity, e->steps.value[e->next_step - 1], chain_end_arrival(in));
}

std::optional<ChainEndState::LoadedStep> ChainEndState::loaded_response_over(std::size_t j, const JunctionArrivals& in,
                                                                             double t, double dt, double tolerance) {
    End* e = end_at(j);
    if (!e || !e->load) return std::nullopt;
    const std::vector<double>& time = e->steps.time;
    const std::vector<double>& value = e->steps.value;
    const double end = t + dt;
    // Where a time falls in the step, as a fraction: 0 and 1 exactly for times on its ends.
    const auto fraction = [&](double s) {
        if (std::abs(s - t) <= tolerance) return 0.0;
        if (std::abs(s - end) <= tolerance) return 1.0;
        return std::clamp((s - t) / dt, 0.0, 1.0);
    };
    const auto after_start = static_cast<std::size_t>(std::upper_bound(time.begin(), time.end(), t + tolerance) - time.begin());
    const auto by_end = static_cast<std::size_t>(std::upper_bound(time.begin(), time.end(), end + tolerance) - time.begin());
    // Step k holds value[k] from time[k] to time[k + 1]; the last time frees the end.
    double share = 0, weighted = 0;
    for (std::size_t k = after_start ? after_start - 1 : 0; k + 1 < time.size() && k < by_end; ++k) {
        const double d = fraction(time[k + 1]) - fraction(time[k]);
        share += d;
        weighted += d * value[k];
    }
    bool inside = false;
    for (std::size_t k = after_start; k < by_end; ++k) inside = inside || fraction(time[k]) < 1;
    LoadedStep step;
    step.share = share;
    step.inside = inside;
    step.stepped = share > 0 || by_end != e->next_step;
    e->next_step = by_end;
    if (share > 0)
        step.response = loaded_end_response(e->load->quantity, weighted / share, chain_end_arrival(in));
    return step;
}

bool ChainEndState::update(std::size_t j, const JunctionResponse& r, double t) {
    End* e = end_at(j);
    if (!e) return false;
    e->flux.set(r.force, e->side == ChainSide::left ? r.velocity_right : r.velocity_left, t);
    return e->stepped || (chain_.ends()[e->side].kind == EndKind::anechoic && r.force != 0);
}

double ChainEndState::next_load_time(std::size_t j) const {
    const End* e = end_at(j);
    if (!e || !e->load || e->next_step >= e->steps.time.size()) return std::numeric_limits<double>::infinity();
    return e->steps.time[e->next_step];
}

bool ChainEndState::load_acting(double) const {
    for (const End& e : ends_)
        if (e.load && e.next_step < e.steps.time.size()) return true;
    return false;
}

WallGaps ChainEndState::wall_gaps(const ContactHistory& contacts, double t) const {
    WallGaps w;
    for (const End& e : ends_) {
        const std::ptrdiff_t k = contacts.contact_at(e.junction);
        if (k < 0) continue;
        (e.side == ChainSide::left ? w.left : w.right) = contacts[static_cast<std::size_t>(k)].gap_at(t);
    }
    return w;
}

EndReport ChainEndState::report(ChainSide side, double t) const {
    const End& e = ends_[side == ChainSide::left ? 0 : 1];
    return {e.flux.impulse(t), e.flux.work(t), e.load ? e.steps.max_error : 0.0};
}

}  // namespace rodcollide
