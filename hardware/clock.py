"""Millisecond and microsecond ticks that wrap every 2**30, as on every 32-bit port.

A 32-bit port's time.ticks_* wrap at 2**30 (ticks_ms after 12.4 days, ticks_us after 17.9
minutes), and ticks_diff is right only within half a period. The unix port wraps at 2**62, so
there (the simulator) and on CPython (tests, host tools) the same arithmetic is emulated at
2**30: a wrap-around bug shows up on the laptop too. CircuitPython's time has no ticks: there
it is supervisor.ticks_ms, which wraps every 2**29 (6.2 days), and the period is 2**29.

Compare ticks only with ticks_diff, or with ticks_since for a moment known to be in the past:
past half a period ticks_diff turns negative, and ticks_since reads that as "long ago"."""

import sys

# `time` as a plain module object: which of its functions a port has (ticks_* on MicroPython,
# monotonic on CircuitPython and CPython) is found out below at run time, so no port's type
# check (host_tools/device/port_check.py, against that port's stubs) holds a branch for
# another port against it.
_time = __import__("time")

# CircuitPython: the supervisor's ms clock, period 2**29. Not looked for on MicroPython, which
# has none: a failed import searches the flash (about 7 ms of a Pico's power-up).
_supervisor_ms = None
if sys.implementation.name != "micropython":
    try:                            # CircuitPython, or its modules modelled on CPython
        from supervisor import ticks_ms as _supervisor_ms
    except ImportError:
        pass

PERIOD = 1 << 29 if _supervisor_ms else 1 << 30
_MASK = PERIOD - 1
_HALF = PERIOD >> 1
LONG_AGO = _HALF - 1          # what ticks_since says of a moment half a period ago or more


def us_from_ms(ms):
    """(ms * 1000) mod 2**29 in small integers (no long-int allocation on a board): 1000 =
    8 * 125, and ms * 125 mod 2**26 is worked out in two 13-bit halves. The result runs on
    smoothly across the ms clock's wrap, as 1000 * 2**29 is a multiple of 2**29."""
    ms &= (1 << 26) - 1
    high = ms >> 13
    low = ms & 0x1FFF
    return ((((high * 125) & 0x1FFF) << 13) + low * 125 & ((1 << 26) - 1)) << 3


if _supervisor_ms:
    # CircuitPython has no ticks_us: microseconds at millisecond resolution, in the same
    # 2**29 period (the ring's 280 us latch gap is far below a frame's 16 ms anyway).
    ticks_ms = _supervisor_ms

    def ticks_us():
        return us_from_ms(_supervisor_ms())
elif getattr(_time, "ticks_add", None) and _time.ticks_add(0, -1) == _MASK:
    # A 32-bit port: its own functions, called directly.
    ticks_add, ticks_diff = _time.ticks_add, _time.ticks_diff
    ticks_ms, ticks_us = _time.ticks_ms, _time.ticks_us
elif getattr(_time, "ticks_ms", None):             # the unix port: its own ticks, masked
    def ticks_ms():
        return _time.ticks_ms() & _MASK

    def ticks_us():
        return _time.ticks_us() & _MASK
else:                                              # CPython
    def ticks_ms():
        return int(_time.monotonic() * 1000) & _MASK

    def ticks_us():
        return int(_time.monotonic() * 1000000) & _MASK

if "ticks_add" not in globals():
    def ticks_add(ticks, delta):
        # As the ports do (extmod/modtime.c): -HALF too, or ticks_diff(T, result) would not
        # be -delta.
        if not -_HALF < delta < _HALF:
            raise OverflowError("ticks interval overflow")
        return (ticks + delta) & _MASK

    def ticks_diff(a, b):
        return ((a - b + _HALF) & _MASK) - _HALF


def sleep_ms(ms):
    """Block for ms milliseconds (boot-time checks only; the loop never blocks)."""
    if hasattr(_time, "sleep_ms"):
        _time.sleep_ms(ms)
    else:                                          # CircuitPython, CPython
        _time.sleep(ms / 1000)


def ticks_since(now, then):
    """Ticks from `then` to `now` for a `then` in the past; LONG_AGO when that is half a
    period or more (where ticks_diff would turn negative)."""
    passed = ticks_diff(now, then)
    return passed if passed >= 0 else LONG_AGO
