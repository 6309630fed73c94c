"""The firmware on the real MicroPython rp2 port (the stock v1.28.0 Pico UF2) in the emulated
RP2040: deployed over real mpremote, booted from its littlefs flash, its ring decoded off the
WS2812 pin, the knob and button driven on their pins, power cut at seeded points of a flash."""

import os
import random
import shutil
import threading

import pytest

from host_tools.device import deploy
from host_tools.device.files import ROOT
from host_tools.emulator import emulate
from host_tools.emulator.rp2040 import EmulatedPico
from host_tools.errors import UserError
from host_tools.sim import simulator
from waiting import wait_until

pytestmark = pytest.mark.usefixtures("emulator", "simulator")

BOARD = emulate.load_board("pico")
JAZZ = os.path.join(ROOT, "core", "meldsets", "jazz.json")


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


@pytest.fixture
def deployed(deployed_image, tmp_path):
    """A fresh emulated Pico (only MicroPython on its flash), deployed as a Pico is: the deploy
    that made the session's image (its report kept beside it, the cache named by the deploy's
    own sources too), else one of its own."""
    record = emulate.deploy_record(deployed_image("pico"))
    if record is not None:
        return record["report"], record["resets"]
    with EmulatedPico(str(tmp_path / "deployed.img"), BOARD) as pico:
        report = deploy.deploy(pico.port, "pico", progress=lambda line: None)
        resets = pico.resets
    return report, resets


@pytest.fixture
def pico_flash(deployed_image, tmp_path):
    """A flash of its own: a copy of the Pico deployed the same way once for every file's
    tests (the cached image), so this file's tests need not wait for its own deploy and can
    run on another worker."""
    path = str(tmp_path / "flash.img")
    shutil.copyfile(deployed_image("pico"), path)
    return path


def started(pico, timeout=60):
    emulate.wait_started(pico, timeout)
    return emulate.console_lines(pico)


def said_soon(pico, line, timeout=30):
    """Whether the board printed `line`: the timed serial copy comes on its own pipe and may
    trail the pty that deploy listened on, so it is given a moment to catch up. The raw REPL's
    last bytes (its prompts, Ctrl-D) can share the line the app prints first after the reset."""
    try:
        return wait_until(lambda: [said for said in emulate.console_lines(pico)
                                   if said.endswith(line)], timeout, what=repr(line))
    except AssertionError:
        return False


def power_cycle(pico, while_off=None):
    """Cut the power now (then call while_off()), power up again: the console of the new boot
    once it has started."""
    pico.power_cut()
    if while_off is not None:
        while_off()
    pico.said.clear()
    pico.serial.clear()
    pico.frames.clear()
    pico.power_up()
    return started(pico)


def test_deploy_with_real_mpremote(deployed):
    report, resets = deployed
    # Everything was sent to an empty board, checked by hash, and the board reset twice (into
    # maintenance, then to start the app), each a watchdog reset of the chip.
    assert report["compiled"] and report["sent"] == report["files"] >= 50
    assert report["started"] == "meld set default loaded: 60 melds"
    assert resets == 2


def same_display(frames, expected):
    """The display follows the simulator's: its text once the knob rests (the last frame) is
    the simulator's, and no row shows a text the simulator shows only later. It may lag, as
    it waits for the knob to rest, and a real port draws it a row a pass, in milliseconds:
    a turn may come while it is drawing (the simulator draws in no time)."""
    assert frames[-1]["display"] == expected[-1]["display"]

    def row(display, r):
        return display[r] if r < len(display) else ""
    for at, frame in enumerate(frames):
        for r in range(8):
            assert row(frame["display"], r) in [""] + [
                row(e["display"], r) for e in expected[:at + 1]], (at, r, frame["display"])


# The simulator's script at its own pace (turns 20 ms apart): every detent gets its own frame
# on the real port too, and the display follows once the knob rests.
SCRIPT = "cw 3; click; ccw 1; double; long; wait 200"


def test_the_simulators_script_gives_the_simulators_frames(pico_flash):
    script = SCRIPT
    frames, console = emulate.run_script(script, board="pico", flash=pico_flash,
                                         progress=lambda line: None)
    expected, expected_console = simulator.run_script(script)
    assert [lit(f) for f in frames] == [lit(f) for f in expected]
    assert console == expected_console
    # The OLED answers on the emulated I2C bus (micropython-lib's ssd1306 on the rp2 port's
    # I2C).
    same_display(frames, expected)
    # The wire: GRB bytes at 800 kHz within the WS2812B datasheet's windows.
    assert not sum(f["faults"] for f in frames)
    leds = expected[0]["leds"]
    assert frames[0]["wheel"][0] == expected[0]["wheel"][0] and leds


