"""Drive the firmware under CPython: a flash folder, the sim twins, a virtual clock."""

import os

from hardware import board as board_file
from hardware.ring import Ring
from hardware.sim import SimButton, SimClock, SimEncoder

from firmware.app import App
from firmware.devices import Hardware
from firmware.loop import Loop
from firmware.ports import sim as sim_port
from host_tools.device.files import build_flash


class Capture:
    def __init__(self):
        self.frames = []

    def write(self, buf):
        self.frames.append(bytes(buf))


class Device:
    """A device whose flash is `folder` (the current directory while it runs)."""

    def __init__(self, folder, build=True):
        if build:
            build_flash(str(folder), "sim")
        os.chdir(str(folder))
        self.board = board_file.load("board.json")
        self.output = Capture()
        self.clock = SimClock()
        self.clock.virtual = True
        self.encoder = SimEncoder(self.board["encoder"])
        self.button = SimButton(self.board["button"])
        self.hw = Hardware(self.board, Ring(self.board["ring"], self.output), self.encoder,
                           self.button, self.clock, port=sim_port)
        self.app = App(self.hw)
        self.loop = Loop(self.app)
        self.wait(20)                # the first frame, then its line, as a board starts

    def wait(self, ms):
        for _ in range(max(1, ms // 10)):
            self.clock.advance(10)
            self.loop.tick(self.clock.ticks_ms())

    def turn(self, detents):
        self.encoder.turn(detents)
        self.wait(20)

    def click(self):
        self.button.down = True
        self.wait(70)
        self.button.down = False
        self.wait(420)

    def double(self):
        for _ in range(2):
            self.button.down = True
            self.wait(70)
            self.button.down = False
            self.wait(70)

    def long(self):
        self.button.down = True
        self.wait(800)
        self.button.down = False
        self.wait(70)

    @property
    def line(self):
        return self.loop.console.line

    def wheel(self):
        """The colours each sector shows now, as written to the LEDs (RGB, C first)."""
        ring = self.board["ring"]
        wire = self.output.frames[-1]
        step = 1 if ring["direction"] == "cw" else -1
        out = []
        for sector in range(12):
            led = (ring["led_at_c"] + step * sector) % 12
            g, r, b = wire[3 * led:3 * led + 3]        # the sim board is GRB
            out.append((r, g, b))
        return out
