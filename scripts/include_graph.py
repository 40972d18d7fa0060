#!/usr/bin/env python3
"""The library's include graph, and the layering check that keeps it pointing one way.

    scripts/include_graph.py                 counts: files per folder, the largest file, include
                                             arrows, the longest include chain, arrows against
                                             the layering
    scripts/include_graph.py --check         exit 1, one line per arrow, when an #include goes
                                             against the layering (ctest `layering`)
    scripts/include_graph.py --self-test     shows that --check fails on fabricated inversions
                                             (ctest `layering_self_test`)
    --root DIR     read another tree (e.g. `git archive main | tar -x -C DIR`)
    --renames FILE for a tree from before the stage folders: lines "OLD NEW" (as printed by
                   `git diff -M --name-status main HEAD`), placing each old file in the stage of
                   its new path, so that old and new trees are counted against the same layering

The graph: every file of the library (src/, include/rodcollide/) and of the command line
(src/cli/); an arrow per distinct `#include "..."` that names one of them. Standard library and
third-party headers (<...>) are not counted. Standard library only: any python3 runs it.
"""

import argparse
import collections
import os
import re
import sys
import tempfile

# ---- The layering, written once ------------------------------------------------------------------
#
# The stages of the pipeline, lowest first: case file -> Chain -> solver -> Outcome -> comparison,
# report, figure. A file may include files of its own stage and of stages above it in this list;
# never one below it. Stages on one line are siblings: neither includes the other (the exact and
# the finite-difference solver share only what solvers/shared holds).
STAGES = """
    base
    model
    input   outcome
    solvers/shared
    sampling
    solvers/exact   solvers/fd
    solvers
    report
    analysis
    validation
    figures
    cli
"""

# Inside a stage files include each other freely, except in the stages listed here, whose files
# are layered too (the same rule, one file per level, lowest first; a .cpp sits at its header's
# level). solvers/shared is where both solvers meet: the small types first, the wave field and
# the settling proof on them, the bookkeeping of contacts and ends, then the outcome builder that
# reads it all.
WITHIN = {
    "solvers/shared": """
        time_shift arrival_window junction invariant_energy wave_field settling
        contact_record end_flux chain_end_state outcome_builder free_rod_motion
    """,
}

# The public API (include/rodcollide/, installed): each header belongs to the stage of the source
# file of its name (src/<stage>/<name>.cpp); the headers below have none. The umbrella
# rodcollide.hpp includes them all and is for clients only: nothing in src/ includes it.
PUBLIC_STAGE = {
    "elements": "model",
    "gauge": "model",
    "gauge_signals": "sampling",
    "validation": "validation",
}
UMBRELLA = "include/rodcollide/rodcollide.hpp"

# No include cycles anywhere: a source file and the header of its name count as one unit
# (toml_shape.cpp including toml_input.hpp, which includes toml_shape.hpp, is a cycle).


def parse_stages():
    rank, order = {}, []
    for level, line in enumerate(l for l in STAGES.split("\n") if l.strip()):
        for stage in line.split():
            rank[stage] = level
            order.append(stage)
    return rank, order


STAGE_RANK, STAGE_ORDER = parse_stages()
WITHIN_RANK = {stage: {name: i for i, name in enumerate(names.split())} for stage, names in WITHIN.items()}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCE_EXT = (".hpp", ".cpp", ".h")


