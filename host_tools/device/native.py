"""Modules with machine code on the way to a board (@micropython.viper: core/hand_loops.py,
hardware/mp_usb_midi.py).

mpy-cross compiles viper only for a named architecture (-march), and a port without native
code (CircuitPython, the page's webassembly MicroPython) cannot compile it at all. A board whose
MicroPython compiles native code gets such a module compiled for its chip; every other target
gets it with the decorator lines dropped: the same functions, run as plain Python."""

import re

# The native architecture of each board platform's MicroPython (mpy-cross -march); a platform
# not here runs the plain Python.
ARCH_OF_PLATFORM = {"rp2": "armv6m", "esp32": "xtensawin"}

_VIPER = re.compile(rb"^[ \t]*@micropython\.viper[ \t]*\r?\n", re.M)


def has_machine_code(data):
    """Does this module's source (bytes) ask for machine code?"""
    return _VIPER.search(data) is not None


def plain(data):
    """The source with its viper decorators dropped: plain Python any port compiles."""
    return _VIPER.sub(b"", data)


def arch_of(platform):
    """mpy-cross's -march for a board's platform, or None: plain Python."""
    return ARCH_OF_PLATFORM.get(platform)
