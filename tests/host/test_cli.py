"""The command line as a user meets it: output, JSON shapes, errors without tracebacks."""

import json
import os
import sys

import pytest

import running
from host_tools.cli.main import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv):
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_show_json_in_degree_order(capsys):
    data = run_json(capsys, "show", "dim7", "--root", "C")
    assert data == {"id": "dim7", "name": "diminished seventh", "kind": "chord", "root": "C",
                    "positions": [
                        {"degree": "1", "note": "C", "pc": 0, "optional": False},
                        {"degree": "b3", "note": "Eb", "pc": 3, "optional": False},
                        {"degree": "b5", "note": "Gb", "pc": 6, "optional": False},
                        {"degree": "bb7", "note": "Bbb", "pc": 9, "optional": False}]}


def test_show_text_and_unicode(capsys):
    code, out, _ = run(capsys, "show", "min", "--root", "eb")
    assert code == 0
    assert out.splitlines()[0] == "Eb minor triad (min): Eb Gb Bb"
    code, out, _ = run(capsys, "show", "minor triad", "--root", "E\u266d", "--unicode")
    assert out.splitlines()[0] == "E\u266d minor triad (min): E\u266d G\u266d B\u266d"
    data = run_json(capsys, "show", "7", "--root", "G")
    assert [(p["note"], p["optional"]) for p in data["positions"]] == [
        ("G", False), ("B", False), ("D", True), ("F", False)]


def test_show_keeps_the_typed_root_and_toggles(capsys):
    assert run_json(capsys, "show", "major", "--root", "C#")["root"] == "C#"
    data = run_json(capsys, "show", "major", "--root", "C#", "--other-name")
    assert [p["note"] for p in data["positions"]] == ["Db", "Eb", "F", "Gb", "Ab", "Bb", "C"]


def test_show_reads_chord_symbols(capsys):
    code, out, _ = run(capsys, "show", "Cmaj7")
    assert code == 0 and out.splitlines()[0] == "C major seventh chord (maj7): C E G B"
    code, out, _ = run(capsys, "show", "F#m7b5")
    assert code == 0 and out.splitlines()[0] == "F# half-diminished seventh (min7b5): F# A C E"
    data = run_json(capsys, "show", "Dbmaj7")
    assert data["root"] == "Db" and data["id"] == "maj7"
    assert [p["note"] for p in data["positions"]] == ["Db", "F", "Ab", "C"]
    data = run_json(capsys, "show", "C#maj7")
    assert [p["note"] for p in data["positions"]] == ["C#", "E#", "G#", "B#"]
    assert run_json(capsys, "show", "E\u266dm7", "--root", "Eb")["root"] == "Eb"
    assert run_json(capsys, "show", "Bb7", "--other-name")["root"] == "A#"


def test_show_reads_names_people_type(capsys):
    code, out, _ = run(capsys, "show", "dom7", "--root", "C")
    assert code == 0 and out.splitlines()[0] == "C dominant seventh (7): C E G Bb"
    code, out, _ = run(capsys, "show", "natural", "minor", "--root", "A")
    assert code == 0 and out.splitlines()[0] == (
        "A aeolian (natural minor) (aeolian): A B C D E F G")
    assert run_json(capsys, "show", "A", "natural", "minor")["id"] == "aeolian"
    # 'minor' alone is the key, as 'major' alone is: D minor is D E F G A Bb C.
    assert [p["note"] for p in run_json(capsys, "show", "D", "minor")["positions"]] == [
        "D", "E", "F", "G", "A", "Bb", "C"]
    assert run_json(capsys, "show", "D", "major")["id"] == "major"
    # An exact id or name comes first: m7 is the interval, Cm7 the chord.
    assert run_json(capsys, "show", "m7", "--root", "C")["kind"] == "interval"
    assert run_json(capsys, "show", "Cm7")["id"] == "min7"


def test_an_unknown_name_in_another_set_points_at_that_set(capsys):
    path = os.path.join(ROOT, "core/meldsets/modes.json")
    code, out, err = run(capsys, "show", "Cmaj7", "--set", path)
    assert code == 2 and out == ""
    assert err == ("error: no meld 'Cmaj7' in meld set 'modes' (chromawheel melds --set %s "
                   "lists them all)\n" % path)
    jazz = os.path.join(ROOT, "core/meldsets/jazz.json")
    data = run_json(capsys, "show", "C7alt", "--set", jazz)
    assert data["id"] == "7alt" and data["root"] == "C"


