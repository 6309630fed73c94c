"""The table modes, chosen from the menu and driven with knob and button only, in the simulator
(the unmodified firmware on the MicroPython unix port). Expected lines worked out by hand from
the rulebook's tables and docs/music.md's spelling."""

import os

import pytest

from core.hand import counts_of
from core.notes import NATURAL_PC

from firmware.modes import mode_names
from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def enter(mode):
    """Long press (menu), click (change the mode), turn to it, click (keep), long (leave)."""
    return "long; click; cw %d; click; long" % mode_names().index(mode)


def run(mode, script):
    frames, console = run_script(enter(mode) + "; " + script)
    lines = [line for line in console if not line.startswith("menu")]
    return frames, lines


def hue(rgb):
    """A sector's colour, roughly: off, white, green, orange, red, blue."""
    r, g, b = rgb
    if not (r or g or b):
        return "off"
    if min(r, g, b) * 3 > max(r, g, b) * 2:
        return "white"
    if g >= r and g >= b:
        return "green"
    if b >= r:
        return "blue"
    return "orange" if g * 20 >= r else "red"


def bright(frame):
    """Sectors lit at full level (a dimmed one is under an eighth of it on the wire)."""
    return [pc for pc in range(12) if max(frame["wheel"][pc]) >= 32]


def sectors(frame, colour):
    return [pc for pc in range(12) if hue(frame["wheel"][pc]) == colour]


def test_meld_check_names_the_melds_with_their_points():
    # C, E, G, A: C6 and Am7 (4 cards: 70 points each); turned back to A, a long press takes
    # the A back; C root: the rulebook's refill. A long press then plays the meld: its points
    # go to the score pad's current player (P2: P1 deals), and clears.
    frames, lines = run("meld check", "click; cw 4; click; cw 3; click; cw 2; click; ccw 2; "
                                      "cw 2; long; long")
    assert [line for line in lines if line.startswith(
        "meld check: cursor A; cards C E G A: C major sixth chord (6) 70 points (C root: "
        "refill) | A minor seventh chord (min7) 70 points; one more card builds ")]
    assert lines[-2].startswith("meld check: cursor A (took back A); cards C E G: C major "
                                "triad (maj) 40 points (C root: refill); one more card builds ")
    assert lines[-1] == ("meld check: cursor A (played, credited 40 to P2; score: original, 2 "
                         "players, round 1 of 3, totals 0 40, P2 to play); no cards (click adds "
                         "one)")
    assert frames[-1]["score"] == {"game": "original", "players": 2, "round": 1,
                                   "totals": [0, 40], "current": 1}
    triad = frames[-2]          # C E G on the ring as the chord, the cursor on A
    assert [hue(c) for c in triad["wheel"]] == [
        "orange", "off", "off", "off", "orange", "off", "off", "orange", "off", "blue", "off",
        "off"]
    assert min(triad["wheel"][0]) > min(triad["wheel"][4])     # the root is whitened
    assert sectors(frames[-1], "blue") == [9] and len(sectors(frames[-1], "off")) == 11


def test_meld_check_power_chord_octave_and_one_card_short():
    # The power chord is special (100); two cards of one note are the octave (20).
    _, lines = run("meld check", "cw 7; click; cw 5; click")
    assert lines[-1].startswith("meld check: cursor C; cards G C: C power chord (5) 100 points "
                                "(C root: refill) | G perfect fourth (P4) 20 points | C perfect "
                                "fifth (P5) 20 points (C root: refill); one more card builds ")
    _, lines = run("meld check", "cw 2; click; click")
    assert lines[-1] == "meld check: cursor D; cards D D: D octave (P8) 20 points"  # no 3rd D
    _, lines = run("meld check", "cw 9; click; cw 3; click; cw 4; click")
    assert lines[-1].startswith("meld check: cursor E; cards A C E: A minor triad (min) 40 "
                                "points; one more card builds ")
    # The dominant seventh's 5 is optional: D F# C is D7 already.
    _, lines = run("meld check", "cw 2; click; cw 4; click; cw 6; click")
    assert lines[-1].startswith("meld check: cursor C; cards D F# C: D dominant seventh (7) 40 "
                                "points; one more card builds ")
    # No meld: what one more card builds (C D E + G: Cadd9; + G#: E7#5 with C as B#; + Bb: C9).
    _, lines = run("meld check", "click; cw 2; click; cw 2; click")
    assert lines[-1] == ("meld check: cursor E; cards C D E: no meld; one more card builds C "
                         "added ninth (add9) with G, E augmented seventh (7#5) with G#/Ab, C "
                         "dominant ninth (9) with A#/Bb and 6 more")