def project_files(root):
    files = []
    for top in ("src", "include"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(SOURCE_EXT):
                    files.append(os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/"))
    return sorted(files)


def resolve(root, including, target, files):
    here = os.path.dirname(including)
    for base in (here, "include", "src"):
        path = os.path.normpath(os.path.join(base, target)).replace(os.sep, "/")
        if path in files:
            return path
    return None


def read_graph(root):
    files = set(project_files(root))
    arrows, lines, unresolved = set(), {}, []
    for f in sorted(files):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        lines[f] = text.count("\n")
        for m in INCLUDE.finditer(text):
            to = resolve(root, f, m.group(1), files)
            if to is None:
                unresolved.append((f, m.group(1)))
            elif to != f:
                arrows.add((f, to))
    return files, arrows, lines, unresolved


def stem(path):
    base = path.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0]


def stage_of(path, files, renames):
    """The stage a file belongs to, or None (outside the layering: the umbrella header)."""
    if path in renames:
        path = renames[path]
    if path == UMBRELLA:
        return None
    if path.startswith("src/"):
        folder = path[len("src/"):].rsplit("/", 1)[0] if "/" in path[len("src/"):] else ""
        # The deepest stage that holds the folder: src/analysis/laws/ is in analysis.
        while folder and folder not in STAGE_RANK:
            folder = folder.rsplit("/", 1)[0] if "/" in folder else ""
        return folder or "(no stage)"
    if path.startswith("include/rodcollide/"):
        name = path[len("include/rodcollide/"):].rsplit(".", 1)[0]
        if name in PUBLIC_STAGE:
            return PUBLIC_STAGE[name]
        targets = [renames.get(f, f) for f in files]
        homes = [t for t in targets if t.startswith("src/") and not t.startswith("src/cli/") and
                 t.endswith("/" + name + ".cpp")]
        if len(homes) == 1:
            return stage_of(homes[0], [], {})
        return "(no stage)"
    return "(no stage)"


def level_in_stage(path, stage, renames):
    names = WITHIN_RANK.get(stage)
    if names is None:
        return None
    return names.get(stem(renames.get(path, path)))


def units_of(files):
    """Maps each file to its unit: a source file and the header of its name in the same folder
    (src/input/toml_shape.cpp and .hpp). A public header is a unit of its own: the private headers
    of its stage may build on it, and its source file on them."""
    return {f: f.rsplit(".", 1)[0] for f in files}


def violations(files, arrows, renames):
    out = []
    for a, b in sorted(arrows):
        sa, sb = stage_of(a, files, renames), stage_of(b, files, renames)
        if b == UMBRELLA or renames.get(b) == UMBRELLA:
            if a.startswith("src/") or a.startswith("include/"):
                out.append((a, b, "includes the umbrella header, which is for clients only"))
            continue
        if sa is None:
            continue
        if "(no stage)" in (sa, sb):
            out.append((a, b, f"{a if sa == '(no stage)' else b} is in no stage (scripts/include_graph.py STAGES)"))
            continue
        if a.startswith("include/") and not b.startswith("include/") and not renames:
            out.append((a, b, "a public header includes a private one (it would not compile installed)"))
            continue
        ra, rb = STAGE_RANK[sa], STAGE_RANK[sb]
        if rb > ra:
            out.append((a, b, f"{sa} includes {sb}, a later stage"))
        elif rb == ra and sa != sb:
            out.append((a, b, f"{sa} includes {sb}, a sibling stage"))
        elif sa == sb:
            la, lb = level_in_stage(a, sa, renames), level_in_stage(b, sb, renames)
            if la is not None and lb is not None and lb > la:
                out.append((a, b, f"in {sa}, {stem(renames.get(a, a))} includes {stem(renames.get(b, b))}, listed after it"))
    # Cycles between units (a file and its header together).
    unit = units_of(files)
    graph = collections.defaultdict(set)
    for a, b in arrows:
        if unit[a] != unit[b]:
            graph[unit[a]].add(unit[b])
    for comp in strongly_connected(graph):
        if len(comp) > 1:
            members = sorted(comp)
            cyc = [(a, b) for a, b in sorted(arrows) if unit[a] in comp and unit[b] in comp and unit[a] != unit[b]]
            for a, b in cyc:
                out.append((a, b, "include cycle between " + ", ".join(m.split("/")[-1] for m in members)))
    return out


def strongly_connected(graph):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    nodes = set(graph) | {b for bs in graph.values() for b in bs}

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def longest_chain(files, arrows):
    """Levels of the include graph: files on its longest include chain (cycles count once)."""
    graph = collections.defaultdict(set)
    for a, b in arrows:
        graph[a].add(b)
    comps = strongly_connected({f: graph.get(f, set()) for f in files})
    comp_of = {v: i for i, c in enumerate(comps) for v in c}
    cgraph = collections.defaultdict(set)
    for a, b in arrows:
        if comp_of[a] != comp_of[b]:
            cgraph[comp_of[a]].add(comp_of[b])
    memo = {}

    def depth(c):
        if c not in memo:
            memo[c] = 1 + max((depth(d) for d in cgraph.get(c, ())), default=0)
        return memo[c]

    return max((depth(c) for c in range(len(comps))), default=0)


def counts(root, renames):
    files, arrows, lines, unresolved = read_graph(root)
    folders = collections.Counter(f.rsplit("/", 1)[0] for f in files)
    largest = max(files, key=lambda f: lines[f])
    bad = violations(files, arrows, renames)
    print(f"files: {len(files)} in {len(folders)} folders")
    for folder, n in sorted(folders.items()):
        print(f"  {folder + '/':36} {n:3}")
    print(f"largest file: {largest} ({lines[largest]} lines)")
    unit = units_of(files)
    units = set(unit.values())
    unit_arrows = {(unit[a], unit[b]) for a, b in arrows if unit[a] != unit[b]}
    print(f"include arrows: {len(arrows)} between files, {len(unit_arrows)} between {len(units)} units "
          "(a source file with its header)")
    print(f"longest include chain: {longest_chain(files, arrows)} files, "
          f"{longest_chain(units, unit_arrows)} units")
    print(f"arrows against the layering: {len(bad)}")
    for a, b, why in bad:
        print(f"  {a} -> {b}: {why}")
    for f, t in unresolved:
        print(f"  (not found: {f} includes \"{t}\")")


def check(root, renames):
    files, arrows, _, unresolved = read_graph(root)
    bad = violations(files, arrows, renames)
    for f in files:
        if stage_of(f, files, renames) == "(no stage)":
            bad.append((f, f, "is in no stage (scripts/include_graph.py STAGES)"))
    for a, b, why in bad:
        print(f"layering: {a} includes {b}: {why}")
    for f, t in unresolved:
        print(f"layering: {f} includes \"{t}\", which is not in src/ or include/")
        bad.append((f, t, "not found"))
    if bad:
        print(f"layering: {len(bad)} include(s) against the order in scripts/include_graph.py", file=sys.stderr)
        return 1
    print(f"layering: {len(arrows)} includes, none against the stage order")
    return 0


def self_test():
    """--check on a small tree holding one of each kind of inversion, each expected to fail."""
    cases = {
        "a lower stage includes a higher one (the outcome check, for default_cells)": {
            "src/outcome/outcome_check.cpp": '#include "solvers/fd/finite_difference.hpp"\n',
            "src/solvers/fd/finite_difference.hpp": "",
        },
        "sibling stages (finite differences, for characteristics_rounding)": {
            "src/solvers/fd/solve_finite_difference.cpp": '#include "solvers/exact/characteristics.hpp"\n',
            "src/solvers/exact/characteristics.hpp": "",
        },
        "inside solvers/shared (the wave field, for ArrivalWindow)": {
            "src/solvers/shared/wave_field.hpp": '#include "solvers/shared/settling.hpp"\n',
            "src/solvers/shared/settling.hpp": "",
        },
        "a cycle inside a stage (toml_shape.cpp, for shown_key)": {
            "src/input/toml_shape.cpp": '#include "input/toml_input.hpp"\n',
            "src/input/toml_shape.hpp": "",
            "src/input/toml_input.hpp": '#include "input/toml_shape.hpp"\n',
        },
        "inside solvers/shared, the bookkeeping of an end needing the outcome builder": {
            "src/solvers/shared/chain_end_state.hpp": '#include "solvers/shared/outcome_builder.hpp"\n',
            "src/solvers/shared/outcome_builder.hpp": "",
        },
        "the model including the junction rules": {
            "include/rodcollide/elements.hpp": '#include "rodcollide/junction.hpp"\n',
            "include/rodcollide/junction.hpp": "",
            "src/model/chain.cpp": "",
            "src/solvers/shared/junction.cpp": "",
        },
        "a public header of a later stage (the case reader, for Gauge)": {
            "src/input/case_file.cpp": '#include "rodcollide/gauge_signals.hpp"\n',
            "include/rodcollide/gauge_signals.hpp": "",
        },
        "a public header including a private one": {
            "include/rodcollide/outcome.hpp": '#include "outcome/outcome_check.hpp"\n',
            "src/outcome/outcome.cpp": "",
            "src/outcome/outcome_check.hpp": "",
        },
    }
    ok = True
    for name, tree in cases.items():
        with tempfile.TemporaryDirectory() as d:
            for path, text in tree.items():
                os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(d, path), "w") as fh:
                    fh.write(text)
            files, arrows, _, _ = read_graph(d)
            found = violations(files, arrows, {})
            print(f"self-test: {name}: " + ("; ".join(f"{a} -> {b}: {why}" for a, b, why in found) or "NOT CAUGHT"))
            ok = ok and bool(found)
    # And the same tree without the inversion passes.
    with tempfile.TemporaryDirectory() as d:
        for path, text in {"src/solvers/fd/solve_finite_difference.cpp": '#include "outcome/outcome.hpp"\n',
                           "src/outcome/outcome.hpp": ""}.items():
            os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(d, path), "w") as fh:
                fh.write(text)
        files, arrows, _, _ = read_graph(d)
        clean = not violations(files, arrows, {})
        print(f"self-test: a higher stage includes a lower one: {'passes' if clean else 'WRONGLY REFUSED'}")
        ok = ok and clean
    return 0 if ok else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    p.add_argument("--renames", help='file of lines "OLD NEW" placing old files in the stages of their new paths')
    g = p.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true")
    g.add_argument("--self-test", action="store_true")
    args = p.parse_args()
    renames = {}
    if args.renames:
        with open(args.renames) as fh:
            for line in fh:
                parts = line.split()
                if len(parts) >= 2:
                    renames[parts[-2]] = parts[-1]
    if args.self_test:
        return self_test()
    if args.check:
        return check(args.root, renames)
    counts(args.root, renames)
    return 0


if __name__ == "__main__":
    sys.exit(main())
