"""The web board's optional parts (hardware/web_pins.py has the pins' protocol): the OLED's pixels
and the piezo's tones go to the page, which draws the one and plays the other through Web
Audio. Imported only when the board file has them."""

import uctypes
import webpins


class WebPanel:
    """The display's pixels (SSD1306 page layout); the page reads the pages asked for."""

    def __init__(self, config):
        self.width = config["width"]
        self.buffer = bytearray(self.width * config["height"] // 8)
        self._address = uctypes.addressof(self.buffer)
        self._display = webpins.display

    def write_pages(self, first, last):
        self._display(self._address, first, last)


class WebBuzzer:
    """The piezo: every tone start and stop goes to the page with its time (freq 0: off)."""

    def __init__(self, clock):
        self._clock = clock
        self._tone = webpins.tone

    def tone(self, freq, duty):
        self._tone(self._clock.ticks_ms(), freq, duty)

    def off(self):
        self._tone(self._clock.ticks_ms(), 0, 0)
