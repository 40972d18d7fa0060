// One fuzz input, end to end, shared by the libFuzzer target (case_fuzzer.cpp) and the regression
// test over fuzz/regressions/ (tests/fuzz/test_fuzz_regressions.cpp): parse_case (the pre-parse
// scan, toml11, the typed reader, Chain's checks, the [ensemble] table's checks), then solve() with
// both methods, whose outcomes check themselves (outcome_check.hpp); with an [ensemble] table,
// one member is drawn and solved the same way, as `rodcollide ensemble` would. Bad input must end in CaseError; a reached cap, an
// unsupported request or a violated invariant is a refusal (exit 1 in the CLI). Anything else
// escaping, a crash or a sanitizer report is a defect. Each accepted outcome is checked again here,
// independently of the solver's own call, and must be finite as printed (JSON). Per-input work is
// capped (events, fronts, cells x steps) so runs stay fast.
#pragma once

#include "rodcollide/case_file.hpp"
#include "rodcollide/ensemble_spec.hpp"
#include "rodcollide/errors.hpp"
#include "outcome/outcome_check.hpp"
#include "rodcollide/outcome_report.hpp"
#include "rodcollide/solve.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rodcollide::fuzz {

/// What became of the inputs handed to one solver: `accepted` outcomes (each re-checked),
/// solves `capped` (stopped at a cap), `refused` before solving (the method does not carry the
/// case, or its grid would exceed the work limits) and `violations` (an outcome that failed its
/// self-check, refused). The solver ran on accepted + capped + violations of them.
struct MethodCounts {
    std::size_t accepted = 0, capped = 0, refused = 0, violations = 0;
    std::size_t reached() const { return accepted + capped + violations; }
};

/// What became of the inputs so far: refused as bad input, skipped (more rods than the fuzz
/// target's cap) or handed to both solvers; of those with an [ensemble] table, the members drawn
/// (each then handed to both solvers too) and those whose chain the model refused (bad input in
/// `rodcollide ensemble`).
struct Counts {
    std::size_t inputs = 0, refused_input = 0, skipped = 0;
    std::size_t members = 0, refused_members = 0;
    MethodCounts exact, finite_difference;
    std::size_t accepted() const { return exact.accepted + finite_difference.accepted; }
    std::size_t capped() const { return exact.capped + finite_difference.capped; }
    std::size_t violations() const { return exact.violations + finite_difference.violations; }
};

/// Bounds the work of one solve of `chain` (the caps a user could raise are lowered, never raised).
inline SolverOptions bounded(const Case& c, const Chain& chain, Method method) {
    SolverOptions o = c.solver;
    o.method = method;
    o.max_events = std::min<std::size_t>(o.max_events, 5000);
    o.max_fronts = std::min<std::size_t>(o.max_fronts, 20000);
    // The exact solver's delay network (rods with compliant junctions) and both rigid-body paths
    // (balls and masses alone) count their integration steps against max_work: a Hertz ball beside
    // a soft rod takes microsecond steps over second-long transits, and Verlet's fixed step on a
    // ball of 4e-71 kg beside one of 1.6e16 kg never ends, past the fuzzer's 20 s per input under
    // the sanitizers at the default 10^7 (the grid of rods does not use max_work).
    if (chain.compliant()) o.max_work = std::min<std::size_t>(o.max_work, 20000);
    // An attached (spring/dashpot) end never lets the chain settle: the exact paths and Verlet (balls
    // and masses alone) ask for end_time (InvalidInput naming solver.end_time, as a user is told);
    // the fuzzer gives one, as it gives the grid its horizon below.
    if (!o.end_time && (chain.ends().left.attached() || chain.ends().right.attached()))
        o.end_time = chain.elements().empty() ? 1.0 : 100 * chain.shortest_transit_time();
    if (method == Method::finite_difference && !chain.elements().empty()) {  // a grid (rigid bodies have none)
        // 4 cells in the shortest rod, and at most ~5e4 cell-updates per grid (a horizon of
        // hundreds of transit times).
        o.cells = std::min<std::size_t>(o.cells ? o.cells : 4, 4);
        double cells = 0;
        for (const Rod& r : chain.rods()) cells += 4 * r.transit_time() / chain.shortest_transit_time();
        // A compliant junction may take up to max_contact_substeps RK4 substeps a step (a Hertz
        // ball on a 4-cell rod takes thousands): 64x fewer steps keep such an input near a second.
        const double steps = 5e4 / std::max(cells, 1.0) / (chain.compliant() ? 64 : 1);
        const double horizon = steps * chain.shortest_transit_time() / 4;
        o.end_time = std::min(o.end_time.value_or(horizon), horizon);
        o.record_until.reset();
    }
    return o;
}

