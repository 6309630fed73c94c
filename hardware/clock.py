"""Millisecond and microsecond ticks with MicroPython's wrap-around semantics.

On MicroPython these are time.ticks_*; on CPython (tests, host tools) an emulation that wraps
at the same period, so a wrap-around bug shows up on the laptop too."""

try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us
except ImportError:
    import time as _time

    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_ms():
        return int(_time.monotonic() * 1000) & (_PERIOD - 1)

    def ticks_us():
        return int(_time.monotonic() * 1000000) & (_PERIOD - 1)

    def ticks_add(ticks, delta):
        return (ticks + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF


__all__ = ["ticks_ms", "ticks_us", "ticks_add", "ticks_diff"]
