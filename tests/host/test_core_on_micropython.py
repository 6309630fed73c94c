"""The core cases (tests/core/) on the MicroPython unix port: the same cases pytest runs under
CPython, through tests/run_core_micropython.py, one case file a process, so the files spread
over the workers beside the other tests (`make check` and `make test` both run them; `make
test-core-mpy` runs them alone). Each file must run every one of its cases there."""

import ast
import os

import pytest

from host_tools.tools import micropython_path
from running import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORE = os.path.join(ROOT, "tests", "core")
CASE_FILES = sorted(n[:-3] for n in os.listdir(CORE) if n.startswith("test_") and n.endswith(".py"))

# A file's long-lived objects scatter over its heap: the unix port's 2 MB default left no 8 KB
# block free for a dict with 1.6 MB free. 8 MB is room for the cases, not a board's size
# (tests/host/test_rp2_port.py runs them on the Pico's heap).
HEAP = "8M"


def cases_in(name):
    """The test functions a case file defines (what the runner must report as run)."""
    with open(os.path.join(CORE, name + ".py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return sum(1 for node in tree.body
               if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


def test_every_case_file_is_run():
    assert len(CASE_FILES) >= 30 and all(cases_in(n) for n in CASE_FILES), CASE_FILES


@pytest.mark.parametrize("name", CASE_FILES)
def test_the_core_cases_pass_on_the_micropython_unix_port(name):
    runner = os.path.join(ROOT, "tests", "run_core_micropython.py")
    proc = run([micropython_path(), "-X", "heapsize=" + HEAP, runner, name], timeout=900)
    out = proc.stdout + proc.stderr
    last = out.strip().splitlines()[-1] if out.strip() else ""
    assert proc.returncode == 0 and last.endswith(" 0 failed"), out[-4000:]
    assert last == "micropython: %d passed, 0 failed" % cases_in(name), last
