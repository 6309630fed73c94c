"""The firmware on real CircuitPython (the stock 10.2.1 QT Py RP2040 UF2) in the emulated RP2040:
the CIRCUITPY drive that `deploy --drive` lays out, with the Adafruit bundle libraries it
ships, booted from the flash image; the ring decoded off its WS2812 pin (CircuitPython's
PIO-driven neopixel_write), the knob read by rotaryio, the button by digitalio, settings saved
by the firmware itself in microcontroller.nvm; the OLED on the STEMMA QT port and the piezo on
TX, as the board file has them (their text and tones: test_emulated_qtpy_parts.py). Time is
the emulator's: nothing depends on wall time."""

import json

import pytest

from hardware import board as board_file

from firmware.nvm_records import NvmRecords
from firmware.records import RECORD_KEYS
from host_tools.cli.main import main
from host_tools.device.files import board_path
from host_tools.emulator import circuitpy_drive, emulate
from host_tools.sim import simulator

pytestmark = pytest.mark.usefixtures("emulator", "simulator")

NAME = "qtpy_rp2040"
BOARD = emulate.load_board(NAME)
BANNER = "Adafruit CircuitPython 10.2.1 on 2026-05-12; Adafruit QT Py RP2040 with rp2040"
# The simulator's script at its own pace (turns 20 ms apart): every detent gets its own frame
# on the real port too, and the display follows once the knob rests.
SCRIPT = "cw 3; click; ccw 1; double; long; wait 200"


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A fresh QT Py: the stock UF2 and a CIRCUITPY drive holding what deploy --drive lays out."""
    image = str(tmp_path_factory.mktemp("qtpy") / "deployed.img")
    emulate.deploy_onto(NAME, image, progress=lambda line: None)
    return image


def test_the_drive_holds_what_deploy_lays_out(deployed, tmp_path):
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    laid_out = dict(circuitpy_drive.laid_out(NAME, str(folder)))
    assert emulate.drive_files(deployed) == laid_out
    # Adafruit's SSD1306 driver, for real, and our modules compiled, but where they have
    # async def (firmware/async_loop.py, which CircuitPython's loop does not use).
    assert {"code.py", "boot.py", "board.json", "lib/adafruit_ssd1306.mpy",
            "firmware/async_loop.py", "firmware/app.mpy", "firmware/start.mpy"} <= set(laid_out)
    assert all(data[:2] == b"C\x06" for rel, data in laid_out.items() if rel.endswith(".mpy"))


def test_the_knob_and_ring_pins_are_the_board_files():
    # The board file names CircuitPython pins; the emulator drives the GPIOs behind them
    # (CircuitPython's pins.c for the QT Py RP2040), A leading B for a clockwise detent.
    wired = emulate.wired(NAME, BOARD)
    assert (BOARD["encoder"]["pin_a"], BOARD["encoder"]["pin_b"]) == ("A1", "A2")
    assert (wired["encoder"]["pin_a"], wired["encoder"]["pin_b"]) == (28, 27)
    assert (BOARD["ring"]["pin"], wired["ring"]["pin"]) == ("A3", 26)
    assert (BOARD["button"]["pin"], wired["button"]["pin"]) == ("A0", 29)
    # The OLED on the STEMMA QT port (SDA1, SCL1: the RP2040's I2C1), the piezo on TX.
    display = wired["display"]
    assert (BOARD["display"]["sda"], BOARD["display"]["scl"]) == ("SDA1", "SCL1")
    assert (display["sda"], display["scl"], display["i2c"]) == (22, 23, 1)
    assert (BOARD["buzzer"]["pin"], wired["buzzer"]["pin"]) == ("TX", 20)


def test_the_simulators_script_gives_the_simulators_frames(deployed, tmp_path):
    flash = str(tmp_path / "flash.img")
    with open(deployed, "rb") as f, open(flash, "wb") as out:
        out.write(f.read())
    drive = {}
    frames, console = emulate.run_script(SCRIPT, board=NAME, flash=flash,
                                         progress=lambda line: None, drive=drive)
    # The simulator runs its own board: the same ring power, LED count, colour order, knob and
    # button timings as the QT Py's, so the same wheel (C first) and console.
    sim = board_file.load(board_path("sim"))
    wiring = ("pin", "led_at_c", "direction", "pin_a", "pin_b", "driver", "pull")
    for part in ("ring", "encoder", "button"):
        assert {k: v for k, v in BOARD[part].items() if k not in wiring} == \
            {k: v for k, v in sim[part].items() if k not in wiring}, part
    expected, expected_console = simulator.run_script(SCRIPT)
    # Three cw detents and one ccw through rotaryio: C, Db, D, Eb, then (click) Eb minor,
    # (ccw) D minor.
    assert [lit(f) for f in frames][:6] == [[0, 4, 7], [1, 5, 8], [2, 6, 9], [3, 7, 10],
                                            [3, 6, 10], [2, 5, 9]]
    assert [f["wheel"] for f in frames] == [f["wheel"] for f in expected]
    assert console == expected_console                 # the OLED found: no "display not found"
    assert [f["console"] for f in frames] == [f["console"] for f in expected]
    # The wire: GRB bytes at 800 kHz within the WS2812B datasheet's windows, LED 0 at C.
    assert not sum(f["faults"] for f in frames)
    assert [f["leds"] for f in frames] == [f["wheel"] for f in frames]
    # CircuitPython wrote boot_out.txt on this first power-up, with boot.py's word on who
    # writes the drive.
    boot_out = drive["boot_out.txt"].decode().replace("\r\n", "\n")
    assert boot_out.startswith(BANNER + "\nBoard ID:adafruit_qtpy_rp2040\n")
    assert "chromawheel boot: CIRCUITPY is the firmware's (it saves settings)" in boot_out


def test_a_script_gives_the_same_frames_on_every_run():
    # As on the Pico (tests/host/test_emulated_pico.py): the steps land at their emulated
    # time from the firmware's start, so two runs on rotaryio agree to the nanosecond.
    # (A wait after the double: the arpeggio's notes are told whole, wherever a boot's few ms
    # more or less put the script's end; without it the first note, ending just before the
    # end, was told or not as a pass moved by a fraction of a ms.)
    script = "cw 3; click; double; wait 500"
    first = emulate.run_script(script, board=NAME, progress=lambda line: None)
    second = emulate.run_script(script, board=NAME, progress=lambda line: None)
    assert first == second
    # The arpeggio's first note: E flat, 180 ms as PWM edges.
    freq, ms = first[0][-1]["tones"][0]
    assert freq == 311 and 175 <= ms <= 182
    expected, expected_console = simulator.run_script(script)
    assert first[1] == expected_console and len(expected_console) == 7    # the set, 6 melds
    assert [f["wheel"] for f in first[0]] == [f["wheel"] for f in expected]
    assert [f["console"] for f in first[0]] == [f["console"] for f in expected]


def test_a_setting_the_firmware_saves_is_there_after_a_power_cycle(tmp_path, capsys):
    # A new --flash FILE: the firmware deployed onto a fresh image, kept there; the second
    # run powers up what the first one saved (5 s after the knob stops).
    flash = str(tmp_path / "kept.img")
    args = ["emulate", "--board", NAME, "--flash", flash, "--json"]
    assert main(args + ["--script", "cw 3; wait 6000"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["console"][-1] == "Eb major triad (maj): Eb G Bb"
    # In microcontroller.nvm (the flash sector before the drive), nothing on the drive.
    saved = NvmRecords(circuitpy_drive.nvm_of(flash), RECORD_KEYS).read("settings.json")
    assert json.loads(saved)["root"] == 3
    assert json.loads(first["nvm"]["settings.json"]) == {"root": 3}    # what is not default
    assert first["nvm"]["crashes.txt"] == "1"        # the app has not run 10 s yet
    assert "settings.json" not in first["drive"]
    assert main(args + ["--script", "ccw 1; wait 100"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["console"] == ["meld set default loaded: 60 melds",
                                 "Eb major triad (maj): Eb G Bb", "D major triad (maj): D F# A"]
    assert second["drive"]["boot_out.txt"] == first["drive"]["boot_out.txt"]
    assert not first["timing_faults"] and not second["timing_faults"]


def test_the_button_held_at_power_up_leaves_the_drive_to_the_computer(deployed, tmp_path):
    # The maker's guide: hold the knob's button while plugging in to copy files onto
    # CIRCUITPY. boot.py then leaves the drive to the computer and the firmware starts in
    # safe mode (amber quarters), writing nothing on the drive.
    flash = str(tmp_path / "held.img")
    with open(deployed, "rb") as f, open(flash, "wb") as out:
        out.write(f.read())
    drive = {}
    frames, console = emulate.run_script("cw 1; wait 100", board=NAME, flash=flash, hold=True,
                                         progress=lambda line: None, drive=drive)
    assert console[0] == ("safe mode: button held at power-up. The app is not started; the "
                          "REPL is free.")
    assert lit(frames[0]) == [0, 3, 6, 9]
    assert all(f["wheel"] == frames[0]["wheel"] for f in frames)     # the knob does nothing
    boot_out = drive["boot_out.txt"].decode()
    assert "chromawheel boot: CIRCUITPY stays writable from the computer" in boot_out
    assert "settings.json" not in drive and "crashes.txt" not in drive
    assert drive[emulate.NVM_RECORDS] == {"crashes.txt": b"0"}   # safe mode clears the count


def test_from_a_deep_rest_the_knob_and_the_button_answer_as_from_a_rest(deployed, tmp_path):
    """Once the wheel has rested 2 s (firmware/devices.py: DEEP_REST_MS) CircuitPython's loop
    runs a pass every 20 ms and only reads the knob and the button between its 2 ms sleeps
    (firmware/ports/circuitpython.py): the first detent is latched within the knob's 5 ms
    bound, and a press as short as the debounce still counts."""
    flash = str(tmp_path / "rest.img")
    with open(deployed, "rb") as f, open(flash, "wb") as out:
        out.write(f.read())
    with emulate.emulated(NAME, flash) as pico:
        emulate.wait_started(pico)
        pico.send("wait 3000", "turn 1", "wait 3000", "press", "wait 50", "release",
                  "wait 600")
        pico.wait_done()
        assert len(pico.detents) == 1
        edge = pico.detents[0]
        before = [f for f in pico.frames if f[5] <= edge][-1]
        turned = [f for f in pico.frames if f[5] > edge and f[1] != before[1]][0]
        assert turned[0] - edge < 5000000, (turned[0] - edge) / 1e6
        assert emulate.console_lines(pico)[-2:] == ["Db major triad (maj): Db F Ab",
                                                    "C# minor triad (min): C# E G#"]


def test_the_hand_mode_starts_after_meld_check_has_run():
    """The QT Py's tight heap (docs/devices.md): the hand mode, chosen in the menu once meld
    check has run, starts and answers as the simulator does. It fell back to the explorer
    ('mode hand: MemoryError', allocating 1024 bytes: its search's arrays, made after its
    code, found no room in the heap left in pieces); they are made first now, at the switch
    (firmware/modes/__init__.py: PREPARED)."""
    # C E G played in meld check, the menu's mode > hand, then C E G in the hand and its
    # answers asked for on an empty sector. Waits where the board is busy (the mode's load,
    # a search), where a press would be lost (a press within a busy pass: docs/architecture.md).
    script = ("click; cw 4; click; cw 3; click; cw 1; long; wait 1500; long; wait 100; "
              "click; cw 1; click; wait 2000; long; wait 500; click; wait 1000; cw 4; click; "
              "wait 1000; cw 3; click; wait 1500; cw 1; long; wait 1000")
    settings = {"mode": "meld check"}
    frames, console = emulate.run_script(script, board=NAME, settings=settings,
                                         progress=lambda line: None)
    expected, expected_console = simulator.run_script(script, settings=settings)
    assert not [line for line in console if "could not start" in line], console
    assert [line for line in console if "; searching" not in line] == expected_console
    assert console[-1].startswith("hand: C E G; 1/") and "best chords 100" in console[-1]
    assert frames[-1]["hand"] == expected[-1]["hand"] == [1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0]
