"""USB MIDI on the real ports in the emulated RP2040, through the emulated USB (the emulator's
MIDI host beside its serial one, rp2040js/midi_host.cjs): MicroPython on the Pico with the
firmware's own MIDI interface (hardware/mp_usb_midi.py), CircuitPython on the QT Py with its
usb_midi. The same scripts give the simulator's MIDI and the simulator's listen lines, the
jacks (serial MIDI) play what USB MIDI plays, and listen hears them as it hears USB; deploy
and a set's flash work with MIDI on; safe mode has the serial port alone."""

import shutil

import pytest

from host_tools import tools
from host_tools.device import deploy
from host_tools.device.files import ROOT
from host_tools.emulator import emulate
from host_tools.emulator.rp2040 import EmulatedPico
from host_tools.sim import simulator
from running import run

pytestmark = pytest.mark.usefixtures("emulator", "simulator")

LISTEN = {"midi": "both", "midi_port": "both", "mode": "listen"}
BOARDS = ("pico", "qtpy_rp2040")
QUIET = dict(progress=lambda line: None)


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


def deployed_copy(deployed_image, board, tmp_path):
    """A flash of its own for `board`: a copy of the session's deployed image (deployed once
    for every file's tests, not again by each run_script when the tree changes meanwhile)."""
    flash = str(tmp_path / ("%s.img" % board))
    shutil.copyfile(deployed_image(board), flash)
    return flash


@pytest.mark.parametrize("board", BOARDS)
def test_listen_names_what_the_keyboard_holds(board, deployed_image, tmp_path):
    # Over USB MIDI, then, the keys let go, over the jacks (serial MIDI, the chip's UART:
    # tests/host/test_emulated_jacks.py): one boot a board for both ports.
    usb = "note-on C4 E4 G4; wait 60; pedal down; note-off C4 E4 G4; note-on A3; wait 60"
    script = usb + "; pedal up; note-off A3; wait 60; jacks 903c64904064904364; wait 60"
    frames, console = emulate.run_script(script, board=board, settings=LISTEN,
                                         flash=deployed_copy(deployed_image, board, tmp_path),
                                         **QUIET)
    expected, expected_console = simulator.run_script(script, settings=LISTEN)
    listened = [line for line in console if line.startswith("listen")]
    assert listened == [line for line in expected_console if line.startswith("listen")]
    assert "listen: C E G: C major triad (maj)" in listened
    held = [lit(f) for f in frames if lit(f)]
    assert held == [lit(f) for f in expected if lit(f)]
    assert [0, 4, 7, 9] in held                         # the pedal kept C E G under the A
    assert console[-1] == "listen: C E G: C major triad (maj)"      # heard on the jacks
    assert lit(frames[-1]) == lit(expected[-1]) == [0, 4, 7]


CLICKS = "click; cw 2; click; double"


@pytest.fixture(scope="module", params=BOARDS)
def clicks_over_usb(request, deployed_image, tmp_path_factory):
    """(board, frames): CLICKS in the explorer with MIDI out over USB, run once a board for the
    two tests that read it (what USB MIDI sends, and the jacks held against it): the same
    emulated run was made twice, once in each test (a QT Py's is some 15 s)."""
    board = request.param
    flash = deployed_copy(deployed_image, board, tmp_path_factory.mktemp("usb"))
    frames, _ = emulate.run_script(CLICKS, board=board, settings={"midi": "out"}, flash=flash,
                                   **QUIET)
    return board, frames


def test_a_click_in_the_explorer_sends_the_notes_of_the_meld_shown(clicks_over_usb):
    _, frames = clicks_over_usb
    expected, _ = simulator.run_script(CLICKS, settings={"midi": "out"})
    sent = [(lit(f), f["midi"]) for f in frames if f["midi"]]
    assert sent == [(lit(f), f["midi"]) for f in expected if f["midi"]]
    assert sent[0] == ([0, 3, 7], [[0x90, 60, 100], [0x90, 63, 100], [0x90, 67, 100]])


def test_the_jacks_play_a_chord_into_the_midi_stream_exactly_as_usb_midi_does(
        clicks_over_usb, deployed_image, tmp_path):
    # Serial MIDI on the jacks (tests/host/test_emulated_jacks.py): the same script with the
    # jacks chosen plays the same messages in the same frames there, and nothing over USB.
    board, usb = clicks_over_usb
    jacks, _ = emulate.run_script(CLICKS, board=board, settings={"midi": "out",
                                                               "midi_port": "jacks"},
                                  flash=deployed_copy(deployed_image, board, tmp_path), **QUIET)
    played = [(f["console"], f["midi"]) for f in usb if f["midi"]]
    assert len(played) == 3 and all(not f["jacks"] for f in usb)
    assert [(f["console"], f["jacks"]) for f in jacks if f["jacks"]] == played
    assert all(not f["midi"] for f in jacks)


@pytest.fixture
def pico_with_midi_on(deployed_image, tmp_path):
    """A flash of its own with MIDI on (written on the host: no boot for it, so each test
    is a unit of its own for make test's scheduler)."""
    image = deployed_copy(deployed_image, "pico", tmp_path)
    emulate.put_settings("pico", image, {"midi": "both"}, **QUIET)
    return image


def test_deploy_and_a_sets_flash_work_with_midi_on(pico_with_midi_on):
    image = pico_with_midi_on
    with emulate.emulated("pico", image, parts=False) as pico:
        emulate.wait_started(pico)
        # The app started MIDI: the board came back with a MIDI interface beside the REPL.
        assert len(pico.usb_walks) == 2
        assert pico.usb_walks[0][1].midi is None          # (the host's walk of each one)
        assert pico.usb_walks[-1][1].midi is not None
        report = deploy.flash_set(pico.port, ROOT + "/core/meldsets/jazz.json",
                                  progress=lambda line: None)
        assert report["melds"] == 47
        report = deploy.deploy(pico.port, "pico", progress=lambda line: None)
        assert report["started"] == "meld set jazz loaded: 47 melds"
        # After each reset the app started MIDI again.
        assert pico.usb_walks[-1][1].midi is not None
        assert [name for _, what, name in pico.usb_names if what == "midi"][-1] == "ChromaWheel"
        # Real mpremote, without its soft reset (which would take MIDI off the bus: docs/midi.md)
        done = run([tools.tool("mpremote", "mpremote"), "connect", pico.port, "resume", "exec",
                    "import os; print(sorted(os.listdir('melds')))"], timeout=120)
        assert done.stdout.strip() == "['default.cwm', 'jazz.cwm']", done.stdout + done.stderr


def test_safe_mode_is_the_serial_port_alone(pico_with_midi_on):
    image = pico_with_midi_on
    board = emulate.wired("pico", emulate.load_board("pico"))
    with EmulatedPico(image, dict(board, display=None, buzzer=None), held=True,
                      uf2=emulate.firmware_image("pico")) as pico:
        emulate.wait_started(pico)
        assert "safe mode: button held at power-up" in "\n".join(emulate.console_lines(pico))
        assert pico.usb_walks and not [w for _, w in pico.usb_walks if w.midi is not None]
