// Ensembles: members solved on a worker pool, shards merged, statistics (ensemble.hpp).
#include "rodcollide/ensemble.hpp"

#include "rodcollide/errors.hpp"
#include "rodcollide/solve.hpp"

#include "analysis/parallel_for.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

namespace rodcollide {

namespace {

/// FNV-1a, 64 bits: a stable hash of text (the same on every machine and build).
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/// Solves member k.
EnsembleMember solve_member(const Chain& chain, const EnsembleOptions& options,
                            const std::vector<PerturbedValue>& columns, std::size_t k) {
    EnsembleMember m;
    m.index = k;
    m.perturbed = member_draws(options.spec, chain, columns, k);
    const auto member = [&] { return fmt::format("member {} (seed {})", k, options.spec.seed); };
    std::optional<Chain> perturbed;
    try {
        perturbed.emplace(member_chain(chain, options.spec, columns, m.perturbed));
    } catch (const InvalidInput& e) {
        throw InvalidInput(e.key(), fmt::format("{}: {}", member(), e.message()));
    }
    Outcome o;
    const auto failed = [&](std::string why) {
        m.failure = fmt::format("{}: {}", member(), why);
        constexpr double nan = std::numeric_limits<double>::quiet_NaN();
        m.final_velocity.assign(chain.size(), nan);
        m.final_rigid = m.final_vibration = m.end_time = m.velocity_error_bound = nan;
        return m;
    };
    try {
        o = solve(*perturbed, options.solver);
    } catch (const SolverLimitExceeded& e) {
        return failed(e.what());
    } catch (const InvariantViolation& e) {
        return failed(e.what());
    }
    m.final_velocity.reserve(o.rods.size());
    for (const RodOutcome& r : o.rods) m.final_velocity.push_back(r.final_velocity);
    m.final_rigid = o.energy.final_rigid;
    m.final_vibration = o.energy.final_vibration;
    m.settled = o.settled;
    m.end_time = o.end_time;
    for (const ContactOutcome& c : o.contacts) m.closings += c.intervals.size();
    m.velocity_error_bound = o.velocity_error_bound;
    return m;
}

}  // namespace

void validate(const EnsembleOptions& o) {
    validate(o.spec);
    validate_sweep_work(o.spec.members, o.threads, o.shard, "members", max_ensemble_members);
}

std::string ensemble_fingerprint(const Chain& chain, const SolverOptions& s, const EnsembleSpec& spec) {
    std::string text;
    auto out = std::back_inserter(text);
    for (const Rod& r : chain.rods()) {
        fmt::format_to(out, "rod {:a} {:a} {:a} {:a} {:a} {:a}\n", r.length, r.area, r.density, r.youngs_modulus,
                       r.velocity, r.gap);
        for (const Segment& g : r.segments)
            fmt::format_to(out, " segment {:a} {:a} {:a} {:a}\n", g.length, g.area, g.density, g.youngs_modulus);
    }
    const ChainEnds& e = chain.ends();
    fmt::format_to(out, "ends {} {:a} {} {:a}\n", static_cast<int>(e.left.kind), e.left.gap,
                   static_cast<int>(e.right.kind), e.right.gap);
    for (const Load& l : e.loads) {
        fmt::format_to(out, "load {} {}", static_cast<int>(l.end), static_cast<int>(l.quantity));
        for (std::size_t i = 0; i < l.time.size(); ++i) fmt::format_to(out, " {:a},{:a}", l.time[i], l.value[i]);
        text += '\n';
    }
    // Unset optionals print as -1: every option that can change a member's outcome is in the print.
    fmt::format_to(out, "solver {} {:a} {:a} {:a} {:a} {:a} {:a} {} {} {} {} {} {} {} {} {}\n",
                   static_cast<int>(s.method), s.end_time.value_or(-1), s.record_until.value_or(-1),
                   s.record_after_settling, s.drop_tolerance, s.accuracy.value_or(-1), s.time_resolution.value_or(-1),
                   s.max_memory, s.exact_fronts, s.max_events, s.max_fronts, s.keep_history, s.skip_free_flight,
                   s.rebase_times, s.rounding_check, s.cells);
    // Options added since print only when set, so that the fingerprints of ensembles that leave
    // them at their defaults stay what they were.
    if (s.max_work != default_max_work) fmt::format_to(out, "max_work {}\n", s.max_work);
    if (!s.reflect_ahead) fmt::format_to(out, "reflect_ahead 0\n");
    if (!s.settle_by_period) fmt::format_to(out, "settle_by_period 0\n");
    for (const Perturbation& p : spec.perturb) {
        fmt::format_to(out, "perturb {} {} {:a} {} {}", p.key, p.relative, p.spread, static_cast<int>(p.distribution),
                       p.shared);
        for (std::size_t r : p.rods) fmt::format_to(out, " {}", r);
        text += '\n';
    }
    return fmt::format("{:016x}", fnv1a(text));
}

EnsembleResult ensemble(const std::string& title, const Chain& chain, const EnsembleOptions& options) {
    validate(options);
    check_ensemble_spec(options.spec, chain);
    validate(options.solver);
    EnsembleResult r;
    r.title = title;
    r.fingerprint = ensemble_fingerprint(chain, options.solver, options.spec);
    r.spec = options.spec;
    r.shard = options.shard;
    r.method = options.solver.method;
    r.rods = chain.size();
    r.columns = perturbed_values(options.spec, chain.size());
    const auto [first, last] = shard_range(options.spec.members, options.shard);
    r.members.resize(last - first);
    EnsembleOptions quiet = options;
    quiet.solver.progress = nullptr;  // the solver's callbacks are not thread-safe
    parallel_for(
        last - first, worker_threads(options.threads, last - first),
        [&](std::size_t j) { r.members[j] = solve_member(chain, quiet, r.columns, first + j); }, options.progress);
    return r;
}

EnsembleResult merge_ensembles(std::vector<EnsembleResult> parts, const std::vector<std::string>& names) {
    if (parts.empty()) throw InvalidInput("shard", "nothing to merge");
    const EnsembleResult& a = parts.front();
    const auto differ = [&](std::size_t i, std::string_view key, const std::string& mine, const std::string& first) {
        throw InvalidInput(std::string(key), fmt::format("{} has {}, but {} has {}: not shards of one ensemble",
                                                         names[i], mine, names[0], first));
    };
    std::vector<const EnsembleResult*> by_index(a.shard.count, nullptr);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const EnsembleResult& p = parts[i];
        if (p.fingerprint != a.fingerprint) differ(i, "fingerprint", p.fingerprint, a.fingerprint);
        if (p.title != a.title) differ(i, "title", fmt::format("{:?}", p.title), fmt::format("{:?}", a.title));
        if (p.spec.members != a.spec.members)
            differ(i, "members", std::to_string(p.spec.members), std::to_string(a.spec.members));
        if (p.spec.seed != a.spec.seed) differ(i, "seed", std::to_string(p.spec.seed), std::to_string(a.spec.seed));
        if (p.shard.count != a.shard.count)
            differ(i, "shard", fmt::format("shard {}/{}", p.shard.index, p.shard.count),
                   fmt::format("shard {}/{}", a.shard.index, a.shard.count));
        if (p.shard.index < 1 || p.shard.index > p.shard.count)
            throw InvalidInput("shard", fmt::format("{}: shard {}/{} is no shard", names[i], p.shard.index, p.shard.count));
        const EnsembleResult*& slot = by_index[p.shard.index - 1];
        if (slot)
            throw InvalidInput("shard", fmt::format("{}: shard {}/{} is given twice", names[i], p.shard.index,
                                                    p.shard.count));
        slot = &p;
        const auto [first, last] = shard_range(p.spec.members, p.shard);
        bool complete = p.members.size() == last - first;
        for (std::size_t j = 0; complete && j < p.members.size(); ++j)
            complete = p.members[j].index == first + j && p.members[j].final_velocity.size() == a.rods &&
                       p.members[j].perturbed.size() == a.columns.size();
        if (!complete)
            throw InvalidInput("data", fmt::format("{}: shard {}/{} should hold members {} to {}, one each", names[i],
                                                   p.shard.index, p.shard.count, first, last - 1));
    }
    std::vector<std::size_t> missing;
    for (std::size_t k = 0; k < by_index.size(); ++k)
        if (!by_index[k]) missing.push_back(k + 1);
    if (!missing.empty())
        throw InvalidInput("shard", fmt::format("shard{} {} of {} missing", missing.size() > 1 ? "s" : "",
                                                fmt::join(missing, ", "), a.shard.count));
    EnsembleResult whole;
    whole.title = a.title;
    whole.fingerprint = a.fingerprint;
    whole.spec = a.spec;
    whole.shard = Shard{};
    whole.method = a.method;
    whole.rods = a.rods;
    whole.columns = a.columns;
    for (const EnsembleResult* p : by_index)
        for (const EnsembleMember& m : p->members) whole.members.push_back(m);
    return whole;
}

