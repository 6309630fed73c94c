from core.melds import find
from core.notes import format_note
from core.parse import parse_degree, parse_note
from core.spelling import other_name, root_name, spell

from expect import default_set


def spelled(meld_id, root):
    ms = default_set()
    meld = ms.meld(find(ms, meld_id))
    return " ".join(format_note(n) for n in meld.notes(parse_note(root)))


def test_rulebook_minor_triads():
    # "C Minor Triad", "D Minor Triad" (The Carmony System) and B minor.
    assert spelled("min", "C") == "C Eb G"
    assert spelled("min", "D") == "D F A"
    assert spelled("min", "B") == "B D F#"


def test_letter_follows_degree():
    assert spelled("m2", "C") == "C Db"               # never C-C#
    assert spelled("dim7", "C") == "C Eb Gb Bbb"      # bb7 is B double flat, not A
    assert spelled("aug", "B") == "B D# F##"
    assert spelled("P8", "E") == "E E"
    assert spelled("TT", "C") == "C F#"
    assert spelled("7#9", "C") == "C E G Bb D#"
    assert spelled("13", "C") == "C E G Bb D F A"
    assert spelled("locrian", "C") == "C Db Eb F Gb Ab Bb"   # the appendix: F then Gb
    assert spelled("major", "F#") == "F# G# A# B C# D# E#"
    assert spelled("dim", "Bb") == "Bb Db Fb"


def test_same_number_shares_a_letter():
    assert spelled("blues", "C") == "C Eb F Gb G Bb"
    assert spelled("chromatic", "C") == "C Db D Eb E F F# G Ab A Bb B"


def test_spell_single_degree():
    assert spell(parse_note("Eb"), parse_degree("3")) == parse_note("G")
    assert spell(parse_note("G#"), parse_degree("b3")) == parse_note("B")
    assert spell(parse_note("Db"), parse_degree("bb7")) == parse_note("Cbb")


def name_for(meld_id, pc):
    ms = default_set()
    return format_note(root_name(pc, ms.meld(find(ms, meld_id)).codes))


def test_root_name_choice():
    assert name_for("major", 1) == "Db"    # 5 flats beat 7 sharps
    assert name_for("major", 6) == "F#"    # 6 against 6: the F# exception
    assert name_for("maj", 8) == "Ab"
    assert name_for("min", 10) == "Bb"     # Bb Db F beats A# C# E#
    assert name_for("min", 3) == "Eb"      # Eb Gb Bb ties D# F# A#: flats
    assert name_for("min", 1) == "C#"      # C# E G# beats Db Fb Ab
    assert name_for("min", 8) == "G#"
    assert name_for("min", 6) == "F#"      # Gb minor needs Bbb
    assert name_for("dim7", 1) == "C#"     # C# E G Bb beats Db Fb Abb Cbb
    assert name_for("maj", 0) == "C"
    assert name_for("m2", 6) == "F#"       # F# G against Gb Abb


def test_enharmonic_toggle():
    assert other_name(parse_note("Db")) == parse_note("C#")
    assert other_name(parse_note("C#")) == parse_note("Db")
    assert other_name(parse_note("F#")) == parse_note("Gb")
    assert other_name(parse_note("C")) == parse_note("C")
