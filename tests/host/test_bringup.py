"""`chromawheel bringup --port` on the emulated Pico (the stock MicroPython rp2 port, the
firmware deployed as a maker deploys it): each step runs on the device through its board file
and drivers; the test answers the questions by reading the ring's frames off the data pin, as
a maker answers by looking, and turns the knob the wrong way round: the board file written
back says encoder.direction -1."""

import json
import shutil

import pytest

from host_tools.cli import bringup
from host_tools.cli.main import main
from host_tools.device.files import board_path
from host_tools.emulator import emulate
from host_tools.emulator.rp2040 import EmulatedPico
from waiting import wait_until

pytestmark = pytest.mark.usefixtures("emulator")

NAMES = {(255, 0, 0): "red", (0, 255, 0): "green", (0, 0, 255): "blue"}


def lit_leds(pico, since, timeout=60):
    """The LEDs of the first frame after `since` frames, decoded as the ring (GRB) shows
    them: {index: (r, g, b)} of those lit."""
    wait_until(lambda: len(pico.frames) > since, timeout, "a frame on the ring's pin")
    wire = pico.frames[-1][1]
    leds = {}
    for i in range(len(wire) // 3):
        g, r, b = wire[3 * i:3 * i + 3]
        if r or g or b:
            leds[i] = (r, g, b)
    return leds


def flash_file(flash, path):
    """A file on the emulated Pico's littlefs drive (the rp2 port's layout)."""
    from littlefs import LittleFS

    from host_tools.builds import littlefs_uf2
    with open(flash, "rb") as f:
        image = f.read()
    fs = LittleFS(block_size=4096, block_count=littlefs_uf2.STORAGE_BYTES // 4096,
                  read_size=32, prog_size=256, mount=False)
    fs.context.buffer[:] = image[littlefs_uf2.STORAGE_BASE:]
    fs.mount()
    with fs.open(path, "rb") as f:
        return f.read()


def test_bringup_learns_a_knob_turned_backwards(deployed_image, tmp_path):
    flash = str(tmp_path / "flash.img")
    shutil.copyfile(deployed_image("pico"), flash)
    board = emulate.wired("pico", emulate.load_board("pico"))
    said, asked = [], []
    with EmulatedPico(flash, board) as pico:
        seen = {"frames": 0}

        def progress(line):
            said.append(line)
            if line.startswith("Knob: turn it"):
                pico.send("wait 300", "turn -3")          # the maker turns it... backwards
            elif line.startswith("Button: press"):
                pico.send("wait 300", "press", "wait 200", "release")

        def ask(question, default=""):
            asked.append(question)
            if question.startswith("Ring: one LED is lit white"):
                leds = lit_leds(pico, seen["frames"])
                seen["frames"] = len(pico.frames)
                assert list(leds.values()) == [(255, 255, 255)] or len(leds) == 1, leds
                return str(list(leds)[0])                # LED 0 is at 12 o'clock
            if question.startswith("Ring: three LEDs"):
                leds = lit_leds(pico, seen["frames"])
                seen["frames"] = len(pico.frames)
                order = sorted(leds)
                ask.colours = " ".join(NAMES[max_scaled(leds[i])] for i in order)
                return "y" if order == [0, 1, 2] else "n"
            if question.startswith("Ring: their colours"):
                return ask.colours
            if question.startswith("Buzzer"):
                heard = [p for p in pico.parts if p[1] == "piezo" and p[2]]
                return "y" if heard else "n"
            return default

        report = bringup.bring_up(port=pico.port, yes=True, ask=ask, progress=progress)
    assert report["detents"] == -3
    assert report["changes"] == ["encoder.direction 1 -> -1"]
    assert report["button"] is True
    assert report["display"] == ["0x3d"]           # the emulated OLED answers at 0x3D
    assert report["buzzer"] is True
    assert report["written"]
    written = json.loads(flash_file(flash, "board.json"))
    assert written["encoder"]["direction"] == -1 and "reverse" not in written["encoder"]
    with open(board_path("pico")) as f:
        assert written["ring"] == json.load(f)["ring"]      # the ring was right: unchanged
    assert [q.split(":")[0] for q in asked] == ["Ring", "Ring", "Ring", "Buzzer"]


def max_scaled(rgb):
    """The pure colour a dimmed LED shows: (0, 64, 0) -> (0, 255, 0)."""
    top = max(rgb)
    return tuple(255 if c == top else 0 for c in rgb)


def test_the_answers_give_the_ring_fields():
    ring = {"count": 12, "led_at_c": 0, "direction": "cw", "order": "GRB"}
    assert bringup.learn_first_led(ring, "0") == 0
    assert bringup.learn_first_led(ring, "3") == 9          # C lit 3 clockwise of the top
    assert bringup.learn_first_led(dict(ring, direction="ccw"), "3") == 3
    # sent GRB, the ring is RGB: red shows green, green shows red
    assert bringup.learn_order("GRB", "green red blue") == "RGB"
    assert bringup.learn_order("GRB", "red green blue") == "GRB"
    assert bringup.learn_order("GRBW", "green red blue") == "RGBW"
    with pytest.raises(Exception, match="three colours"):
        bringup.learn_order("GRB", "red green")
    # a ring mounted the other way round, C's LED seen 2 clockwise of the top: the direction
    # is learned first, and the LED at the top counted along it
    obj = {"ring": dict(ring), "encoder": {}}
    answers = iter(["2", "n", "red green blue"])
    changes = bringup._ring_steps(obj, {"ring": ring}, lambda q, d="": next(answers),
                                  lambda line: None, lambda cells: None)
    assert changes == ["ring.led_at_c 0 -> 2", "ring.direction cw -> ccw"]
    assert bringup.learn_direction(-3) == -1 and bringup.learn_direction(0) is None


def test_bringup_on_a_circuitpython_drive_writes_what_the_maker_saw(tmp_path, capsys):
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    answers = {"Ring: how many": "0", "Ring: three LEDs": "y", "Ring: their colours":
               "green red blue", "Knob": "n", "Display": "y"}

    def ask(question, default=""):
        return [a for q, a in answers.items() if question.startswith(q)][0]
    report = bringup.bring_up(drive=str(folder), yes=True, ask=ask, progress=lambda line: None)
    assert report["changes"] == ["ring.order GRB -> RGB", "encoder.direction 1 -> -1"]
    written = json.loads((folder / "board.json").read_text())
    assert written["ring"]["order"] == "RGB" and written["encoder"]["direction"] == -1
    capsys.readouterr()
    # the command refuses a drive with no board file, naming what to do
    empty = tmp_path / "EMPTY"
    empty.mkdir()
    assert main(["bringup", "--drive", str(empty), "--yes"]) == 2
    assert "has no board.json: deploy the firmware first" in capsys.readouterr().err
