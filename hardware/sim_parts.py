"""The simulated optional parts: the display's pixels and the buzzer's tones go to the host on
the frame stream (hardware/sim.py), imported only when the board file has them."""

import sys

from hardware.sim import DISPLAY_MARK, TONE_MARK, TONE_SIZE


class SimPanel:
    """The display's pixels (SSD1306 page layout); each write sends the changed pages."""

    def __init__(self, config, stream=None):
        self.width = config["width"]
        self.buffer = bytearray(self.width * config["height"] // 8)
        self._out = stream or sys.stdout.buffer
        self._pages = bytearray(2)
        self._view = memoryview(self.buffer)

    def write_pages(self, first, last):
        self._pages[0] = first
        self._pages[1] = last
        self._out.write(DISPLAY_MARK)
        self._out.write(self._pages)
        self._out.write(self._view[first * self.width:(last + 1) * self.width])
        self._out.write(b"\n")


class SimBuzzer:
    """The piezo: every tone start and stop goes to the host with its time (freq 0: off)."""

    def __init__(self, clock, stream=None):
        self._clock = clock
        self._out = stream or sys.stdout.buffer
        self._event = bytearray(TONE_SIZE)

    def tone(self, freq, duty):
        self._send(freq, duty)

    def off(self):
        self._send(0, 0)

    def _send(self, freq, duty):
        e = self._event
        now = self._clock.ticks_ms()
        for i in range(4):
            e[i] = (now >> (8 * i)) & 0xFF
        e[4] = freq & 0xFF
        e[5] = freq >> 8
        e[6] = duty & 0xFF
        e[7] = duty >> 8
        self._out.write(TONE_MARK)
        self._out.write(e)
        self._out.write(b"\n")

