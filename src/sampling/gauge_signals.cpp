// Gauge signals from the exact field (gauge_signals.hpp; docs/physics.md §8).
#include "rodcollide/gauge_signals.hpp"

#include "sampling/wave_field_samples.hpp"

#include "rodcollide/errors.hpp"

#include <fmt/format.h>

namespace rodcollide {

std::vector<GaugeSignal> sample_gauges(const WaveField& field, const std::vector<Gauge>& gauges, double t_end,
                                       std::size_t samples) {
    std::vector<GaugeSignal> out;
    for (const Gauge& g : gauges) {
        GaugeSignal s;
        s.gauge = g;
        for (const double t : sample_times(t_end, samples)) {
            const PointState p = field.state(g.rod, g.x, t);
            s.time.push_back(t);
            s.velocity.push_back(p.velocity);
            s.force.push_back(p.force);
            s.strain.push_back(p.strain);
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::string gauges_csv(const std::vector<GaugeSignal>& signals) {
    std::string s = "time";
    for (const GaugeSignal& g : signals)
        s += fmt::format(",{0}_velocity,{0}_force,{0}_strain", g.gauge.name);
    s += '\n';
    const std::size_t rows = signals.empty() ? 0 : signals.front().time.size();
    for (std::size_t i = 0; i < rows; ++i) {
        s += fmt::format("{:.17g}", signals.front().time[i]);
        for (const GaugeSignal& g : signals)
            s += fmt::format(",{:.17g},{:.17g},{:.17g}", g.velocity[i], g.force[i], g.strain[i]);
        s += '\n';
    }
    return s;
}

}  // namespace rodcollide
