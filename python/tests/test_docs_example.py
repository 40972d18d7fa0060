"""The notebook-style examples of docs/python.md run as written (docs/python.md): they check their own
results against de Saint-Venant's closed form and the split Hopkinson bar's incident pulse -Z V/2, and draw
length_ratio.png and split_hopkinson_bar.png with matplotlib."""
import subprocess
import sys

from conftest import SOURCE_DIR


def test_docs_example_runs(tmp_path):
    p = subprocess.run([sys.executable, str(SOURCE_DIR / "scripts" / "run_docs_example.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("largest deviation from de Saint-Venant's closed form: ")
    assert lines[1:] == ["incident pulse: -63.78 to -63.78 kN for 116.0 us; closed form -Z V/2 = -63.78 kN",
                         "energy radiated through the anechoic end by 600 us: 31.66 J of 36.99 J"]  # as docs/python.md says
    for name in ("length_ratio.png", "split_hopkinson_bar.png"):
        picture = tmp_path / name
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert picture.stat().st_size > 20_000
