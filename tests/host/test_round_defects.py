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
    assert "(not kept: the score pad is on Chord Poker: melds, eating and the pile are The " \
        "Original's" in console[-1]
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


ALL_TWELVE = ("click; click; cw 1; click; cw 1; click; cw 1; click; cw 1; click; cw 1; click; "
              "cw 1; click; cw 1; click; click; cw 1; click; cw 1; click; cw 1; click; cw 1; "
              "click")


def test_1_a_hand_of_all_twelve_notes_shows_its_answers(capsys):
    import json

    from host_tools.cli.main import main
    frames, console = run_script(ALL_TWELVE + "; wait 500; long", settings={"mode": "hand"})
    assert main(["hand", "C", "C", "C#", "D", "D#", "E", "F", "F#", "G", "G", "G#", "A", "A#",
                 "B", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    count = len([k for k in data["best"] if data["best"][k]["melds"]]) + len(data["melds"]) + 4
    assert data["best"]["scales"]["points"] == 550
    assert console[-1].startswith("hand: C C C#/Db D D#/Eb E F F#/Gb G G G#/Ab A A#/Bb B; 1/%d "
                                  "best scales 550: G major 350 (" % count)
    assert sum(frames[-1]["hand"]) == 14
    # Before the long press, the display says what a long press does, before the cards.
    frames, _ = run_script(ALL_TWELVE + "; wait 500", settings={"mode": "hand"})
    assert frames[-1]["display"][:4] == ["14 cards, cursor", "B", "long: the", "answers"]


def test_4_any_offers_a_meld_card_no_more_often_than_the_deck_holds_it():
    # C D E G A, D 5 played (the power chord: one card in the deck), then the answers again.
    script = ("click; cw 2; click; cw 2; click; cw 3; click; cw 2; click; cw 1; long; wait 2000; "
              "cw 4; click; wait 500; ccw 1; long")
    frames, console = run_script(script, settings={"mode": "hand"})
    played = [k for k in range(len(console)) if "(played D 5 100" in console[k]][0]
    assert not [line for line in console[played + 1:] if " C 5 100" in line]
    assert console[-1].startswith("hand: C E G; 1/")
    assert " best chords 40: C maj 40 (C-E-G); held: any; table: P2 5 D-A" in console[-1]


def test_6_chord_poker_shows_what_goes_back_and_no_preview_once_complete():
    frames, console = run_script("cw 15; click; cw 8; click; ccw 2; double",
                                 settings={"mode": "chord poker"})
    assert frames[-1]["display"][:4] == ["root change to", "F\u266f 7sus4", "back to the",
                                         "hand: G\u266f/A\u266d"]
    # C power chord complete (C and G on the Wheel): no root change is offered.
    _, console = run_script("click; click; click; cw 7; click; ccw 2; double",
                            settings={"mode": "chord poker"})
    assert console[-1].endswith("complete: 5 points (click for the next chord) (the chord is "
                                "complete: no root change (click for the next chord))")


def test_6_looking_glass_names_a_card_once():
    # The tritone, B on the Wheel, F in hand: B reads both ways (F-B, B-E#).
    _, console = run_script("cw 5; click; cw 11; click; ccw 6; double",
                            settings={"mode": "looking glass"})
    assert console[-1] == "looking glass: hand F picks up the tritone (TT) with B (F-B or B-E#)"


def test_6_the_answers_list_a_symmetric_meld_once_per_cards():
    # The best turns (3), then every meld, most points first: the chromatic scale once.
    _, console = run_script(ALL_TWELVE + "; wait 500; long; cw 3; cw 1",
                            settings={"mode": "hand"})
    assert " 4/" in console[-2] and " C chromatic 500 (C root: draw 12)" in console[-2]
    assert "chromatic" not in console[-1]


def test_6_two_and_three_cards_of_a_note_look_apart_and_a_turns_melds_too():
    # C three times, E twice, G once.
    frames, console = run_script("click; click; click; cw 4; click; click; cw 3; click; cw 2",
                                 settings={"mode": "hand"})
    wheel = frames[-1]["wheel"]
    assert max(wheel[0]) > max(wheel[4]) > max(wheel[7]) > 0
    # A best turn of two melds: each meld's cards named, and apart on the ring.
    frames, console = run_script("click; cw 2; click; cw 2; click; cw 3; click; cw 3; click; "
                                 "cw 1; long", settings={"mode": "hand"})
    assert "best chords 140: G 5 100 (G-D) + C 7 40 (C-E-Bb)" in console[-1]
    wheel = frames[-1]["wheel"]
    assert max(wheel[2]) != max(wheel[4])              # D (G 5) and E (C 7)


def test_6_play_names_the_winner_as_the_wheel_does(capsys):
    from host_tools.cli.main import main
    assert main(["play", "carmony", "--seed", "7"]) == 0
    assert ", winner P1, " in capsys.readouterr().out
