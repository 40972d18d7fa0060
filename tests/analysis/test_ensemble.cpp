// Ensembles (ensemble.hpp, ensemble_spec.hpp): the statistics equal the closed forms' statistics
// computed from the same draws (two identical rods with a perturbed striker velocity, de
// Saint-Venant's strikers with perturbed lengths), the mean of a well-conditioned chain under tiny
// perturbations equals the unperturbed outcome within its standard error, the draws depend on
// (seed, k) only (identical for 1 and 2 threads, 1 shard and 4 merged shards), and bad input is
// refused up front naming its key.
#include "rodcollide/case_file.hpp"
#include "rodcollide/ensemble.hpp"
#include "rodcollide/errors.hpp"
#include "rodcollide/solve.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace rodcollide;

namespace {

Case load(const std::string& name) { return load_case(std::string(RODCOLLIDE_SOURCE_DIR) + "/cases/" + name); }

Perturbation perturb(std::string key, std::vector<std::size_t> rods, double spread, bool relative = true,
                     Distribution d = Distribution::uniform, bool shared = false) {
    Perturbation p;
    p.key = std::move(key);
    p.rods = std::move(rods);
    p.spread = spread;
    p.relative = relative;
    p.distribution = d;
    p.shared = shared;
    return p;
}

EnsembleOptions options_for(const Case& c, std::size_t members, std::vector<Perturbation> perturbations,
                            unsigned threads = 1) {
    EnsembleOptions o;
    o.spec.members = members;
    o.spec.seed = 7;
    o.spec.perturb = std::move(perturbations);
    o.threads = threads;
    o.solver = c.solver;
    return o;
}

/// Every number of two results, compared exactly.
void check_identical(const EnsembleResult& a, const EnsembleResult& b) {
    REQUIRE(a.members.size() == b.members.size());
    for (std::size_t k = 0; k < a.members.size(); ++k) {
        const EnsembleMember& x = a.members[k];
        const EnsembleMember& y = b.members[k];
        CHECK(x.index == y.index);
        CHECK(x.perturbed == y.perturbed);
        CHECK(x.final_velocity == y.final_velocity);
        CHECK(x.final_rigid == y.final_rigid);
        CHECK(x.final_vibration == y.final_vibration);
        CHECK(x.settled == y.settled);
        CHECK(x.end_time == y.end_time);
        CHECK(x.closings == y.closings);
    }
}

void check_statistics_match(const Statistics& got, const Statistics& want, double tolerance) {
    CHECK(got.count == want.count);
    CHECK(got.mean == Approx(want.mean).margin(tolerance));
    CHECK(got.std == Approx(want.std).margin(tolerance));
    CHECK(got.sem == Approx(want.sem).margin(tolerance));
    CHECK(got.q05 == Approx(want.q05).margin(tolerance));
    CHECK(got.q50 == Approx(want.q50).margin(tolerance));
    CHECK(got.q95 == Approx(want.q95).margin(tolerance));
}

/// The InvalidInput key check_ensemble_spec throws for `spec` on the chain ("" if it accepts it).
std::string refused_key(const EnsembleSpec& spec, const Chain& chain) {
    try {
        check_ensemble_spec(spec, chain);
    } catch (const InvalidInput& e) {
        return e.key();
    }
    return "";
}

}  // namespace

TEST_CASE("ensemble statistics: sample statistics and type-7 quantiles", "[ensemble]") {
    const Statistics s = statistics({4, 1, 3, 2, 5});
    CHECK(s.count == 5);
    CHECK(s.mean == 3);
    CHECK(s.std == Approx(std::sqrt(2.5)));  // n - 1 in the denominator
    CHECK(s.sem == Approx(std::sqrt(2.5) / std::sqrt(5.0)));
    CHECK(s.q50 == 3);
    CHECK(s.q05 == Approx(1.2));  // h = 0.05 * 4 = 0.2 between 1 and 2 (numpy.quantile's default)
    CHECK(s.q95 == Approx(4.8));
    const Statistics one = statistics({2.5});
    CHECK(one.std == 0);
    CHECK(one.q05 == 2.5);
    CHECK(one.q95 == 2.5);
}

