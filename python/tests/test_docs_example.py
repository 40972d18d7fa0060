"""The notebook-style example of docs/python.md runs as written (docs/python.md): it checks its own
results against de Saint-Venant's closed form and draws length_ratio.png with matplotlib."""
import subprocess
import sys

from conftest import SOURCE_DIR


def test_docs_example_runs(tmp_path):
    p = subprocess.run([sys.executable, str(SOURCE_DIR / "scripts" / "run_docs_example.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("largest deviation from de Saint-Venant's closed form: ")
    picture = tmp_path / "length_ratio.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 20_000