def test_check_reads_the_root_from_a_chord_symbol(capsys):
    code, out, _ = run(capsys, "check", "C7", "C", "E", "G", "Bb")
    assert code == 0 and out.splitlines()[0] == "valid: C dominant seventh (7), 4 cards, 70 points"
    data = run_json(capsys, "check", "Am7", "C", "E", "G", "A")
    assert data["valid"] is True and data["root"] == "A"
    # The symbol's root is insisted on: these cards build C6, not a C minor seventh.
    data = run_json(capsys, "check", "Cm7", "C", "E", "G", "A")
    assert data["valid"] is False and data["root"] == "C"
    assert run_json(capsys, "check", "C7", "C", "E", "Bb", "--root", "C")["valid"] is True
    code, _, err = run(capsys, "check", "C7", "C", "E", "Bb", "--root", "F")
    assert code == 2 and err == "error: 'C7' has the root C but --root is F: give one root\n"


def test_music_md_lists_the_symbol_tables():
    from core.parse import NAMES, SYMBOLS
    with open(os.path.join(ROOT, "docs", "music.md"), encoding="utf-8") as f:
        section = f.read().split("\n## Chord symbols\n")[1].split("\n## ")[0]
    tables = {"suffixes": {}, "names": {}}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| meld id "):
            table = tables[cells[2]]
        elif line.startswith("| `"):
            for key in cells[2].split(", "):
                table[key.strip("`") if key != "(none)" else ""] = cells[0].strip("`")
    assert tables["suffixes"] == SYMBOLS and tables["names"] == NAMES


def test_identify_json(capsys):
    data = run_json(capsys, "identify", "C", "E", "G", "A")
    assert data == [
        {"id": "6", "name": "major sixth chord", "kind": "chord", "root": "C",
         "optional_used": []},
        {"id": "min7", "name": "minor seventh chord", "kind": "chord", "root": "A",
         "optional_used": ["5"]}]
    near = run_json(capsys, "identify", "C", "E", "G", "--near")
    assert {"id": "maj7", "name": "major seventh chord", "kind": "chord", "root": "C",
            "missing": "B"} in near
    assert not [r for r in near if r["id"] == "maj" and r["root"] == "C"]


def test_identify_text_lists_near_readings(capsys):
    code, out, _ = run(capsys, "identify", "C", "C")
    assert code == 0
    assert out.splitlines()[:2] == ["C C: 1 reading", "  C octave (P8)"]


def test_check_json(capsys):
    data = run_json(capsys, "check", "7", "C", "E", "G", "Bb")
    assert data["valid"] is True and data["points"] == 70 and data["root"] == "C"
    assert data["optional_used"] == ["5"]
    assert data["cards"][3] == {"card": "Bb", "pc": 10, "note": "Bb", "degree": "b7",
                                "optional": False}
    data = run_json(capsys, "check", "maj", "C", "E", "G", "C")
    assert data["valid"] is False and data["points"] == 0
    assert data["reason"] == "extra card C (its position already has a card)"
    data = run_json(capsys, "check", "min", "D#", "F#", "A#")
    assert data["cards"][0]["note"] == "Eb" and data["cards"][0]["card"] == "D#"


def test_melds_lists_the_set(capsys):
    data = run_json(capsys, "melds")
    assert len(data) == 60
    assert data[0] == {"id": "m2", "name": "minor second", "kind": "interval",
                       "degrees": ["1", "b2"], "cards": [2, 2], "shapes": 12}
    assert len(run_json(capsys, "melds", "--kind", "scale")) == 15


@pytest.mark.parametrize("argv, message", [
    (["show", "nope", "--root", "C"],
     "error: no meld 'nope' in meld set 'default' (chromawheel melds lists them all)"),
    (["show", "dom7x", "--root", "C"],
     "error: no meld 'dom7x' in meld set 'default'; did you mean: dom7, dim7, dom9? "
     "(chromawheel melds lists them all)"),
    (["check", "Cmaj8", "C", "E"],
     "error: no meld 'Cmaj8' in meld set 'default'; did you mean: Cmaj6, Cmaj7, Cmaj9? "
     "(chromawheel melds lists them all)"),
    (["show", "Cmaj7", "--root", "D"],
     "error: 'Cmaj7' has the root C but --root is D: give one root"),
    (["show", "C/E"], "error: 'C/E': slash chords are not read (the wheel shows pitch classes, "
                      "not which note is lowest); give 'C' without the bass note"),
    (["show", "maj", "--root", "H"], "error: 'H' is not a note name (the letter must be A-G)"),
    (["identify", "C", "Q#"], "error: 'Q#' is not a note name (the letter must be A-G)"),
    (["check", "maj", "C", "E#b"], "error: 'E#b' is not a note name (mixes sharps and flats)"),
    (["show", "c", "--root", "C"],            # too short to guess from: no suggestions
     "error: no meld 'c' in meld set 'default' (chromawheel melds lists them all)"),
    (["melds", "--set", "/nonexistent.json"],
     "error: /nonexistent.json: no such meld-set file"),
])
def test_bad_input_is_one_error_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == message + "\n"