TEST_CASE("ensemble draws: member k's depend on (seed, k) only, and follow their distribution", "[ensemble]") {
    const Case c = load("seed000_two_rods.toml");
    EnsembleSpec spec;
    spec.perturb = {perturb("velocity", {0}, 0.5, false, Distribution::uniform),
                    perturb("length", {}, 0.2, true, Distribution::normal)};
    spec.seed = 3;
    const std::vector<PerturbedValue> columns = perturbed_values(spec, c.chain.size());
    REQUIRE(columns.size() == 3);  // velocity of rod 0, length of rods 0 and 1
    CHECK(member_draws(spec, c.chain, columns, 12) == member_draws(spec, c.chain, columns, 12));
    CHECK(member_draws(spec, c.chain, columns, 12) != member_draws(spec, c.chain, columns, 13));
    EnsembleSpec other = spec;
    other.seed = 4;
    CHECK(member_draws(spec, c.chain, columns, 12) != member_draws(other, c.chain, columns, 12));

    // Uniform on [1 - 0.5, 1 + 0.5): mean 1, std 0.5/sqrt(3); normal lengths: mean 1, std 0.2
    // (truncation at 4 sd changes the std by 1e-3 relative), never beyond 4 sd.
    constexpr std::size_t n = 100'000;
    std::vector<double> velocity, length;
    for (std::size_t k = 0; k < n; ++k) {
        const std::vector<double> d = member_draws(spec, c.chain, columns, k);
        velocity.push_back(d[0]);
        length.push_back(d[1]);
        REQUIRE(std::abs(d[0] - 1) <= 0.5);
        REQUIRE(std::abs(d[1] - 1) <= 4 * 0.2 + 1e-15);
        REQUIRE(std::abs(d[2] - 1) <= 4 * 0.2 + 1e-15);
    }
    const Statistics v = statistics(velocity), l = statistics(length);
    CHECK(std::abs(v.mean - 1) < 5 * v.sem);
    CHECK(v.std == Approx(0.5 / std::sqrt(3.0)).epsilon(0.01));
    CHECK(std::abs(l.mean - 1) < 5 * l.sem);
    CHECK(l.std == Approx(0.2).epsilon(0.01));
    CHECK(l.q50 == Approx(1).margin(0.005));
    CHECK(l.q95 - 1 == Approx(1.6449 * 0.2).epsilon(0.02));

    // Shared: one draw for both rods' lengths.
    spec.perturb[1].shared = true;
    for (std::size_t k = 0; k < 100; ++k) {
        const std::vector<double> d = member_draws(spec, c.chain, columns, k);
        CHECK(d[1] == d[2]);
    }
}

TEST_CASE("ensemble: two identical rods with a perturbed striker velocity exchange it exactly", "[ensemble]") {
    // Identical rods in contact (docs/physics.md §2.5): u+ = (0, V) for any V, no vibration.
    const Case c = load("seed000_two_rods.toml");
    const EnsembleResult r = ensemble(c.title, c.chain, options_for(c, 200, {perturb("velocity", {0}, 0.1)}));
    REQUIRE(r.members.size() == 200);
    std::vector<double> v;
    for (const EnsembleMember& m : r.members) {
        CHECK(m.final_velocity[0] == Approx(0).margin(1e-12));
        CHECK(m.final_velocity[1] == Approx(m.perturbed[0]).epsilon(1e-12));
        CHECK(m.final_vibration == Approx(0).margin(1e-12));
        CHECK(m.settled);
        CHECK(m.closings == 1);
        v.push_back(m.perturbed[0]);
    }
    const EnsembleSummary s = summarize(r);
    check_statistics_match(s.final_velocity[1], statistics(v), 1e-12);
    CHECK(s.final_velocity[0].std == Approx(0).margin(1e-12));
    CHECK(s.settled == 200);
    CHECK(s.rigid_share.mean == Approx(1).epsilon(1e-12));
    // Either solver: the finite-difference grid is exact for identical rods (Courant 1).
    EnsembleOptions fd = options_for(c, 20, {perturb("velocity", {0}, 0.1)});
    fd.solver.method = Method::finite_difference;
    fd.solver.cells = 50;
    const EnsembleResult grid = ensemble(c.title, c.chain, fd);
    CHECK(grid.method == Method::finite_difference);
    for (std::size_t k = 0; k < grid.members.size(); ++k) {
        CHECK(grid.members[k].perturbed == r.members[k].perturbed);  // the same draws
        CHECK(grid.members[k].final_velocity[1] == Approx(grid.members[k].perturbed[0]).epsilon(1e-9));
    }
    // The draws are uniform on 1 +- 0.1: the ensemble's mean and spread are theirs.
    CHECK(std::abs(s.final_velocity[1].mean - 1) < 4 * s.final_velocity[1].sem);
    CHECK(s.final_velocity[1].std == Approx(0.1 / std::sqrt(3.0)).epsilon(0.15));
}

