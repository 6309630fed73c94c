"""The defects met playing a whole round of The Original on one wheel (issue: a whole round on
one wheel), each from its exact input (`sim --settings '{"mode": ...}' --script ...`)."""

import pytest

from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")


def test_2_a_carmony_meld_is_refused_in_another_games_pad():
    # The score mode starts Chord Poker for 3 (cw 18, two clicks); the hand mode plays D 5.
    script = ("cw 18; click; click; long; click; ccw 1; click; long; cw 2; click; cw 5; click; "
              "cw 1; long; wait 1500; click")
    frames, console = run_script(script, settings={"mode": "score"})
    score = [f["score"] for f in frames if "score" in f][-1]
    assert score["game"] == "chord-poker" and score["totals"] == [0, 0, 0]
    assert "not credited: the score pad is on Chord Poker" in console[-1]
    assert frames[-1]["hand"][2] == frames[-1]["hand"][7] == 1        # D and G stay in hand


def test_3_went_out_only_with_the_right_and_once_a_round():
    frames, console = run_script("click; cw 9; click; click", settings={"mode": "score"})
    assert frames[-1]["score"]["totals"] == [0, 20]              # the 2-card meld alone
    assert console[-1].endswith("went out +200 (refused: P2 cannot go out: going out needs "
                                "at least 1 scale or 3 chords played); next dealer if the "
                                "round ends now: P1")


@pytest.mark.parametrize("script, left", [
    ("click; cw 4; click; cw 3; click; click; wait 1500; long", "G"),
    ("click; cw 4; click; cw 3; click; cw 4; click; wait 1500; long", "B"),
])
def test_5_meld_check_takes_back_the_card_just_added(script, left):
    _, console = run_script(script, settings={"mode": "meld check"})
    assert console[-1].startswith("meld check: cursor %s (took back %s); cards C E G: C major "
                                  "triad (maj) 40 points" % (left, left))


def test_6_the_score_modes_entry_survives_a_reboot(tmp_path):
    flash = str(tmp_path)
    run_script("cw 5; wait 6000", flash=flash, settings={"mode": "score"})
    _, console = run_script("ccw 1", flash=flash)
    assert console[-1].split("; ")[1] == "power chord +100"
