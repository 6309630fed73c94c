from core.notes import format_note
from core.parse import (
    NAMES,
    SYMBOLS,
    SymbolError,
    find_meld,
    name_id,
    parse_symbol,
    split_root,
    symbol_id,
)

from expect import default_set, raises


def read(text):
    found = parse_symbol(text)
    return None if found is None else (format_note(found[0]), found[1])


def test_chord_symbols_read_as_a_root_and_a_meld():
    cases = [("Cmaj7", ("C", "maj7")), ("F#m7b5", ("F#", "min7b5")), ("Bbm7", ("Bb", "min7")),
             ("Bb", ("Bb", "maj")), ("Ebm", ("Eb", "min")), ("C7", ("C", "7")),
             ("C\u00f8", ("C", "min7b5")), ("C\u00b0", ("C", "dim")), ("C\u00b07", ("C", "dim7")),
             ("C6/9", ("C", "6/9")), ("C69", ("C", "6/9")), ("C7#9", ("C", "7#9")),
             ("Caug", ("C", "aug")), ("C+", ("C", "aug")), ("Csus", ("C", "sus4")),
             ("Cm(maj7)", ("C", "min(maj7)")), ("CmMaj7", ("C", "min(maj7)")),
             ("E\u266dmaj7", ("Eb", "maj7")), ("F\u266fm", ("F#", "min")),
             ("C7\u266d9", ("C", "7b9")), ("C7(b9)", ("C", "7b9")), ("CM", ("C", "maj")),
             ("Cmaj", ("C", "maj")), ("C-", ("C", "min")), ("C-7", ("C", "min7")),
             ("C\u0394", ("C", "maj7")), ("C\u03947", ("C", "maj7")), ("Cdim", ("C", "dim")),
             ("Cm(add9)", ("C", "min(add9)")), ("Cmadd9", ("C", "min(add9)")),
             ("C7+5", ("C", "7#5")), ("C7#5", ("C", "7#5")), ("C5", ("C", "5")),
             ("C9sus4", ("C", "9sus4")), ("C13", ("C", "13")), ("Cm13", ("C", "min13")),
             ("Gdom7", ("G", "7")), ("C#9", ("C#", "9")), ("Cb5", ("Cb", "5")),
             (" Am7 ", ("A", "min7"))]
    for text, expected in cases:
        assert read(text) == expected, text


def test_case_matters_only_for_a_lone_m():
    assert read("CM7") == ("C", "maj7") and read("Cm7") == ("C", "min7")
    assert read("CM9") == ("C", "maj9") and read("Cm9") == ("C", "min9")
    assert read("CMaj7") == ("C", "maj7") and read("CMAJ7") == ("C", "maj7")
    assert read("CSus4") == ("C", "sus4") and read("CMIN7") == ("C", "min7")
    # A lone M never folds to m: CM11 is no minor eleventh.
    assert read("CM11") is None


def test_unknown_suffixes_and_rootless_names_are_no_symbol():
    for text in ("Cxyz", "C7alt", "H7", "", "m7", "dim", "add9", "b9", "maj7", "cmaj7", "7"):
        assert read(text) is None, text


def test_a_name_after_a_root_and_a_space():
    assert read("A natural minor") == ("A", "aeolian")
    assert read("a natural minor") == ("A", "aeolian")
    assert read("Eb Natural-Minor Scale") == ("Eb", "aeolian")
    assert read("C dom7") == ("C", "7")


def test_slash_chords_are_refused():
    err = raises(SymbolError, parse_symbol, "C/E")
    assert "'C/E'" in str(err) and "slash" in str(err)
    raises(SymbolError, parse_symbol, "Am7/G")
    assert read("C6/9") == ("C", "6/9")
    assert read("Cq/E") is None


def test_tables_point_at_the_default_sets_ids():
    ms = default_set()
    ids = [ms.meld_id(i) for i in range(ms.count)]
    for key in SYMBOLS:
        assert SYMBOLS[key] in ids, key
    for key in NAMES:
        assert NAMES[key] in ids, key
        assert key == " ".join(key.lower().split()), key
    assert symbol_id("") == "maj" and symbol_id("m") == "min" and symbol_id("-") == "min"
    assert name_id("natural minor") == "aeolian" and name_id("ionian") == "major"
    assert name_id("dom7") == "7" and name_id("Minor-Scale") == "aeolian"
    assert name_id("") is None and name_id("nope") is None


def test_split_root_tries_the_longest_root_first():
    assert split_root("Ebm7") == [((2, -1), "m7"), ((2, 0), "bm7")]
    assert split_root("add9") == [] and split_root("7") == [] and split_root("") == []
    assert split_root("C#b9") == [((0, 1), "b9"), ((0, 0), "#b9")]


def found(text):
    ms = default_set()
    i, root = find_meld(ms, text)
    return (ms.meld_id(i) if i >= 0 else None), (format_note(root) if root else None)


def test_find_meld_reads_ids_and_names_first():
    assert found("maj") == ("maj", None)
    assert found("m7") == ("m7", None)
    assert found("M7") == ("M7", None)
    assert found("minor triad") == ("min", None)
    assert found("Dorian") == ("dorian", None)
    assert found("6/9") == ("6/9", None)
    assert found("major") == ("major", None)


def test_find_meld_reads_tables_symbols_and_rooted_names():
    assert found("dom7") == ("7", None)
    assert found("natural minor") == ("aeolian", None)
    assert found("harmonic minor scale") == ("harmonic-minor", None)
    assert found("whole tone") == ("whole-tone", None)
    assert found("Cmaj7") == ("maj7", "C")
    assert found("F#m7b5") == ("min7b5", "F#")
    assert found("C7") == ("7", "C")
    assert found("A natural minor") == ("aeolian", "A")
    assert found("Bb dorian") == ("dorian", "Bb")
    assert found("CP5") == ("P5", "C")
    assert found("Cxyz") == (None, None)
    assert found("nope") == (None, None)
    raises(SymbolError, find_meld, default_set(), "C/E")