def test_meld_check_says_what_one_more_card_makes_after_a_meld_too():
    # E G Bb is E dim (40); D makes the half-diminished seventh (70).
    _, lines = run("meld check", "cw 4; click; cw 3; click; cw 3; click")
    assert lines[-1].startswith("meld check: cursor A#/Bb; cards E G Bb: E diminished triad "
                                "(dim) 40 points; one more card builds ")
    assert "E half-diminished seventh (min7b5) with D" in lines[-1]


def test_chord_poker_shows_what_is_missing_and_previews_a_root_change():
    # C7 with C (the root), E and G placed: Bb is missing. Changing the root to A (a hand card
    # on the free A sector): A7 = A C# (E) G, so E and G stay, C goes back to the hand.
    chord = "cw 9"           # the chords: 5 maj min dim aug sus2 sus4 6 min6 7
    frames, lines = run("chord poker", chord + "; click; click; cw 4; click; cw 3; click; "
                                               "cw 2; double")
    assert "chord poker: C dominant seventh (7): on the Wheel C E G; missing Bb; cursor G" \
        in lines
    assert lines[-1] == ("chord poker: root change preview to A: A dominant seventh (7): on "
                         "the Wheel A E G; missing C#; back to the hand C")
    preview = frames[-1]
    assert sectors(preview, "red") == [0]              # C goes back to the hand
    assert sectors(preview, "orange") == [1]           # C# still missing
    assert 4 in sectors(preview, "green") and 7 in sectors(preview, "green")
    frames, lines = run("chord poker", chord + "; click; click; cw 4; click; cw 3; click; "
                                               "cw 2; double; click")
    assert lines[-1] == ("chord poker: A dominant seventh (7): on the Wheel A E G; missing C#; "
                         "cursor A")


def test_chord_poker_completion_and_refusals():
    # Power chord at D: D and A complete it (5 chord points).
    frames, lines = run("chord poker", "click; cw 2; click; cw 1; click; cw 6; click")
    assert "chord poker: D power chord (5): on the Wheel D; missing A; cursor D#/Eb (D#/Eb is "\
        "not in the chord: it goes to the pile)" in lines
    assert lines[-1] == ("chord poker: D power chord (5): on the Wheel D A; missing nothing; "
                         "cursor A; complete: 5 points (click for the next chord)")
    assert bright(frames[-1]) == [2, 9] and not sectors(frames[-1], "orange")


def test_looking_glass_shows_which_wheel_cards_pick_the_interval_up():
    # Major third; cards on the Wheel C, E, Bb. A hand D picks it up with Bb (Bb-D, the Wheel
    # card on position 1); a hand E with C (C-E); a hand G# with C (Ab-C) or E (E-G#).
    frames, lines = run("looking glass", "cw 3; click; click; cw 4; click; cw 6; click; "
                                         "ccw 8; double")
    assert "looking glass: major third (M3); cards on the Wheel: C E A#/Bb; cursor A#/Bb" \
        in lines
    assert lines[-1] == ("looking glass: hand D picks up the major third (M3) with A#/Bb "
                         "(Bb-D)")
    ring = frames[-1]
    assert sectors(ring, "green") == [10]
    frames, lines = run("looking glass", "cw 3; click; click; cw 4; click; cw 6; click; "
                                         "ccw 6; double")
    assert lines[-1] == ("looking glass: hand E picks up the major third (M3) with C (C-E)")
    _, lines = run("looking glass", "cw 3; click; click; cw 4; click; double; cw 4")
    assert lines[-1] == ("looking glass: hand G#/Ab picks up the major third (M3) with C "
                         "(Ab-C) or E (E-G#)")


def test_looking_glass_octave_needs_two_of_one_note():
    octave = "cw 11"      # m2 M2 m3 M3 P4 TT P5 m6 M6 m7 M7 8
    _, lines = run("looking glass", octave + "; click; cw 5; click; double")
    assert lines[-1] == "looking glass: hand F picks up the octave (P8) with F (F-F)"


