"""A private hand (issue: the wheel at the table, item 4): with the `private` setting the ring
shows the cursor alone while one's own cards are entered (meld check, hand, the looking-glass
hand step); the answer is on the display and the console."""

import pytest

from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")

C7 = "click; cw 4; click; cw 3; click; cw 3; click"        # C E G Bb: C7, 70


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


def test_meld_check_in_private_shows_the_cursor_alone():
    frames, console = run_script(C7, settings={"mode": "meld check", "private": True})
    assert console[-1].startswith("meld check: cursor A#/Bb; cards C E G Bb: C dominant "
                                  "seventh (7) 70 points")
    assert "1/1 C 7 70" in frames[-1]["display"] or "1/1 C 7 70" in [
        row for f in frames for row in f["display"]]
    for frame in frames:                    # at most the cursor, and never a card
        assert len(lit(frame)) <= 1
    assert lit([f for f in frames if f["console"]][-1]) == [10]
    # Not private: the meld is on the ring.
    frames, _ = run_script(C7, settings={"mode": "meld check"})
    assert lit([f for f in frames if f["console"]][-1]) == [0, 4, 7, 10]


def test_the_hand_in_private_shows_the_cursor_alone_and_answers_on_the_display():
    frames, console = run_script(C7 + "; cw 1; long",
                                 settings={"mode": "hand", "private": True})
    assert console[-1].startswith("hand: C E G A#/Bb; 1/")
    assert frames[-1]["display"][0].startswith("1/")
    assert all(len(lit(f)) <= 1 for f in frames)
    assert frames[-1]["hand"][0] == 1 and sum(frames[-1]["hand"]) == 4


def test_the_looking_glass_hand_step_in_private_shows_the_cursor_alone():
    # The M3 interval (cw 3 from C: m2, M2, m3, M3... as test_modes), a card on D, the hand
    # step: the Wheel's cards are public, the hand note private.
    script = "cw 3; click; click; cw 4; click; cw 6; click; ccw 8; double"
    frames, console = run_script(script, settings={"mode": "looking glass", "private": True})
    assert console[-1] == ("looking glass: hand D picks up the major third (M3) with A#/Bb "
                           "(Bb-D)")
    assert lit(frames[-1]) == [2]
    frames, _ = run_script(script, settings={"mode": "looking glass"})
    assert len(lit(frames[-1])) > 1


def test_private_is_a_menu_item_and_a_setting():
    from firmware.modes.menu import ITEMS
    from firmware.settings import defaults
    assert defaults()["private"] is False
    assert [item for item in ITEMS if item[1] == "private"][0][2] == ("off", "on")