def test_usage_errors_are_one_line(capsys):
    code, _, err = run(capsys, "show", "maj")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("error: ") and "--root" in err


def test_meldset_validate_and_compile(capsys, tmp_path):
    code, out, _ = run(capsys, "meldset", "validate",
                       os.path.join(ROOT, "core/meldsets/default.json"))
    assert code == 0 and "60 melds (12 intervals, 33 chords, 15 scales)" in out
    out_path = tmp_path / "d.cwm"
    code, out, _ = run(capsys, "meldset", "compile",
                       os.path.join(ROOT, "core/meldsets/default.json"), "-o", str(out_path))
    assert code == 0 and out_path.read_bytes()[:4] == b"CWMS"
    data = run_json(capsys, "melds", "--set", str(out_path))
    assert len(data) == 60


def test_meldset_validate_reports_every_problem(capsys, tmp_path):
    path = tmp_path / "bad.json"
    source = {"format": "chromawheel-meldset", "version": 1, "name": "bad", "melds": [
        {"id": "a", "name": "a", "kind": "chord", "degrees": ["1", "3", "b4"]},
        {"id": "a", "name": "b", "kind": "chord", "degrees": ["1", "b3", "5"]}]}
    path.write_text(json.dumps(source))
    code, out, err = run(capsys, "meldset", "validate", str(path))
    assert code == 2
    assert err.splitlines() == [
        "error: %s: melds[0].degrees[2]: 'b4' is not a degree" % path,
        "error: %s: melds[1].id: duplicate id 'a' (also melds[0])" % path]
    code, out, err = run(capsys, "meldset", "validate", str(path), "--json")
    assert code == 2
    assert json.loads(out)["problems"][0] == {"where": "melds[0].degrees[2]",
                                              "what": "'b4' is not a degree"}


def test_bad_files_are_refused_with_their_place(capsys, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "chromawheel-meldset",\n "version": 1,,}')
    code, _, err = run(capsys, "meldset", "validate", str(path))
    assert code == 2 and err.startswith("error: %s: line 2, column 15: " % path)
    path.write_bytes(b"\xff\xfe")
    assert "not UTF-8" in run(capsys, "melds", "--set", str(path))[2]
    path.write_text('{"format": "a", "format": "b"}')
    assert "duplicate key 'format'" in run(capsys, "melds", "--set", str(path))[2]
    blob = (tmp_path / "x.cwm")
    assert main(["meldset", "compile", os.path.join(ROOT, "core/meldsets/default.json"),
                 "-o", str(blob)]) == 0
    blob.write_bytes(blob.read_bytes()[:-1])
    capsys.readouterr()
    code, _, err = run(capsys, "melds", "--set", str(blob))
    assert code == 2 and "damaged meld set" in err


def test_compile_never_replaces_a_good_file_with_a_bad_one(capsys, tmp_path):
    good = tmp_path / "set.cwm"
    assert main(["meldset", "compile", os.path.join(ROOT, "core/meldsets/default.json"),
                 "-o", str(good)]) == 0
    before = good.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "chromawheel-meldset", "version": 1, "name": "x", "melds": []}')
    code, _, _ = run(capsys, "meldset", "compile", str(bad), "-o", str(good))
    assert code == 2 and good.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["bad.json", "set.cwm"]


def test_installed_command_has_no_traceback():
    exe = os.path.join(os.path.dirname(sys.executable), "chromawheel")
    proc = running.run([exe, "check", "maj", "C", "E", "Gbbb"], expect=2)
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("error: ")
    proc = running.run([exe, "show", "maj", "--root", "C"], expect=0)
    assert proc.stdout.startswith("C major triad (maj): C E G")


def test_a_lone_surrogate_is_a_clear_error(capsys, tmp_path):
    # JSON lets "\ud800" through as a string CPython cannot encode: an error, not a crash.
    path = tmp_path / "half.json"
    path.write_text('{"format": "chromawheel-meldset", "version": 1, "name": "x", '
                    '"title": "a\\ud800", "melds": [{"id": "maj", "name": "major", '
                    '"kind": "chord", "degrees": ["1", "3", "5"]}]}')
    assert main(["meldset", "validate", str(path)]) == 2
    assert capsys.readouterr().err == ("error: %s: title: 'a\\ud800' is not text: it holds "
                                       "half of a surrogate pair\n" % path)