/// No null and no non-finite number anywhere in `j` (nlohmann writes nan and inf as null).
inline bool finite_json(const nlohmann::ordered_json& j) {
    if (j.is_null()) return false;
    if (j.is_number_float()) return std::isfinite(j.get<double>());
    if (j.is_structured())
        for (const auto& item : j)
            if (!finite_json(item)) return false;
    return true;
}

/// A defect found by run_case: what() says which.
struct Defect : std::logic_error {
    using std::logic_error::logic_error;
};

/// Solves `chain` (the case's, or an ensemble member's) with both methods and checks each outcome;
/// counts what became of it; throws Defect on a defect (with `strict`, a violated invariant too).
inline void solve_both(const Case& c, const Chain& chain, Counts& counts, bool strict) {
    for (Method method : {Method::characteristics, Method::finite_difference}) {
        MethodCounts& m = method == Method::characteristics ? counts.exact : counts.finite_difference;
        Outcome o;
        try {
            o = solve(chain, bounded(c, chain, method));
        } catch (const InvariantViolation& e) {
            ++m.violations;
            if (strict) throw Defect(e.what());
            continue;
        } catch (const SolverLimitExceeded&) {
            ++m.capped;
            continue;
        } catch (const InvalidResolution&) {
            ++m.refused;
            continue;
        } catch (const UnsupportedMethod&) {
            ++m.refused;
            continue;
        }
        ++m.accepted;
        check_outcome(o);  // throws InvariantViolation, a defect here, if the solver did not check
        nlohmann::ordered_json json = outcome_json(c.title, o);
        // The one documented null: no velocity error bound could be derived (+infinity).
        if (json.contains("velocity_error_bound") && json["velocity_error_bound"].is_null() &&
            std::isinf(o.velocity_error_bound))
            json.erase("velocity_error_bound");
        if (!finite_json(json)) throw Defect("non-finite value in an accepted outcome: " + json.dump());
    }
}

/// Runs one input; counts what became of it; throws Defect (or lets an unexpected exception
/// escape) on a defect. With `strict`, a violated invariant is a defect too. Returns false when
/// the input was refused as bad input.
inline bool run_case(const std::string& text, Counts& counts, bool strict = false) {
    ++counts.inputs;
    std::optional<Case> parsed;
    try {
        parsed.emplace(parse_case(text, "fuzz.toml"));
    } catch (const CaseError&) {
        ++counts.refused_input;
        return false;
    }
    const Case& c = *parsed;
    if (c.chain.size() > 64) {  // bounded work per input
        ++counts.skipped;
        return true;
    }
    solve_both(c, c.chain, counts, strict);
    if (c.ensemble) {
        // Member 1 (member 0 is as random): its draws and chain, as `rodcollide ensemble` makes them.
        const std::vector<PerturbedValue> columns = perturbed_values(*c.ensemble, c.chain.size());
        const std::vector<double> draws = member_draws(*c.ensemble, c.chain, columns, 1);
        std::optional<Chain> member;
        try {
            member.emplace(member_chain(c.chain, *c.ensemble, columns, draws));
        } catch (const InvalidInput&) {  // bad input in the CLI: a member's chain refused by the model
            ++counts.refused_members;
            return true;
        }
        ++counts.members;
        solve_both(c, *member, counts, strict);
    }
    return true;
}

}  // namespace rodcollide::fuzz