def test_the_hand_mode_answers_as_the_simulator_with_its_search_in_machine_code(pico_flash):
    # The deploy compiles the hand search's loops for the Pico's Cortex-M0+ (core/hand_loops.py);
    # the simulator runs them as plain Python. C D E G Bb entered at a player's pace (the
    # search after each card done before the knob turns on: a detent meanwhile may share a
    # pass with the next), the answers asked for on an empty sector and stepped through: the
    # same lines (the ring's frames differ in the cursor's blink, timed by each board's passes).
    # The hand's line says its best turn once proven, "searching" before: the Pico prints that
    # line while it searches, the simulator's faster passes never show it. The first card's
    # search reads the set's table first.
    script = ("click; wait 1000; cw 2; click; wait 200; cw 2; click; wait 200; cw 3; click; "
              "wait 200; cw 3; click; wait 200; cw 1; long; cw 1; cw 1")
    settings = {"mode": "hand"}
    frames, console = emulate.run_script(script, board="pico", flash=pico_flash,
                                         settings=settings, progress=lambda line: None)
    expected, expected_console = simulator.run_script(script, settings=settings)
    assert [line for line in console if "; searching" not in line] == expected_console
    assert console[-1].startswith("hand: C D E G A#/Bb; 3/")
    assert frames and not sum(f["faults"] for f in frames)


def test_a_press_while_the_pass_is_busy_is_not_lost(pico_flash):
    # Cards entered at the script's own pace: the first card's pass (its write to flash, the
    # set's table read for the search) keeps the Pico busy for more than 400 emulated ms, and
    # the second click, pressed and released within it, was lost (the button was only read
    # at a pass: the hand came out C C#/Db D#/Eb F). Its edges are stamped by the pin's
    # interrupt now (hardware/presses.py: Edges), each judged on its own time, in order with
    # the turns around it: the simulator's hand.
    script = "click; click; cw 1; click; cw 2; click; cw 2; click"
    settings = {"mode": "hand"}
    frames, console = emulate.run_script(script, board="pico", flash=pico_flash,
                                         settings=settings, progress=lambda line: None)
    expected, expected_console = simulator.run_script(script, settings=settings)
    hands = [line.split(";")[0] for line in console if line.startswith("hand:")]
    assert hands[-1] == "hand: C C C#/Db D#/Eb F"
    assert sorted(set(hands)) == sorted({line.split(";")[0] for line in expected_console
                                         if line.startswith("hand:")})


def test_a_script_gives_the_same_frames_on_every_run(deployed_image, tmp_path):
    # The script at the script language's own pace (turns 20 ms apart): each step
    # lands on the pins at its exact emulated time from the firmware's start, so two runs
    # give the same frames to the nanosecond, and the simulator's six meld lines.
    script = "cw 3; click; double"
    image, runs = deployed_image("pico"), []
    for run in ("first", "second"):                 # each from its own copy of one image
        flash = str(tmp_path / (run + ".img"))
        shutil.copyfile(image, flash)
        runs.append(emulate.run_script(script, board="pico", flash=flash,
                                       progress=lambda line: None))
    first, second = runs
    assert first == second
    expected, expected_console = simulator.run_script(script)
    assert first[1] == expected_console and len(expected_console) == 7    # the set, 6 melds
    assert [lit(f) for f in first[0]] == [lit(f) for f in expected]
    assert [f["console"] for f in first[0]] == [f["console"] for f in expected]


def test_a_tune_sounds_on_the_piezo_pin(pico_flash):
    # The click's C minor arpeggio, read off the PWM pin: C4, Eb4, G4 for 180 ms each (within
    # one 10 ms loop period and a PWM period), as the simulator plays it.
    frames, _ = emulate.run_script("click; wait 1500", board="pico", flash=pico_flash,
                                   progress=lambda line: None)
    expected, _ = simulator.run_script("click; wait 1500")
    heard, played = frames[-1]["tones"][:3], expected[-1]["tones"][:3]
    assert [t[0] for t in heard] == [t[0] for t in played] == [262, 311, 392]
    assert all(abs(a[1] - b[1]) <= 12 for a, b in zip(heard, played))


def test_an_oled_that_stops_answering_is_dropped(pico_flash):
    # Unplugged mid-run: the rp2 port's I2C write raises OSError; the wheel goes on.
    with EmulatedPico(pico_flash, BOARD) as pico:
        started(pico)
        pico.send("turn 1", "wait 300", "unplug", "turn 1", "wait 300", "turn 1", "wait 300")
        pico.wait_done()
        frames = emulate.frames_of(pico, BOARD["ring"])
        console = emulate.console_lines(pico)
    assert [lit(f) for f in frames] == [[0, 4, 7], [1, 5, 8], [2, 6, 9], [3, 7, 10]]
    lost = [line for line in console if line.startswith("display lost")]
    assert len(lost) == 1 and "running without it" in lost[0]
    assert not [line for line in console if "Traceback" in line or "safe mode" in line]


