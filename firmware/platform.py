"""Builds the devices a board file describes. Backends are imported only for their own
platform, so the simulator never imports `machine` and a Pico never imports `rotaryio`."""

import hardware.clock
from hardware.ring import Ring

LOOP_PERIOD_MS = 10


class Hardware:
    def __init__(self, board, ring, encoder, button, clock, link=None):
        self.board = board
        self.ring = ring
        self.encoder = encoder        # take() -> detents since the last call
        self.button = button          # pressed() -> bool
        self.clock = clock            # ticks_ms(), ticks_us()
        self.link = link              # the simulator's host link, or None
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

    def restart(self):
        """After a fatal error: reset the board (the crash counter decides on safe mode)."""
        if self.platform in ("rp2", "esp32"):
            import machine
            machine.reset()
        elif self.platform == "circuitpython":
            import microcontroller
            microcontroller.reset()


def build(board):
    platform = board["platform"]
    if platform == "sim":
        from hardware import sim
        clock = sim.SimClock()
        encoder = sim.SimEncoder(board["encoder"])
        button = sim.SimButton(board["button"])
        link = sim.SimLink(clock, encoder, button, LOOP_PERIOD_MS)
        ring = Ring(board["ring"], sim.SimRingOutput())
        return Hardware(board, ring, encoder, button, clock, link)
    if platform == "circuitpython":
        from hardware import cp_devices
        ring = Ring(board["ring"], cp_devices.NeoPixelOutput(board["ring"]))
        return Hardware(board, ring, cp_devices.RotaryEncoder(board["encoder"]),
                        cp_devices.PinButton(board["button"]), hardware.clock)
    from hardware import mp_devices
    driver = board["encoder"]["driver"]
    if driver == "pio":
        from hardware.rp2_pio_encoder import PioEncoder
        encoder = PioEncoder(board["encoder"])
    elif driver == "pcnt":
        from hardware.esp32_encoder import PcntEncoder
        encoder = PcntEncoder(board["encoder"])
    else:
        encoder = mp_devices.IrqEncoder(board["encoder"])
    ring = Ring(board["ring"], mp_devices.NeoPixelOutput(board["ring"]))
    return Hardware(board, ring, encoder, mp_devices.PinButton(board["button"]), hardware.clock)
