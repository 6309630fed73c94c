"""The unmodified firmware in the simulator, on the real MicroPython unix port."""

import json
import os
import subprocess
import sys

import pytest

from host_tools.cli.main import main
from host_tools.device.files import build_flash
from host_tools.errors import UserError
from host_tools.sim.simulator import compile_script, decode_frame, run_script
from host_tools.sim.terminal import _keys
from running import run

pytestmark = pytest.mark.usefixtures("simulator")

BUTTON = {"debounce_ms": 50, "long_ms": 700, "double_ms": 350}


def lit(frame):
    return [i for i, c in enumerate(frame["wheel"]) if any(c)]


def test_the_issue_script(tmp_path):
    path = tmp_path / "frames.jsonl"
    frames, console = run_script("cw 3; click; ccw 1; double; long; wait 200", str(path))
    assert console == [
        "meld set default loaded: 60 melds",
        "C major triad (maj): C E G",
        "Db major triad (maj): Db F Ab",
        "D major triad (maj): D F# A",
        "Eb major triad (maj): Eb G Bb",
        "Eb minor triad (min): Eb Gb Bb",
        "D minor triad (min): D F A",
        "D major pentatonic (major-pentatonic): D E F# A B",
        "menu: mode (click to change, long press to leave)",
    ]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines == frames
    # Each frame carries the console lines printed since the previous one.
    assert [f["console"] for f in frames] == ["\n".join(console[:2])] + console[2:]
    assert [lit(f) for f in frames[:5]] == [[0, 4, 7], [1, 5, 8], [2, 6, 9], [3, 7, 10],
                                            [3, 6, 10]]
    for frame in frames:
        # The sim board has the optional display and buzzer (tests/host/test_display.py), and
        # MIDI jacks (what it sends on MIDI OUT: docs/midi.md).
        assert set(frame) == {"wheel", "leds", "console", "display", "tones", "midi", "jacks"}
        assert frame["midi"] == []                         # MIDI is off by default
        assert len(frame["wheel"]) == 12 and len(frame["leds"]) == 12
        # The sim board: LED 3 at C, anticlockwise.
        assert frame["leds"][3] == frame["wheel"][0]
        assert frame["leds"][2] == frame["wheel"][1]


def test_runs_in_a_small_heap():
    # make bench measures the smallest heap the app runs in (72 KB on the 64-bit unix port
    # today); this runs with a margin. The 48 KB target is not met yet: see docs/devices.md,
    # "Memory".
    # 124 KB since the `private` setting: the run at 120 KB had less than 2 KB left (it ran
    # out at 118 KB before it), and a fifteenth setting tipped it over at the menu's close.
    # 128 KB since the optional parts are built after the first frame (their modules then
    # load among the app's data): the smallest heap it ran in, in 1 KB steps, was 123 KB
    # before, and 123 to 126 KB across builds that differ in nothing but the heap's layout
    # (a renamed function, a collection more or less), so 124 no longer had a margin.
    # 136 KB since the button's edges are stamped where they come (e562e86: hardware/presses.py's
    # Edges and the loop's pass over them, always loaded): the smallest heap went from 126 KB
    # (5b87b0f) to 130-132 KB (2 KB steps, e562e86 to 62275c2).
    frames, console = run_script("cw 12; double; click; double; click; long; long",
                                 heap=136 * 1024)
    assert console[-4:] == ["C minor second (m2): C Db", "C major second (M2): C D",
                            "menu: mode (click to change, long press to leave)",
                            "C major second (M2): C D"]
    assert len(frames) >= 15