double quantile(const std::vector<double>& sorted, double p) {
    const double h = p * static_cast<double>(sorted.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Statistics statistics(std::vector<double> values) {
    Statistics s;
    s.count = values.size();
    const double n = static_cast<double>(values.size());
    double sum = 0;
    for (double x : values) sum += x;
    s.mean = sum / n;
    double squares = 0;  // two passes: no cancellation for a narrow spread about a large mean
    for (double x : values) squares += (x - s.mean) * (x - s.mean);
    s.std = values.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
    s.sem = s.std / std::sqrt(n);
    std::sort(values.begin(), values.end());
    s.q05 = quantile(values, 0.05);
    s.q25 = quantile(values, 0.25);
    s.q50 = quantile(values, 0.50);
    s.q75 = quantile(values, 0.75);
    s.q95 = quantile(values, 0.95);
    return s;
}

EnsembleSummary summarize(const EnsembleResult& r, std::optional<double> precision) {
    EnsembleSummary s;
    for (const EnsembleMember& m : r.members) {
        if (m.failure.empty()) ++s.solved;
        else s.failed.push_back(&m);
    }
    if (s.solved == 0) throw std::invalid_argument("summarize: no member has an outcome");
    const auto over = [&](auto get) {
        std::vector<double> v;
        v.reserve(s.solved);
        for (const EnsembleMember& m : r.members)
            if (m.failure.empty()) v.push_back(get(m));
        return statistics(std::move(v));
    };
    for (std::size_t i = 0; i < r.rods; ++i) {
        s.final_velocity.push_back(over([i](const EnsembleMember& m) { return m.final_velocity[i]; }));
        if (s.final_velocity.back().sem > s.largest_sem || i == 0) {
            s.largest_sem = s.final_velocity.back().sem;
            s.largest_sem_rod = i;
        }
    }
    s.final_rigid = over([](const EnsembleMember& m) { return m.final_rigid; });
    s.final_vibration = over([](const EnsembleMember& m) { return m.final_vibration; });
    s.rigid_share = over([](const EnsembleMember& m) {
        const double total = m.final_rigid + m.final_vibration;
        return total > 0 ? m.final_rigid / total : 1.0;
    });
    s.closings = over([](const EnsembleMember& m) { return static_cast<double>(m.closings); });
    std::vector<double> settling;
    for (const EnsembleMember& m : r.members)
        if (m.failure.empty() && m.settled) settling.push_back(m.end_time);
    s.settled = settling.size();
    if (!settling.empty()) s.settling_time = statistics(std::move(settling));
    s.precision = precision;
    if (precision) {
        double needed = 1;
        for (const Statistics& v : s.final_velocity) needed = std::max(needed, std::ceil((v.std / *precision) * (v.std / *precision)));
        s.members_needed = needed < 1e18 ? static_cast<std::size_t>(needed) : std::numeric_limits<std::size_t>::max();
    }
    return s;
}

}  // namespace rodcollide