def test_bluff_names_the_next_degree_by_the_letter_rule():
    # The rulebook's example: "if degree 4 is F and degree b5 points to the next note, it's
    # named Gb, not F#" (C locrian: C Db Eb F Gb Ab Bb).
    locrian = "cw 10"     # major-pentatonic minor-pentatonic blues whole-tone major dorian
    #                       phrygian lydian mixolydian aeolian locrian
    frames, lines = run("bluff", locrian + "; click; click; click; click; click; click")
    assert lines[-1] == ("bluff: C locrian (locrian): C Db Eb F Gb Ab Bb; degree b5 (5 of 7) "
                         "is Gb (basic game: F# also counts)")
    ring = frames[-1]
    # Degree 1 (C) stays marked, full; the cursor on Gb; Ab and Bb still to come.
    assert bright(ring) == [0, 6, 8, 10]
    assert sectors(ring, "off") == [2, 4, 7, 9, 11]        # C Db Eb F placed: dim, not off
    # BLUFF (double press): the scale restarts from degree 1, chosen again.
    _, lines = run("bluff", locrian + "; click; click; click; double; cw 6; click")
    assert lines[-1] == ("bluff: E locrian (locrian): E F G A Bb C D; degree 1 (1 of 7) is E")


def test_bluff_degree_one_name_fixes_the_letters():
    # Turning through degree 1 walks the names: C C# Db D D# Eb ... ; D# major needs F##.
    major = "cw 4"
    _, lines = run("bluff", major + "; click; cw 4; click; click; click")
    assert lines[-1] == ("bluff: D# major scale (major): D# E# F## G# A# B# C##; degree 3 "
                         "(3 of 7) is F## (basic game: G also counts)")
    _, lines = run("bluff", major + "; click; cw 5; click; click; click")
    assert lines[-1] == ("bluff: Eb major scale (major): Eb F G Ab Bb C D; degree 3 (3 of 7) "
                         "is G")
    # A completed scale: the next SCALE card.
    _, lines = run("bluff", "click; click" + "; click" * 5)
    assert lines[-1].endswith("complete: the Wheel's cards are discarded (click for the next "
                              "SCALE card)")


def test_every_table_mode_runs_in_a_small_heap():
    # make bench prints each mode's heap in use; this runs each with a margin over it (the
    # 64-bit unix port: about twice a Pico's heap for the same objects). 152 KB since USB
    # MIDI (meld check needed 140 KB before it, 148 KB after); 160 KB since the pass became
    # named services (meld check, unchanged, ran out at 152 KB); 168 KB since the score pad
    # became the table log (core/table.py, about 17 KB of code here, the score ran out at 164
    # KB); 176 KB since a seat is chosen in the menu (the score ran out at 170 KB) and the hand
    # reads the table from the pad (firmware/scorebook.py's View: at 172 KB); 184 KB since the
    # button's edges are stamped where they come (e562e86, always loaded: the score ran out at
    # 174 KB before it, at 178 KB after). The hand mode searches as the cards come
    # (firmware/modes/hand.py): below.
    for mode in mode_names()[1:]:
        if mode == "hand":
            continue
        frames, console = run_script(enter(mode) + "; click; cw 3; click; double; click",
                                     heap=184 * 1024)
        assert not [line for line in console if "Error" in line], mode
        assert len(frames) >= 8


def test_the_hand_answers_a_14_card_hand_in_a_bounded_heap():
    # The search keeps its plays packed in ints, lists them a meld at a time and frees each
    # type's plays once its best turn is proven: a 14-card hand is answered in 320 KB of the
    # 64-bit unix port's heap, where the search before (every play an object, the three
    # types' at once) ran out of memory.
    from host_tools.bench.table import entry_script, seeded_hand
    frames, console = run_script(enter("hand") + "; " + entry_script(seeded_hand()),
                                 heap=320 * 1024)
    assert not [line for line in console if "Error" in line]
    assert frames[-1]["hand"] == list(counts_of(seeded_hand()))
    assert " best chords 320: " in console[-1]


def test_switching_modes_drops_the_last_ones_code_and_sets_without_the_kind(tmp_path,
                                                                            monkeypatch):
    import sys

    from core.meldset import MeldSet

    from firmware_harness import Device
    from host_tools.set_files import compile_file

    monkeypatch.chdir(tmp_path)
    device = Device(tmp_path)
    device.app.apply_setting("mode", "meld check")
    assert "firmware.modes.meld_check" in sys.modules
    device.app.apply_setting("mode", "chord poker")
    assert "firmware.modes.meld_check" not in sys.modules
    assert "firmware.modes.explorer" in sys.modules          # the fallback stays
    # The table modes' shared code goes too, once the mode that brought it has gone: the
    # QT Py's hand needs that room (the score's kept, table_paint and carmony_table).
    device.app.apply_setting("mode", "score")
    assert "firmware.modes.table_paint" in sys.modules
    device.app.apply_setting("mode", "explorer")
    for name in ("firmware.modes.kept", "firmware.modes.table_paint", "core.pcset",
                 "core.games.carmony_table"):
        assert name not in sys.modules, name
    device.app.apply_setting("mode", "chord poker")
    # The modes set has scales only: Chord Poker says so and shows nothing.
    blob = compile_file(os.path.join(REPO, "core", "meldsets", "modes.json"))
    assert not MeldSet(blob).of_kind(1)
    with open(os.path.join("melds", "modes.cwm"), "wb") as f:
        f.write(blob)
    assert device.app.switch_set("modes")
    device.click()
    assert device.line == "chord poker: this meld set has no chords"
    assert not any(any(c) for c in device.wheel())
    device.app.apply_setting("mode", "bluff")
    device.click()
    assert device.line.startswith("bluff: degree 1 is C; C ")