TEST_CASE("ensemble: de Saint-Venant's strikers with perturbed lengths follow the closed form", "[ensemble]") {
    // Same material and section, lengths L1 and L2 = 0.5 m (1 +- 10 %), each its own draw, so that
    // both branches of the closed form occur (docs/physics.md §2.5): L1 <= L2: target V L1/L2,
    // striker 0, rigid share L1/L2; L1 > L2: target V, striker V (L1 - L2)/L1, rigid share
    // (L1^2 - L1 L2 + L2^2)/L1^2.
    const Case c = parse_case(R"([defaults]
area = 3.141592653589793e-4
density = 7850.0
youngs_modulus = 210e9
[[rod]]
length = 0.5
velocity = 1.0
[[rod]]
length = 0.5
)",
                              "saint_venant.toml");
    const EnsembleResult r = ensemble(c.title, c.chain, options_for(c, 120, {perturb("length", {}, 0.1)}, 2));
    std::vector<double> striker, target, share;
    std::size_t longer = 0;
    for (const EnsembleMember& m : r.members) {
        const double L1 = m.perturbed[0], L2 = m.perturbed[1], V = 1;
        const double u1 = L1 <= L2 ? 0 : V * (L1 - L2) / L1;
        const double u2 = L1 <= L2 ? V * L1 / L2 : V;
        const double rigid = L1 <= L2 ? L1 / L2 : (L1 * L1 - L1 * L2 + L2 * L2) / (L1 * L1);
        longer += L1 > L2;
        CHECK(m.final_velocity[0] == Approx(u1).margin(1e-9));
        CHECK(m.final_velocity[1] == Approx(u2).margin(1e-9));
        CHECK(m.final_rigid / (m.final_rigid + m.final_vibration) == Approx(rigid).margin(1e-9));
        striker.push_back(u1);
        target.push_back(u2);
        share.push_back(rigid);
    }
    CHECK(longer > 20);  // both branches are sampled
    CHECK(longer < 100);
    const EnsembleSummary s = summarize(r);
    check_statistics_match(s.final_velocity[0], statistics(striker), 1e-9);
    check_statistics_match(s.final_velocity[1], statistics(target), 1e-9);
    check_statistics_match(s.rigid_share, statistics(share), 1e-9);
}

TEST_CASE("ensemble: a well-conditioned chain's mean under tiny perturbations is the unperturbed outcome", "[ensemble]") {
    // Four rods with gaps and equal transit times (cases/chain_with_gaps.toml): each impact is a
    // rigid elastic two-body impact, so the outcome is smooth in the data. Perturbing the striker's
    // velocity by 1e-6 and the gaps by 1e-3 (normal), the ensemble's mean of every rod's final
    // velocity equals the unperturbed outcome within three standard errors (a fixed seed: the
    // check is deterministic; the sem is 1e-7 of the velocities).
    const Case c = load("chain_with_gaps.toml");
    const Outcome nominal = solve(c.chain, c.solver);
    const EnsembleResult r = ensemble(
        c.title, c.chain,
        options_for(c, 100, {perturb("velocity", {0}, 1e-6, true, Distribution::normal),
                             perturb("gap", {}, 1e-3, true, Distribution::normal)}, 2));
    const EnsembleSummary s = summarize(r, 1e-9);
    for (std::size_t i = 0; i < c.chain.size(); ++i) {
        INFO("rod " << i);
        const Statistics& v = s.final_velocity[i];
        // Linear in the striker's velocity (the gaps only shift the impacts in time): the spread
        // is the draws' 1e-6 relative, carried to every rod.
        CHECK(v.std == Approx(1e-6 * nominal.rods[i].final_velocity).epsilon(0.25));
        CHECK(std::abs(v.mean - nominal.rods[i].final_velocity) <= 3 * v.sem);
    }
    // The convergence statement: the members needed for a sem of 1e-9 is (std / 1e-9)^2.
    double needed = 0;
    for (const Statistics& v : s.final_velocity) needed = std::max(needed, std::ceil(std::pow(v.std / 1e-9, 2)));
    REQUIRE(s.members_needed);
    CHECK(static_cast<double>(*s.members_needed) == needed);
    CHECK(s.settled == 100);
}

