"""The devices of one board, as the app sees them (built by the board's port, firmware/ports/)."""

LOOP_PERIOD_MS = 10
# Once nothing has touched the wheel for DEEP_REST_MS (no turn, press or MIDI note, nothing
# waiting, no tune playing: Loop.rests_deeply), a real chip's loop runs a pass every
# REST_PERIOD_MS: a pass every 10 ms kept an idle Pico's CPU busy 12% of the time, every 2 ms a
# QT Py's a third. MicroPython's ports set hw.rest_period_ms (Loop.pause_ms) where the knob's
# interrupt wakes a pass at once (not the ESP32's pulse counter: 10 ms there); the button is
# then read every 20 ms, so a press longer than that is always seen (a person's lasts 50 ms or
# more), and a press in play keeps the loop's period. CircuitPython's loop reads the knob and
# the button between its 2 ms sleeps instead (firmware/ports/circuitpython.py). The page's
# wheel rests too (firmware/ports/web.py): a tablet left open on it; its first detent waits for
# the next pass.
REST_PERIOD_MS = 20
DEEP_REST_MS = 2000


class Hardware:
    def __init__(self, board, ring, encoder, button, clock, link=None, records=None, port=None):
        self.board = board
        self.ring = ring
        self.encoder = encoder        # take() -> detents since the last call
        self.button = button          # pressed() -> bool
        self.clock = clock            # ticks_ms(), ticks_us()
        self.link = link              # the simulator's host link, or None
        if records is None:
            from firmware.records import FileRecords
            records = FileRecords()
        self.records = records        # settings, crash count, log (firmware/records.py)
        self.port = port              # the port's module (firmware/ports.build sets it)
        self.display = None           # hardware.oled.TextDisplay, or None (no display)
        self.buzzer = None            # hardware.buzzer.Buzzer, or None (no buzzer)
        self.period_ms = LOOP_PERIOD_MS
        self.rest_period_ms = None    # the pause once the wheel rests deeply, or None: period_ms

    def start_watchdog(self):
        """An object with feed(), or None. Started by the app only, never in safe mode."""
        return self.port.watchdog()

    def reset_cause(self):
        """Why the board started: "power" (power-up) or "reset" (a reset, a watchdog, ...)."""
        return self.port.reset_cause()

    def restart(self):
        """After a fatal error: reset the board (the crash counter decides on safe mode)."""
        self.port.restart()
