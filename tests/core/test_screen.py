"""The display's text: a console line laid out in 16 columns x 8 rows, accidentals as glyphs."""

from hardware.font import DOUBLE_FLAT, DOUBLE_SHARP, FLAT, SHARP

from firmware.screen import layout, music_text


def test_note_names_get_the_music_glyphs():
    assert music_text("Eb Gb Bbb") == "E%s G%s B%s" % (FLAT, FLAT, DOUBLE_FLAT)
    assert music_text("C# F## Gx") == "C%s F%s G%s" % (SHARP, DOUBLE_SHARP, DOUBLE_SHARP)
    assert music_text("(Bb), Eb: F#;") == "(B%s), E%s: F%s;" % (FLAT, FLAT, SHARP)


def test_degrees_get_the_glyphs_too():
    assert music_text("degree b7 is Bb") == "degree %s7 is B%s" % (FLAT, FLAT)
    assert music_text("(#11) bb7 b13") == "(%s11) %s7 %s13" % (SHARP, DOUBLE_FLAT, FLAT)


def test_words_are_left_alone():
    text = "bluff: alphabet by Bach, blues (7b9) Bass bebop"
    assert music_text(text) == text


def test_a_meld_wraps_at_words():
    assert layout("Eb minor triad (min): Eb Gb Bb") == [
        "E%s minor triad" % FLAT, "(min): E%s G%s B%s" % (FLAT, FLAT, FLAT)]


def test_each_part_of_a_line_starts_a_row():
    assert layout("key speller: D major scale (major): D E F# G A B C#; degree 3 is F#") == [
        "key speller: D", "major scale", "(major): D E F%s" % SHARP, "G A B C%s" % SHARP,
        "degree 3 is F%s" % SHARP]


def test_usage_hints_go_first_when_it_does_not_fit():
    line = ("chord poker: root C: C dominant thirteenth (13): C E (G) Bb (D) (F) A "
            "(click to keep); and more words to overflow the rows")
    rows = layout(line)
    assert len(rows) <= 8 and "click" not in " ".join(rows)
    assert rows[0] == "chord poker:"


def test_what_still_does_not_fit_is_cut_with_dots():
    rows = layout("word " * 40)
    assert len(rows) == 8
    assert rows[-1].endswith("..") and len(rows[-1]) <= 16
    assert all(len(row) <= 16 for row in rows)


def test_a_word_longer_than_a_row_is_split():
    assert layout("abcdefghijklmnopqrstuvwxyz") == ["abcdefghijklmnop", "qrstuvwxyz"]


def test_a_smaller_panel():
    assert layout("C major triad (maj): C E G", 16, 4) == ["C major triad", "(maj): C E G"]
