"""Every mode on CPython through its context (firmware/modes/__init__.py), with plain lists of
events: no loop, no clock, no ring. What a mode asks for is recorded by the context's host.
Expected lines worked out by hand from the rulebooks and docs/music.md's spelling, as the
scripted runs in test_table_modes.py check them through the whole firmware."""

import pytest

from core import midi

from firmware import modes as modes_package
from firmware.modes import Context, LightsNotes, Mode, TurnRotates, load_mode, mode_names
from firmware.modes import menu as menu_module
from firmware.settings import BRIGHTNESS_LEVELS, Settings
from host_tools.set_files import load_set
from mode_events import play


class MemoryRecords:
    """The record store at the board boundary: nothing on a flash."""

    def __init__(self):
        self.records = {}
        self.lines = []

    def read(self, name):
        return self.records.get(name)

    def write(self, name, data):
        self.records[name] = data

    def log(self, line):
        self.lines.append(line)


class Table:
    """The context's host: records what the mode asked for."""

    def __init__(self):
        self.asked = []
        self.held = None              # core.midi.HeldNotes when MIDI in is on

    def held_notes(self):
        return self.held

    def play_meld(self, index, root):
        self.asked.append(("play", index, root))

    def open_menu(self):
        self.asked.append(("open menu",))

    def close_menu(self):
        self.asked.append(("close menu",))

    def set_names(self):
        return ["default", "jazz"]

    def preview(self, key, value):
        self.asked.append(("preview", key, value))

    def apply_setting(self, key, value):
        self.asked.append(("apply", key, value))


def context(set_name="default", **settings):
    values = Settings(MemoryRecords()).load()
    values.values.update(settings)
    return Context(Table(), values, load_set(set_name), set_name)


def mode(name, set_name="default", **settings):
    return load_mode(name, context(set_name, **settings))


def lit(mode):
    frame = bytearray(36)
    mode.render(frame)
    return [pc for pc in range(12) if any(frame[3 * pc:3 * pc + 3])]


def test_every_mode_is_a_mode_and_opens_the_menu_on_a_long_press():
    for name in mode_names():
        m = mode(name)
        assert isinstance(m, Mode) and m.name == name
        m.describe()
        lit(m)
        m.on_long()
        assert m.ctx.host.asked[-1] == ("open menu",), name


def test_explorer():
    m = mode("explorer")
    assert m.describe() == "C major triad (maj): C E G"
    assert play(m, "cw 3; click; double") == [
        "Eb major triad (maj): Eb G Bb", "Eb minor triad (min): Eb Gb Bb",
        "Eb major pentatonic (major-pentatonic): Eb F G Bb C"]
    ms = m.ctx.meldset
    assert [a for a in m.ctx.host.asked if a[0] == "play"] == [
        ("play", ms.of_kind(1)[2], 3), ("play", ms.of_kind(2)[0], 3)]
    assert (m.ctx.settings["root"], m.ctx.settings["kind"]) == (3, 2)     # kept
    assert lit(m) == [0, 3, 5, 7, 10]
    assert m.display() == "Eb major pentatonic; Eb F G Bb C"
    # The notes the ring shows, by pitch class, spelled with the display's signs (the page's
    # ring labels), the root first.
    assert m.notes() == "3:E\u266d 5:F 7:G 10:B\u266d 0:C"


def test_explorer_other_root_name_and_a_set_switch():
    m = mode("explorer", root=1, other_root_name=True)
    assert m.describe() == "C# major triad (maj): C# E# G#"
    assert m.notes() == "1:C\u266f 5:E\u266f 8:G\u266f"
    m.ctx.meldset = load_set("modes")                 # scales only: the cursor moves there
    m.set_changed()
    assert m.describe().startswith("C# ionian (major) (ionian): ")


def test_meld_check():
    m = mode("meld check")
    lines = play(m, "click; cw 4; click; cw 3; click; cw 2; click")
    assert lines[-1].startswith("meld check: cursor A; cards C E G A: C major sixth chord (6) "
                                "70 points (C root: refill) | A minor seventh chord (min7) 70 "
                                "points; one more card builds ")
    # Turned to a sector holding cards, a long press takes one back (A); then it plays.
    assert play(m, "ccw 2; cw 2; long")[-1].startswith(
        "meld check: cursor A (took back A); cards C E G: C major triad (maj) 40 points (C "
        "root: refill); one more card builds ")
    assert play(m, "long") == ["meld check: cursor A (played, credited 40 to P2; score: "
                               "original, 2 players, round 1 of 3, totals 0 40, P2 to play); "
                               "no cards (click adds one)"]
    assert m.ctx.host.asked == []      # that long press plays the meld (the score pad)
    m.on_long()
    assert m.ctx.host.asked == [("open menu",)]


