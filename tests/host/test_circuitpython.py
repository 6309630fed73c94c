"""The CircuitPython build: `deploy --drive` lays out a CIRCUITPY drive, and that drive boots
on CPython with the real Adafruit libraries (adafruit_ssd1306, adafruit_framebuf,
neopixel) and only CircuitPython's own modules faked at the pins
(host_tools/emulator/circuitpy_board.py)."""

import errno
import json
import os
import sys
import types

import pytest

from hardware import board as board_file

from host_tools.cli.main import main
from host_tools.device import drive, libs
from host_tools.device.files import ROOT, board_path
from host_tools.errors import UserError
from host_tools.sim.display_image import DisplayImage
from host_tools.sim.simulator import decode_frame
from running import run

QTPY = board_file.load(board_path("qtpy_rp2040"))
FLAT, SHARP = "\u266d", "\u266f"


def deployed(tmp_path):
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    return folder


def run_board(folder, tmp_path, **plan):
    plan_path, result_path = tmp_path / "plan.json", tmp_path / "result.json"
    plan_path.write_text(json.dumps(plan))
    run([sys.executable, "-I", "-m", "host_tools.emulator.circuitpy_board", str(folder),
         str(plan_path), str(result_path)], cwd=ROOT, timeout=120, expect=0)
    result = json.loads(result_path.read_text())
    assert not [line for line in result["console"] if line.startswith("(crashed")], \
        "\n".join(result["console"])
    return result


def kept(tmp_path, name):
    """A record the firmware saved (settings.json, crashes.txt): CircuitPython keeps them in
    microcontroller.nvm, which the fake board keeps in NVM.bin beside the drive."""
    from firmware.nvm_records import NvmRecords
    from firmware.records import RECORD_KEYS
    nvm = tmp_path / "NVM.bin"
    return NvmRecords(bytearray(nvm.read_bytes()), RECORD_KEYS).read(name) if nvm.exists() \
        else None


def saved_settings(tmp_path):
    from firmware import settings
    return dict(settings.defaults(), **json.loads(kept(tmp_path, "settings.json")))


def wheel(frame):
    """The lit sectors of a frame ([ms, hex]) on the QT Py's ring."""
    colours, _ = decode_frame(QTPY["ring"], bytes.fromhex(frame[1]))
    return [pc for pc in range(12) if any(colours[pc])]


def display_rows(result):
    image = DisplayImage(QTPY["display"])
    image.write(0, 7, bytes(result["display_ram"]))
    return image.rows()


