"""What bring-up learns from what it counts and what the maker answers (host_tools/cli/
bringup_learn.py), worked out by hand: a knob that counts double, half, nothing or backwards
and the fix each implies; the knob's answers on a CircuitPython drive naming what the root did;
a drive the computer may not write, stopped before the first question; what was learned kept
on the laptop before the board is written; the pins to check with their places on the board;
a port that does not exist. (The same on the emulated Pico: test_bringup.py.)"""

import errno
import json
import os

import pytest

from host_tools.cli import bringup, bringup_learn
from host_tools.cli.main import main
from host_tools.device import drive as drive_module
from host_tools.device.link import DeviceLink
from host_tools.errors import UserError

PEC11R = {"pulses_per_detent": 4, "reverse": False}     # 24 pulses (full cycles), 24 detents


def encoder(ppd=4, reverse=False):
    return {"pulses_per_detent": ppd, "reverse": reverse}


def test_the_answers_give_the_ring_fields():
    ring = {"count": 12, "led_at_c": 0, "direction": "cw", "order": "GRB"}
    assert bringup_learn.learn_first_led(ring, "0") == 0
    assert bringup_learn.learn_first_led(ring, "3") == 9          # C lit 3 clockwise of the top
    assert bringup_learn.learn_first_led(dict(ring, direction="ccw"), "3") == 3
    # sent GRB, the ring is RGB: red shows green, green shows red
    assert bringup_learn.learn_order("GRB", "green red blue") == "RGB"
    assert bringup_learn.learn_order("GRB", "red green blue") == "GRB"
    assert bringup_learn.learn_order("GRBW", "green red blue") == "RGBW"
    with pytest.raises(Exception, match="three colours"):
        bringup_learn.learn_order("GRB", "red green")
    # a ring mounted the other way round, C's LED seen 2 clockwise of the top: the direction
    # is learned first, and the LED at the top counted along it
    obj = {"ring": dict(ring), "encoder": {}}
    answers = iter(["2", "n", "red green blue"])
    changes = bringup._ring_steps(obj, {"ring": ring}, lambda q, d="": next(answers),
                                  lambda line: None, lambda cells: None)
    assert changes == ["ring.led_at_c 0 -> 2", "ring.direction cw -> ccw"]


def test_the_knobs_count_against_the_clicks_asked():
    learn = bringup_learn.learn_knob
    # a PEC11R makes 4 steps (quadrature edges) a click: 3 clicks clockwise are 12 steps
    assert learn(12, 3, PEC11R) == ({}, "3 clicks counted for the 3 turned")
    # the board file says 2 for it: the wheel moved 6 notes for 3 clicks (the case)
    assert learn(12, 3, encoder(2)) == (
        {"pulses_per_detent": 4},
        "6 clicks counted for the 3 turned: it counts double (4 steps a click; the board file "
        "says 2)")
    # an Alps EC11E18244A5 (18 pulses, 36 detents: 2 steps a click) with the default 4
    assert learn(6, 3, PEC11R) == (
        {"pulses_per_detent": 2},
        "1 click counted for the 3 turned: it counts half (2 steps a click; the board file "
        "says 4)")
    assert learn(12, 3, encoder(1))[0] == {"pulses_per_detent": 4}
    assert "a quarter" in learn(3, 3, PEC11R)[1]
    # A and B swapped (or the encoder drawn the other way): the count runs backwards
    assert learn(-12, 3, PEC11R) == (
        {"direction": -1}, "3 clicks counted for the 3 turned, the other way round (backwards)")
    assert learn(12, 3, encoder(4, reverse=True))[0] == {"direction": 1}
    assert learn(-12, 3, encoder(4, reverse=True))[0] == {}
    # both at once: swapped and the wrong pulses per detent
    assert learn(-12, 3, encoder(2))[0] == {"direction": -1, "pulses_per_detent": 4}
    # nothing: no fix, the pins to check come with it (below)
    assert learn(0, 3, PEC11R) == ({}, "nothing counted for the 3 clicks turned")
    # a click more than asked: not a whole number of steps a click, so no guess
    fixes, said = learn(16, 3, PEC11R)
    assert fixes == {} and "16 steps, not a whole number a click" in said
    assert learn(-16, 3, PEC11R)[0] == {"direction": -1}


def test_the_changes_read_as_the_fields_written():
    assert bringup_learn.change_lines(encoder(2), {"pulses_per_detent": 4, "direction": -1}) \
        == ["encoder.direction 1 -> -1", "encoder.pulses_per_detent 2 -> 4"]
    obj = {"encoder": {"reverse": True, "pulses_per_detent": 2}}
    bringup_learn.apply_fixes(obj, {"direction": 1, "pulses_per_detent": 4})
    assert obj == {"encoder": {"direction": 1, "pulses_per_detent": 4}}


