"""chromawheel score: the table-scoring commands, worked from the rulebooks' tables."""

import json

from host_tools.cli.main import main


def run_json(capsys, *argv):
    assert main(list(argv) + ["--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_carmony_round(capsys):
    data = run_json(capsys, "score", "carmony", "--meld", "min:C,Eb,G", "--meld", "5:D,A",
                    "--meld", "major:G,A,B,C,D,E,F#", "--meld", "7:F,A,C,Eb", "--went-out")
    assert [m["points"] for m in data["melds"]] == [40, 100, 350, 70]
    assert data["total"] == 40 + 100 + 350 + 70 + 200
    data = run_json(capsys, "score", "carmony", "--meld", "P8:C,C", "--unplayed", "3")
    assert data["total"] == 20 - 30


def test_carmony_refuses_what_the_rules_do_not_allow(capsys):
    cases = [
        (["--meld", "maj:C,E"], "error: --meld 'maj:C,E': not a valid major triad: missing "
                                "degree 5 (G)\n"),
        (["--meld", "maj:C,E,G", "--went-out"],
         "error: --went-out: going out needs at least 1 scale or 3 chords played\n"),
        (["--meld", "major:C,D,E,F,G,A,B", "--went-out", "--unplayed", "1"],
         "error: --went-out with 1 cards left: going out means no cards in hand\n"),
        (["--meld", "nope:C"], "error: --meld 'nope:C': no meld 'nope' in meld set 'default'\n"),
        (["--meld", "maj"], "error: --meld 'maj': expected ID:NOTE,NOTE,... such as maj:C,E,G\n"),
        # The decks: one card of each chord (three major triads would fake going out) ...
        (["--meld", "maj:C,E,G", "--meld", "maj:D,F#,A", "--meld", "maj:F,A,C", "--went-out"],
         "error: 3 major triad melds, but the MELD deck has 1 such card\n"),
        # ... 3 of each interval and 8 cards of each note.
        (["--meld", "P8:C,C"] * 5,
         "error: 5 octave melds, but the MELD deck has 3 such cards\n"
         "error: 10 C cards in the melds, but the NOTE deck has 8\n"),
        (["--meld", "chromatic:C,C#,D,D#,E,F,F#,G,G#,A,A#,B", "--unplayed", "90"],
         "error: 102 NOTE cards in all, but the deck has 96\n"),
    ]
    for argv, message in cases:
        assert main(["score", "carmony"] + argv) == 2
        assert capsys.readouterr().err == message


def test_looking_glass(capsys):
    data = run_json(capsys, "score", "looking-glass", "--interval", "P8", "--interval", "P8",
                    "--interval", "P8", "--interval", "TT", "--interval", "minor third",
                    "--alices", "8", "--rabbits", "2")
    assert data["total"] == 86
    assert {"label": "all 3 of octave", "points": 3} in data["lines"]
    assert main(["score", "looking-glass", "--interval", "maj"]) == 2
    assert "major triad is a chord, not an interval" in capsys.readouterr().err
    assert main(["score", "looking-glass", "--alices", "9"]) == 2
    assert capsys.readouterr().err == "error: 9 Alices: the deck has 8 A cards\n"


def test_chord_poker(capsys):
    data = run_json(capsys, "score", "chord-poker", "--hand", "C", "C", "C", "C", "D", "D",
                    "D", "E", "F", "F", "G", "--completed")
    assert data["total"] == 18
    data = run_json(capsys, "score", "chord-poker", "--hand", "C#", "Db", "Db")
    assert data["groups"] == [{"note": "three of a kind C#/Db", "points": 5}]


def test_score_keys_corners_and_colour_map(capsys):
    # Key's Corners: "Each completed scale is worth 10 points. Each non-scale stack of four is
    # worth 5 points."
    assert main(["score", "keys-corners", "--scales", "2", "--stacks", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 35
    # Colour map: "The number of music notes left in your hand represent your negative points."
    # Default deck: red 7 has 3 notes, purple 2 has 1, blue 12 has 2.
    assert main(["score", "colour-map", "--hand", "red:7", "purple:2", "Blue:12"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["purple", "2", "(1", "note)", "-1"] and out[-1].split() == \
        ["total", "-6"]
    assert main(["score", "colour-map", "--hand", "red:7", "red:7"]) == 2
    assert "card 2 'red:7': not in the deck, or more copies than it has" in \
        capsys.readouterr().err
    assert main(["score", "colour-map", "--hand", "green:1"]) == 2
    assert main(["score", "keys-corners", "--stacks", "-1"]) == 2