def test_deploy_lays_out_a_circuitpy_drive(tmp_path, capsys):
    folder = deployed(tmp_path)
    names = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert {"boot.py", "code.py", "board.json", "melds/default.cwm", "firmware/app.py",
            "hardware/cp_devices.py", "lib/adafruit_ssd1306.py", "lib/adafruit_framebuf.py",
            "lib/adafruit_bus_device/i2c_device.py"} <= set(names)
    assert not [n for n in names if n.endswith((".mpy", ".tmp"))]   # CircuitPython compiles
    assert not [n for n in names if n.startswith(("lib/asyncio", "lib/adafruit_ticks"))]
    assert not [n for n in names if n.startswith("lib/neopixel")]    # built in: neopixel_write
    with open(os.path.join(ROOT, "firmware", "circuitpy_boot.py")) as f:
        assert (folder / "boot.py").read_text() == f.read()
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        assert (folder / "code.py").read_text() == f.read()
    assert json.loads((folder / "board.json").read_text())["board"] == "qtpy_rp2040"
    capsys.readouterr()
    # Again: nothing changes (CircuitPython auto-reloads on every write), and a module that
    # no longer exists is removed; a file of the user's in lib/ is kept.
    (folder / "firmware" / "old_module.py").write_text("x = 1\n")
    (folder / "lib" / "theirs.py").write_text("y = 2\n")
    assert main(["deploy", "--drive", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sent"] == 0 and report["removed"] == ["firmware/old_module.py"]
    assert (folder / "lib" / "theirs.py").exists()


def test_deploy_needs_a_port_or_a_drive_and_the_right_build(tmp_path, capsys):
    assert main(["deploy", "--board", "pico"]) == 2
    assert "one of the arguments --port --drive is required" in capsys.readouterr().err
    assert main(["deploy", "--drive", str(tmp_path), "--board", "pico"]) == 2
    assert "not a CircuitPython build" in capsys.readouterr().err
    assert main(["deploy", "--drive", str(tmp_path / "nowhere"), "--board", "qtpy_rp2040"]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["deploy", "--drive", str(tmp_path)]) == 2
    assert "has no board file yet: name it with --board" in capsys.readouterr().err


def test_a_drive_the_computer_may_not_write_says_what_to_do(tmp_path, capsys, monkeypatch):
    def read_only(source, target):
        raise OSError(errno.EROFS, "Read-only file system")
    monkeypatch.setattr(drive.os, "replace", read_only)
    assert main(["deploy", "--drive", str(tmp_path), "--board", "qtpy_rp2040"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: %s is read-only (writing " % tmp_path)
    assert "hold the knob's button while plugging the board in" in err
    assert not list(tmp_path.rglob("*.tmp"))            # no half-written file left behind


def test_meld_sets_on_the_drive(tmp_path, capsys):
    folder = deployed(tmp_path)
    capsys.readouterr()
    jazz = os.path.join(ROOT, "core", "meldsets", "jazz.json")
    assert main(["meldset", "flash", jazz, "--drive", str(folder)]) == 0
    assert json.loads((folder / "settings.json").read_text())["meldset"] == "jazz"
    capsys.readouterr()
    assert main(["meldset", "list", "--drive", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines() == ["  default                  60 melds",
                                                    "* jazz                     47 melds"]
    (folder / "melds" / "broken.cwm").write_bytes(b"CWMS\x01garbage")
    assert main(["meldset", "list", "--drive", str(folder), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["sets"][0][0] == "broken" and answer["sets"][0][2]
    assert main(["meldset", "remove", "jazz", "--drive", str(folder)]) == 0
    assert "meldset" not in json.loads((folder / "settings.json").read_text())
    assert main(["meldset", "remove", "default", "--drive", str(folder)]) == 2
    assert "cannot be removed" in capsys.readouterr().err


def test_the_drive_boots_turns_plays_shows_and_saves(tmp_path):
    folder = deployed(tmp_path)
    # Turn at 2 s, click at 3 s: C major, Db major, then the next chord, C# minor.
    result = run_board(folder, tmp_path, end_ms=8000,
                       events=[[2000, "turn", 1], [3000, "press"], [3100, "release"]])
    console = result["console"]
    assert result["remounts"] == [["/", False]]          # boot.py gave the drive to the code
    assert console[0].startswith("chromawheel boot: CIRCUITPY is the firmware's")
    assert console[1:5] == ["meld set default loaded: 60 melds", "C major triad (maj): C E G",
                            "Db major triad (maj): Db F Ab", "C# minor triad (min): C# E G#"]
    assert [wheel(f) for f in result["frames"]] == [[0, 4, 7], [1, 5, 8], [1, 4, 8]]
    assert display_rows(result) == ["C%s minor triad" % SHARP, "(min)",
                                    "C%s E G%s" % (SHARP, SHARP)]
    # C#4 277.18, E4 329.63, G#4 415.30 Hz, on the PWM pin.
    assert [t[1] for t in result["tones"] if t[1]][:3] == [277, 330, 415]
    settings = saved_settings(tmp_path)
    assert settings["root"] == 1 and settings["melds"] == [0, 2, 0]
    # In the nvm, never on the FAT drive, whose rewrite a power cut can wipe whole.
    assert not [p for p in ("settings.json", "crashes.txt", "log.txt") if (folder / p).exists()]
    assert result["nvm_erases"] == 0               # appended, not erased


def test_button_held_at_power_up_leaves_the_drive_to_the_computer(tmp_path):
    folder = deployed(tmp_path)
    result = run_board(folder, tmp_path, end_ms=3000, events=[[0, "press"]])
    assert result["remounts"] == []
    assert result["console"][0].startswith("chromawheel boot: CIRCUITPY stays writable from "
                                           "the computer")
    assert result["console"][1] == ("safe mode: button held at power-up. The app is not "
                                    "started; the REPL is free.")
    assert wheel(result["frames"][0]) == [0, 3, 6, 9]              # amber quarters
    assert not (folder / "settings.json").exists() and kept(tmp_path, "settings.json") is None


def test_settings_are_kept_while_the_computer_owns_the_drive(tmp_path):
    # CircuitPython reloads code.py after the laptop copied files, without running boot.py:
    # the drive is still the computer's. The settings go to the nvm all the same.
    folder = deployed(tmp_path)
    result = run_board(folder, tmp_path, boot=False, end_ms=60000,
                       events=[[1000, "turn", 2]])
    assert not [line for line in result["console"] if line.startswith("settings not saved")]
    assert saved_settings(tmp_path)["root"] == 2
    assert not (folder / "settings.json").exists()


def test_the_computers_choice_of_set_is_taken_once_per_choice(tmp_path, capsys):
    # meldset flash --drive asks for a set in the drive's settings.json; the wheel, whose
    # settings are in the nvm, takes it at the next start, keeps a set chosen later on the
    # wheel, and takes the computer's set again when it is asked for again.
    folder = deployed(tmp_path)
    run_board(folder, tmp_path, end_ms=7000, events=[[1000, "turn", 1]])
    assert saved_settings(tmp_path)["root"] == 1 and saved_settings(tmp_path)["meldset"] == \
        "default"
    jazz = os.path.join(ROOT, "core", "meldsets", "jazz.json")
    assert main(["meldset", "flash", jazz, "--drive", str(folder)]) == 0
    result = run_board(folder, tmp_path, end_ms=7000)
    assert "meld set jazz loaded: 47 melds" in result["console"]
    assert saved_settings(tmp_path)["meldset"] == "jazz"
    assert saved_settings(tmp_path)["root"] == 1             # the rest kept from the nvm

    def choose_on_the_wheel(name):
        from firmware.nvm_records import NvmRecords
        from firmware.records import RECORD_KEYS
        data = bytearray((tmp_path / "NVM.bin").read_bytes())
        records = NvmRecords(data, RECORD_KEYS)
        chosen = dict(json.loads(records.read("settings.json")), meldset=name)
        records.write("settings.json", json.dumps(chosen).encode())   # as the menu saves it
        (tmp_path / "NVM.bin").write_bytes(bytes(data))

    choose_on_the_wheel("default")
    result = run_board(folder, tmp_path, end_ms=3000)
    assert "meld set default loaded: 60 melds" in result["console"]   # the file is unchanged
    assert main(["meldset", "flash", jazz, "--drive", str(folder)]) == 0   # the same set again
    capsys.readouterr()
    result = run_board(folder, tmp_path, end_ms=3000)
    assert "meld set jazz loaded: 47 melds" in result["console"]


def test_a_qt_py_without_its_oled_boots_straight_to_the_wheel(tmp_path):
    # Nothing on the STEMMA port: busio.I2C itself refuses a bus with no pull-ups.
    folder = deployed(tmp_path)
    result = run_board(folder, tmp_path, end_ms=12000, oled=False, events=[[2000, "turn", 1]])
    assert ("display not found (No pull up found on SDA or SCL; check your wiring): running "
            "without it; check its wiring and the board file's \"display\" section"
            in result["console"])
    assert [wheel(f) for f in result["frames"]] == [[0, 4, 7], [1, 5, 8]]
    assert "(reset)" not in result["console"]
    assert kept(tmp_path, "crashes.txt") == b"0"                      # stable: no crash counted


def test_an_oled_that_stops_answering_is_dropped(tmp_path):
    folder = deployed(tmp_path)
    result = run_board(folder, tmp_path, end_ms=6000, events=[
        [1000, "turn", 1], [1500, "unplug"], [2000, "turn", 1], [3000, "turn", 1]])
    lost = [line for line in result["console"] if line.startswith("display lost")]
    assert lost == ["display lost ([Errno 110] the OLED stopped answering): running without it"]
    assert [wheel(f) for f in result["frames"]] == [[0, 4, 7], [1, 5, 8], [2, 6, 9], [3, 7, 10]]
    assert "(reset)" not in result["console"]


def test_the_circuitpython_clock_wraps_at_2_to_the_29(tmp_path):
    # supervisor.ticks_ms wraps every 2**29 ms (6.2 days): started 3 s before, a turn and a
    # click after the wrap still reach the ring.
    folder = deployed(tmp_path)
    result = run_board(folder, tmp_path, end_ms=9000, start_ms=(1 << 29) - 3000,
                       events=[[5000, "turn", 1], [6000, "press"], [6100, "release"]])
    assert [wheel(f) for f in result["frames"]] == [[0, 4, 7], [1, 5, 8], [1, 4, 8]]


@pytest.fixture
def adafruit_neopixel(monkeypatch):
    """Adafruit's neopixel library (and adafruit_pixelbuf) from the pinned bundle modules,
    with neopixel_write, board and digitalio faked at the pin."""
    monkeypatch.syspath_prepend(libs.lib_dir("circuitpython"))
    written = []

    def module(name, **attrs):
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, m)

    class DigitalInOut:
        def __init__(self, pin):
            pass

        def deinit(self):
            pass

    module("board", A3="A3")
    module("microcontroller", Pin=object)          # named in its type annotations
    module("digitalio", DigitalInOut=DigitalInOut,
           Direction=types.SimpleNamespace(OUTPUT="out"))
    module("neopixel_write", neopixel_write=lambda pin, buf: written.append(bytes(buf)))
    for name in ("neopixel", "adafruit_pixelbuf"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return written


@pytest.mark.parametrize("order", ["GRB", "RGB", "BGR", "GRBW", "RGBW"])
def test_our_wire_bytes_are_what_adafruits_neopixel_sends(adafruit_neopixel, order):
    # The ring writes its own buffer (no copy); Adafruit's library, given the colours we meant
    # in its pixel order, must put exactly the same bytes on the wire.
    import neopixel

    from hardware.ring import Ring

    class Capture:
        def write(self, buf):
            self.buf = bytes(buf)
    config = dict(QTPY["ring"], order=order)
    out = Capture()
    ring = Ring(config, out)
    for sector, rgb in enumerate(((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 110, 0))):
        ring.frame[3 * sector:3 * sector + 3] = bytes(rgb)
    ring.show()
    _, leds = decode_frame(config, out.buf)
    white = len(order) == 4
    pixels = neopixel.NeoPixel("A3", 12, bpp=len(order), brightness=1.0, auto_write=False,
                               pixel_order=order)
    for i, (r, g, b) in enumerate(leds):
        pixels[i] = (r, g, b, 0) if white else (r, g, b)
    pixels.show()
    assert adafruit_neopixel[-1] == out.buf


def test_a_port_running_circuitpython_is_sent_to_the_drive(monkeypatch):
    from host_tools.device import link
    monkeypatch.setattr(link.DeviceLink, "_wait_for_port", lambda self: None)
    monkeypatch.setattr(link.DeviceLink, "connect", lambda self: None)
    monkeypatch.setattr(link.DeviceLink, "run", lambda self, code: "circuitpython\n")
    with pytest.raises(UserError) as err:
        with link.DeviceLink("/dev/ttyACM0"):
            pass
    assert "runs CircuitPython: copy onto its CIRCUITPY drive instead, with --drive PATH" in \
        str(err.value)


def test_a_circuitpython_10_drive_gets_mpy_files_and_loses_their_source_twins(tmp_path):
    # Deployed as source onto a drive with no boot_out.txt (a board not yet seen), then again
    # once the board has said it runs CircuitPython 10: the modules become .mpy with
    # CircuitPython's header byte, their .py twins go, a module with async def stays source,
    # and a library of the user's in lib/ is left alone.
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    assert (folder / "firmware" / "start.py").exists()
    (folder / "lib" / "mylib.py").write_text("X = 1\n")
    # A source deploy leaves a compiled module of the user's alone, even one named as ours.
    (folder / "lib" / "adafruit_framebuf.mpy").write_bytes(b"C\x06 a user's own (circup)")
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    users = b"C\x06 a user's own (circup)"
    assert (folder / "lib" / "adafruit_framebuf.mpy").read_bytes() == users
    (folder / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1 on 2026-05-12; "
                                         "Adafruit QT Py RP2040 with rp2040\n")
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    assert (folder / "firmware" / "start.mpy").read_bytes()[:2] == b"C\x06"
    assert not (folder / "firmware" / "start.py").exists()
    assert (folder / "lib" / "adafruit_ssd1306.mpy").exists()
    assert not (folder / "lib" / "adafruit_ssd1306.py").exists()
    assert (folder / "firmware" / "async_loop.py").exists()        # it has async def
    assert not (folder / "firmware" / "app.py").exists()
    assert (folder / "lib" / "mylib.py").read_text() == "X = 1\n"
    assert (folder / "lib" / "adafruit_framebuf.mpy").read_bytes() != \
        b"C\x06 a user's own (circup)"        # a compiled deploy lays out its own, by name
    assert (folder / "code.py").exists() and (folder / "boot.py").exists()


# CircuitPython 10.2.1's .mpy loader (py/persistentcode.c, mp_raw_code_load, at the 10.2.1
# tag) takes a file whose header is: 'C', MPY_VERSION 6 (py/persistentcode.h), a feature byte
# whose native arch ((byte >> 2) & 0x2F) is none and without the arch-flags bit (0x40), and
# small ints of at most MP_SMALL_INT_BITS bits: 31 on the RP2040 (py/smallint.h,
# MP_IMAX_BITS(MP_SMALL_INT_MAX) + 1 on a 32-bit port with the default object model).
CIRCUITPYTHON_10_2_1 = {"magic": ord("C"), "version": 6, "arch": 0, "arch_flags": 0,
                        "small_int_bits_at_most": 31}


def header_fields(mpy):
    magic, version, features, small_int_bits = mpy[:4]
    return {"magic": magic, "version": version, "arch": (features >> 2) & 0x2F,
            "arch_flags": features & 0x40, "small_int_bits": small_int_bits}


def test_each_compiled_module_has_the_header_circuitpython_10_2_1_loads():
    files = dict(drive.payload("qtpy_rp2040", compiled=True))
    compiled = [rel for rel in files if rel.endswith(".mpy")]
    assert "firmware/loop.mpy" in compiled and "lib/adafruit_ssd1306.mpy" in compiled
    assert "core/hand_loops.mpy" in compiled          # its viper loops as plain bytecode
    want = CIRCUITPYTHON_10_2_1
    for rel in compiled:
        fields = header_fields(files[rel])
        assert (fields["magic"], fields["version"], fields["arch"], fields["arch_flags"]) == \
            (want["magic"], want["version"], want["arch"], want["arch_flags"]), rel
        assert fields["small_int_bits"] <= want["small_int_bits_at_most"], rel


def test_a_module_stays_source_for_what_its_syntax_tree_holds(tmp_path):
    # CircuitPython's compiler differs from MicroPython's on async def and await (and async
    # for, async with, an async comprehension, which await): those modules stay source. The
    # word in a comment or a docstring, where a pattern over the text saw it, is nothing.
    cases = {
        "words.py": ('"""We await nothing; async def is only a word here."""\n'
                     "# await the knob\nX = 'await'\n", True),
        "coroutine.py": ("async def f():\n    return 1\n", False),
        "awaits.py": ("async def f(g):\n    await g\n", False),
        "loops.py": ("async def f(g):\n    async for x in g:\n        pass\n", False),
        "withs.py": ("async def f(g):\n    async with g:\n        pass\n", False),
        "comprehension.py": ("async def f(g):\n    return [x async for x in g]\n", False),
    }
    for name, (text, alike) in cases.items():
        (tmp_path / name).write_text(text)
        assert drive.compiles_alike(str(tmp_path / name)) is alike, name


def test_settings_toml_gets_the_heap_start_and_keeps_the_users_lines(tmp_path):
    # CircuitPython's heap starts at 8 KB and doubles, collecting before each growth: deploy
    # asks for 64 KB at power-up in settings.toml, beside the user's own keys, and leaves a
    # value the user chose.
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    (folder / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"')
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    assert (folder / "settings.toml").read_text() == (
        'CIRCUITPY_WIFI_SSID = "home"\nCIRCUITPY_HEAP_START_SIZE = 65536\n')
    (folder / "settings.toml").write_text("CIRCUITPY_HEAP_START_SIZE = 32768\n")
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    assert (folder / "settings.toml").read_text() == "CIRCUITPY_HEAP_START_SIZE = 32768\n"
    (folder / "settings.toml").write_text('A = 1\n[mine]\nB = 2\n')     # a key after [mine]
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0  # is mine's
    assert (folder / "settings.toml").read_text() == (
        "A = 1\nCIRCUITPY_HEAP_START_SIZE = 65536\n[mine]\nB = 2\n")
