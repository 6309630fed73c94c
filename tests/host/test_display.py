"""The optional OLED: the firmware's text through the real drivers (hardware/mp_parts.py's on
the MicroPython unix port, Adafruit's adafruit_ssd1306 on CPython) into a model of the chip
at the I2C boundary, read back pixel by pixel; the simulator's display and tones."""

import json
import os
import sys
import types

import pytest

from firmware.modes import mode_names
from firmware.screen import layout
from host_tools.builds import make_font
from host_tools.cli.main import main
from host_tools.device import libs
from host_tools.emulator.ssd1306_model import Ssd1306Chip, circuitpython_i2c
from host_tools.sim.display_image import DisplayImage
from host_tools.sim.simulator import run_script
from host_tools.tools import micropython_path
from running import run
from tests.host.test_table_modes import enter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = {"driver": "ssd1306", "i2c": 0, "sda": 4, "scl": 5, "address": 60, "width": 128,
          "height": 64, "rotation": 0, "freq": 400000, "ma": 20}
LINE = "C diminished seventh (dim7): C Eb Gb Bbb"
SHOWN = ["C diminished", "seventh (dim7):", "C E\u266d G\u266d B\U0001d12b"]


def read_text(ram):
    image = DisplayImage(CONFIG)
    image.write(0, 7, ram)
    return image.rows()


def test_the_font_is_what_the_generator_writes():
    with open(os.path.join(ROOT, "hardware", "font.py")) as f:
        assert f.read() == make_font.source()


def test_layout_is_read_back_from_the_pixels():
    class Panel:
        buffer = bytearray(1024)

        def write_pages(self, first, last):
            pass
    from hardware.oled import TextDisplay
    panel = Panel()
    display = TextDisplay(panel, 128, 64)
    display.show(layout(LINE))
    assert read_text(panel.buffer) == SHOWN


MP_SCRIPT = """
import sys, json
sys.path.insert(0, %(root)r)
sys.path.insert(0, %(tests)r)
from ssd1306_model import MicroPythonPin, Ssd1306Chip, micropython_i2c
chip = Ssd1306Chip()

class Machine:
    pass
machine = Machine()
machine.Pin = MicroPythonPin
machine.I2C = micropython_i2c(chip)
sys.modules["machine"] = machine

from hardware.mp_parts import Ssd1306Panel
from hardware.oled import TextDisplay
from firmware.screen import layout
config = json.loads(%(config)r)
panel = Ssd1306Panel(config)
display = TextDisplay(panel, 128, 64)
display.show(layout(%(line)r))
first = chip.data_bytes
display.show(layout(%(line2)r))
print(json.dumps({"ram": list(chip.ram), "on": chip.on, "rotated": chip.rotated_180(),
                  "setup": panel.i2c.setup, "first": first,
                  "second": chip.data_bytes - first}))
"""


def run_micropython(config, line, line2):
    script = MP_SCRIPT % {"root": ROOT,
                          "tests": os.path.join(ROOT, "host_tools", "emulator"),
                          "config": json.dumps(config), "line": line, "line2": line2}
    proc = run([micropython_path(), "-c", script], timeout=60, expect=0)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_ssd1306_panel_on_the_unix_port():
    result = run_micropython(CONFIG, LINE, "C diminished seventh (dim7): C Eb Gb A")
    # The panel's set-up cleared it (1024 bytes) and turned it on; our first show
    # sent pages 0-2 only; the second changed one row: one page, 128 bytes.
    assert result["on"] and not result["rotated"]
    assert result["setup"] == [0, 5, 4, 400000]
    assert result["first"] == 1024 + 3 * 128
    assert result["second"] == 128
    assert read_text(result["ram"]) == SHOWN[:2] + ["C E\u266d G\u266d A"]


def test_rotation_180_on_micropython():
    result = run_micropython(dict(CONFIG, rotation=180), LINE, LINE)
    assert result["rotated"]
    assert read_text(result["ram"]) == SHOWN


