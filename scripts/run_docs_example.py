#!/usr/bin/env python3
"""Runs the notebook-style examples of docs/python.md: every ```python block after the first heading
"## Example", in order, as one script in DIR (where it writes length_ratio.png and
split_hopkinson_bar.png), with a non-interactive matplotlib backend. Used by python/tests/test_docs_example.py and
scripts/make_plots.sh.

    PYTHONPATH=build/python /usr/bin/python3 scripts/run_docs_example.py DIR
"""
import os
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "python.md"


def example_code(doc=DOC):
    text = doc.read_text()
    start = text.index("\n## Example")
    cells = re.findall(r"^```python\n(.*?)^```$", text[start:], flags=re.S | re.M)
    if not cells:
        raise SystemExit(f"{doc}: no ```python cells after '## Example'")
    return "\n".join(cells)


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    out_dir = Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    # The example runs in out_dir: a relative PYTHONPATH (build/python) must still point home.
    paths = [str(Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join(paths))
    result = subprocess.run([sys.executable, "-c", example_code()], cwd=out_dir, env=env)
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