def test_meld_check_two_quick_clicks_are_two_cards():
    m = mode("meld check")
    assert m.clicks_at_once                     # the press detector reports no double here
    assert play(m, "cw 9; double")[-1].startswith("meld check: cursor A; cards A A: A octave")


def test_the_hand_says_a_search_cut_short_by_the_heap_found_nothing(monkeypatch):
    # A board whose heap has no room for the search's arrays (the QT Py, a 14-card hand): it
    # found no best turn for C E G (C 5 is one), and said "nothing to play".
    import sys
    hand = mode("hand")

    def no_room(n):
        raise MemoryError

    monkeypatch.setattr(sys.modules["core.hand"], "_zeros", no_room)   # load_mode's import
    for steps in (0, 4, 3):
        hand.on_turn(steps)
        hand.on_click()
    while hand.has_work():
        hand.work(lambda: True)
    assert hand.describe() == ("hand: C E G; 3 cards; cursor G (long press: the answers); not "
                               "searched: this board's memory; held: any; table: none")
    assert "nothing to play" not in hand.display()


def test_chord_poker():
    m = mode("chord poker")
    lines = play(m, "cw 9; click; click; cw 4; click; cw 3; click; cw 2; double")
    assert "chord poker: C dominant seventh (7): on the Wheel C E G; missing Bb; cursor G" \
        in lines
    assert lines[-1] == ("chord poker: root change preview to A: A dominant seventh (7): on "
                         "the Wheel A E G; missing C#; back to the hand C")
    assert play(m, "click") == [
        "chord poker: A dominant seventh (7): on the Wheel A E G; missing C#; cursor A"]


def test_chord_poker_completion():
    m = mode("chord poker")
    lines = play(m, "click; cw 2; click; cw 1; click; cw 6; click")
    assert lines[-1] == ("chord poker: D power chord (5): on the Wheel D A; missing nothing; "
                         "cursor A; complete: 5 points (click for the next chord)")
    assert lit(m) == [2, 9]
    # The next CHORD card is the one drawn, chosen with the knob (not the next in the list).
    assert play(m, "click; cw 1") == [
        "chord poker: CHORD card 5 power chord (click to keep) (turn to the CHORD card drawn)",
        "chord poker: CHORD card maj major triad (click to keep)"]
    # Undo: a double press takes back the click after "complete", then the A placed.
    assert play(m, "ccw 1; double; double") == [
        "chord poker: CHORD card 5 power chord (click to keep)",
        "chord poker: D power chord (5): on the Wheel D A; missing nothing; cursor A; "
        "complete: 5 points (click for the next chord) (took back the last action)",
        "chord poker: D power chord (5): on the Wheel D; missing A; cursor A (took back the "
        "last action)"]


def test_chord_poker_without_chords():
    m = mode("chord poker", set_name="modes")
    assert m.describe() == "chord poker: this meld set has no chords"
    assert lit(m) == []


def test_looking_glass():
    m = mode("looking glass")
    lines = play(m, "cw 3; click; click; cw 4; click; cw 6; click; ccw 8; double")
    assert lines[-1] == ("looking glass: hand D picks up the major third (M3) with A#/Bb "
                         "(Bb-D)")
    assert play(m, "cw 6") == [
        "looking glass: hand G#/Ab picks up the major third (M3) with C (Ab-C) or E (E-G#)"]


def test_bluff():
    m = mode("bluff")
    lines = play(m, "cw 10; click; click; click; click; click; click")
    assert lines[-1] == ("bluff: C locrian (locrian): C Db Eb F Gb Ab Bb; degree b5 (5 of 7) "
                         "is Gb (basic game: F# also counts)")
    m = mode("bluff")
    lines = play(m, "cw 4; click; cw 4; click; click; click")
    assert lines[-1] == ("bluff: D# major scale (major): D# E# F## G# A# B# C##; degree 3 "
                         "(3 of 7) is F## (basic game: G also counts)")


def test_steps():
    m = mode("steps")
    assert play(m, "cw 5; click; double") == [
        "steps: top card F: a half step up is F#/Gb, a whole step up is G",
        "steps: top card F#/Gb: a half step up is G, a whole step up is G#/Ab",
        "steps: top card G#/Ab: a half step up is A, a whole step up is A#/Bb"]
    assert lit(m) == [8, 9, 10]


