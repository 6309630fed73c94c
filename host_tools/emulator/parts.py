"""The emulated board's optional parts read back on the host (rp2040js/parts.cjs sends them):
the OLED's I2C writes fed to the SSD1306 model and read as text with the firmware's font, the
piezo's PWM edges as tones. Both in emulated time, so `emulate` frames carry "display" and
"tones" as the simulator's do, on MicroPython and CircuitPython boards alike."""

from host_tools.emulator.ssd1306_model import Ssd1306Chip
from host_tools.sim.display_image import DisplayImage


def part_events(board):
    """The board's parts as parts.cjs takes them (JSON), or None for a board without any.
    `board` is wired: its pins are GPIO numbers and "i2c" the RP2040's I2C block on them (for
    a CircuitPython board, emulate.wired() maps its pin names)."""
    parts = {}
    display = board.get("display")
    if display is not None:
        # A board file that pins no address: the OLED at 0x3D, where the firmware looks second.
        parts["oled"] = {"bus": display["i2c"], "address": display["address"] or 0x3D,
                         "sda": display["sda"], "scl": display["scl"]}
    buzzer = board.get("buzzer")
    if buzzer is not None:
        parts["piezo"] = buzzer["pin"]
    return parts or None


class Parts:
    """Fed the "I" and "T" events in emulated-time order; `rows()` is the OLED's text now,
    `tones` the [start ns, freq Hz, ms or None while sounding] heard so far."""

    def __init__(self, board):
        display = board.get("display")
        self.image = DisplayImage(display) if display is not None else None
        self.chip = (Ssd1306Chip(display["address"] or 0x3D, display["width"],
                                 display["height"] // 8)
                     if display is not None else None)
        self.tones = []

    def oled_write(self, data):
        self.chip.write(self.chip.address, data)

    def rows(self):
        self.image.write(0, self.chip.pages - 1, bytes(self.chip.ram))
        return self.image.rows()

    def piezo(self, ns, freq):
        """A tone starts (freq) or the piezo falls silent (0); True when a tone starts."""
        if self.tones and self.tones[-1][2] is None:
            self.tones[-1][2] = round((ns - self.tones[-1][0]) / 1e6)
        if freq:
            self.tones.append([ns, freq, None])
        return bool(freq)