TEST_CASE("ensemble: identical for 1 and 2 threads, and for 1 shard and 4 merged shards", "[ensemble][shard]") {
    const Case c = load("rod_train_mixed.toml");
    const std::vector<Perturbation> p = {perturb("velocity", {}, 0.01, true, Distribution::normal),
                                         perturb("density", {1, 2}, 0.02, true, Distribution::uniform, true)};
    const EnsembleResult one = ensemble(c.title, c.chain, options_for(c, 37, p, 1));
    const EnsembleResult two = ensemble(c.title, c.chain, options_for(c, 37, p, 2));
    check_identical(one, two);
    std::vector<EnsembleResult> parts;
    std::vector<std::string> names;
    for (std::size_t k = 4; k >= 1; --k) {  // any order
        EnsembleOptions o = options_for(c, 37, p, 2);
        o.shard = {k, 4};
        // Through the shard file, as merge reads it.
        parts.push_back(ensemble_from_json(nlohmann::json::parse(ensemble_json(ensemble(c.title, c.chain, o), std::nullopt, true).dump())));
        names.push_back(fmt::format("part{}.json", k));
    }
    const EnsembleResult merged = merge_ensembles(parts, names);
    check_identical(one, merged);
    CHECK(ensemble_json(merged, 1e-3).dump() == ensemble_json(one, 1e-3).dump());
    CHECK(ensemble_table(merged) == ensemble_table(one));
    CHECK(ensemble_csv(merged) == ensemble_csv(one));

    SECTION("merge refuses parts that do not belong together") {
        const auto refused = [&](std::vector<EnsembleResult> ps, const std::string& key, const std::string& words) {
            try {
                merge_ensembles(std::move(ps), names);
                FAIL("merged");
            } catch (const InvalidInput& e) {
                CHECK(e.key() == key);
                CHECK_THAT(e.message(), Catch::Contains(words));
            }
        };
        std::vector<EnsembleResult> missing(parts.begin(), parts.begin() + 3);
        refused(missing, "shard", "shard 1 of 4 missing");
        std::vector<EnsembleResult> twice = parts;
        twice[1] = parts[0];
        refused(twice, "shard", "given twice");
        std::vector<EnsembleResult> seed = parts;
        seed[2].spec.seed = 8;
        refused(seed, "seed", "not shards of one ensemble");
        std::vector<EnsembleResult> members = parts;
        members[1].spec.members = 38;
        refused(members, "members", "not shards of one ensemble");
        std::vector<EnsembleResult> other_case = parts;
        other_case[3].fingerprint = "0123456789abcdef";
        refused(other_case, "fingerprint", "not shards of one ensemble");
        std::vector<EnsembleResult> count = parts;
        count[1].shard.count = 5;
        refused(count, "shard", "not shards of one ensemble");
    }
}

TEST_CASE("ensemble fingerprint: the case, solver and perturbations, not the seed or size", "[ensemble][shard]") {
    const Case c = load("rod_train_mixed.toml");
    EnsembleSpec spec;
    spec.perturb = {perturb("velocity", {0}, 0.01)};
    const std::string f = ensemble_fingerprint(c.chain, c.solver, spec);
    EnsembleSpec other = spec;
    other.seed = 99;
    other.members = 5;
    CHECK(ensemble_fingerprint(c.chain, c.solver, other) == f);
    other.perturb[0].spread = 0.02;
    CHECK(ensemble_fingerprint(c.chain, c.solver, other) != f);
    SolverOptions fd = c.solver;
    fd.method = Method::finite_difference;
    CHECK(ensemble_fingerprint(c.chain, fd, spec) != f);
    CHECK(ensemble_fingerprint(load("steel_cradle_5.toml").chain, c.solver, spec) != f);
}

