// Table, JSON (with a shard's member data, and reading it back) and CSV of an ensemble
// (ensemble.hpp; docs/ensemble.md).
#include "rodcollide/ensemble.hpp"

#include "rodcollide/errors.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <iterator>

namespace rodcollide {

namespace {

using json = nlohmann::ordered_json;

/// The name of the member data's format (a shard file), checked by merge.
constexpr const char* shard_format = "rodcollide ensemble shard 1";

json stats_json(const Statistics& s) {
    return {{"mean", s.mean}, {"std", s.std}, {"sem", s.sem}, {"q05", s.q05}, {"q50", s.q50}, {"q95", s.q95}};
}

json perturb_json(const EnsembleSpec& spec) {
    json list = json::array();
    for (const Perturbation& p : spec.perturb) {
        json j = {{"key", p.key}};
        if (!p.rods.empty()) j["rods"] = p.rods;
        j[p.relative ? "relative" : "absolute"] = p.spread;
        j["distribution"] = std::string(to_string(p.distribution));
        j["shared"] = p.shared;
        list.push_back(std::move(j));
    }
    return list;
}

std::string stats_row(std::string_view name, const Statistics& s) {
    return fmt::format("{:<20} {:>13.6g} {:>12.4g} {:>11.3g} {:>13.6g} {:>13.6g} {:>13.6g}\n", name, s.mean, s.std, s.sem,
                       s.q05, s.q50, s.q95);
}

/// A member as the shard file's row: index, settled, end_time, closings, final_rigid,
/// final_vibration, velocity_error_bound, then the final velocities, then the perturbed values.
/// A number, or null for a failed member's NaN (JSON has no NaN).
json number(double x) { return std::isnan(x) ? json(nullptr) : json(x); }
double number_of(const nlohmann::json& v) {
    return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

json member_row(const EnsembleMember& m) {
    json row = json::array({m.index, m.settled, number(m.end_time), m.closings, number(m.final_rigid),
                            number(m.final_vibration), number(m.velocity_error_bound)});
    for (double u : m.final_velocity) row.push_back(number(u));
    for (double x : m.perturbed) row.push_back(x);
    return row;
}

/// The failed members as JSON: member and error.
json failures_json(const EnsembleSummary& s) {
    json list = json::array();
    for (const EnsembleMember* m : s.failed) list.push_back({{"member", m->index}, {"error", m->failure}});
    return list;
}
constexpr std::size_t member_fields = 7;

/// The value of `key` in `doc`, or InvalidInput naming it.
const nlohmann::json& at(const nlohmann::json& doc, const std::string& key) {
    if (!doc.is_object() || !doc.contains(key)) throw InvalidInput(key, "missing: not a shard output of `rodcollide ensemble --shard K/N --json`");
    return doc.at(key);
}

template <class T>
T get(const nlohmann::json& doc, const std::string& key) {
    try {
        return at(doc, key).get<T>();
    } catch (const nlohmann::json::exception&) {
        throw InvalidInput(key, fmt::format("malformed: {}", at(doc, key).dump().substr(0, 60)));
    }
}

}  // namespace

std::string ensemble_table(const EnsembleResult& r, std::optional<double> precision) {
    const EnsembleSummary s = summarize(r, precision);
    std::string text;
    auto out = std::back_inserter(text);
    const std::size_t n = r.members.size();
    fmt::format_to(out, "{}: ensemble of {} members, seed {} [{}]", r.title, r.spec.members, r.spec.seed,
                   to_string(r.method));
    if (r.shard.count > 1)
        fmt::format_to(out, ", shard {}/{}: members {}..{}", r.shard.index, r.shard.count, r.members.front().index,
                       r.members.back().index);
    text += "\nperturbations:";
    if (r.spec.perturb.empty()) text += " none (every member is the nominal case)";
    text += "\n";
    for (const Perturbation& p : r.spec.perturb)
        fmt::format_to(out, "  {} of {}: {} {} {:.6g}{}\n", p.key,
                       p.rods.empty() ? std::string(p.key == "gap" ? "every rod but the first" : "every rod")
                                      : fmt::format("rod{} {}", p.rods.size() > 1 ? "s" : "", fmt::join(p.rods, ", ")),
                       to_string(p.distribution), p.relative ? "relative" : "absolute", p.spread,
                       p.rods.size() == 1 ? "" : p.shared ? ", one draw shared by its rods" : ", each rod its own draw");
    fmt::format_to(out, "\n{:<20} {:>13} {:>12} {:>11} {:>13} {:>13} {:>13}\n", "final velocity", "mean", "std", "sem",
                   "q05", "q50", "q95");
    for (std::size_t i = 0; i < r.rods; ++i) text += stats_row(fmt::format("rod {}", i), s.final_velocity[i]);
    fmt::format_to(out, "\n{:<20} {:>13} {:>12} {:>11} {:>13} {:>13} {:>13}\n", "per member", "mean", "std", "sem",
                   "q05", "q50", "q95");
    text += stats_row("rigid energy", s.final_rigid);
    text += stats_row("vibration energy", s.final_vibration);
    text += stats_row("rigid share", s.rigid_share);
    text += stats_row("contact closings", s.closings);
    if (s.settling_time) text += stats_row("settling time", *s.settling_time);
    const std::size_t solved = s.solved;
    fmt::format_to(out, "\nsettled: {} of {} ({:.4g} %); reached the horizon: {} ({:.4g} %)\n", s.settled, solved,
                   100.0 * static_cast<double>(s.settled) / static_cast<double>(solved), solved - s.settled,
                   100.0 * static_cast<double>(solved - s.settled) / static_cast<double>(solved));
    if (!s.failed.empty()) {
        fmt::format_to(out, "FAILED: {} of {} members have no outcome and are left out of the statistics:\n",
                       s.failed.size(), n);
        for (std::size_t i = 0; i < s.failed.size() && i < 10; ++i) fmt::format_to(out, "  {}\n", s.failed[i]->failure);
        if (s.failed.size() > 10) fmt::format_to(out, "  ... and {} more (--json lists them all)\n", s.failed.size() - 10);
    }
    fmt::format_to(out, "convergence: the mean final velocities are known to a standard error of at most {:.3g} m/s "
                        "(rod {}) with {} members",
                   s.largest_sem, s.largest_sem_rod, solved);
    if (s.members_needed)
        fmt::format_to(out, "; a standard error of {:.3g} m/s for every rod needs about {} members", *s.precision,
                       *s.members_needed);
    text += "\n";
    return text;
}

json ensemble_json(const EnsembleResult& r, std::optional<double> precision, bool member_data) {
    // A shard in which every member failed still goes to merge (or, under mpirun, to rank 0) with
    // its members: the other shards may have solved some, and the whole ensemble is then what one
    // run reports. It has no statistics of its own: those keys are null.
    const bool solved = std::ranges::any_of(r.members, [](const EnsembleMember& m) { return m.failure.empty(); });
    EnsembleSummary s;
    if (solved || !member_data)
        s = summarize(r, precision);
    else
        for (const EnsembleMember& m : r.members) s.failed.push_back(&m);
    const std::size_t n = r.members.size();
    json doc;
    doc["title"] = r.title;
    doc["method"] = to_string(r.method);
    doc["members"] = r.spec.members;
    doc["seed"] = r.spec.seed;
    if (member_data) {
        doc["shard"] = {{"index", r.shard.index}, {"count", r.shard.count}};
        doc["members_in_shard"] = n;
    }
    doc["perturb"] = perturb_json(r.spec);
    json rods = json::array();
    for (const Statistics& v : s.final_velocity) rods.push_back({{"final_velocity", stats_json(v)}});
    doc["rods"] = std::move(rods);
    doc["energy"] = {{"final_rigid", stats_json(s.final_rigid)},
                     {"final_vibration", stats_json(s.final_vibration)},
                     {"rigid_share", stats_json(s.rigid_share)}};
    doc["settling_time"] = s.settling_time ? stats_json(*s.settling_time) : json(nullptr);
    doc["closings"] = stats_json(s.closings);
    doc["settled"] = static_cast<double>(s.settled) / static_cast<double>(s.solved);
    doc["reached_horizon"] = static_cast<double>(s.solved - s.settled) / static_cast<double>(s.solved);
    doc["failed"] = failures_json(s);
    doc["convergence"] = {{"largest_sem", s.largest_sem},
                          {"rod", s.largest_sem_rod},
                          {"precision", s.precision ? json(*s.precision) : json(nullptr)},
                          {"members_needed", s.members_needed ? json(*s.members_needed) : json(nullptr)}};
    if (!solved)
        for (const char* key : {"rods", "energy", "settling_time", "closings", "settled", "reached_horizon", "convergence"})
            doc[key] = nullptr;
    if (member_data) {
        json columns = json::array({"index", "settled", "end_time", "closings", "final_rigid", "final_vibration",
                                    "velocity_error_bound"});
        for (std::size_t i = 0; i < r.rods; ++i) columns.push_back(fmt::format("u{}", i));
        for (const PerturbedValue& c : r.columns) columns.push_back(column_name(r.spec, c));
        json rows = json::array();
        for (const EnsembleMember& m : r.members) rows.push_back(member_row(m));
        doc["data"] = {{"format", shard_format},
                       {"fingerprint", r.fingerprint},
                       {"rods", r.rods},
                       {"perturbed", r.columns.size()},
                       {"columns", std::move(columns)},
                       {"members", std::move(rows)},
                       {"failures", failures_json(s)}};
    }
    return doc;
}

EnsembleResult ensemble_from_json(const nlohmann::json& doc) {
    EnsembleResult r;
    r.title = get<std::string>(doc, "title");
    const std::optional<Method> method = parse_method(get<std::string>(doc, "method"));
    if (!method) throw InvalidInput("method", "unknown method");
    r.method = *method;
    r.spec.members = get<std::size_t>(doc, "members");
    r.spec.seed = get<std::uint64_t>(doc, "seed");
    const nlohmann::json& shard = at(doc, "shard");
    r.shard.index = get<std::size_t>(shard, "index");
    r.shard.count = get<std::size_t>(shard, "count");
    for (const nlohmann::json& p : at(doc, "perturb")) {
        Perturbation q;
        q.key = get<std::string>(p, "key");
        if (std::ranges::find(perturbable_keys(), q.key) == perturbable_keys().end())
            throw InvalidInput("perturb", fmt::format("unknown key {:?}", q.key));
        if (p.contains("rods")) q.rods = get<std::vector<std::size_t>>(p, "rods");
        q.relative = p.contains("relative");
        q.spread = get<double>(p, q.relative ? "relative" : "absolute");
        const std::string d = get<std::string>(p, "distribution");
        q.distribution = d == "normal" ? Distribution::normal : Distribution::uniform;
        q.shared = get<bool>(p, "shared");
        r.spec.perturb.push_back(std::move(q));
    }
    const nlohmann::json& data = at(doc, "data");
    if (get<std::string>(data, "format") != shard_format)
        throw InvalidInput("data.format", fmt::format("must be {:?}", shard_format));
    r.fingerprint = get<std::string>(data, "fingerprint");
    r.rods = get<std::size_t>(data, "rods");
    const std::size_t perturbed = get<std::size_t>(data, "perturbed");
    for (const Perturbation& q : r.spec.perturb)
        for (std::size_t rod : q.rods)
            if (rod >= r.rods) throw InvalidInput("perturb", fmt::format("rod {} of {} rods", rod, r.rods));
    r.columns = perturbed_values(r.spec, r.rods);
    const std::vector<std::string> names = get<std::vector<std::string>>(data, "columns");
    if (names.size() != member_fields + r.rods + perturbed || r.columns.size() != perturbed)
        throw InvalidInput("data.columns", fmt::format("must name {} columns", member_fields + r.rods + r.columns.size()));
    for (std::size_t j = 0; j < r.columns.size(); ++j)
        if (names[member_fields + r.rods + j] != column_name(r.spec, r.columns[j]))
            throw InvalidInput("data.columns", fmt::format("column {} must be {:?}", member_fields + r.rods + j,
                                                           column_name(r.spec, r.columns[j])));
    std::map<std::size_t, std::string> failures;
    for (const nlohmann::json& f : at(data, "failures")) failures[get<std::size_t>(f, "member")] = get<std::string>(f, "error");
    for (const nlohmann::json& row : at(data, "members")) {
        if (!row.is_array() || row.size() != names.size())
            throw InvalidInput("data.members", fmt::format("a row of {} numbers expected", names.size()));
        try {
            EnsembleMember m;
            m.index = row[0].get<std::size_t>();
            m.settled = row[1].get<bool>();
            m.end_time = number_of(row[2]);
            m.closings = row[3].get<std::size_t>();
            m.final_rigid = number_of(row[4]);
            m.final_vibration = number_of(row[5]);
            m.velocity_error_bound = number_of(row[6]);
            for (std::size_t i = 0; i < r.rods; ++i) m.final_velocity.push_back(number_of(row[member_fields + i]));
            for (std::size_t j = 0; j < perturbed; ++j) m.perturbed.push_back(row[member_fields + r.rods + j].get<double>());
            if (const auto f = failures.find(m.index); f != failures.end()) m.failure = f->second;
            else if (std::isnan(m.final_rigid)) throw InvalidInput("data.failures", fmt::format("member {} has no outcome and no error", m.index));
            r.members.push_back(std::move(m));
        } catch (const nlohmann::json::exception&) {
            throw InvalidInput("data.members", fmt::format("malformed row {}", row.dump().substr(0, 60)));
        }
    }
    return r;
}

std::string ensemble_csv(const EnsembleResult& r) {
    std::string s;
    auto out = std::back_inserter(s);
    if (r.shard.index == 1) {
        s += "member";
        for (const PerturbedValue& c : r.columns) fmt::format_to(out, ",{}", column_name(r.spec, c));
        for (std::size_t i = 0; i < r.rods; ++i) fmt::format_to(out, ",u{}", i);
        s += ",final_rigid,final_vibration,settled,end_time,closings,failed\n";
    }
    for (const EnsembleMember& m : r.members) {
        fmt::format_to(out, "{}", m.index);
        for (double x : m.perturbed) fmt::format_to(out, ",{:.17g}", x);
        for (double u : m.final_velocity) fmt::format_to(out, ",{:.17g}", u);
        fmt::format_to(out, ",{:.17g},{:.17g},{},{:.17g},{},{}\n", m.final_rigid, m.final_vibration, m.settled ? 1 : 0,
                       m.end_time, m.closings, m.failure.empty() ? 0 : 1);
    }
    return s;
}

}  // namespace rodcollide
