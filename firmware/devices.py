"""The devices of one board, as the app sees them (built by firmware/platform.py)."""

LOOP_PERIOD_MS = 10


class Hardware:
    def __init__(self, board, ring, encoder, button, clock, link=None, display=None,
                 buzzer=None):
        self.board = board
        self.ring = ring
        self.encoder = encoder        # take() -> detents since the last call
        self.button = button          # pressed() -> bool
        self.clock = clock            # ticks_ms(), ticks_us()
        self.link = link              # the simulator's host link, or None
        self.display = display        # hardware.oled.TextDisplay, or None (no display)
        self.buzzer = buzzer          # hardware.buzzer.Buzzer, or None (no buzzer)
        self.period_ms = LOOP_PERIOD_MS

    @property
    def platform(self):
        return self.board["platform"]

    def start_watchdog(self):
        """An object with feed(), or None. Started by the app only, never in safe mode."""
        if self.platform in ("rp2", "esp32"):
            from hardware.mp_devices import Watchdog
            return Watchdog()
        if self.platform == "circuitpython":
            from hardware.cp_devices import Watchdog
            return Watchdog()
        return None

    def reset_cause(self):
        """Why the board started: "power" (power-up) or "reset" (a reset, a watchdog, ...)."""
        if self.platform in ("rp2", "esp32"):
            import machine
            return "power" if machine.reset_cause() == machine.PWRON_RESET else "reset"
        if self.platform == "circuitpython":
            import microcontroller
            reason = microcontroller.cpu.reset_reason
            return "power" if reason == microcontroller.ResetReason.POWER_ON else "reset"
        import os                   # the simulator and the virtual board say it themselves
        return os.getenv("CHROMAWHEEL_RESET_CAUSE") or "power"

    def restart(self):
        """After a fatal error: reset the board (the crash counter decides on safe mode)."""
        if self.platform in ("rp2", "esp32"):
            import machine
            machine.reset()
        elif self.platform == "circuitpython":
            import microcontroller
            microcontroller.reset()
