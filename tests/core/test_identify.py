from core.identify import Identifier
from core.melds import find
from core.notes import format_note
from core.parse import pc_of

from expect import default_set

_identifier = None


def readings(notes):
    global _identifier
    ms = default_set()
    if _identifier is None:
        _identifier = Identifier(ms)
    found = []
    for i, root in _identifier.exact([pc_of(n) for n in notes.split()]):
        found.append(ms.meld_id(i) + "@" + format_note(ms.meld(i).root_name(root)))
    return sorted(found)


def test_c6_is_am7():
    assert readings("C E G A") == ["6@C", "min7@A"]


def test_same_notes_different_melds():
    assert readings("C D G") == ["7sus4@D", "sus2@C", "sus4@G"]   # D G C: 1 4 b7
    assert readings("C Eb G A") == ["min6@C", "min7b5@A"]
    assert readings("C Db") == ["M7@Db", "m2@C"]
    assert readings("C D") == ["M2@C", "m7@D"]
    assert readings("C Eb") == ["M6@Eb", "m3@C"]
    assert readings("C E") == ["M3@C", "m6@E"]
    assert readings("C G") == ["5@C", "P4@G", "P5@C"]
    # 6/9 = 9sus4 = both pentatonics (and, with our 11ths' optional notes, D11 and Am11).
    assert readings("C D E G A") == ["11@D", "6/9@C", "9sus4@D", "major-pentatonic@C",
                                     "min11@A", "minor-pentatonic@A"]


def test_complete_thirteenths_are_the_seven_modes():
    assert readings("C D E F G A B") == [
        "13@G", "aeolian@A", "dorian@D", "locrian@B", "lydian@F", "maj13@C", "major@C",
        "min13@D", "mixolydian@G", "phrygian@E"]


def test_octave_and_repeated_cards():
    assert readings("C C") == ["P8@C"]
    assert readings("C") == []
    assert readings("C E G G") == []
    assert readings("C E G") == ["maj@C"]


def test_symmetric_melds_read_at_every_root():
    assert readings("C E G#") == ["aug@Ab", "aug@C", "aug@E"]
    # pc 3 is D# here: D# F# A C beats Eb Gb Bbb Dbb (two double flats).
    assert readings("C Eb Gb A") == ["dim7@A", "dim7@C", "dim7@D#", "dim7@F#"]
    assert len(readings("C D E F# G# Bb")) == 6
    assert len([r for r in readings("C C# D D# E F F# G G# A A# B")
                if r.startswith("chromatic@")]) == 12
    assert readings("C F#") == ["TT@C", "TT@Gb"]    # Gb C beats F# B#


def test_near_readings_name_the_missing_card():
    ms = default_set()
    if _identifier is None:
        readings("C")
    near = _identifier.near([pc_of("C"), pc_of("E"), pc_of("G")])
    named = [ms.meld_id(i) + "@" + format_note(ms.meld(i).root_name(r)) + "+" + str(pc)
             for i, r, pc in near]
    for expected in ("maj7@C+11", "7@C+10", "6@C+9", "min7@A+9", "add9@C+2"):
        assert expected in named, expected
    assert not [n for n in named if n.startswith("maj@C")]
    near = _identifier.near([pc_of("C")])
    assert (find(ms, "P8"), 0, 0) in near
