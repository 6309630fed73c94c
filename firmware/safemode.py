"""Safe mode: the app does not start, the REPL stays free for mpremote, no watchdog runs,
and the ring shows amber on its four quarter sectors.

Entered when the button is held at power-up, or after CRASH_LIMIT boots in a row that crashed
before running STABLE_MS (the app counts boots in a small file and clears it once stable)."""

from firmware import render, storage

CRASH_PATH = "crashes.txt"
CRASH_LIMIT = 3
STABLE_MS = 10000


def crash_count():
    raw = storage.read_recovering(CRASH_PATH)
    try:
        return int(raw) if raw else 0
    except ValueError:
        return 0


def set_crash_count(count):
    try:
        storage.write_atomic(CRASH_PATH, str(count).encode())
    except OSError:
        pass


def button_held(hw, samples=5, gap_ms=10):
    import time
    for _ in range(samples):
        if not hw.button.pressed():
            return False
        if hasattr(time, "sleep_ms"):
            time.sleep_ms(gap_ms)
    return True


def reason(hw):
    """Why to start in safe mode, or None."""
    if button_held(hw):
        return "button held at power-up"
    crashes = crash_count()
    if crashes >= CRASH_LIMIT:
        return "%d crashed boots in a row" % crashes
    return None


def run(hw, why):
    frame = hw.ring.frame
    render.paint_pattern(frame, render.SAFE_MODE, 3)
    hw.ring.brightness = 64
    hw.ring.show()
    print("safe mode: %s. The app is not started; the REPL is free." % why)
    print("To leave: fix or reflash, then reset (the crash count is cleared on the next boot).")
    set_crash_count(0)
