"""One way for a test to wait for a state: wait_until(state, timeout). The timeout only bounds a
failure (a board that never gets there); a pass never depends on how fast the machine is."""

import time


def wait_until(state, timeout=60, what=None, interval=0.05):
    """Call `state()` until it returns something true, and return that. After `timeout` seconds
    of falsy answers, fail naming `what` (or the state's name) and its last answer."""
    deadline = time.monotonic() + timeout
    while True:
        value = state()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %g s waiting for %s (last: %r)"
                                 % (timeout, what or getattr(state, "__name__", "a state"),
                                    value))
        time.sleep(interval)
