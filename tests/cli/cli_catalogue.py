#!/usr/bin/python3
"""Runs the catalogue of bad command lines (tests/cli/cli_catalogue.json) against the rodcollide
executable and checks what docs/cli.md promises for each: the exit status, exactly one line on
stderr, nothing on stdout, and no file created, replaced or changed.

Usage: cli_catalogue.py RODCOLLIDE [SOURCE_DIR]

Each entry of the catalogue is an object:
  name     what is wrong (unique)
  args     the arguments; "{two}", "{three}", "{cases}" and "{tmp}" are replaced by the two-rod and
           three-rod example cases, the cases/ directory and the scratch directory
  setup    (optional) objects that prepare the scratch directory before the run:
           {"file": NAME, "text": TEXT}, {"dir": NAME}, {"fifo": NAME}, {"socket": NAME},
           {"symlink": NAME, "to": TARGET}, {"chardev": NAME} (a character device with the numbers
           of /dev/null, made only when running as root), {"readonly": NAME} (chmod 0555/0444)
  exit     the expected status (2 bad input, 1 failure)
  stdout   (optional) "full": stdout is /dev/full; "closed": stdout is closed; default a pipe,
           which must stay empty
  needs    (optional) "root" or "non-root": skipped otherwise (a device node needs root; a
           read-only directory does not stop root)

CATALOGUE_VERBOSE=1 prints every entry's status and stderr line. Every run happens in a fresh scratch directory (its working directory), which is compared entry
by entry (type, inode, size, modification time) before and after. Append entries freely.
"""
import json
import os
import socket
import stat
import subprocess
import sys
import tempfile

TIMEOUT = 60  # [s] per run: a hang is a failure


def snapshot(root):
    """Every entry under root, not following links: path -> (type, inode, size, mtime, mode)."""
    entries = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            entries[os.path.relpath(p, root)] = (stat.S_IFMT(st.st_mode), st.st_ino, st.st_size,
                                                 st.st_mtime_ns, st.st_mode)
    return entries


def prepare(tmp, setup, keep_open):
    for item in setup:
        if "file" in item:
            with open(os.path.join(tmp, item["file"]), "w") as f:
                f.write(item.get("text", "old content\n"))
        elif "dir" in item:
            os.mkdir(os.path.join(tmp, item["dir"]))
        elif "fifo" in item:
            os.mkfifo(os.path.join(tmp, item["fifo"]))
        elif "socket" in item:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(os.path.join(tmp, item["socket"]))
            keep_open.append(s)
        elif "symlink" in item:
            os.symlink(item["to"], os.path.join(tmp, item["symlink"]))
        elif "chardev" in item:
            os.mknod(os.path.join(tmp, item["chardev"]), 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        elif "readonly" in item:
            p = os.path.join(tmp, item["readonly"])
            os.chmod(p, 0o555 if os.path.isdir(p) else 0o444)
        else:
            raise ValueError(f"unknown setup {item}")


def run_entry(exe, source, entry):
    """None if the entry behaves as promised, else what went wrong."""
    with tempfile.TemporaryDirectory(prefix="rodcollide-catalogue-") as tmp:
        keep_open = []
        prepare(tmp, entry.get("setup", []), keep_open)
        subs = {"{two}": os.path.join(source, "cases", "seed000_two_rods.toml"),
                "{three}": os.path.join(source, "cases", "seed000_three_rods.toml"),
                "{cases}": os.path.join(source, "cases"), "{tmp}": tmp}
        args = []
        for a in entry["args"]:
            for k, v in subs.items():
                a = a.replace(k, v)
            args.append(a)
        before = snapshot(tmp)
        mode = entry.get("stdout", "pipe")
        stdout = {"pipe": subprocess.PIPE, "full": open("/dev/full", "w"), "closed": None}[mode]
        try:
            proc = subprocess.run([exe] + args, cwd=tmp, stdin=subprocess.DEVNULL, stdout=stdout,
                                  stderr=subprocess.PIPE, timeout=TIMEOUT,
                                  pass_fds=(), close_fds=True,
                                  preexec_fn=(lambda: os.close(1)) if mode == "closed" else None)
        except subprocess.TimeoutExpired:
            return f"no answer within {TIMEOUT} s"
        finally:
            if mode == "full":
                stdout.close()
            for s in keep_open:
                s.close()
        after = snapshot(tmp)
        problems = []
        if proc.returncode != entry["exit"]:
            problems.append(f"exit status {proc.returncode}, expected {entry['exit']}")
        err = proc.stderr.decode(errors="replace")
        lines = err.split("\n")
        if not err.endswith("\n") or len(lines) != 2 or "\r" in err:
            problems.append(f"stderr is not exactly one line: {err!r}")
        if mode == "pipe" and proc.stdout:
            problems.append(f"stdout not empty: {proc.stdout[:200]!r}")
        if before != after:
            changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
            problems.append(f"files created or changed: {changed}")
        if os.environ.get("CATALOGUE_VERBOSE"):
            print(f"  {entry['name']}: {proc.returncode} {err.strip()}")
        return "; ".join(problems) or None


def main():
    exe = os.path.abspath(sys.argv[1])
    source = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(source, "tests", "cli", "cli_catalogue.json")) as f:
        catalogue = json.load(f)
    names = [e["name"] for e in catalogue]
    if len(names) != len(set(names)):
        sys.exit("cli_catalogue.json: duplicate names")
    root = os.geteuid() == 0
    passed = failed = skipped = 0
    for entry in catalogue:
        needs = entry.get("needs")
        if (needs == "root" and not root) or (needs == "non-root" and root):
            skipped += 1
            continue
        problem = run_entry(exe, source, entry)
        if problem:
            failed += 1
            print(f"FAIL {entry['name']}: {problem}")
        else:
            passed += 1
    print(f"cli catalogue: {len(catalogue)} entries, {passed} passed, {failed} failed, {skipped} skipped "
          f"({'root' if root else 'not root'})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