def test_steps_trainer():
    # "Examples: C to C#; E to F; B to C ... Whole Step ... C to D; E to F#; Bb to C"
    frames, lines = run("steps", "cw 4")
    assert lines[-1] == "steps: top card E: a half step up is F, a whole step up is F#/Gb"
    assert [hue(c) for c in frames[-1]["wheel"]][4:7] == ["white", "green", "orange"]
    _, lines = run("steps", "cw 11")
    assert lines[-1] == "steps: top card B: a half step up is C, a whole step up is C#/Db"
    # Click plays the half step, double press the whole step: F, F#, G#.
    _, lines = run("steps", "cw 5; click; double")
    assert lines[-1] == "steps: top card G#/Ab: a half step up is A, a whole step up is A#/Bb"


def test_alphabet_trainer():
    # "From any F to any G is a Second ... From any F to any A is a Third ... From any A up to
    # any D is a Fourth." The names go C C# Db D D# Eb E F F# ...
    frames, lines = run("alphabet", "cw 7")
    assert lines[-1] == "alphabet by Seconds: last card F, next letter G: Gb, G or G#"
    assert bright(frames[-1]) == [5, 7]            # F (the last card) and G
    assert sectors(frames[-1], "green") == [6, 7, 8]
    _, lines = run("alphabet", "cw 7; click")
    assert lines[-1] == "alphabet by Thirds: last card F, next letter A: Ab, A or A#"
    _, lines = run("alphabet", "cw 7; click; double; click")
    assert lines[-1] == "alphabet by Fourths: last card A, next letter D: Db, D or D#"
    # A two-name card is the letter said: G# by Seconds gives A, Ab gives B.
    _, lines = run("alphabet", "cw 11")
    assert lines[-1] == "alphabet by Seconds: last card G#, next letter A: Ab, A or A#"
    _, lines = run("alphabet", "cw 12")
    assert lines[-1] == "alphabet by Seconds: last card Ab, next letter B: Bb or B"
    # A white key carries one letter (the Musicards deck): after E comes F or F#, never E as
    # Fb; the engine would call an E played as F wrong and cost two penalty cards.
    frames, lines = run("alphabet", "cw 6")
    assert lines[-1] == "alphabet by Seconds: last card E, next letter F: F or F#"
    assert sectors(frames[-1], "green") == [5, 6]


def test_alphabet_trainer_offers_what_the_game_accepts():
    from core.games.musical_alphabet import Game

    from firmware.modes.alphabet import carriers
    game = Game(2, 1)
    game.top = None                                   # anything may go on a wild
    for letter in range(7):
        offered = sorted((NATURAL_PC[n] + a) % 12 for n, a in carriers(letter))
        accepted = [pc for pc in range(12) if game.judge(pc, letter)[0]]
        assert offered == accepted, letter


def test_key_speller():
    # "if the scale is D major, (spelled D-E-F#-G-A-B-C#)"
    frames, lines = run("key speller", "cw 3" + "; click" * 7)
    assert lines[-8] == "key speller: D major scale: D E F# G A B C# (click walks the degrees)"
    assert [line.rsplit(" ", 1)[1] for line in lines[-7:]] == [
        "D", "E", "F#", "G", "A", "B", "C#"]
    assert lines[-1].endswith("degree 7 is C#")
    assert bright(frames[-1]) == [1, 2, 4, 6, 7, 9, 11]
    # Gb major needs Cb, not B; double press: the next scale.
    _, lines = run("key speller", "cw 9")
    assert lines[-1] == ("key speller: Gb major scale: Gb Ab Bb Cb Db Eb F (click walks the "
                         "degrees)")
    _, lines = run("key speller", "double")
    assert lines[-1].startswith("key speller: C dorian: C D Eb F G A Bb")
