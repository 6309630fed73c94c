"""`chromawheel bringup --port` on the emulated Pico (the stock MicroPython rp2 port, the
firmware deployed as a maker deploys it): each step runs on the device through its board file
and drivers; the test answers the questions by reading the ring's frames off the data pin, as
a maker answers by looking. The knob is a PEC11R (4 steps a click) wired with A and B swapped,
and the board file on the Pico says pulses_per_detent 2: bring-up names both faults, writes
encoder.direction -1 and pulses_per_detent 4, and the app then turns the right way, a note a
click. (What the counts and answers mean, and the CircuitPython drive: test_bringup_answers.py.)"""

import json
import shutil

import pytest

from host_tools.cli import bringup
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


def put_flash_file(flash, path, data):
    """A file written onto the emulated Pico's littlefs drive, as mpremote would leave it."""
    from littlefs import LittleFS

    from host_tools.builds import littlefs_uf2
    with open(flash, "rb") as f:
        image = bytearray(f.read())
    fs = LittleFS(block_size=4096, block_count=littlefs_uf2.STORAGE_BYTES // 4096,
                  read_size=32, prog_size=256, mount=False)
    fs.context.buffer[:] = image[littlefs_uf2.STORAGE_BASE:]
    fs.mount()
    with fs.open(path, "wb") as f:
        f.write(data)
    fs.unmount()
    image[littlefs_uf2.STORAGE_BASE:] = bytes(fs.context.buffer)
    with open(flash, "wb") as f:
        f.write(image)


def test_bringup_finds_a_knob_counting_double_and_backwards(deployed_image, tmp_path):
    flash = str(tmp_path / "flash.img")
    shutil.copyfile(deployed_image("pico"), flash)
    with open(board_path("pico")) as f:
        shipped = json.load(f)
    told = json.loads(json.dumps(shipped))
    told["encoder"]["pulses_per_detent"] = 2                 # what the board file says
    put_flash_file(flash, "board.json", json.dumps(told).encode())
    # the knob as wired: a PEC11R (4 steps a click) with A on GP18 and B on GP17
    pico_board = emulate.load_board("pico")
    board = dict(pico_board, encoder=dict(pico_board["encoder"], pin_a=18, pin_b=17))
    said, asked = [], []
    kept = tmp_path / "bringup-pico.json"
    with EmulatedPico(flash, board) as pico:
        seen = {"frames": 0}
        emulate.wait_started(pico)

        def progress(line):
            said.append(line)
            if line.startswith("Knob: turn it"):
                pico.send("wait 300", "turn 3")           # three clicks clockwise, as asked
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

        report = bringup.bring_up(port=pico.port, output=str(kept), yes=True, ask=ask,
                                  progress=progress)
        ended = len(emulate.console_lines(pico))
        assert report["knob_steps"] == -12 and report["detents"] == -6
        assert report["changes"] == ["encoder.direction 1 -> -1",
                                     "encoder.pulses_per_detent 2 -> 4"]
        assert ("knob: 6 clicks counted for the 3 turned, the other way round (backwards): it "
                "counts double (4 steps a click; the board file says 2): encoder.direction "
                "1 -> -1; encoder.pulses_per_detent 2 -> 4") in said
        assert report["button"] is True
        assert report["display"] == ["0x3d"]           # the emulated OLED answers at 0x3D
        assert report["buzzer"] is True
        assert report["written"]
        assert said.index("kept on this computer: %s" % kept) < said.index(
            "wrote board.json on %s" % pico.port)
        # the app, restarted on what was written, turns a note a click the right way
        wait_until(lambda: [line for line in emulate.console_lines(pico)[ended:]
                            if line.startswith("C major triad")], 120, "the app started again")
        pico.send("turn 3")
        wait_until(lambda: "Eb major triad (maj): Eb G Bb" in emulate.console_lines(pico)[
            ended:], 120, "the root three notes up")
    written = json.loads(flash_file(flash, "board.json"))
    assert written["encoder"]["direction"] == -1 and "reverse" not in written["encoder"]
    assert written["encoder"]["pulses_per_detent"] == 4
    assert json.loads(kept.read_text()) == written
    assert written["ring"] == shipped["ring"]           # the ring was right: unchanged
    assert [q.split(":")[0] for q in asked] == ["Ring", "Ring", "Ring", "Buzzer"]


def max_scaled(rgb):
    """The pure colour a dimmed LED shows: (0, 64, 0) -> (0, 255, 0)."""
    top = max(rgb)
    return tuple(255 if c == top else 0 for c in rgb)
