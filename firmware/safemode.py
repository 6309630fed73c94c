"""Safe mode: the app does not start, the REPL stays free for mpremote, no watchdog runs,
and the ring shows amber on its four quarter sectors.

Entered when the button is held at power-up, or after crashes.CRASH_LIMIT boots in a row that
crashed before running crashes.STABLE_MS (start.py counts boots, the app clears the count once
stable; see crashes.py). Used at boot only."""

from firmware import crashes, records, render

# The laptop writes this flag just before it resets the board for a deploy: the boot after
# that reset runs without the app and without the watchdog (which, once started, would reset
# the board in the middle of a long copy). Any boot uses the flag up, and a power-up ignores
# it: a copy cut off by a power cut leaves a board that starts the app on the files it had,
# not one waiting for a laptop.
from firmware.records import MAINTENANCE_PATH


def button_held(hw, samples=5, gap_ms=10):
    from hardware.clock import sleep_ms
    for _ in range(samples):
        if not hw.button.pressed():
            return False
        sleep_ms(gap_ms)
    return True


def reason(hw):
    """Why to start in safe mode, or None."""
    if records.exists(MAINTENANCE_PATH):
        records.remove(MAINTENANCE_PATH)
        if hw.reset_cause() != "power":
            return "maintenance for a deploy or meld-set flash (the next reset starts the app)"
    if button_held(hw):
        return "button held at power-up"
    count = crashes.previous(hw.records, hw.reset_cause())
    if count >= crashes.CRASH_LIMIT:
        return "%d crashed boots in a row" % count
    return None


def run(hw, why):
    frame = hw.ring.frame
    render.paint_pattern(frame, render.SAFE_MODE, 3)
    hw.ring.brightness = 64
    hw.ring.show()
    print("safe mode: %s. The app is not started; the REPL is free." % why)
    print("To leave: fix or reflash, then reset (the crash count is cleared on the next boot).")
    crashes.set_count(hw.records, 0)
