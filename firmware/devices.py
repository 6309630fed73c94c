"""The devices of one board, as the app sees them (built by the board's port, firmware/ports/)."""

LOOP_PERIOD_MS = 10


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

    def start_watchdog(self):
        """An object with feed(), or None. Started by the app only, never in safe mode."""
        return self.port.watchdog()

    def reset_cause(self):
        """Why the board started: "power" (power-up) or "reset" (a reset, a watchdog, ...)."""
        return self.port.reset_cause()

    def restart(self):
        """After a fatal error: reset the board (the crash counter decides on safe mode)."""
        self.port.restart()
