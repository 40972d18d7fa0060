"""The `rodcollide` command of a pip-installed package (setup.py): runs the C++ executable installed
beside the module, rodcollide/bin/rodcollide, with the same arguments, standard streams and exit
status."""
import os
import sys
from pathlib import Path


def main():
    binary = Path(__file__).resolve().parent / "bin" / "rodcollide"
    if not binary.is_file():
        sys.exit(f"rodcollide: the command is not installed at {binary} (pip install . builds it)")
    os.execv(str(binary), [str(binary), *sys.argv[1:]])