def test_alphabet():
    m = mode("alphabet")
    assert play(m, "cw 7; click; double; click") == [
        "alphabet by Seconds: last card F, next letter G: Gb, G or G#",
        "alphabet by Thirds: last card F, next letter A: Ab, A or A#",
        "alphabet by Thirds: last card A, next letter C: C or C#",
        "alphabet by Fourths: last card A, next letter D: Db, D or D#"]


def test_key_speller():
    m = mode("key speller")
    assert play(m, "cw 9") == [
        "key speller: Gb major scale: Gb Ab Bb Cb Db Eb F (click walks the degrees)"]
    assert play(m, "click")[0].endswith("degree 1 is Gb")
    assert play(m, "double")[0].startswith("key speller: Gb dorian: Gb Ab Bbb Cb Db Eb Fb")
    assert m.notes() == ("6:G\u266d 8:A\u266d 9:B\U0001d12b 11:C\u266d 1:D\u266d 3:E\u266d "
                         "4:F\u266d")


# ---- the menu: one table, applied by key ----------------------------------------------------

def menu(parts=()):
    ctx = context(brightness=64, volume=2)
    return menu_module.Mode(ctx, ctx.host, parts)


def test_the_menu_items_and_the_sound_only_with_a_buzzer():
    assert [i[0] for i in menu().items] == ["mode", "meld set", "brightness", "colours",
                                            "root name", "colour test", "private"]
    assert [i[0] for i in menu(("buzzer",)).items][-2:] == ["sound", "private"]
    assert [i[0] for i in menu(("buzzer", "midi")).items][-5:] == ["sound", "private", "seat",
                                                                   "link", "midi"]
    assert [i[0] for i in menu(("midi", "midi ports")).items][-4:] == ["seat", "link",
                                                                      "midi port", "midi"]


def test_the_menu_sets_a_private_hand():
    m = menu()
    play(m, "ccw 1; click; cw 1; click")                             # private: off -> on
    assert [a for a in m.ctx.host.asked if a[0] == "apply"] == [("apply", "private", True)]


def test_the_menu_sets_midi():
    m = menu(("midi",))
    play(m, "ccw 1; click; cw 3; click")                             # midi: off -> both
    assert [a for a in m.ctx.host.asked if a[0] == "apply"] == [("apply", "midi", "both")]


def test_the_menu_sets_the_table_link():
    m = menu(("midi",))
    play(m, "ccw 2; click; cw 1; click")                             # link: off -> jacks
    assert [a for a in m.ctx.host.asked if a[0] == "apply"] == [("apply", "link", "jacks")]


def test_the_menu_sets_the_seat():
    m = menu(("midi",))
    lines = play(m, "ccw 3; click")
    assert lines[-1] == "menu > seat: none (turn to change, click to keep)"
    play(m, "cw 3; click")                                           # seat: none -> P3
    assert [a for a in m.ctx.host.asked if a[0] == "apply"] == [("apply", "seat", 3)]
    assert menu_module.shown(m.current, 2, menu_module.SEATS) == "P2"
    assert menu_module.stored(m.current, "none") is None


# ---- listen: the notes MIDI in holds --------------------------------------------------------

def listening(*messages, **settings):
    m = mode("listen", **settings)
    m.ctx.host.held = midi.HeldNotes()
    notes = m.ctx.host.held
    lines = []
    for message in messages:
        if notes.apply(*message):
            m.on_notes()
            lines.append(m.describe())
    return m, lines


def on(note):
    return (0x90, note, 100)


def off(note):
    return (0x80, note, 64)


def test_listen_names_a_triad_and_its_inversion():
    m, lines = listening(on(60), on(64), on(67))
    assert lines == ["listen: C: no meld",
                     "listen: C E: C major third (M3) | E minor sixth (m6) with C in the bass",
                     "listen: C E G: C major triad (maj)"]
    assert lit(m) == [0, 4, 7]
    # E in the bass: the reading with its root in the bass comes first when there is one.
    m, lines = listening(on(52), on(60), on(67))
    assert lines[-1] == "listen: E G C: C major triad (maj) with E in the bass"
    m, lines = listening(on(57), on(60), on(64), on(67))
    assert lines[-1] == ("listen: A C E G: A minor seventh chord (min7) | C major sixth "
                         "chord (6) with A in the bass")
    assert m.display() == "listen: A C E G; A min7; C 6 / A"


def test_listen_spells_flats_from_the_meld():
    m, lines = listening(on(63), on(66), on(70))           # Eb Gb Bb
    assert lines[-1] == "listen: Eb Gb Bb: Eb minor triad (min)"
    assert m.notes() == "3:E\u266d 6:G\u266d 10:B\u266d"
    m, lines = listening(on(59), on(63), on(66))           # B3 D#4 F#4
    assert lines[-1] == "listen: B D# F#: B major triad (maj)"


