"""USB MIDI and the MIDI jacks through the whole firmware in the simulator (the unmodified
firmware on the MicroPython unix port, its MIDI ports' twins fed by the script's note-on /
note-off / pedal and jacks steps), the command line's checks, and core/midi.py's per-message
work allocating nothing on MicroPython.
The emulated boards run the same scripts in test_emulated_pico.py and test_emulated_qtpy.py."""


import pytest

from host_tools.cli.main import main
from host_tools.device.files import ROOT
from host_tools.errors import UserError
from host_tools.sim.simulator import compile_script, run_script
from host_tools.tools import micropython_path
from running import run

pytestmark = pytest.mark.usefixtures("simulator")

LISTEN = {"midi": "both", "mode": "listen"}
BUTTON = {"debounce_ms": 50, "double_ms": 350, "long_ms": 700}


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


def test_listen_lights_and_names_what_a_keyboard_holds():
    frames, console = run_script("note-on C4 E4 G4", settings=LISTEN)
    assert lit(frames[-1]) == [0, 4, 7]
    assert frames[-1]["console"] == "listen: C E G: C major triad (maj)"
    assert "listen: C E G: C major triad (maj)" in console
    assert all(frame["midi"] == [] for frame in frames)          # listening sends nothing


def test_the_pedal_holds_and_a_note_off_lets_go():
    frames, console = run_script("note-on C4 E4 G4; pedal down; note-off C4 E4 G4; wait 60; "
                                 "note-on A3; wait 60; pedal up; wait 60; note-off A3",
                                 settings=LISTEN)
    lines = [line for line in console if line.startswith("listen")]
    assert lines[-4:] == [
        "listen (pedal): C E G: C major triad (maj)",
        "listen (pedal): A C E G: A minor seventh chord (min7) | C major sixth chord (6) "
        "with A in the bass",
        "listen: A: no meld",
        "listen: no notes held (play them on a MIDI keyboard)"]
    assert lit(frames[-1]) == []


def test_the_jacks_play_what_usb_plays_and_listen_hears_them():
    script = "click; cw 2; click; double"
    usb, _ = run_script(script, settings={"midi": "out"})
    jacks, _ = run_script(script, settings={"midi": "out", "midi_port": "jacks"})
    both, _ = run_script(script, settings={"midi": "out", "midi_port": "both"})
    played = [f["midi"] for f in usb if f["midi"]]
    assert len(played) == 3 and all(f["jacks"] == [] for f in usb)
    assert [f["jacks"] for f in jacks if f["jacks"]] == played
    assert all(f["midi"] == [] for f in jacks)
    assert [f["jacks"] for f in both if f["jacks"]] == [f["midi"] for f in both if f["midi"]] \
        == played
    # In: a keyboard on MIDI IN (the jacks step: raw bytes), heard where the notes go.
    script = "jacks 903c64904064904364; wait 60"
    _, console = run_script(script, settings=dict(LISTEN, midi_port="jacks"))
    assert console[-1] == "listen: C E G: C major triad (maj)"
    _, console = run_script(script, settings=LISTEN)
    assert console[-1] == "listen: no notes held (play them on a MIDI keyboard)"


def test_the_menu_chooses_the_port_the_notes_go_on():
    # Menu, one back to midi, one more to midi port, click: usb; turn to jacks, click.
    frames, console = run_script("long; ccw 2; click; cw 1; click; long; click",
                                 settings={"midi": "out"})
    assert "menu > midi port: jacks (turn to change, click to keep)" in console
    assert [f["jacks"] for f in frames if f["jacks"]] == [[[0x90, 60, 100], [0x90, 63, 100],
                                                          [0x90, 67, 100]]]
    assert all(f["midi"] == [] for f in frames)


def test_with_midi_off_the_wheel_hears_nothing():
    frames, console = run_script("note-on C4 E4 G4", settings={"mode": "listen"})
    assert console[-1] == "listen: MIDI in is off (menu > midi: in or both)"
    assert lit(frames[-1]) == []


def test_a_click_in_the_explorer_sends_the_notes_of_the_meld_shown():
    frames, console = run_script("click; cw 2; click", settings={"midi": "out"})
    shown = [(frame["console"], frame["midi"]) for frame in frames if frame["midi"]]
    assert shown == [
        ("C minor triad (min): C Eb G", [[0x90, 60, 100], [0x90, 63, 100], [0x90, 67, 100]]),
        ("D diminished triad (dim): D F Ab",
         [[0x80, 60, 64], [0x80, 63, 64], [0x80, 67, 64],
          [0x90, 62, 100], [0x90, 65, 100], [0x90, 68, 100]])]


def test_optional_notes_and_the_octave_follow_the_settings():
    # The chords of the default set: 5 maj min dim aug sus2 sus4 6 min6 7 ...; a click on min6
    # (the 9th) plays the dominant seventh (1 3 (5) b7): C7 at octave 3.
    settings = {"midi": "out", "kind": 1, "melds": [0, 8, 0], "midi_octave": 3}
    frames, _ = run_script("click", settings=settings)
    assert [m for f in frames for m in f["midi"]] == [[0x90, 48, 100], [0x90, 52, 100],
                                                      [0x90, 58, 100]]
    settings["midi_optional"] = True
    frames, _ = run_script("click", settings=settings)
    assert [m[1] for f in frames for m in f["midi"]] == [48, 52, 55, 58]


