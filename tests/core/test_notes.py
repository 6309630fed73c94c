from core import pcset
from core.notes import format_note, is_black_key, note_pc, pc_names
from core.parse import NoteError, parse_note

from expect import raises


def test_parse_ascii_unicode_and_any_case():
    cases = [("C#", (0, 1)), ("Db", (1, -1)), ("E\u266d", (2, -1)), ("F##", (3, 2)),
             ("Fx", (3, 2)), ("Bbb", (6, -2)), ("c#", (0, 1)), ("DB", (1, -1)),
             ("bb", (6, -1)), ("G\u266f", (4, 1)), ("A\U0001d12b", (5, -2)),
             ("e\U0001d12a", (2, 2)), (" g ", (4, 0)), ("FX", (3, 2))]
    for text, note in cases:
        assert parse_note(text) == note, text


def test_parse_errors_name_the_input():
    for bad in ("", "H", "C#b", "Cbbb", "C###", "Cq", "#", "Fx#", "C5"):
        err = raises(NoteError, parse_note, bad)
        assert repr(bad) in str(err) or bad == "" or bad.strip() == "", str(err)
    raises(NoteError, parse_note, None)


def test_pitch_classes_of_enharmonic_names():
    for text, pc in (("C", 0), ("B#", 0), ("Dbb", 0), ("Cb", 11), ("E#", 5), ("Fb", 4),
                     ("G##", 9), ("Abb", 7), ("F#", 6), ("Gb", 6)):
        assert note_pc(parse_note(text)) == pc, text


def test_format_ascii_and_unicode():
    assert format_note((6, -2)) == "Bbb"
    assert format_note((3, 2)) == "F##"
    assert format_note((1, -1), True) == "D\u266d"
    assert format_note((3, 2), True) == "F\U0001d12a"
    assert format_note((0, 0), True) == "C"
    for text in ("C#", "Db", "Bbb", "F##", "E"):
        assert format_note(parse_note(text)) == text


def test_black_keys_have_two_plain_names():
    assert pc_names(0) == ((0, 0),)
    assert pc_names(1) == ((0, 1), (1, -1))     # C#, Db
    assert pc_names(10) == ((5, 1), (6, -1))    # A#, Bb
    assert [pc for pc in range(12) if is_black_key(pc)] == [1, 3, 6, 8, 10]


def test_masks_and_rotation():
    c_major = pcset.mask_of([0, 4, 7])
    assert c_major == 0b000010010001
    assert pcset.pcs_of(pcset.rotate(c_major, 2)) == [2, 6, 9]        # D F# A
    assert pcset.pcs_of(pcset.rotate(c_major, 7)) == [2, 7, 11]       # G B D
    assert pcset.rotate(c_major, -7) == pcset.rotate(c_major, 5)
    assert pcset.rotate(c_major, 12) == c_major
    assert pcset.popcount(0xFFF) == 12 and pcset.popcount(0) == 0