TEST_CASE("ensemble: spreads that could make a quantity non-positive are refused up front", "[ensemble][input]") {
    const Case c = load("chain_with_gaps.toml");  // lengths 4, 2, 1, 0.5; gaps 0.5, 2, 2
    const auto spec = [](Perturbation p, std::size_t members = 10) {
        EnsembleSpec s;
        s.members = members;
        s.perturb = {std::move(p)};
        return s;
    };
    CHECK(refused_key(spec(perturb("length", {}, 0.99)), c.chain) == "");
    CHECK(refused_key(spec(perturb("length", {}, 1.0)), c.chain) == "perturb[0].relative");
    CHECK(refused_key(spec(perturb("area", {}, 0.24, true, Distribution::normal)), c.chain) == "");
    CHECK(refused_key(spec(perturb("area", {}, 0.25, true, Distribution::normal)), c.chain) == "perturb[0].relative");
    CHECK(refused_key(spec(perturb("youngs_modulus", {3}, 0.2499, false)), c.chain) == "");  // E = 0.25
    CHECK(refused_key(spec(perturb("youngs_modulus", {3}, 0.25, false)), c.chain) == "perturb[0].absolute");
    CHECK(refused_key(spec(perturb("density", {}, 0.25, false, Distribution::normal)), c.chain) == "perturb[0].absolute");
    CHECK(refused_key(spec(perturb("gap", {}, 0.5, false)), c.chain) == "");  // rod 1's gap 0.5 may reach 0
    CHECK(refused_key(spec(perturb("gap", {}, 0.51, false)), c.chain) == "perturb[0].absolute");
    CHECK(refused_key(spec(perturb("gap", {0}, 0.1)), c.chain) == "perturb[0].rods");
    CHECK(refused_key(spec(perturb("velocity", {4}, 0.1)), c.chain) == "perturb[0].rods");
    CHECK(refused_key(spec(perturb("velocity", {}, 1e6, false)), c.chain) == "");  // velocities may take any sign
    CHECK(refused_key(spec(perturb("mass", {}, 0.1)), c.chain) == "perturb[0].key");
    CHECK(refused_key(spec(perturb("length", {}, -0.1)), c.chain) == "perturb[0].relative");
    CHECK(refused_key(spec(perturb("length", {}, std::nan(""))), c.chain) == "perturb[0].relative");
    CHECK(refused_key(spec(perturb("length", {}, 0.1), 0), c.chain) == "members");
    CHECK(refused_key(spec(perturb("length", {}, 0.1), max_ensemble_members + 1), c.chain) == "members");
    EnsembleSpec twice = spec(perturb("velocity", {0, 1}, 0.1));
    twice.perturb.push_back(perturb("velocity", {1}, 0.1));
    CHECK(refused_key(twice, c.chain) == "perturb[1].rods");
    // The cap on the members' numbers: a 100,000-rod chain cannot have a million members.
    EnsembleOptions o;
    o.spec = spec(perturb("velocity", {0}, 0.1), 10);
    o.shard = {11, 10};
    CHECK_THROWS_AS(validate(o), InvalidInput);
    o.shard = {1, 11};
    CHECK_THROWS_WITH(validate(o), Catch::Contains("shard: k/n needs 1 <= k <= n <= members (10)"));
}

