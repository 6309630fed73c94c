"""The core cases (tests/core/) on the MicroPython unix port, as one test among the others: the
same cases pytest runs under CPython, through tests/run_core_micropython.py, in a process of
its own while the other worker goes on (`make check` and `make test` both run it; `make
test-core-mpy` runs it alone)."""

import os
import subprocess

from host_tools.tools import micropython_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# One heap runs every core case, and their long-lived objects scatter over it: the unix port's
# 2 MB default left no 8 KB block free for a dict with 1.6 MB free. 8 MB is room for the cases,
# not a board's size (tests/host/test_rp2_port.py runs them on the Pico's heap).
HEAP = "8M"


def test_the_core_cases_pass_on_the_micropython_unix_port():
    runner = os.path.join(ROOT, "tests", "run_core_micropython.py")
    proc = subprocess.run([micropython_path(), "-X", "heapsize=" + HEAP, runner],
                          capture_output=True, text=True, timeout=900)
    out = proc.stdout + proc.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert proc.returncode == 0 and last.endswith(" 0 failed"), out[-4000:]
    assert int(last.split()[1]) >= 250, last          # every case file was found and run