def test_listen_says_what_one_more_note_completes():
    m, lines = listening(on(60), on(62), on(64))           # C D E
    # As meld check reads C D E (test_table_modes.py): + G Cadd9, + G# E7#5, + Bb C9.
    assert lines[-1] == ("listen: C D E: no meld; one more note completes C added ninth (add9) "
                         "with G, E augmented seventh (7#5) with G#/Ab, C dominant ninth (9) "
                         "with A#/Bb and 6 more")
    assert lit(m) == [0, 2, 4]


def test_listen_holds_through_the_pedal_and_a_click_forgets():
    m, lines = listening(on(60), on(64), on(67), (0xB0, 64, 127), off(60), off(64), off(67))
    assert lines[-1] == "listen (pedal): C E G: C major triad (maj)"
    m.on_click()
    assert m.describe() == "listen (pedal): no notes held (play them on a MIDI keyboard)"
    assert lit(m) == []


def white(mask):
    frame = bytearray(36)
    for pc in range(12):
        if mask >> pc & 1:
            frame[3 * pc:3 * pc + 3] = b"\xff\xff\xff"
    return frame


def test_listen_lights_the_notes_white_until_it_has_read_them():
    """What the app's fast path (Ring.light) relies on: after on_notes(), render() paints the
    notes held white and nothing else, whatever was shown before; settle() reads them and
    says whether the ring then shows more."""
    m, _ = listening(on(60), on(64), on(67))            # read: C major triad, in colours
    assert isinstance(m, LightsNotes) and m.lights_notes()
    notes = m.ctx.host.held
    # + A: Am7 and C6; E G A: no meld; G A: the major second; A alone: none; + Bb: the
    # minor second; Bb alone; nothing held.
    for message, read in ((on(69), True), (off(60), False), (off(64), True), (off(67), False),
                          (on(70), True), (off(69), False), (off(70), False)):
        notes.apply(*message)
        m.on_notes()
        frame = bytearray(36)
        m.render(frame)
        assert frame == white(notes.mask), message
        assert m.settle() is read, message
        frame = bytearray(36)
        m.render(frame)
        assert (frame != white(notes.mask)) is read
        assert m.settle() is False                       # read already
    assert not mode("listen").lights_notes()            # MIDI in off: nothing to light


def test_listen_without_midi_in():
    assert mode("listen").describe() == "listen: MIDI in is off (menu > midi: in or both)"


def test_the_menu_applies_each_item_by_its_key():
    m = menu(("buzzer",))
    play(m, "click; cw 4; click")                                    # mode: chord poker
    play(m, "cw 1; click; cw 1; click")                              # meld set: jazz
    play(m, "cw 2; click; cw 1; click")                              # colours: note
    play(m, "cw 1; click; cw 1; click")                              # root name: other
    play(m, "cw 2; click; ccw 2; click")                             # sound: medium -> off
    applied = [a for a in m.ctx.host.asked if a[0] == "apply"]
    assert applied == [("apply", "mode", "chord poker"), ("apply", "meldset", "jazz"),
                       ("apply", "colours", "note"), ("apply", "other_root_name", True),
                       ("apply", "volume", 0)]
    previews = [a for a in m.ctx.host.asked if a[0] == "preview"]
    assert previews == [("preview", "volume", 0)]           # a beep at the volume turned to


def test_the_menu_previews_brightness_and_a_long_press_takes_it_back():
    m = menu()
    lines = play(m, "cw 2; click; cw 2")
    assert lines[-1] == "menu > brightness: %d (turn to change, click to keep)" % \
        BRIGHTNESS_LEVELS[5]
    assert lit(m) == list(range(6))                                  # a bar of 6 levels
    play(m, "long")
    assert m.ctx.host.asked == [("preview", "brightness", 128),
                                ("preview", "brightness", None), ("close menu",)]


def test_the_colour_test_keeps_nothing():
    m = menu()
    lines = play(m, "cw 5; click; click")
    assert lines[0] == "menu: colour test (click to change, long press to leave)"
    assert lines[1].endswith("; click to end")
    assert lines[2] == lines[0] and m.ctx.host.asked == []        # nothing kept


@pytest.mark.parametrize("kept, value, stored", [
    (menu_module.AS_INDEX, "loud", 3), (menu_module.AS_FLAG, "other", True),
    (menu_module.AS_FLAG, "auto", False), (menu_module.AS_VALUE, "note", "note")])