TEST_CASE("ensemble case file: [ensemble] is read, and its mistakes are one line naming file, line and key",
          "[ensemble][input]") {
    const std::string rods = "[defaults]\nlength = 1.0\narea = 1.0\ndensity = 1.0\nyoungs_modulus = 1.0\n"
                             "[[rod]]\nvelocity = 1.0\n[[rod]]\n";
    const Case c = parse_case(rods + "[ensemble]\nmembers = 50\nseed = 9\n[[ensemble.perturb]]\nkey = \"velocity\"\n"
                                     "rods = [0]\nabsolute = 0.01\ndistribution = \"normal\"\nshared = true\n",
                              "e.toml");
    REQUIRE(c.ensemble);
    CHECK(c.ensemble->members == 50);
    CHECK(c.ensemble->seed == 9);
    REQUIRE(c.ensemble->perturb.size() == 1);
    const Perturbation& p = c.ensemble->perturb[0];
    CHECK(p.key == "velocity");
    CHECK(p.rods == std::vector<std::size_t>{0});
    CHECK(!p.relative);
    CHECK(p.spread == 0.01);
    CHECK(p.distribution == Distribution::normal);
    CHECK(p.shared);
    CHECK(!parse_case(rods, "plain.toml").ensemble);

    const auto refused = [&](const std::string& ensemble, const std::string& line) {
        INFO(ensemble);
        try {
            parse_case(rods + ensemble, "e.toml");
            FAIL("accepted");
        } catch (const CaseError& e) {
            CHECK(std::string(e.what()).starts_with(line));
        }
    };
    refused("[ensemble]\nmember = 5\n", "e.toml:10: ensemble.member: unknown key; did you mean \"members\"?");
    refused("[ensemble]\nmembers = 0\n", "e.toml:10: ensemble.members: must be > 0, got 0");
    refused("[ensemble]\nmembers = 1000001\n", "e.toml:10: ensemble.members: must be in [1, 1000000], got 1000001");
    refused("[ensemble]\nseed = -1\n", "e.toml:10: ensemble.seed: must be in [0,");
    refused("[[ensemble.perturb]]\nkey = \"velocity\"\nrelative = 0.1\nspread = 2\n",
            "e.toml:12: ensemble.perturb[0].spread: unknown key");
    refused("[[ensemble.perturb]]\nkey = \"mass\"\nrelative = 0.1\n",
            "e.toml:10: ensemble.perturb[0].key: unknown rod key \"mass\"; valid: length, area, density, youngs_modulus, velocity, gap");
    refused("[[ensemble.perturb]]\nrelative = 0.1\n", "e.toml:9: ensemble.perturb[0].key: missing");
    refused("[[ensemble.perturb]]\nkey = \"length\"\n", "e.toml:9: ensemble.perturb[0].relative: missing");
    refused("[[ensemble.perturb]]\nkey = \"length\"\nrelative = 0.1\nabsolute = 0.1\n",
            "e.toml:12: ensemble.perturb[0].absolute: give relative or absolute, not both");
    refused("[[ensemble.perturb]]\nkey = \"length\"\nrelative = 1.5\n",
            "e.toml:11: ensemble.perturb[0].relative: a uniform spread of 1.5 could make length non-positive");
    refused("[[ensemble.perturb]]\nkey = \"length\"\nrods = [2]\nrelative = 0.1\n",
            "e.toml:11: ensemble.perturb[0].rods: must be rod indices in [0, 1], got 2");
    refused("[[ensemble.perturb]]\nkey = \"length\"\nrelative = 0.1\ndistribution = \"gauss\"\n",
            "e.toml:12: ensemble.perturb[0].distribution: unknown distribution \"gauss\"; valid: uniform, normal");
    refused("[[ensemble.perturb]]\nkey = \"length\"\nrelative = 0.1\nshared = 1\n",
            "e.toml:12: ensemble.perturb[0].shared: must be true or false");
}

TEST_CASE("ensemble --perturb: one line of [[ensemble.perturb]] keys", "[ensemble][input]") {
    const Perturbation p = parse_perturbation("key = \"length\", rods = [0, 2], relative = 1e-6", "--perturb");
    CHECK(p.key == "length");
    CHECK(p.rods == std::vector<std::size_t>{0, 2});
    CHECK(p.relative);
    CHECK(p.spread == 1e-6);
    CHECK(p.distribution == Distribution::uniform);
    CHECK_THROWS_WITH(parse_perturbation("key = \"length\", spread = 1", "--perturb"),
                      Catch::Contains("perturb.spread: unknown key"));
    CHECK_THROWS_AS(parse_perturbation("key = \"length\", relative = 0.1}, x = {", "--perturb"), CaseError);
    CHECK_THROWS_AS(parse_perturbation("key = \"length\"\nrelative = 0.1", "--perturb"), CaseError);
}

