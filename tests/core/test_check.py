from core.check import check
from core.melds import find
from core.notes import format_note
from core.parse import parse_note, pc_of

from expect import default_set


def run(meld_id, notes, root=None):
    ms = default_set()
    cards = [pc_of(n) for n in notes.split()]
    return check(ms.meld(find(ms, meld_id)), cards, parse_note(root) if root else None)


def test_octave_takes_two_cards_of_one_note():
    result = run("P8", "C C")
    assert result.valid and result.points == 20 and result.reason == ""
    result = run("P8", "C")
    assert not result.valid
    assert result.reason == "missing degree 8 (C)"


def test_rulebook_minor_triads_with_cards():
    for notes in ("C Eb G", "D F A", "B D F#", "G Bb D"):
        result = run("min", notes)
        assert result.valid and result.points == 40, notes
    assert format_note(run("min", "D F A").root) == "D"


def test_c_e_g_c_is_not_a_major_triad():
    result = run("maj", "C E G C")
    assert not result.valid
    assert result.reason == "extra card C (its position already has a card)"


def test_card_of_no_position_and_missing_degree():
    assert run("maj", "C E G D").reason == "card D has no position in the meld"
    assert run("min", "C G").reason == "missing degree b3 (Eb)"
    assert run("maj", "C E", "E").reason.startswith("missing degree")
    assert not run("maj", "C E G", "E").valid
    assert run("maj", "").reason == "no cards"


def test_optional_fifths():
    result = run("7", "C E Bb")
    assert result.valid and result.points == 40 and result.optional_used == []
    result = run("7", "C E G Bb")
    assert result.valid and result.points == 70
    assert [c & 0x7F for c in result.optional_used] == [5 | (2 << 4)]   # degree 5
    result = run("13", "C E Bb A")
    assert result.valid and result.points == 70
    result = run("13", "C E G Bb D F A")
    assert result.valid and result.points == 200


def test_carmony_points_table():
    assert run("m2", "C Db").points == 20
    assert run("P5", "C G").points == 20
    assert run("5", "C G").points == 100                          # power chord
    assert run("maj", "C E G").points == 40
    assert run("6", "C E G A").points == 70
    assert run("9", "C E G Bb D").points == 100
    assert run("major-pentatonic", "C D E G A").points == 100
    assert run("11", "C E G Bb D F").points == 150
    assert run("blues", "C Eb F Gb G Bb").points == 150
    assert run("dorian", "D E F G A B C").points == 200
    assert run("major", "C D E F G A B").points == 350            # major scale
    assert run("chromatic", "C C# D D# E F F# G G# A A# B").points == 500


def test_symmetric_meld_roots():
    result = run("aug", "E G# C")
    assert result.valid and result.roots == [0, 4, 8]
    assert format_note(result.root) == "E"                  # the first card laid
    assert format_note(run("aug", "E G# C", "Ab").root) == "Ab"


def test_cards_are_placed_on_positions():
    result = run("maj", "G C E")
    assert result.valid and format_note(result.root) == "C"
    assert [(pc, code & 0x0F) for pc, code in result.placed] == [(7, 5), (0, 1), (4, 3)]