def test_leaving_the_explorer_ends_the_chord():
    # Menu (long), mode item (click), to listen (ccw 1), keep (click): the chord's note-offs.
    frames, console = run_script("click; long; click; ccw 1; click", settings={"midi": "both"})
    sent = [m for f in frames for m in f["midi"]]
    assert sent == [[0x90, 60, 100], [0x90, 63, 100], [0x90, 67, 100],
                    [0x80, 60, 64], [0x80, 63, 64], [0x80, 67, 64]]


def test_the_menu_turns_midi_on():
    # Menu, to the midi item (ccw 1 from the first), click, to "in" (cw 2), click, leave,
    # then to listen mode through the menu.
    frames, console = run_script("long; ccw 1; click; cw 2; click; long; long; click; ccw 1; "
                                 "click; long; note-on D4 F4 A4", settings={})
    assert "menu > midi: in (turn to change, click to keep)" in console
    assert console[-1] == "listen: D F A: D minor triad (min)"


def test_script_steps_for_midi():
    assert compile_script("note-on C4 Eb4 60; note-off 127; pedal down; pedal up", BUTTON) == [
        "midi 903c64903f64903c64", "midi 807f40", "midi b0407f", "midi b04000"]
    for bad, why in (("note-on", "expected cw N"), ("note-on H4", "'H4': 'H' is not a note name"),
                     ("note-off C", "not a note with an octave"),
                     ("note-on C10", "outside MIDI's notes"), ("pedal sideways", "pedal")):
        with pytest.raises(UserError, match=why):
            compile_script(bad, BUTTON)


def test_sim_settings_are_checked(capsys):
    assert main(["sim", "--script", "click", "--settings", '{"midi": "loud"}']) == 2
    assert "--settings: setting midi: bad value" in capsys.readouterr().err
    assert main(["sim", "--script", "click", "--settings", '{"mdi": "in"}']) == 2
    assert "--settings: no setting 'mdi'" in capsys.readouterr().err
    assert main(["sim", "--script", "click", "--settings", "[1]"]) == 2
    assert "expected a JSON object" in capsys.readouterr().err
    assert main(["sim", "--settings", '{"midi": "in"}']) == 2
    assert "go with --script" in capsys.readouterr().err


ALLOCATION = """
import micropython, sys
sys.path.insert(0, %r)
from core import midi
from firmware.midi import Midi
from hardware.midi_twin import SimJacks, SimMidi

class Out:
    def write(self, data):
        pass

settings = {"midi": "both", "midi_port": "both", "midi_split": 128, "midi_octave": 4,
            "midi_optional": True, "link": "off"}
port = SimMidi(Out())
jacks = SimJacks(Out())
link = Midi(settings)
link.add("usb", port)
link.add("jacks", jacks)
link.follow(settings, ("usb", "jacks"))
from core.meldset import load
meldset = load(%r + "/core/meldsets/default.cwm")
codes = meldset.meld_codes(meldset.count - 1)          # the chromatic scale: 12 notes
stream = bytes((0x90, 60, 100, 64, 100, 0xF8, 67, 100, 0xB0, 64, 127, 0x80, 60, 64,
                0xB0, 64, 0, 0xB0, 123, 0))
sysex = bytes((0xF0, 0x7D, 1, 2, 3, 0xF8, 4, 0xF7))
for _ in range(2):                 # the second round runs with the heap locked
    port.receive(stream)
    jacks.receive(sysex + stream + sysex[:4])
    locked = _ > 0
    if locked:
        micropython.heap_lock()
    try:
        link.poll()
        link.held.lowest()
        link.play(codes, 2, settings)
        link.play(codes, 9, settings)
        link.silence()
    finally:
        if locked:
            micropython.heap_unlock()
    link.flush()                   # once a pass, as the app does: the port's write
print("no allocation")
"""


def test_midi_in_and_out_allocate_nothing_on_micropython():
    """The loop's MIDI work with the heap locked, on USB and the jacks (a SysEx and a SysEx
    cut short among the notes): any allocation raises MemoryError. (The write to the port's
    stream, the simulator's own, happens in flush(), outside.)"""
    script = ALLOCATION % (ROOT, ROOT)
    done = run([micropython_path(), "-c", script], timeout=60)
    assert done.stdout.strip().endswith("no allocation"), done.stdout + done.stderr


def test_notes_played_while_the_menu_is_open_show_once_it_closes():
    frames, console = run_script("long; note-on D4 F4 A4; wait 60; long; wait 100",
                                 settings=LISTEN)
    assert console[-1] == "listen: D F A: D minor triad (min)"
    assert lit(frames[-1]) == [2, 5, 9]
    assert frames[-1]["wheel"][2] != frames[-1]["wheel"][5]      # the meld's colours, root marked
