"""The external programs the host tools run, found beside this Python (in .venv) or on PATH."""

import os
import shutil
import sys

from host_tools.errors import UserError


def tool(name, what):
    """Path of program `name`; UserError naming `what` it is when it is missing."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    found = beside if os.path.exists(beside) else shutil.which(name)
    if not found:
        raise UserError("%s is not installed (run: make setup)" % what)
    return found


def micropython_path():
    return tool("micropython", "the MicroPython unix port")


def mpy_cross_path():
    return tool("mpy-cross", "mpy-cross")