TEST_CASE("ensemble: a member without an outcome is kept as failed, listed, and left out of the statistics",
          "[ensemble][shard]") {
    const Case c = load("chain_with_gaps.toml");
    EnsembleOptions capped = options_for(c, 3, {perturb("velocity", {0}, 0.01)});
    capped.solver.max_events = 3;  // the chain needs more: every member reaches the cap
    const EnsembleResult none = ensemble(c.title, c.chain, capped);
    for (const EnsembleMember& m : none.members) {
        CHECK_THAT(m.failure, Catch::StartsWith(fmt::format("member {} (seed 7): characteristics solver: reached max_events", m.index)));
        CHECK(std::isnan(m.final_velocity[0]));
        CHECK(m.perturbed.size() == 1);  // its draws are kept
    }
    CHECK_THROWS_AS(summarize(none), std::invalid_argument);

    // One failed member among others (as a solver defect would leave it): the statistics are the
    // others', and the shard file carries the failure to merge.
    EnsembleResult r = ensemble(c.title, c.chain, options_for(c, 6, {perturb("velocity", {0}, 0.01)}));
    const EnsembleSummary all = summarize(r);
    std::vector<double> others;
    for (const EnsembleMember& m : r.members)
        if (m.index != 2) others.push_back(m.final_velocity[3]);
    r.members[2] = none.members[0];
    r.members[2].index = 2;
    const EnsembleSummary s = summarize(r);
    CHECK(s.solved == 5);
    REQUIRE(s.failed.size() == 1);
    CHECK(s.failed[0]->index == 2);
    check_statistics_match(s.final_velocity[3], statistics(others), 0);
    CHECK(s.final_velocity[3].mean != all.final_velocity[3].mean);
    const nlohmann::ordered_json doc = ensemble_json(r, std::nullopt, true);
    CHECK(doc["failed"].size() == 1);
    CHECK(doc["failed"][0]["member"] == 2);
    const EnsembleResult back = ensemble_from_json(nlohmann::json::parse(doc.dump()));
    CHECK(back.members[2].failure == r.members[2].failure);
    CHECK(std::isnan(back.members[2].final_velocity[3]));
    CHECK(ensemble_json(back, std::nullopt, true).dump() == doc.dump());
    CHECK_THAT(ensemble_table(r), Catch::Contains("FAILED: 1 of 6 members have no outcome"));
    CHECK_THAT(ensemble_csv(r), Catch::Contains("2,"));
}

TEST_CASE("ensemble: a shard in which every member failed still goes to merge, and the whole is one run's",
          "[ensemble][shard]") {
    // Under mpirun a rank's shard travels as this JSON, and in a job array it is merge's part: a
    // shard without a solved member is no error while the others solved some.
    const Case c = load("chain_with_gaps.toml");
    EnsembleOptions capped = options_for(c, 3, {perturb("velocity", {0}, 0.01)});
    capped.solver.max_events = 3;  // every member reaches the cap
    const EnsembleResult none = ensemble(c.title, c.chain, capped);
    const EnsembleOptions options = options_for(c, 6, {perturb("velocity", {0}, 0.01)});
    EnsembleResult whole = ensemble(c.title, c.chain, options);
    std::vector<EnsembleResult> shards;
    for (std::size_t k = 1; k <= 2; ++k) {
        EnsembleOptions o = options;
        o.shard = {k, 2};
        shards.push_back(ensemble(c.title, c.chain, o));
    }
    for (std::size_t i = 0; i < 3; ++i) {  // members 3, 4, 5 (shard 2) failed
        const std::size_t index = shards[1].members[i].index;
        shards[1].members[i] = none.members[i];
        shards[1].members[i].index = index;
        whole.members[index] = shards[1].members[i];
    }
    CHECK_THROWS_AS(ensemble_json(shards[1]), std::invalid_argument);  // a report needs a solved member
    const nlohmann::ordered_json doc = ensemble_json(shards[1], std::nullopt, true);
    for (const char* key : {"rods", "energy", "settling_time", "closings", "settled", "reached_horizon", "convergence"})
        CHECK(doc[key].is_null());
    CHECK(doc["failed"].size() == 3);
    const EnsembleResult back = ensemble_from_json(nlohmann::json::parse(doc.dump()));
    CHECK(ensemble_json(back, std::nullopt, true).dump() == doc.dump());
    const EnsembleResult merged = merge_ensembles({shards[0], back}, {"part1", "part2"});
    CHECK(ensemble_json(merged).dump() == ensemble_json(whole).dump());
    CHECK(ensemble_csv(merged) == ensemble_csv(whole));
    CHECK(summarize(merged).solved == 3);
}
