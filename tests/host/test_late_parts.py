"""The optional parts (the OLED, the piezo) are built after the app's first frame, one a rested
pass (firmware/services.py, Parts): the ring comes first, and a knob turned meanwhile too; the
display shows the current state as soon as it arrives, the buzzer plays from then on; a part
that does not answer is left out with a console line, and the wheel runs without it."""

import gc
import os
import types
import weakref

import pytest

from hardware import board as board_file
from hardware.ring import Ring
from hardware.sim import SimButton, SimClock, SimEncoder

from firmware import ports
from firmware.app import App
from firmware.devices import Hardware
from firmware.loop import Loop
from firmware.screen import layout
from firmware.services import REST_MS
from firmware_harness import Capture
from host_tools.device.files import build_flash
from host_tools.sim.display_image import DisplayImage


class Panel:
    """An SSD1306's pixels (page layout), as the port's panel adapters give them."""

    def __init__(self, config):
        self.buffer = bytearray(config["width"] * config["height"] // 8)
        self.pages = 0

    def write_pages(self, first, last):
        self.pages += last - first + 1


class Piezo:
    def __init__(self):
        self.tones = []

    def tone(self, freq, duty):
        self.tones.append(freq)

    def off(self):
        self.tones.append(0)


class Wheel:
    """The sim board's devices and app on a virtual clock, its parts built by the app, their
    panel and tone output from a port that notes when it made them."""

    def __init__(self, folder):
        build_flash(str(folder), "sim")
        os.chdir(str(folder))
        self.board = board_file.load("board.json")
        self.output = Capture()
        self.clock = SimClock()
        self.clock.virtual = True
        self.encoder = SimEncoder(self.board["encoder"])
        port = types.SimpleNamespace(display_panel=self._panel, tone_output=self._tone)
        self.hw = Hardware(self.board, Ring(self.board["ring"], self.output), self.encoder,
                           SimButton(self.board["button"]), self.clock, port=port)
        self.built = []               # (part, frames written before it was built)

    def start(self):
        self.loop = Loop(App(self.hw), ports.optional_parts(self.hw))
        return self.loop

    def _panel(self, config, hw):
        self.built.append(("display", len(self.output.frames)))
        self.panel = Panel(config)
        return self.panel

    def _tone(self, config, hw):
        self.built.append(("buzzer", len(self.output.frames)))
        self.piezo = Piezo()
        return self.piezo

    def tick(self, ms=10):
        self.clock.advance(ms)
        self.loop.tick(self.clock.ticks_ms())

    def shown(self):
        """The display's rows, read back from its pixels."""
        image = DisplayImage(self.board["display"])
        image.write(0, 7, bytes(self.panel.buffer))
        return [row for row in image.rows() if row]


@pytest.fixture
def wheel(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return Wheel(tmp_path)


def test_the_first_frame_comes_before_the_parts_one_a_pass(wheel):
    loop = wheel.start()
    builder = weakref.ref(loop.parts)
    assert wheel.built == [] and wheel.hw.display is None and wheel.hw.buzzer is None
    wheel.tick()
    assert wheel.built == [("display", 1)]          # the frame was out before its driver
    wheel.tick()
    assert wheel.built == [("display", 1), ("buzzer", 1)]
    assert wheel.hw.buzzer is not None
    assert loop.parts is None                        # its work done: let go of
    gc.collect()
    assert builder() is None                        # with the boot's code it kept
    for _ in range(12):
        wheel.tick()
    # The display shows the state at once, not only after the next change.
    assert wheel.shown() == layout(loop.app.text(True)) == ["C major triad", "(maj)", "C E G"]


def test_the_services_are_given_calls_not_the_app_or_the_pass(wheel):
    # firmware/services.py: a service holds what it was given (the console, the display, the
    # settings) and the one or two calls it needs (the mode's text, the display's hand-over),
    # never the app or the pass themselves.
    loop = wheel.start()
    for _ in range(14):
        wheel.tick()
    kinds = [type(service).__name__ for service in loop.services]
    assert "Console" in kinds and "Display" in kinds and "Saver" in kinds
    for service in loop.services:
        held = [value for value in vars(service).values() if isinstance(value, (App, Loop))]
        assert held == [], (type(service).__name__, held)


def test_a_knob_turned_during_the_power_up_goes_first(wheel):
    loop = wheel.start()
    for _ in range(10):                             # a detent every 20 ms from the start
        wheel.encoder.turn(1)
        wheel.tick(20)
    assert wheel.built == [] and len(wheel.output.frames) == 10     # each its own frame
    wheel.tick(REST_MS)                             # the knob rested: the display first
    assert [part for part, _ in wheel.built] == ["display"]
    for _ in range(12):
        wheel.tick()
    assert loop.console.line == "Bb major triad (maj): Bb D F"
    assert wheel.shown() == ["B\u266d major triad", "(maj)", "B\u266d D F"]


def test_the_buzzer_plays_once_it_is_in(wheel):
    wheel.start()
    for _ in range(6):                              # rested: both built
        wheel.tick()
    assert wheel.piezo.tones == []
    wheel.hw.button.down = True                     # a click: the next meld, played
    wheel.tick(70)
    wheel.hw.button.down = False
    for _ in range(150):
        wheel.tick()
    assert wheel.loop.console.line == "C minor triad (min): C Eb G"
    assert wheel.piezo.tones[:6] == [262, 0, 311, 0, 392, 0]      # from C4, as it sounds


def test_a_display_that_does_not_answer_is_left_out(wheel, capsys):
    def display_panel(config, hw):
        raise OSError(19)                           # ENODEV: nothing at its address
    wheel.hw.port.display_panel = display_panel
    loop = wheel.start()
    assert loop.parts.pending == ["display", "buzzer"]
    for _ in range(6):                              # rested: both built
        wheel.tick()
    out = capsys.readouterr().out
    assert (out.index("C major triad (maj): C E G")
            < out.index("display not found (19): running without it"))
    assert wheel.hw.display is None and wheel.hw.buzzer is not None
    wheel.encoder.turn(1)
    wheel.tick()
    assert loop.console.line == "Db major triad (maj): Db F Ab"     # the wheel runs without it


def test_scripts_can_have_the_parts_at_once(wheel):
    loop = wheel.start()
    loop.parts.build_all()
    assert [part for part, _ in wheel.built] == ["display", "buzzer"]
    assert wheel.hw.display is not None and loop.parts is None
