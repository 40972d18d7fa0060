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