def test_too_small_a_heap_is_a_clear_error(capsys):
    assert main(["sim", "--heap", "32k", "--script", "cw 1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: simulator: the firmware stopped with status 1: ")
    assert "MemoryError" in err and err.count("\n") == 1


def test_safe_mode_with_the_button_held():
    frames, console = run_script("wait 100", hold=True)
    assert console[0].startswith("safe mode: button held at power-up")
    assert [lit(f) for f in frames] == [[0, 3, 6, 9]]
    r, g, b = frames[0]["wheel"][0]
    assert r > g > b == 0                                  # amber


def test_three_crashed_boots_mean_safe_mode(tmp_path):
    build_flash(str(tmp_path), "sim")
    (tmp_path / "crashes.txt").write_text("3")
    _, console = run_script("wait 50", flash=str(tmp_path), reset_cause="reset")
    assert console[0] == ("safe mode: 3 crashed boots in a row. The app is not started; "
                          "the REPL is free.")
    _, console = run_script("wait 50", flash=str(tmp_path), reset_cause="reset")
    assert console[:2] == ["meld set default loaded: 60 melds", "C major triad (maj): C E G"]


def test_power_cuts_during_boot_are_not_crashes(tmp_path):
    # Unplugged three times during boot: each power-up starts the count afresh.
    build_flash(str(tmp_path), "sim")
    (tmp_path / "crashes.txt").write_text("3")
    _, console = run_script("wait 50", flash=str(tmp_path))
    assert console[0] == "meld set default loaded: 60 melds"
    assert (tmp_path / "crashes.txt").read_text() == "0"      # a clean stop at the end


def test_a_crash_while_the_app_is_built_is_counted(tmp_path):
    # A heap too small for the app: a MemoryError while it is built (80 KB on the 64-bit unix
    # port: the boot and the count fit, the app does not). Each reset counts, so the third
    # reset in a row reaches safe mode (which needs less) instead of restarting forever.
    for boot in (1, 2, 3):
        try:
            run_script("wait 50", flash=str(tmp_path), reset_cause="reset", heap=80 * 1024)
        except UserError:
            pass                                  # the simulator stops where a board resets
        assert (tmp_path / "crashes.txt").read_text() == str(boot)
    _, console = run_script("wait 50", flash=str(tmp_path), reset_cause="reset",
                            heap=80 * 1024)
    assert console[0].startswith("safe mode: 3 crashed boots in a row")


def test_settings_persist_in_a_kept_flash(tmp_path):
    run_script("cw 2; click; wait 6000", flash=str(tmp_path))
    _, console = run_script("wait 50", flash=str(tmp_path))
    assert console[1] == "D minor triad (min): D F A"


def test_script_language():
    assert compile_script("cw 2; ccw; wait 5", BUTTON) == [
        "turn 1", "wait 20", "turn 1", "wait 20", "turn -1", "wait 20", "wait 5"]
    assert compile_script("click", BUTTON) == ["press", "wait 70", "release", "wait 420"]
    assert compile_script("long", BUTTON)[:2] == ["press", "wait 770"]
    for bad in ("spin 3", "cw -1", "wait", "click 2"):
        with pytest.raises(UserError):
            compile_script(bad, BUTTON)


def test_decode_frame_inverts_order_and_mapping():
    ring = {"order": "GRB", "count": 12, "led_at_c": 3, "direction": "ccw"}
    wire = bytearray(36)
    wire[9:12] = bytes((20, 10, 30))        # LED 3 in GRB
    wheel, leds = decode_frame(ring, bytes(wire))
    assert wheel[0] == [10, 20, 30] and leds[3] == [10, 20, 30]


def test_terminal_keys():
    rest, commands, done = _keys(b"\x1b[C]\x1b[D [", {"click": ["c"], "double": [], "long": []})
    assert commands == ["turn 1", "turn 1", "turn -1", "c", "turn -1"] and not done
    assert _keys(b"\x1b[", {})[0] == b"\x1b["          # an arrow key cut in two waits
    assert _keys(b"q", {})[2]


def test_cli_sim_script_and_errors(tmp_path, capsys):
    out = tmp_path / "f.jsonl"
    assert main(["sim", "--script", "cw 1", "--frames", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 frames written to %s" % out
    assert main(["sim", "--script", "cw x"]) == 2
    assert capsys.readouterr().err == ("error: --script step 1 'cw x': expected a whole number up"
                                       " to 100000\n")
    assert main(["sim", "--heap", "2k", "--script", "wait 1"]) == 2
    assert main(["sim", "--board", "nope", "--script", "wait 1"]) == 2


def test_make_sim_without_a_terminal_shows_the_demo():
    exe = os.path.join(os.path.dirname(sys.executable), "chromawheel")
    proc = run([exe, "sim"], stdin=subprocess.DEVNULL, timeout=120, expect=0)
    assert proc.stdout.startswith("No interactive terminal: a scripted demo")
    assert "\u2b24" in proc.stdout and "C major triad (maj): C E G" in proc.stdout


def test_the_ring_follows_the_knob_after_the_us_tick_wrap():
    # ticks_us wraps every 2**30 us (17.9 min): started at 17.8 min of uptime and idle for 10
    # minutes, the next detent must still reach the LEDs (it froze before the fix).
    frames, console = run_script("wait 600000; cw 1", uptime_ms=1070000)
    assert console[-1] == "Db major triad (maj): Db F Ab"
    assert len(frames) == 2 and frames[0]["wheel"] != frames[1]["wheel"]


def test_uptime_and_long_waits_are_checked(capsys):
    assert main(["sim", "--script", "wait 3600001"]) == 2
    assert capsys.readouterr().err == ("error: --script step 1 'wait 3600001': expected a "
                                       "whole number up to 3600000\n")
    assert main(["sim", "--script", "wait 1", "--uptime-ms", "-5"]) == 2
    assert capsys.readouterr().err == "error: --uptime-ms -5: cannot be negative\n"
    assert main(["sim", "--uptime-ms", "5"]) == 2               # not silently ignored
    assert capsys.readouterr().err == ("error: --uptime-ms, --reset-cause, --wav, "
                                       "--display-svg and --settings go with --script\n")


def test_ctrl_c_during_a_tune_silences_the_buzzer(tmp_path):
    # mpremote connecting sends Ctrl-C: the firmware stops at the REPL, and a note that was
    # sounding must stop with it (nothing else would silence the PWM before a reset).
    from hardware import board as board_file

    from host_tools.device.files import board_path
    from host_tools.sim.simulator import Firmware
    button = board_file.load(board_path("sim"))["button"]
    firmware = Firmware(build_flash(str(tmp_path), "sim"), None, "sim", "power")
    steps = ["clock virtual 0", "wait 20"] + compile_script("click; wait 100", button)
    out, _ = firmware.finish(steps + ["interrupt"], timeout=60)
    tones = [value for kind, value in firmware.feed(out) if kind == "tone"]
    assert tones and tones[0][1] == 262              # the click's meld began on C4
    assert tones[-1][1:] == (0, 0)                   # and the buzzer is off at the REPL


def test_rings_of_16_and_24_leds(tmp_path):
    # The C major triad at power-up: on 24 LEDs (LED 3 at C, anticlockwise) C is LEDs 3 and 2,
    # E LEDs 19 and 18 (3 - 8 and 3 - 9, mod 24), G LEDs 13 and 12; on 16 LEDs the nearest
    # to 0, 120 and 210 degrees: offsets 0, 5 and 9, so LEDs 3, 14 and 10.
    from host_tools import ROOT
    with open(os.path.join(ROOT, "boards", "sim.json")) as f:
        sim = json.load(f)
    for count, lit in ((24, [2, 3, 12, 13, 18, 19]), (16, [3, 10, 14])):
        path = tmp_path / ("ring%d.json" % count)
        path.write_text(json.dumps(dict(sim, ring=dict(sim["ring"], count=count))))
        frames, _ = run_script("wait 10", board=str(path))
        leds = frames[-1]["leds"]
        assert len(leds) == count and len(frames[-1]["wheel"]) == 12
        assert [i for i, rgb in enumerate(leds) if any(rgb)] == lit, count