def test_the_knobs_answers_name_what_the_root_did():
    facts = bringup_learn.knob_facts
    assert facts("y") == set() and facts("one") == set() and facts("") is None
    assert facts("two notes") == {"two"} and facts("back") == {"back"}
    assert facts("two, backwards") == {"two", "back"} and facts("nothing") == {"nothing"}
    assert facts("n") is None and facts("no") is None and facts("nothing, two") is None
    fixes = bringup_learn.knob_fixes
    assert fixes(set(), False, PEC11R) == ({}, "one note up a click, as it should")
    assert fixes({"back"}, False, PEC11R) == ({"direction": -1}, "it turns backwards")
    assert fixes({"two"}, False, encoder(2)) == (
        {"pulses_per_detent": 4}, "it moves two notes a click: it counts double")
    assert fixes({"two"}, False, PEC11R)[0] == {}          # 4 is the most the firmware takes
    # nothing after one click, then a move after the second: it counts half
    assert fixes({"nothing"}, True, PEC11R) == (
        {"pulses_per_detent": 2}, "it moves only every second click: it counts half")
    assert fixes({"nothing"}, False, PEC11R) == ({}, "nothing moves")


def test_the_pins_to_check_are_named_with_their_places():
    from hardware import board as board_file

    from host_tools.device.files import board_path
    pico = board_file.load(board_path("pico"))
    assert bringup_learn.pin_places(pico, "encoder", ("pin_a", "pin_b")) == \
        "A on GP17 (pin 22), B on GP18 (pin 24)"
    assert bringup_learn.ground_place(pico, "encoder") == "GND (pin 23)"
    assert bringup_learn.pin_places(pico, "display", ("sda", "scl")) == \
        "SDA on GP4 (pin 6), SCL on GP5 (pin 7)"
    qtpy = board_file.load(board_path("qtpy_rp2040"))
    assert bringup_learn.pin_places(qtpy, "button", ("pin",)) == "SW on A0 (GPIO29, left 1)"
    esp32 = board_file.load(board_path("esp32"))
    assert bringup_learn.pin_places(esp32, "buzzer", ("pin",)) == "+ on GPIO26 (J2-10)"


def test_a_port_that_is_not_there_is_named_so(capsys, monkeypatch):
    from host_tools.device import link
    monkeypatch.setattr(link, "MISSING_PORT_S", 0)     # (a board's grace to appear: none here)
    with pytest.raises(UserError) as err:
        with DeviceLink("/dev/ttyNOPE"):
            pass
    assert str(err.value).startswith("/dev/ttyNOPE: no such port (")
    # COM3 on Linux or a Mac: no such port, with the names ports have here
    assert main(["bringup", "--port", "COM3", "--skip", "ring"]) == 2
    assert capsys.readouterr().err == (
        "error: COM3: no such port: COM3 is a Windows name; here a board is /dev/ttyACM0 or "
        "/dev/ttyUSB0 (Linux), /dev/cu.usbmodem... or /dev/cu.usbserial-... (macOS) "
        "(mpremote connect list shows the boards plugged in)\n")


# ---- on a CircuitPython drive: the firmware runs, the maker says what it shows -------------

@pytest.fixture
def deployed(tmp_path, capsys):
    folder = tmp_path / "CIRCUITPY"
    folder.mkdir()
    assert main(["deploy", "--drive", str(folder), "--board", "qtpy_rp2040"]) == 0
    capsys.readouterr()
    return folder


def answering(answers, asked=None):
    """ask(): the first answer whose question starts with a key, in turn for a list."""
    def ask(question, default=""):
        if asked is not None:
            asked.append(question)
        for start, answer in answers.items():
            if question.startswith(start):
                return answer.pop(0) if isinstance(answer, list) else answer
        raise AssertionError("unexpected question: %s" % question)
    return ask


RING_RIGHT = {"Ring: how many": "0", "Ring: three LEDs": "y", "Ring: their colours":
              "green red blue", "Display": "y"}


def test_bringup_on_a_drive_writes_what_the_maker_saw(deployed, tmp_path):
    kept = tmp_path / "kept.json"
    said = []
    ask = answering(dict(RING_RIGHT, **{"Knob: turn it one click": "back"}))
    report = bringup.bring_up(drive=str(deployed), output=str(kept), yes=True, ask=ask,
                              progress=said.append)
    assert report["changes"] == ["ring.order GRB -> RGB", "encoder.direction 1 -> -1"]
    written = json.loads((deployed / "board.json").read_text())
    assert written["ring"]["order"] == "RGB" and written["encoder"]["direction"] == -1
    assert json.loads(kept.read_text()) == written            # kept on the laptop first
    assert said.index("kept on this computer: %s" % kept) < said.index(
        "wrote board.json on %s" % deployed)
    assert not (deployed / bringup.PROBE).exists()            # the check's file is gone
    assert "knob: it turns backwards: encoder.direction 1 -> -1" in said


