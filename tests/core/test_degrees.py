from core import degrees
from core.parse import DegreeError, parse_degree

from expect import raises

# docs/music.md's table, semitones above the root.
TABLE = {"1": 0, "b2": 1, "2": 2, "b3": 3, "3": 4, "4": 5, "#4": 6, "b5": 6, "5": 7, "#5": 8,
         "b6": 8, "6": 9, "bb7": 9, "b7": 10, "7": 11, "8": 12, "b9": 13, "9": 14, "#9": 15,
         "11": 17, "#11": 18, "13": 21}


def test_vocabulary_semitones_match_music_md():
    for text in TABLE:
        code = parse_degree(text)
        assert degrees.semitones(code) == TABLE[text], text
        assert degrees.to_text(code) == text
    assert degrees.semitones(parse_degree("#2")) == 3     # accepted, on no card


def test_compound_degrees_share_the_letter_number():
    for simple, compound in (("1", "8"), ("2", "9"), ("4", "11"), ("6", "13")):
        a = parse_degree(simple)
        b = parse_degree(compound)
        assert degrees.semitones(b) - degrees.semitones(a) == 12
        assert (degrees.number(b) - degrees.number(a)) == 7


def test_unicode_accidentals_accepted():
    assert parse_degree("\u266d3") == parse_degree("b3")
    assert parse_degree("\u266f11") == parse_degree("#11")


def test_not_degrees():
    for bad in ("b4", "14", "0", "#13", "x", "", "1b", "bbb7", "b", "#3", "10", "12", "##5"):
        err = raises(DegreeError, parse_degree, bad)
        assert str(err) == "%r is not a degree" % bad, str(err)
    raises(DegreeError, parse_degree, 3)
