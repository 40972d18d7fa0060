// Contact force samples (contact_forces.hpp): the recorded histories of an outcome's contacts,
// walls and attached ends, read on one grid that holds every event time, so that a trapezoid over
// the samples integrates each pulse between its true closing and opening.
#include "rodcollide/contact_forces.hpp"

#include "rodcollide/errors.hpp"
#include "rodcollide/solver_options.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rodcollide {

bool has_contact_forces(const Chain& chain) {
    const auto reported = [](const ChainEnd& e) { return e.kind == EndKind::wall || e.attached(); };
    return chain.contact_count() > 0 || reported(chain.ends().left) || reported(chain.ends().right);
}

ContactForceSamples sample_contact_forces(const Outcome& o, std::size_t samples) {
    input::require("samples", input::integer_within(samples, 2, largest_samples));
    std::vector<const ForceHistory*> histories;
    ContactForceSamples out;
    std::vector<double>& times = out.time;
    const auto add_intervals = [&](const std::vector<Interval>& intervals) {
        for (const Interval& iv : intervals) times.insert(times.end(), {iv.start, iv.end});
    };
    for (std::size_t k = 0; k < o.contacts.size(); ++k) {
        out.names.push_back(fmt::format("contact_{}", k));
        histories.push_back(&o.contacts[k].force_history);
        add_intervals(o.contacts[k].intervals);
    }
    for (const EndOutcome& e : o.ends)
        if (e.kind == EndKind::wall) {
            out.names.push_back(fmt::format("{}_wall", to_string(e.side)));
            histories.push_back(&e.force_history);
            add_intervals(e.intervals);
        } else if (e.kind == EndKind::spring || e.kind == EndKind::dashpot || e.kind == EndKind::spring_dashpot) {
            out.names.push_back(fmt::format("{}_end", to_string(e.side)));
            histories.push_back(&e.force_history);
        }
    for (std::size_t i = 0; i < samples; ++i)
        times.push_back(o.end_time * static_cast<double>(i) / static_cast<double>(samples - 1));
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    times.erase(std::upper_bound(times.begin(), times.end(), o.end_time), times.end());
    for (const ForceHistory* h : histories) {
        std::vector<double>& column = out.force.emplace_back();
        column.reserve(times.size());
        for (double t : times) {
            const auto k = std::upper_bound(h->time.begin(), h->time.end(), t) - h->time.begin();
            column.push_back(k == 0 ? 0.0 : h->force[static_cast<std::size_t>(k - 1)]);
        }
    }
    return out;
}

std::string contact_forces_csv(const ContactForceSamples& s) {
    std::string out = "time";
    for (const std::string& name : s.names) out += "," + name;
    out += '\n';
    for (std::size_t i = 0; i < s.time.size(); ++i) {
        out += fmt::format("{:.17g}", s.time[i]);
        for (const std::vector<double>& column : s.force) out += fmt::format(",{:.17g}", column[i]);
        out += '\n';
    }
    return out;
}

}  // namespace rodcollide