def test_a_flashed_set_is_used_and_survives_a_power_cycle(pico_flash):
    with EmulatedPico(pico_flash, BOARD) as pico:
        started(pico)
        report = deploy.flash_set(pico.port, JAZZ, progress=lambda line: None)
        assert report["melds"] == 47
        assert said_soon(pico, "meld set jazz loaded: 47 melds")
        assert "meld set jazz loaded: 47 melds" in power_cycle(pico)
        listing = deploy.list_sets(pico.port)            # (it resets the board)
        assert listing["active"] == "jazz"
        assert [s[0] for s in listing["sets"]] == ["default", "jazz"]
        assert not [s for s in listing["sets"] if s[2]]


def test_settings_survive_a_power_cycle(pico_flash):
    with EmulatedPico(pico_flash, BOARD) as pico:
        started(pico)
        pico.send("turn 3", "wait 6000")        # saved 5 s after the knob stops
        pico.wait_done()
        assert "Eb major triad (maj): Eb G Bb" in power_cycle(pico)
        assert lit(emulate.frames_of(pico, BOARD["ring"])[0]) == [3, 7, 10]


def test_safe_mode_with_the_button_held(pico_flash):
    with EmulatedPico(pico_flash, BOARD, held=True) as pico:
        console = started(pico)
        assert "safe mode: button held at power-up. The app is not started; the REPL is " \
            "free." in console
        assert lit(emulate.frames_of(pico, BOARD["ring"])[0]) == [0, 3, 6, 9]


def _cut_and_check(pico, while_off=None):
    """Power cut now: it boots again with a good set."""
    console = power_cycle(pico, while_off)
    loaded = [line for line in console if line.startswith("meld set ")]
    assert loaded and loaded[0] in ("meld set default loaded: 60 melds",
                                    "meld set jazz loaded: 47 melds"), console
    return console


def test_power_cuts_during_a_flash_and_a_settings_save(pico_flash):
    rng = random.Random(int(os.getenv("CHROMAWHEEL_SEED", "7")))
    outcomes = []
    with EmulatedPico(pico_flash, BOARD) as pico:
        started(pico)
        # A meld-set flash cut at a seeded point: inside the k-th of the flash operations a
        # whole flash makes (counted on one first), a seeded fraction of the way through.
        ops = len(pico.flash_ops)
        deploy.flash_set(pico.port, JAZZ, progress=lambda line: None)
        started(pico)
        whole = len(pico.flash_ops) - ops
        for _ in range(2):
            errors = []
            pico.cut_during(rng.randrange(whole), rng.random())
            thread = threading.Thread(target=_flash_catching, args=(pico.port, errors))
            thread.start()
            # Cut inside the flash, or (a flash that needed fewer operations) right after it.
            wait_until(lambda done=thread.is_alive: pico.proc.poll() is not None or not done(),
                       600, what="the cut or the flash's end")
            console = _cut_and_check(pico, thread.join)     # the laptop side gives up first
            outcomes.append([line for line in console if line.startswith("meld set")][0])
        # A settings save cut near the moment it happens (5 s after the knob stops).
        for _ in range(2):
            pico.send("turn 1", "wait %d" % rng.randint(4970, 5060))
            pico.wait_done()
            console = _cut_and_check(pico)
            outcomes.append([line for line in console if "triad" in line][:1])
        # Every set on the flash still loads (a cut copy is a .tmp file, never a set).
        listing = deploy.list_sets(pico.port)
        assert "default" in [s[0] for s in listing["sets"]]
        assert not [s for s in listing["sets"] if s[2]], listing
    assert len(outcomes) == 4
    print("power cuts (flash x2, settings save x2): %s" % outcomes)     # pytest -s shows it


def _flash_catching(port, errors):
    try:
        deploy.flash_set(port, JAZZ, progress=lambda line: None)
    except UserError as err:
        errors.append(str(err))


def test_a_24_led_ring_on_the_real_port(pico_flash, tmp_path):
    # The board file of one's own with a 24-LED ring, deployed onto the deployed Pico (only
    # board.json changes): MicroPython's neopixel writes 24 LEDs, two a sector, and the
    # simulator given the same board file lights the same ones.
    import json
    with open(os.path.join(ROOT, "boards", "pico.json")) as f:
        board = json.load(f)
    board["ring"]["count"] = 24
    path = str(tmp_path / "ring24.json")
    with open(path, "w") as f:
        json.dump(board, f)
    with EmulatedPico(pico_flash, emulate.load_board(path)) as pico:
        report = deploy.deploy(pico.port, path, progress=lambda line: None)
    assert report["sent"] == 1
    frames, _ = emulate.run_script("cw 1", board=path, flash=pico_flash,
                                   progress=lambda line: None)
    leds = frames[-1]["leds"]
    assert len(leds) == 24 and not sum(f["faults"] for f in frames)
    # Db major: Db, F, Ab are sectors 1, 5 and 8: LEDs 2-3, 10-11 and 16-17.
    assert [i for i, rgb in enumerate(leds) if any(rgb)] == [2, 3, 10, 11, 16, 17]
