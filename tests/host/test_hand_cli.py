"""chromawheel hand: what a hand of NOTE cards builds, and the best turn of each type."""

import json

from host_tools.cli.main import main


def run_json(capsys, *argv):
    assert main(list(argv) + ["--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_the_issue_hand_in_its_json_shape(capsys):
    data = run_json(capsys, "hand", "C", "E", "G", "Bb", "D")
    assert set(data) == {"cards", "melds", "best"}
    assert data["cards"] == ["C", "E", "G", "Bb", "D"]
    for meld in data["melds"]:
        assert set(meld) == {"id", "root", "notes", "points", "kind", "c_root"}
    c9 = [m for m in data["melds"] if m["id"] == "9" and m["root"] == "C"]
    assert c9 == [{"id": "9", "root": "C", "notes": ["C", "E", "G", "Bb", "D"], "points": 100,
                   "kind": "chord", "c_root": True}]
    assert {"id": "min7b5", "root": "E", "notes": ["E", "G", "Bb", "D"], "points": 70,
            "kind": "chord", "c_root": False} in data["melds"]
    assert set(data["best"]) == {"intervals", "chords", "scales"}
    chords = data["best"]["chords"]
    assert chords["points"] == 140
    assert sorted((m["root"], m["id"], m["points"]) for m in chords["melds"]) == [
        ("C", "7", 40), ("G", "5", 100)]
    assert data["best"]["intervals"]["points"] == 40
    assert data["best"]["scales"] == {"melds": [], "points": 0}


def test_every_listed_meld_agrees_with_check(capsys):
    data = run_json(capsys, "hand", "C", "Eb", "F", "G", "Bb", "D", "A", "C")
    assert data["melds"]
    for meld in data["melds"]:
        checked = run_json(capsys, "check", meld["id"], *meld["notes"], "--root", meld["root"])
        assert checked["valid"] and checked["points"] == meld["points"], meld


def test_meld_cards_held(capsys):
    data = run_json(capsys, "hand", "C", "G", "D", "A", "E", "B", "--melds", "P5,maj")
    assert {m["id"] for m in data["melds"]} == {"P5", "maj"}
    assert data["best"]["intervals"]["points"] == 20
    data = run_json(capsys, "hand", "C", "G", "D", "A", "E", "B", "--melds", "P5,P5,P5")
    assert data["best"]["intervals"]["points"] == 60


def test_text_lines_and_the_c_root_refill(capsys):
    assert main(["hand", "C", "E", "G"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "C E G: 8 melds"
    assert out[1] == "  1/8 C 5 100  (C G)  C root: draw 2 NOTE cards"
    assert out[2] == "  2/8 C maj 40  (C E G)  C root: draw 3 NOTE cards"
    assert out[3] == "  3/8 E m3 20  (E G)"
    at = out.index("best turn of each type:")
    assert out[at + 3:] == ["  chords    100 points", "    C 5 100  (C G)  C root: draw 2 NOTE "
                            "cards", "  scales    none"]


def test_bad_input_is_located(capsys):
    assert main(["hand", "C", "E", "H", "G"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("error: NOTE card 3 of 4 ('H'): 'H' is not a note name (the letter "
                            "must be A-G)\n")
    assert main(["hand", "C", "G", "--melds", "P5,nope"]) == 2
    assert capsys.readouterr().err == ("error: --melds card 2 ('nope'): no meld 'nope' in meld "
                                       "set 'default' (chromawheel melds lists them)\n")


def test_the_eats_of_the_meld_cards_held(capsys):
    # Held: P5 and m3 (intervals: they eat nothing), 13 and maj (chords: they eat intervals),
    # dorian (a scale: it eats chords and intervals). On the table: C maj, a P5, the chromatic
    # scale (nothing eats it).
    data = run_json(capsys, "hand", "C", "E", "G", "A", "D", "F", "--melds", "P5,13,maj,dorian,m3",
                    "--table", "maj:C,E,G", "--table", "P5:D,A",
                    "--table", "chromatic:C,C#,D,D#,E,F,F#,G,G#,A,A#,B")
    assert set(data) == {"cards", "melds", "best", "eats"}
    assert [(e["table"], e["with"], e["gain"]) for e in data["eats"]] == [
        (0, "dorian", [0, 4, 7]), (1, "13", [2, 9]), (1, "maj", [2, 9]), (1, "dorian", [2, 9])]
    # After eating C maj with the dorian card: C C D E E F G G A, from P5 13 maj m3.
    then = run_json(capsys, "hand", "C", "E", "G", "A", "D", "F", "C", "E", "G",
                    "--melds", "P5,13,maj,m3")
    assert data["eats"][0]["best"] == then["best"]
    assert then["best"]["chords"]["points"] == 40          # one maj card: one triad
    assert main(["hand", "C", "E", "G", "--melds", "13", "--table", "maj:C,E,G"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "eat: no MELD card held is stronger than a meld on the table")


def test_a_bad_table_meld_is_named(capsys):
    for argv, message in [
        (["--table", "maj:C,E,H"], "error: --table 0 ('maj:C,E,H'): NOTE card 3 of 3 ('H'): 'H' "
                                   "is not a note name (the letter must be A-G)\n"),
        (["--table", "P5:C,G", "--table", "maj:C,E"],
         "error: --table 1 ('maj:C,E'): not a valid major triad: missing degree 5 (G)\n"),
        (["--table", "nope:C"], "error: --table 0 ('nope:C'): no meld 'nope' in meld set "
                                "'default'\n"),
        (["--table", "maj"], "error: --table 0 ('maj'): expected ID:NOTE,NOTE,... such as "
                             "maj:C,E,G\n"),
    ]:
        assert main(["hand", "C", "E", "G", "--melds", "13"] + argv) == 2
        assert capsys.readouterr().err == message
    assert main(["hand", "C", "E", "G", "--table", "maj:C,E,G"]) == 2
    assert capsys.readouterr().err == ("error: --table: which meld a MELD card eats needs the "
                                       "MELD cards held (--melds)\n")