def test_how_a_menu_value_is_kept(kept, value, stored):
    values = {menu_module.AS_INDEX: ("off", "soft", "medium", "loud"),
              menu_module.AS_FLAG: ("auto", "other"), menu_module.AS_VALUE: ("kind", "note")}
    item = ("x", "x", values[kept], kept, False, None)
    assert menu_module.stored(item, value) == stored
    assert menu_module.shown(item, stored, values[kept]) == value


def test_a_mode_whose_turn_rotates_paints_the_frame_turned():
    # The app writes such a turn as the last frame turned (hardware/ring.py turn()) and does
    # not render it: what the mode paints after the turn must be exactly that, for every
    # meld, root, kind and step, and colours by note must say no.
    from hardware.ring import SECTORS
    for name in mode_names():
        ctx = context()
        mode = load_mode(name, ctx)
        if not (isinstance(mode, TurnRotates) and mode.rotates()):
            continue
        for action in range(40):
            before = bytearray(3 * SECTORS)
            mode.render(before)
            steps = (1, -1, 5, 11, -7)[action % 5]
            mode.on_turn(steps)
            after = bytearray(3 * SECTORS)
            mode.render(after)
            turned = bytearray(3 * SECTORS)
            for s in range(SECTORS):
                at = 3 * ((s + steps) % SECTORS)
                turned[at:at + 3] = before[3 * s:3 * s + 3]
            assert after == turned, (name, action, steps)
            (mode.on_click, mode.on_double)[action % 2]()       # another meld, another kind
    assert load_mode("explorer", context()).rotates()
    assert not load_mode("explorer", context(colours="note")).rotates()


# ---- the contract: narrow, and a new mode is one module with its name in one place ----------

def test_the_mode_contract_is_events_in_a_frame_and_a_description_out():
    public = sorted(n for n in dir(Mode) if not n.startswith("_"))
    assert public == ["describe", "display", "name", "notes", "on_click", "on_double",
                      "on_long", "on_notes", "on_table", "on_turn", "render", "set_changed"]
    # The menu's asks are on the menu's context only.
    assert not any(hasattr(Context, n) for n in ("close_menu", "set_names", "preview", "apply"))


def test_a_mode_that_lights_notes_paints_them_white_until_it_settles():
    # The app writes such a change as Ring.light's white sectors and does not render it.
    for name in mode_names():
        m = mode(name)
        if not isinstance(m, LightsNotes):
            continue
        m.ctx.host.held = notes = midi.HeldNotes()
        for message in (on(60), on(64), on(67), off(64), on(61)):
            notes.apply(*message)
            m.on_notes()
            frame = bytearray(36)
            m.render(frame)
            assert frame == white(notes.mask), (name, message)
            m.settle()


TRIVIAL = '''"""Trivial: one sector lit where the knob points."""
from core.games.chord_poker_table import CHORD_POINTS
from firmware import modes
from firmware.modes.table_paint import paint_sector

class Mode(modes.Mode):
    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.at = 0

    def on_turn(self, steps):
        self.at = (self.at + steps) % 12

    def render(self, frame):
        paint_sector(frame, self.at, bytes((255, 255, 255)))

    def describe(self):
        return "trivial: %d" % self.at if CHORD_POINTS else "?"
'''


def test_a_new_mode_is_one_module_and_its_name_in_the_list(tmp_path, monkeypatch):
    import sys

    from host_tools.device.files import games_imported
    source = TRIVIAL
    (tmp_path / "a_trivial_one.py").write_text(source)
    monkeypatch.setattr(modes_package, "__path__", list(modes_package.__path__) + [str(tmp_path)])
    monkeypatch.setattr(modes_package, "MODES", modes_package.MODES + ("a trivial one",))
    monkeypatch.delitem(sys.modules, "firmware.modes.a_trivial_one", raising=False)
    m = mode("a trivial one")
    assert m.name == "a trivial one" and isinstance(m, Mode)
    assert play(m, "cw 3; long") == ["trivial: 3"] * 2
    assert m.ctx.host.asked == [("open menu",)]
    assert lit(m) == [3]
    assert menu_choices()[-1] == "a trivial one"
    # What a deploy carries follows from its imports: the table it uses, and the package.
    assert games_imported([source]) == ("core/games/__init__.py",
                                        "core/games/chord_poker_table.py")


def menu_choices():
    m = menu()
    m.on_click()                                     # the first item: mode
    return m.choices


def test_a_mode_module_does_not_repeat_its_name():
    import os
    folder = os.path.dirname(modes_package.__file__)
    for name in mode_names():
        with open(os.path.join(folder, name.replace(" ", "_") + ".py")) as f:
            assert 'name = "%s"' % name not in f.read(), name
