"""Run the core cases (tests/core/test_*.py) under MicroPython:
micropython -X heapsize=8M tests/run_core_micropython.py [test_x ...] (make test-core-mpy; the
unix port's 2 MB default heap fragments over all the cases: tests/host/test_core_on_micropython.py
runs one file a process). Names given: those case files alone.

Prints one line per failure and the closing 'N passed, N failed' line; exits 1 on any failure.
"""
import gc
import os
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = HERE + "/.."
sys.path.insert(0, HERE + "/core")
sys.path.insert(0, ROOT)


def main():
    passed = 0
    failed = 0
    # Sources here; compiled .mpy files where a board's RAM is short (tests/host/test_rp2_port.py).
    wanted = getattr(sys, "argv", [])[1:]
    names = sorted(n for n in os.listdir(HERE + "/core")
                   if n.startswith("test_") and (n.endswith(".py") or n.endswith(".mpy"))
                   and (not wanted or n.rsplit(".", 1)[0] in wanted))
    for filename in names:
        gc.collect()
        module = __import__(filename.rsplit(".", 1)[0])
        for name in sorted(dir(module)):
            if not name.startswith("test_"):
                continue
            fn = getattr(module, name)
            try:
                fn()
                passed += 1
            except Exception as err:
                failed += 1
                print("FAILED %s::%s: %s: %s" % (filename, name, type(err).__name__, err))
                sys.print_exception(err)
        # Each file's module and what it keeps (a search's cache, a brute force's memo) go
        # before the next: one heap runs them all, a board's or the unix port's 2 MB.
        del sys.modules[filename.rsplit(".", 1)[0]]
        module = fn = None
    print("micropython: %d passed, %d failed" % (passed, failed))
    if failed or not passed:
        sys.exit(1)


main()
