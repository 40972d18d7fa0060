#!/usr/bin/env python3
"""ctest `mpi_ensemble` (built with -DRODCOLLIDE_MPI=ON; docs/ensemble.md "MPI"): `mpirun -n P
rodcollide ensemble ...` prints exactly what the threaded run prints, for P = 1 and 2 ranks, in
JSON (every statistic to 17 digits) and as the CSV of every member; so does `mpirun -n 2
rodcollide sweep` of three rods (JSON and CSV); and a bad command line is one error line from
rank 0 only. Standard library only.

    mpi_check.py MPIEXEC RODCOLLIDE SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile


def main():
    mpiexec, binary, source = sys.argv[1:4]
    case = os.path.join(source, "cases", "steel_cradle_5.toml")
    args = [binary, "ensemble", case, "--members", "37", "--seed", "3",
            "--perturb", 'key = "length", relative = 1e-3, distribution = "normal"',
            "--perturb", 'key = "velocity", rods = [0], absolute = 0.01']
    mpirun = [mpiexec, "--allow-run-as-root", "--oversubscribe"]
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")

    def run(command):
        p = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
        return p.returncode, p.stdout, p.stderr

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        threaded_csv = os.path.join(tmp, "threaded.csv")
        status, threaded, err = run(args + ["--threads", "2", "--json", "--csv", threaded_csv])
        if status != 0:
            sys.exit(f"the threaded run failed: {err}")
        with open(threaded_csv) as f:
            threaded_rows = f.read()
        for ranks in (1, 2):
            csv = os.path.join(tmp, f"mpi{ranks}.csv")
            status, out, err = run(mpirun + ["-n", str(ranks)] + args + ["--json", "--csv", csv])
            if status != 0:
                failures.append(f"mpirun -n {ranks}: exit {status}: {err.strip()}")
                continue
            if out != threaded:
                failures.append(f"mpirun -n {ranks}: the JSON differs from the threaded run's")
            with open(csv) as f:
                if f.read() != threaded_rows:
                    failures.append(f"mpirun -n {ranks}: the CSV differs from the threaded run's")
            print(f"mpirun -n {ranks}: identical to the threaded run ({len(out)} bytes of JSON)")
        # The three-rod sweep: the ranks' shards joined into the one sweep.
        sweep = [binary, "sweep", os.path.join(source, "cases", "seed000_three_rods.toml"), "--directions", "721",
                 "--laws", "sequential,newton", "--json"]
        status, threaded, err = run(sweep + ["--threads", "2", "--csv", os.path.join(tmp, "sweep.csv")])
        if status != 0:
            sys.exit(f"the threaded sweep failed: {err}")
        status, out, err = run(mpirun + ["-n", "2"] + sweep + ["--csv", os.path.join(tmp, "sweep2.csv")])
        with open(os.path.join(tmp, "sweep.csv")) as a, open(os.path.join(tmp, "sweep2.csv")) as b:
            same_csv = a.read() == b.read()
        if status != 0 or out != threaded or not same_csv:
            failures.append(f"mpirun -n 2 sweep: exit {status}, JSON identical {out == threaded}, CSV identical {same_csv}")
        else:
            print("mpirun -n 2 sweep: identical to the threaded run")
        # The cone sweep of four rods: every rank solves its shard, rank 0 joins them and finds the
        # cones, facets and law. Each run writes into its own directory under the same names, and
        # every file (CSV, exported law, the map's data, script and picture) must be the same bytes.
        cone = [binary, "sweep", os.path.join(source, "cases", "cones", "rods_1_2_2_1.toml"), "--directions", "300",
                "--laws", "sequential,newton"]

        def cone_run(name, launcher, extra):
            out_dir = os.path.join(tmp, name)
            os.mkdir(out_dir)
            files = ["--csv", os.path.join(out_dir, "map.csv"), "--export-law", os.path.join(out_dir, "law.json"),
                     "--plot", os.path.join(out_dir, "map.svg")]
            text = run(launcher + cone + extra)
            json = run(launcher + cone + extra + ["--json"] + files)
            written = {f: open(os.path.join(out_dir, f), "rb").read() for f in sorted(os.listdir(out_dir))}
            return text, json, written

        (t_status, t_text, t_err), (j_status, j_text, j_err), threaded_files = cone_run("cone_threads", [], ["--threads", "2"])
        if t_status != 0 or j_status != 0:
            sys.exit(f"the threaded cone sweep failed: {t_err}{j_err}")
        for ranks in (1, 2, 3):
            (ts, text, te), (js, json, je), files = cone_run(f"cone_mpi{ranks}", mpirun + ["-n", str(ranks)], [])
            differ = [what for what, same in (("text", text == t_text), ("JSON", json == j_text),
                                              ("files", files == threaded_files)) if not same]
            if ts != 0 or js != 0 or differ:
                failures.append(f"mpirun -n {ranks} cone sweep: exit {ts}/{js} {te.strip()} {je.strip()}; "
                                f"differs: {differ} {sorted(threaded_files)} vs {sorted(files)}")
            else:
                print(f"mpirun -n {ranks} cone sweep: identical to the threaded run (text, JSON, {', '.join(files)})")
        # A bad command line is refused by every rank before any work: one line, from rank 0.
        status, out, err = run(mpirun + ["-n", "2"] + cone + ["--shard", "1/2"])
        lines = [l for l in err.splitlines() if l.startswith("rodcollide")]
        if status == 0 or out or len(lines) != 1 or "--shard" not in lines[0]:
            failures.append(f"mpirun -n 2 cone sweep with --shard: exit {status}, stdout {out!r}, stderr {err!r}")
        else:
            print("mpirun -n 2 cone sweep with --shard: one error line, from rank 0")
        # An error in the ranks' solves (a grid refused before it is built): one line from rank 0,
        # with the exit status of one process (2, bad input).
        status, out, err = run(mpirun + ["-n", "2"] + cone + ["--method", "finite-difference", "--cells", "100000000"])
        lines = [l for l in err.splitlines() if l.startswith("rodcollide")]
        if status != 2 or out or len(lines) != 1 or not lines[0].startswith("rodcollide sweep: rank 0: finite differences"):
            failures.append(f"mpirun -n 2 cone sweep refused by the solver: exit {status}, stdout {out!r}, stderr {err!r}")
        else:
            print("mpirun -n 2 cone sweep refused by the solver: one error line, from rank 0, exit 2")
        status, out, err = run(mpirun + ["-n", "2"] + args + ["--precision", "0"])
        lines = [l for l in err.splitlines() if l.startswith("rodcollide")]
        if status == 0 or out or lines != ["rodcollide ensemble: --precision: must be > 0, got 0"]:
            failures.append(f"mpirun -n 2 with --precision 0: exit {status}, stdout {out!r}, stderr {err!r}")
        else:
            print("mpirun -n 2 with bad input: one error line, from rank 0")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