@pytest.fixture
def circuitpython_on_cpython(monkeypatch):
    """Adafruit's real libraries on CPython, with busio and board faked at the pins."""
    monkeypatch.syspath_prepend(libs.lib_dir("circuitpython"))
    chip = Ssd1306Chip()
    board = types.ModuleType("board")
    board.SDA, board.SCL = "SDA", "SCL"
    busio = types.ModuleType("busio")
    busio.I2C = circuitpython_i2c(chip)
    busio.SPI = type("SPI", (), {})
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = type("DigitalInOut", (), {})
    micropython = types.ModuleType("micropython")
    micropython.const = lambda value: value
    # Type names only (the libraries import them inside try: on a board the import fails
    # and annotations are never evaluated; CPython evaluates them).
    typing_names = types.ModuleType("circuitpython_typing")
    typing_names.__getattr__ = lambda name: object
    rotaryio = types.ModuleType("rotaryio")               # cp_devices imports them too
    neopixel_write = types.ModuleType("neopixel_write")
    neopixel_write.neopixel_write = lambda pin, buf: None
    for name, module in (("board", board), ("busio", busio), ("micropython", micropython),
                         ("circuitpython_typing", typing_names), ("digitalio", digitalio),
                         ("rotaryio", rotaryio), ("neopixel_write", neopixel_write)):
        monkeypatch.setitem(sys.modules, name, module)
    for name in ("adafruit_ssd1306", "adafruit_framebuf", "adafruit_bus_device",
                 "adafruit_bus_device.i2c_device", "adafruit_bus_device.spi_device",
                 "hardware.cp_parts", "hardware.cp_devices"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    # `from hardware import cp_parts` takes the package's attribute when it has one: a module
    # another test imported on its own fakes (another board) would be used again.
    import hardware
    for name in ("cp_parts", "cp_devices"):
        monkeypatch.delattr(hardware, name, raising=False)
    return chip


def test_adafruit_ssd1306_on_cpython(circuitpython_on_cpython):
    chip = circuitpython_on_cpython
    from hardware.cp_parts import Ssd1306Panel
    from hardware.oled import TextDisplay
    panel = Ssd1306Panel(dict(CONFIG, sda="SDA", scl="SCL"))
    display = TextDisplay(panel, 128, 64)
    sent = chip.data_bytes
    display.show(layout(LINE))
    assert read_text(chip.ram) == SHOWN
    assert chip.data_bytes - sent == 3 * 128          # three pages, one control byte each
    # The borrowed control byte is given back: the pixels before page 1 are intact.
    display.show(layout("C diminished seventh (dim7): C Eb Gb A"))
    assert read_text(chip.ram) == SHOWN[:2] + ["C E\u266d G\u266d A"]
    assert bytes(panel.buffer) == bytes(chip.ram)


def test_rotation_180_on_circuitpython(circuitpython_on_cpython):
    chip = circuitpython_on_cpython
    from hardware.cp_parts import Ssd1306Panel
    Ssd1306Panel(dict(CONFIG, sda="SDA", scl="SCL", rotation=180))
    assert chip.rotated_180()


def test_a_missing_display_is_left_out(circuitpython_on_cpython, capsys):
    from firmware import ports
    from firmware.devices import Hardware
    from firmware.ports import circuitpython
    hw = Hardware({"display": dict(CONFIG, sda="SDA", scl="SCL", address=0x3D),
                   "buzzer": None, "platform": "circuitpython"}, None, None, None, None,
                  port=circuitpython)
    ports.add_parts(hw)
    assert hw.display is None
    assert "display not found" in capsys.readouterr().out


# ---- the simulator: the display's text read back from its pixels, the buzzer's tones -------

FLAT, SHARP = "\u266d", "\u266f"
# C minor triad from C4: C4 261.63, Eb4 311.13, G4 392.00 Hz.
C_MINOR = [[262, 180], [311, 180], [392, 180]] + [[262, 40], [311, 40], [392, 40]] * 3


@pytest.mark.usefixtures("simulator")
def test_the_issue_command_shows_the_display_and_the_tones(tmp_path):
    path = tmp_path / "frames.jsonl"
    assert main(["sim", "--board", "sim", "--script", "click; wait 500", "--frames",
                 str(path)]) == 0
    frames = [json.loads(line) for line in path.read_text().splitlines()]
    assert frames[0]["display"] == ["C major triad", "(maj)", "C E G"]
    assert frames[0]["tones"] == []                  # turning on is silent
    assert frames[-1]["display"] == ["C minor triad", "(min)", "C E%s G" % FLAT]
    # The arpeggio, then the strum, cut where the run ends (the last tone is stopped there).
    tones = frames[-1]["tones"]
    n = len(tones)
    assert n > 3 and tones[:n - 1] == C_MINOR[:n - 1]
    assert tones[-1][0] == C_MINOR[n - 1][0] and tones[-1][1] <= C_MINOR[n - 1][1]


@pytest.mark.usefixtures("simulator")
def test_fast_turns_go_to_the_ring_and_the_display_follows_when_the_knob_rests():
    # Turns 20 ms apart: each gets its own frame and console line at once, while the display
    # (milliseconds a row on a real I2C bus) waits until the knob rests, then shows the last.
    frames, _ = run_script("cw 1; cw 1; cw 1; wait 300")
    assert [f["console"].splitlines()[-1].split(" (")[0] for f in frames] == [
        "C major triad", "Db major triad", "D major triad", "Eb major triad"]
    assert [f["display"][2] for f in frames] == [
        "C E G", "C E G", "C E G", "E%s G B%s" % (FLAT, FLAT)]


@pytest.mark.usefixtures("simulator")
def test_a_whole_tune_and_the_wav(tmp_path):
    import wave
    wav = tmp_path / "tune.wav"
    frames, _ = run_script("click; wait 1500", wav_path=str(wav))
    assert frames[-1]["tones"] == C_MINOR
    with wave.open(str(wav)) as f:
        rate = f.getframerate()
        samples = f.readframes(f.getnframes())
    values = [int.from_bytes(samples[i:i + 2], "little", signed=True)
              for i in range(0, len(samples), 2)]
    # 3 x (180 + 20) ms of arpeggio, then 9 x 40 ms strum.
    assert len(values) == (600 + 360) * rate // 1000
    for index, (freq, start) in enumerate(((262, 0), (311, 200), (392, 400))):
        chunk = values[start * rate // 1000:(start + 180) * rate // 1000]
        rises = sum(1 for a, b in zip(chunk, chunk[1:]) if a < 0 <= b)
        assert abs(rises / 0.18 - freq) < 12, (index, rises)
        gap = values[(start + 180) * rate // 1000 + 2:(start + 200) * rate // 1000]
        assert not any(gap)


@pytest.mark.usefixtures("simulator")
def test_a_scale_runs_up_to_its_octave():
    # Double press: the scales, C major pentatonic: C4 D4 E4 G4 A4 C5.
    frames, _ = run_script("double; wait 1400")
    assert frames[-1]["display"] == ["C major", "pentatonic", "C D E G A"]
    assert frames[-1]["tones"] == [[262, 180], [294, 180], [330, 180], [392, 180],
                                   [440, 180], [523, 180]]


@pytest.mark.usefixtures("simulator")
def test_the_sound_item_turns_the_buzzer_off():
    # menu: turn to "sound" (item 6), click, turn from medium to off (a beep at each level on
    # the way: soft; off is silent), click to keep, leave; then a click plays nothing.
    frames, console = run_script("long; cw 6; click; ccw 1; wait 200; ccw 1; click; long; "
                                 "click; wait 1200")
    assert "menu > sound: off (turn to change, click to keep)" in console
    beeps = [t for f in frames for t in f["tones"]]
    assert beeps == [[440, 120]]
    assert frames[-1]["display"] == ["C minor triad", "(min)", "C E%s G" % FLAT]


EXPECTED = {
    # mode: (script after entering it, the display at the end), worked out by hand from the
    # console lines the modes print (tests/host/test_table_modes.py) and the 16-column wrap.
    "explorer": ("cw 3; click", ["E%s minor triad" % FLAT, "(min)",
                                               "E%s G%s B%s" % (FLAT, FLAT, FLAT)]),
    # Two readings (C6 and Am7): the first whole, its place among them (a long press steps).
    "meld check": ("click; cw 4; click; cw 3; click; cw 2; click",
                   ["cards C E G A", "1/2 C 6 70", "(C root: refill)", "cursor A"]),
    "chord poker": ("click; click; cw 7; click",
                    ["C power chord", "(5)", "Wheel: C G", "missing: -", "complete: 5 pts",
                     "cursor G"]),
    "bluff": ("click; click; click",
              ["bluff: C major", "pentatonic", "C D E G A", "degree 2 (2 of", "5) is D"]),
    "looking glass": ("click; click; cw 4; click",
                      ["looking glass:", "minor second", "(m2)", "cards on the",
                       "Wheel: C E", "cursor E"]),
    "key speller": ("cw 3; click; click; click",
                    ["key speller: D", "major scale: D E", "F%s G A B C%s" % (SHARP, SHARP),
                     "degree 3 is F%s" % SHARP]),
    "alphabet": ("cw 1; click",
                 ["alphabet by", "Thirds: last", "card C%s, next" % SHARP,
                  "letter E: E%s or" % FLAT, "E"]),
    # MIDI in turned on from the menu (its last item), then E3 C4 G4 A4 held: C6 and Am7,
    # neither with its root in the bass.
    "listen": ("long; ccw 1; click; cw 2; click; long; note-on E3 C4 G4 A4; wait 100",
               ["listen: E G A C", "C 6 / E", "A min7 / E"]),
    "steps": ("cw 3",
              ["steps: top card", "D%s/E%s: a half" % (SHARP, FLAT), "step up is E, a",
               "whole step up is", "F"]),
    # C E G entered, a long press on the empty A: the first answer, the best chord turn with
    # the cards it plays; 14 answers: the 2 best turns, the 8 melds of `chromawheel hand C E G`,
    # then undo, new round, the table and the MELD cards held (issue 46).
    "hand": ("click; cw 4; click; cw 3; click; cw 2; long",
             ["1/14 best chords", "100: C 5 100", "(C-G)"]),
    # A 4-card meld (70) for P2 (P1 deals), then the turn passes to P1.
    "score": ("cw 2; click; double", ["R1/3 >P1 0 P2 70", "4-card meld +70"]),
}


@pytest.mark.usefixtures("simulator")
@pytest.mark.parametrize("mode", mode_names())
def test_every_mode_shows_its_answer(mode):
    script, expected = EXPECTED[mode]
    prefix = "" if mode == "explorer" else enter(mode) + "; "
    frames, console = run_script(prefix + script)
    assert frames[-1]["display"] == expected, console[-1]
    for frame in frames:               # every picture on the way fits and is made of glyphs
        assert len(frame["display"]) <= 8
        assert all(len(row) <= 16 and "\ufffd" not in row for row in frame["display"])


@pytest.mark.usefixtures("simulator")
def test_the_menu_on_the_display():
    frames, _ = run_script("long; cw 6; click")
    assert frames[-1]["display"] == ["menu > sound:", "medium (turn to", "change, click to",
                                     "keep)"]


@pytest.mark.usefixtures("simulator")
def test_a_picture_of_the_display(tmp_path):
    svg = tmp_path / "display.svg"
    run_script("ccw 3; double; double", display_svg=str(svg))
    text = svg.read_text()
    assert text.startswith("<svg") and text.count("<rect") > 100


PICTURE_SCRIPT = "; ".join(["click"] * 13)       # from the C major triad to dim7


@pytest.mark.usefixtures("simulator")
def test_the_readme_picture_is_current(tmp_path):
    svg = tmp_path / "display.svg"
    frames, _ = run_script(PICTURE_SCRIPT, display_svg=str(svg))
    assert frames[-1]["display"] == ["C diminished", "seventh (dim7)",
                                     "C E%s G%s B\U0001d12b" % (FLAT, FLAT)]
    with open(os.path.join(ROOT, "boards", "pictures", "display.svg")) as f:
        assert svg.read_text() == f.read(), "regenerate it: see docs/using.md, 'Optional display'"
