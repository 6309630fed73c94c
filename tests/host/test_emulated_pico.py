"""The firmware on the real MicroPython rp2 port (the stock v1.28.0 Pico UF2) in the emulated
RP2040: deployed over real mpremote, booted from its littlefs flash, its ring decoded off the
WS2812 pin, the knob and button driven on their pins, power cut at random moments."""

import os
import random
import shutil
import threading
import time

import pytest

from host_tools.device import deploy
from host_tools.device.files import ROOT
from host_tools.emulator import emulate
from host_tools.sim import simulator
from host_tools.errors import UserError
from host_tools.emulator.rp2040 import EmulatedPico

BOARD = emulate.load_board("pico")
JAZZ = os.path.join(ROOT, "core", "meldsets", "jazz.json")


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A fresh emulated Pico (only MicroPython on its flash), deployed as a Pico is."""
    image = str(tmp_path_factory.mktemp("pico") / "deployed.img")
    with EmulatedPico(image, BOARD) as pico:
        report = deploy.deploy(pico.port, "pico", progress=lambda line: None)
        resets = pico.resets
    return image, report, resets


@pytest.fixture
def pico_flash(deployed, tmp_path):
    path = str(tmp_path / "flash.img")
    shutil.copyfile(deployed[0], path)
    return path


def started(pico, timeout=60):
    emulate.wait_started(pico, timeout)
    return emulate.console_lines(pico)


def said_soon(pico, line, timeout=30):
    """Whether the board printed `line`: the timed serial copy comes on its own pipe and may
    trail the pty that deploy listened on, so it is given a moment to catch up."""
    deadline = time.time() + timeout
    while line not in emulate.console_lines(pico):
        if time.time() > deadline:
            return False
        time.sleep(0.05)
    return True


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
    _, report, resets = deployed
    # Everything was sent to an empty board, checked by hash, and the board reset twice (into
    # maintenance, then to start the app), each a watchdog reset of the chip.
    assert report["compiled"] and report["sent"] == report["files"] >= 50
    assert report["started"] == "meld set default loaded: 60 melds"
    assert resets == 2


def test_the_simulators_script_gives_the_simulators_frames(pico_flash):
    script = "cw 3; click; ccw 1; double; long; wait 200"
    frames, console = emulate.run_script(script, board="pico", flash=pico_flash,
                                         progress=lambda line: None)
    expected, expected_console = simulator.run_script(script)
    assert [lit(f) for f in frames] == [lit(f) for f in expected]
    # The Pico's OLED is not there: the real port's I2C times out and it is left out.
    assert console[0] == ("display not found ([Errno 110] ETIMEDOUT): running without it; "
                          "check its wiring and the board file's \"display\" section")
    assert console[1:] == expected_console
    # The wire: GRB bytes at 800 kHz within the WS2812B datasheet's windows.
    assert not sum(f["faults"] for f in frames)
    leds = expected[0]["leds"]
    assert frames[0]["wheel"][0] == expected[0]["wheel"][0] and leds


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
        # A meld-set flash cut at a random moment (it takes a few seconds here).
        for _ in range(2):
            errors = []
            thread = threading.Thread(target=lambda: _flash_catching(pico.port, errors))
            thread.start()
            time.sleep(rng.uniform(0.3, 4.0))
            console = _cut_and_check(pico, thread.join)     # the laptop side gives up first
            outcomes.append([l for l in console if l.startswith("meld set")][0])
        # A settings save cut near the moment it happens (5 s after the knob stops).
        for _ in range(2):
            pico.send("turn 1", "wait %d" % rng.randint(4970, 5060))
            pico.wait_done()
            console = _cut_and_check(pico)
            outcomes.append([l for l in console if "triad" in l][:1])
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