def test_a_no_to_the_knob_is_asked_again_not_taken_for_backwards(deployed, tmp_path):
    # the issue's `printf '0\ny\nred green blue\nn\ny\ny\n'`: "n" wrote direction -1 however
    # the knob had gone wrong; now it asks which, and "y" (it went one up) changes nothing
    asked = []
    ask = answering({"Ring: how many": "0", "Ring: three LEDs": "y",
                     "Ring: their colours": "red green blue", "Knob": ["n", "y"],
                     "Display": "y"}, asked)
    report = bringup.bring_up(drive=str(deployed), output=str(tmp_path / "k.json"), yes=True,
                              ask=ask, progress=lambda line: None)
    assert report["changes"] == [] and report["written"] is False
    assert asked[3] == bringup.KNOB_QUESTION
    assert asked[4] == "Knob: 'n': which was it: one, two, back (down), two back, or nothing?"
    with pytest.raises(UserError, match="the knob's answer: one of one, two, back or nothing"):
        bringup.bring_up(drive=str(deployed), output=str(tmp_path / "k.json"), yes=True,
                         skip=["ring", "display"], ask=answering({"Knob": ["n", "n", "no"]}),
                         progress=lambda line: None)


def test_a_knob_that_moves_every_second_click_counts_half(deployed, tmp_path):
    said = []
    ask = answering({"Knob: turn it one click": "nothing", "Knob: turn it one more": "y"})
    report = bringup.bring_up(drive=str(deployed), output=str(tmp_path / "k.json"), yes=True,
                              skip=["ring", "display"], ask=ask, progress=said.append)
    assert report["changes"] == ["encoder.pulses_per_detent 4 -> 2"]
    assert json.loads((deployed / "board.json").read_text())["encoder"][
        "pulses_per_detent"] == 2
    # nothing at all: no fix, the pins named with their pads on the QT Py
    said.clear()
    ask = answering({"Knob: turn it one click": "nothing", "Knob: turn it one more": "n"})
    report = bringup.bring_up(drive=str(deployed), output=str(tmp_path / "k.json"), yes=True,
                              skip=["ring", "display"], ask=ask, progress=said.append)
    assert report["changes"] == []
    assert ("knob: nothing moves: check A on A1 (GPIO28, left 2), B on A2 (GPIO27, left 3), "
            "and C to GND (right 2)") in said


def read_only_below(monkeypatch, folder):
    """The drive as a computer sees it after a normal power-up: every write under `folder`
    refused (EROFS), as CircuitPython's USB drive reports itself write-protected."""
    real_open = open

    def guarded(path, mode="r", *args, **kwargs):
        if str(path).startswith(str(folder)) and any(c in mode for c in "wax+"):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, mode, *args, **kwargs)
    monkeypatch.setattr("builtins.open", guarded)


def test_a_read_only_drive_stops_before_the_first_question(deployed, tmp_path, monkeypatch):
    before = {p: p.read_bytes() for p in deployed.rglob("*") if p.is_file()}
    read_only_below(monkeypatch, deployed)
    asked = []
    with pytest.raises(UserError) as err:
        bringup.bring_up(drive=str(deployed), output=str(tmp_path / "k.json"), yes=True,
                         ask=answering({}, asked), progress=lambda line: None)
    assert asked == []                                         # nothing asked
    assert str(err.value).startswith("%s is read-only: CircuitPython gives the drive to the "
                                     "firmware after a normal power-up" % deployed)
    assert "run bringup again: its first write to the drive restarts the firmware" in \
        str(err.value)
    monkeypatch.undo()
    assert {p: p.read_bytes() for p in deployed.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "k.json").exists()                  # nothing kept, nothing wrong


def test_a_drive_that_fails_at_the_end_loses_no_answer(deployed, tmp_path, monkeypatch):
    kept = tmp_path / "k.json"

    def refused(drive, rel, data):
        raise drive_module.drive_problem(drive, OSError(errno.EROFS, "Read-only"), "writing "
                                         + rel)
    ask = answering(dict(RING_RIGHT, **{"Knob: turn it one click": "one"}))
    monkeypatch.setattr(bringup, "_check_drive_writable", lambda drive, progress: None)
    monkeypatch.setattr(drive_module, "write_file", refused)
    with pytest.raises(UserError) as err:
        bringup.bring_up(drive=str(deployed), output=str(kept), yes=True, ask=ask,
                         progress=lambda line: None)
    assert "What bring-up learned is kept in %s: copy it onto the drive as board.json" % kept \
        in str(err.value)
    assert json.loads(kept.read_text())["ring"]["order"] == "RGB"


def test_a_laptop_folder_that_cannot_be_written_stops_before_the_first_question(deployed,
                                                                               tmp_path):
    asked = []
    with pytest.raises(UserError, match="cannot keep what bring-up learns there"):
        bringup.bring_up(drive=str(deployed), output=str(tmp_path / "no" / "such" / "k.json"),
                         ask=answering({}, asked), progress=lambda line: None)
    assert asked == []


def test_the_command_refuses_a_drive_with_no_board_file(tmp_path, capsys):
    empty = tmp_path / "EMPTY"
    empty.mkdir()
    assert main(["bringup", "--drive", str(empty), "--yes"]) == 2
    assert "has no board.json: deploy the firmware first" in capsys.readouterr().err
    assert not os.listdir(str(empty))
