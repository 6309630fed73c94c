"""The hand and score modes in the simulator (the unmodified firmware on the MicroPython unix
port), driven with knob and button only; the frames' "hand" and "score"; the score kept in the
record store across mode switches and reboots; a scripted round of The Original credited
through the pad ends with chromawheel score's totals."""

import json

import pytest

from firmware.modes import mode_names
from host_tools.cli.main import main
from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")


def switch(current, mode):
    """Long press (menu), click (change the mode), turn to it, click (keep), long (leave)."""
    steps = mode_names().index(mode) - mode_names().index(current)
    return "long; click; %s %d; click; long" % ("cw" if steps >= 0 else "ccw", abs(steps))


def notes(*pcs):
    """Clicks entering cards at these pitch classes, in order, from the cursor at C."""
    at = 0
    steps = []
    for pc in pcs:
        if pc != at:
            steps.append("cw %d" % ((pc - at) % 12))
            at = pc
        steps.append("click")
    return "; ".join(steps), at


def test_hand_entry_answers_and_a_credit_in_one_click(tmp_path):
    entry, cursor = notes(0, 4, 7, 10, 2)          # C E G Bb D
    frames, console = run_script("; ".join([switch("explorer", "hand"), entry]),
                                 flash=str(tmp_path))
    assert frames[-1]["hand"] == [1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]
    assert frames[-1]["held"] is None and frames[-1]["table"] == []
    # The answers are ready as the cards come: the best turn is on the console already.
    assert console[-1] == ("hand: C D E G A#/Bb; 5 cards; cursor D (long press: the answers); "
                           "best chords 140: G 5 100 (G-D) + C 7 40 (C-E-Bb); held: any; "
                           "table: none")
    # A reboot keeps the hand. A long press: the answers, best first (chords: G5 + C7 = 140);
    # the knob steps through them.
    frames, console = run_script("long; cw 1; ccw 1", flash=str(tmp_path))
    assert frames[0]["hand"] == [1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]
    assert console[-2].startswith("hand: C D E G A#/Bb; 2/42 best intervals 40: C M2 20 (C-D) "
                                  "+ E m3 20 (E-G); held: any")
    assert console[-1].startswith("hand: C D E G A#/Bb; 1/42 best chords 140: G 5 100 (G-D) + "
                                  "C 7 40 (C-E-Bb); held: any")
    assert frames[-1]["display"][0].startswith("1/42 best chords")
    # A click plays it (1 action from the answers, 2 from entering), to the pad's current
    # player (P2: P1 deals); but it would play every card without the right to go out (1
    # scale or 3 chords): its last meld stays in the hand. G 5's cards leave the hand, the
    # meld is on the table.
    frames, console = run_script("long; click", flash=str(tmp_path))
    assert frames[-1]["score"] == {"game": "original", "players": 2, "round": 1,
                                   "totals": [0, 100], "current": 1}
    assert frames[-1]["hand"] == [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
    assert "played G 5 100: credited 100 to P2" in console[-1]
    assert "(C 7 40 kept: going out needs 1 scale or 3 chords played)" in console[-1]
    assert frames[-1]["table"] == [{"seat": 2, "id": "5", "notes": ["G", "D"]}]


def last_score(frames):
    """The score of the last frame that shows one (a credit's frame, or the score mode's)."""
    return [f["score"] for f in frames if "score" in f][-1]


def cli_total(capsys, melds, left, went_out):
    argv = ["score", "carmony", "--unplayed", str(left), "--json"]
    for meld in melds:
        argv += ["--meld", meld]
    if went_out:
        argv.append("--went-out")
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["total"]


def test_a_round_of_the_original_through_the_pad_equals_chromawheel_score(tmp_path, capsys):
    flash = str(tmp_path)
    # P2 plays first (P1 deals): C minor (40) and C E G Bb (C7, 70) in meld check, each
    # played with a long press on an empty sector; then P1: the C major scale (350), goes
    # out (+200).
    cm, _ = notes(0, 3, 7)
    c7, _ = notes(0, 4, 7, 10)
    major, _ = notes(0, 2, 4, 5, 7, 9, 11)
    script = "; ".join([switch("explorer", "meld check"),
                        cm, "cw 1; long", "ccw 8",        # G#: empty; the cursor back to C
                        c7, "cw 1; long", "ccw 11"])
    frames, console = run_script(script, flash=flash)
    assert last_score(frames)["totals"] == [0, 110]
    # The score mode: pass the turn (double), then back to meld check for P1's meld.
    frames, console = run_script(switch("meld check", "score") + "; double", flash=flash)
    assert frames[-1]["score"]["current"] == 0
    # Seven cards read more than one way: the long press steps into the readings, the
    # click plays the first (the major scale, 350).
    frames, console = run_script(switch("score", "meld check") + "; " + major +
                                 "; ccw 1; long; click", flash=flash)
    assert last_score(frames)["totals"] == [350, 110]
    # Went out: the score mode's item 9 (+200); P2 holds 2 cards: -10 each, one entry (the
    # knob says how many).
    went_out = "cw 9; click; double; cw 1; click; cw 1; click"
    frames, console = run_script(switch("meld check", "score") + "; " + went_out, flash=flash)
    totals = frames[-1]["score"]["totals"]
    assert totals == [cli_total(capsys, ["major:C,D,E,F,G,A,B"], 0, True),
                      cli_total(capsys, ["min:C,Eb,G", "7:C,E,G,Bb"], 2, False)]
    assert totals == [550, 90]
    # A reboot keeps it (and the mode, and the entry selected: the cards left); the end of
    # the round (past next player and undo) names the next dealer: P1 won, P2 (to their
    # right) deals.
    frames, console = run_script("cw 3; click", flash=flash)
    assert frames[-1]["score"]["totals"] == [550, 90]
    assert "round 2: P2 deals, P1 plays first" in console[-1]
    assert frames[-1]["score"]["round"] == 2


def test_meld_cards_held_marked_on_the_wheel_restrict_the_answers_as_the_cli_does(tmp_path,
                                                                                 capsys):
    entry, cursor = notes(0, 2, 4, 7, 9, 11)         # C D E G A B
    # Long press: the answers; one step back: the MELD cards held. Click: the picker by kind:
    # P5 (the second group, the first meld), maj (the third group, the second meld); a long
    # press at the groups ends the marking with two. At the deal the wheel asks for the pile's
    # first card (a long press: none); a long press: the answers.
    script = [switch("explorer", "hand"), entry, "long; ccw 1",
              "click; cw 1; click; click; cw 2; click; cw 1; click; long; long; long"]
    frames, console = run_script("; ".join(script), flash=str(tmp_path))
    assert any("; 83/83 MELD cards held: any (the deck's) (click: mark the 5 held)" in line
               for line in console)
    assert any("; MELD card held 2 of 5: intervals m2 to TT (6) (click: open; long: done); "
               "held: P5;" in line for line in console)
    assert frames[-1]["held"] == ["P5", "maj"]
    assert frames[-1]["display"][0].startswith("1/")
    shown = int(console[-1].split("; ")[1].split(" ")[0].split("/")[1])
    assert main(["hand", "C", "D", "E", "G", "A", "B", "--melds", "P5,maj", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    turns = [kind for kind in data["best"] if data["best"][kind]["melds"]]
    assert shown == len(turns) + len(data["melds"]) + 4     # and the four after the melds
    assert {m["id"] for m in data["melds"]} == {"P5", "maj"}
    # After a reboot (the marks kept), every answer stepped through is a best turn, a P5 or a
    # maj, or one of the four after the melds.
    steps = ["cw 1"] * shown
    frames, console = run_script("long; " + "; ".join(steps), flash=str(tmp_path))
    answers = [line.split("; ", 1)[1].split(" ", 1)[1] for line in console[-shown:]]
    assert all(a.startswith("best ") or " P5 " in a or " maj " in a or
               a.startswith(("MELD cards held: P5 maj", "the table", "new round", "nothing to "
                             "undo")) for a in answers), answers
