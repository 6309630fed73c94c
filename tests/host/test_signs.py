"""Signs read across a table, for colour-blind eyes too: every distinction a mode shows on the
ring differs in brightness or in a blink, not in hue alone. The ring's frames (the wire's
values: light, after the ring's gamma and the default brightness) are seen through the standard
simulations of deuteranopia and protanopia (Machado, Oliveira and Fernandes 2009, severity 1,
on linear RGB), and each pair of states must stay apart in luminance (the brighter at least
1.5 times the dimmer) or one of them must blink. Every mode's frames are seen: a blinking sector
is exempt, every other pair of lit colours must be apart."""

import pytest

from host_tools.sim.simulator import run_script

pytestmark = pytest.mark.usefixtures("simulator")

MACHADO = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
APART = 1.5


def luminance(rgb, vision):
    linear = [c / 255.0 for c in rgb]
    seen = [max(0.0, min(1.0, sum(m * c for m, c in zip(row, linear))))
            for row in MACHADO[vision]]
    return 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]


def apart(a, b):
    """Two sectors' colours apart by brightness for every vision."""
    for vision in MACHADO:
        ya, yb = luminance(a, vision), luminance(b, vision)
        low, high = min(ya, yb), max(ya, yb)
        if high < APART * low or high == 0:
            return False
    return True


def blinks(frames, sector):
    """The sector goes off and on again while nothing else changes (a blink, not a change)."""
    seen = [tuple(f["wheel"][sector]) for f in frames]
    return len(set(seen)) >= 2 and any(a != b for a, b in zip(seen, seen[1:])) and \
        seen.count(seen[-1]) >= 2


def test_meld_check_root_required_optional_and_the_blinking_cursor():
    settings = {"mode": "meld check"}
    # C E Bb: C7 without its optional fifth: root C, required E and Bb, optional G not entered.
    frames, _ = run_script("click; cw 4; click; cw 6; click; cw 1", settings=settings)
    wheel = frames[-1]["wheel"]
    root, required, optional = wheel[0], wheel[4], wheel[7]
    assert apart(root, required)
    assert apart(required, optional) and max(optional) > 0
    # The cursor (on the empty B, then on E among the meld) blinks; the root does not.
    frames, _ = run_script("click; cw 4; click; cw 6; click; cw 1; wait 2000",
                           settings=settings)
    assert blinks(frames[-6:], 11)
    assert len({tuple(f["wheel"][0]) for f in frames[-6:]}) == 1
    frames, _ = run_script("click; cw 4; click; cw 6; click; ccw 6; wait 2000",
                           settings=settings)
    assert blinks(frames[-6:], 4)


def test_hand_cards_used_and_left_and_the_cursor():
    settings = {"mode": "hand"}
    frames, _ = run_script("click; cw 4; click; cw 3; click; cw 2; click; wait 2000",
                           settings=settings)
    assert blinks(frames[-6:], 9)                  # the cursor, on the A just entered
    # The answers (a long press on the empty A#): the first, the best turn; its cards vs the
    # cards left, and its root vs its other cards.
    frames, console = run_script("click; cw 4; click; cw 3; click; cw 2; click; cw 1; long",
                                 settings=settings)
    wheel = frames[-1]["wheel"]
    assert console[-1].startswith("hand: C E G A; 1/")
    # The meld's cards in its colour, the cards left dim white.
    used = [pc for pc in range(12) if max(wheel[pc]) - min(wheel[pc]) > 20]
    left = [pc for pc in range(12) if max(wheel[pc]) and pc not in used]
    assert used and left and sorted(used + left) == [0, 4, 7, 9], wheel
    for a in used:
        for b in left:
            assert apart(wheel[a], wheel[b]), (a, b, wheel)


def test_score_seats_the_player_to_play_and_the_leader():
    settings = {"mode": "score"}
    # A 4-card meld for P2 (P1 deals, P2 plays first): P2 leads and is to play.
    frames, _ = run_script("cw 2; click", settings=settings)
    wheel = frames[-1]["wheel"]
    playing, leader_mark, other = wheel[3], wheel[4], wheel[0]
    assert apart(playing, other)
    assert apart(leader_mark, playing)


def test_the_safe_palette_tells_the_kinds_apart_for_colour_blind_eyes():
    # The `colours` value `safe`: the explorer's interval, chord and scale (each at C) in the
    # kinds' safe hues (Okabe and Ito's blue, orange, yellow), apart by brightness for
    # normal, deuteranopic and protanopic eyes.
    def kinds(colours):
        # The explorer at C: the major second (kind 0), the major triad, the major
        # pentatonic; the sector of D (2) or E (4), not the root.
        seen = []
        for script, sector in (("double; double; click", 2), ("wait 100", 4),
                               ("double", 4)):
            frames, _ = run_script(script, settings={"colours": colours})
            seen.append(frames[-1]["wheel"][sector])
        return seen
    interval, chord, scale = kinds("safe")
    assert apart(interval, chord) and apart(chord, scale) and apart(interval, scale)
    assert (interval, chord, scale) != tuple(kinds("kind"))     # the setting is honoured


def test_steps_the_top_card_the_half_and_the_whole_step():
    frames, _ = run_script("cw 4", settings={"mode": "steps"})
    wheel = frames[-1]["wheel"]
    top, half, whole = wheel[4], wheel[5], wheel[6]
    assert apart(top, half) and apart(half, whole) and apart(top, whole)


def test_looking_glass_the_hand_note_the_pick_ups_and_the_other_cards():
    # The M3 interval, cards on C, D, Bb... as tests/host/test_modes.py: the hand D picks up
    # with Bb; the Wheel's other cards (C, E) dim.
    frames, console = run_script("cw 3; click; click; cw 4; click; cw 6; click; ccw 8; "
                                 "double; wait 2000", settings={"mode": "looking glass"})
    assert console[-1] == ("looking glass: hand D picks up the major third (M3) with A#/Bb "
                           "(Bb-D)")
    wheel = frames[-1]["wheel"]
    pick, others = wheel[10], [wheel[pc] for pc in (0, 4) if max(wheel[pc])]
    assert others
    for other in others:
        assert apart(pick, other) and max(other) > 0
    assert apart(wheel[2], pick) or blinks(frames[-6:], 2)       # the hand note


# ---- every mode's frames: the states apart, the blinking signs exempt -----------------------

def settled(script, settings):
    """The frames from the script's last input on, through two seconds of waiting (the
    blink's phases), and the console (virtual time: the same run without the wait ends at
    the same frame)."""
    before, _ = run_script(script, settings=settings)
    frames, console = run_script(script + "; wait 2000", settings=settings)
    assert frames[:len(before)] == before
    return frames[len(before) - 1:], console


def steady_states_apart(tail):
    """The frames after the last input: the sectors that blink, and every other pair of lit
    colours apart by brightness. Returns the blinking sectors."""
    blinking = [pc for pc in range(12) if blinks(tail, pc)]
    changing = [pc for pc in range(12) if len({tuple(f["wheel"][pc]) for f in tail}) > 1]
    assert blinking == changing, (blinking, changing)       # nothing else changes
    for frame in tail:
        lit = sorted({tuple(c) for pc, c in enumerate(frame["wheel"])
                      if max(c) and pc not in blinking})
        for k, a in enumerate(lit):
            for b in lit[k + 1:]:
                assert apart(a, b), (a, b, frame["wheel"])
    return blinking


def test_explorer_every_meld_root_required_and_optional():
    # Every meld of the default set at C (the root), by kind and in the safe palette: the
    # root, the required and the optional notes at levels apart in every frame.
    script = "; ".join(["click"] * 33 + ["double"] + ["click"] * 15 + ["double"] +
                       ["click"] * 12)
    for colours in ("kind", "safe"):
        frames, _ = run_script(script, settings={"colours": colours})
        assert len(frames) > 60
        optional = 0
        for frame in frames:
            lit = sorted({tuple(c) for c in frame["wheel"] if max(c)})
            optional += len(lit) == 3
            for k, a in enumerate(lit):
                for b in lit[k + 1:]:
                    assert apart(a, b), (colours, a, b, frame["wheel"])
        assert optional > 10          # frames with root, required and optional notes


# ---- `colours: note`: a hue per pitch class, the meaning in the levels -----------------------

def test_the_note_palette_root_required_and_optional_notes_apart_in_every_pair_of_hues():
    # Every note as the root against every other note as a required or optional one, and
    # every required note against every other note as an optional one (3 x 132 pairs), painted
    # by paint_meld and put on the wire by the ring (its gamma, the default brightness): apart
    # by brightness in every pair of hues. (The first hue wheel, every hue at full: 44 root /
    # required, 46 required / optional and 13 root / optional pairs less than 1.5x apart.)
    from hardware.ring import Ring

    from firmware.render import paint_meld
    from firmware.settings import defaults

    class Wire:
        def write(self, buf):
            self.last = bytes(buf)

    wire = Wire()
    ring = Ring({"count": 12, "led_at_c": 0, "direction": "cw", "order": "RGB",
                 "max_ma": 100000, "ma_per_channel": 20, "idle_ma_per_led": 1,
                 "gamma": 2.8, "min_write_gap_us": 0}, wire)
    ring.brightness = defaults()["brightness"]

    def lit(root, required, optional):
        paint_meld(ring.frame, required, optional, root, 0, "note")
        ring.show(0)
        return [tuple(wire.last[3 * pc:3 * pc + 3]) for pc in range(12)]

    def pair(sectors, a, b):
        return sectors[a], sectors[b]

    close = {"root/required": [], "required/optional": [], "root/optional": []}
    for a in range(12):
        for b in range(12):
            if a == b:
                continue
            # a the root, b a required note; a the root, b an optional note (masks relative to
            # the root); a a required and b an optional note of a meld rooted elsewhere (c).
            up = (b - a) % 12
            if not apart(*pair(lit(a, 1 | 1 << up, 0), a, b)):
                close["root/required"].append((a, b))
            if not apart(*pair(lit(a, 1, 1 << up), a, b)):
                close["root/optional"].append((a, b))
            c = min({0, 1, 2} - {a, b})
            if not apart(*pair(lit(c, 1 | 1 << (a - c) % 12, 1 << (b - c) % 12), a, b)):
                close["required/optional"].append((a, b))
    assert close == {"root/required": [], "required/optional": [], "root/optional": []}


def roles_apart_by_note(script, settings, cursor=False):
    """The script's frames in `colours: note` against the same frames by kind: two sectors in
    different states (different colours by kind: those are all apart, as the tests above
    find) are apart by brightness in the hues by note too, unless one of them blinks. With a
    `cursor`, the frames from the last input on (settled), the blinking sectors exempt.
    Returns the number of such pairs seen."""
    if cursor:
        by_kind, _ = settled(script, dict(settings, colours="kind"))
        by_note, _ = settled(script, dict(settings, colours="note"))
    else:
        by_kind, _ = run_script(script, settings=dict(settings, colours="kind"))
        by_note, _ = run_script(script, settings=dict(settings, colours="note"))
    assert len(by_kind) == len(by_note)
    blinking = [pc for pc in range(12) if blinks(by_note, pc)] if cursor else []
    assert blinking == [pc for pc in range(12) if cursor and blinks(by_kind, pc)]
    assert by_kind != by_note                               # the setting is honoured
    pairs = 0
    for kind, note in zip(by_kind, by_note):
        lit = [pc for pc in range(12) if max(kind["wheel"][pc]) and pc not in blinking]
        assert lit == [pc for pc in range(12) if max(note["wheel"][pc]) and
                       pc not in blinking], (kind, note)
        for k, a in enumerate(lit):
            for b in lit[k + 1:]:
                if kind["wheel"][a] != kind["wheel"][b]:
                    pairs += 1
                    assert apart(note["wheel"][a], note["wheel"][b]), (a, b, note["wheel"])
    return pairs


def test_the_note_palette_in_the_explorer_every_meld():
    # Every meld of the default set, at C and (the chords) at every root.
    script = "; ".join(["click"] * 33 + ["double"] + ["cw 1; click"] * 15 + ["double"] +
                       ["click"] * 12)
    assert roles_apart_by_note(script, {}) > 100


@pytest.mark.parametrize("mode, script, cursor", [
    ("meld check", "click; cw 4; click; cw 6; click; cw 1", True),
    ("meld check", "cw 2; click; cw 3; click; cw 4; click; cw 3; click", True),
    ("chord poker", "cw 9; click; cw 5", False),
    ("looking glass", "cw 3", False),
    ("bluff", "cw 10; click; cw 5; click; click; click; click", True),
    ("key speller", "cw 4; click; click; click", True),
    ("listen", "note-on C4 E4 G4 Bb4; wait 200; note-off C4 E4 G4 Bb4; note-on D4 F4 A4; "
               "wait 200", False),
])
def test_the_note_palette_in_every_mode_that_paints_melds(mode, script, cursor):
    settings = {"mode": mode, "midi": "both"} if mode == "listen" else {"mode": mode}
    assert roles_apart_by_note(script, settings, cursor) > 0


def test_listen_the_meld_read_from_a_keyboard():
    # C7 (G optional, held) then D minor: the root, required and optional notes apart.
    settings = {"mode": "listen", "midi": "both"}
    frames, console = run_script("note-on C4 E4 G4 Bb4; wait 200; note-off C4 E4 G4 Bb4; "
                                 "note-on D4 F4 A4; wait 200", settings=settings)
    assert console[-1] == "listen: D F A: D minor triad (min)"
    for frame in frames:
        lit = sorted({tuple(c) for c in frame["wheel"] if max(c)})
        for k, a in enumerate(lit):
            for b in lit[k + 1:]:
                assert apart(a, b), (a, b, frame["wheel"])
    c7 = [f["wheel"] for f in frames if "C dominant seventh" in f["console"]]
    assert c7 and len({tuple(c7[-1][pc]) for pc in (0, 4, 7)}) == 3


def test_chord_poker_root_placed_missing_optional_and_the_blinking_cursor():
    settings = {"mode": "chord poker"}
    # The C dominant seventh (7): root C placed, E placed; G (optional) and Bb missing; the
    # cursor on the empty F.
    frames, console = settled("cw 9; click; click; cw 4; click; cw 1", settings)
    assert console[-1].startswith("chord poker: C dominant seventh (7): on the Wheel C E; "
                                  "missing (G) Bb"), console[-1]
    assert steady_states_apart(frames) == [5]                  # the cursor blinks
    wheel = frames[-1]["wheel"]
    root, placed, optional, missing = wheel[0], wheel[4], wheel[7], wheel[10]
    assert apart(root, placed) and apart(placed, missing) and apart(missing, optional)
    assert apart(placed, optional) and apart(root, missing) and max(optional) > 0
    # The cursor on a placed card blinks too; on the root it is steady.
    frames, _ = settled("cw 9; click; click; cw 4; click", settings)
    assert steady_states_apart(frames) == [4]
    frames, _ = settled("cw 9; click; click", settings)
    assert steady_states_apart(frames) == []
    # A root change preview to A: C goes back to the hand (it blinks), E and G stay, C# is
    # missing; the new root (the cursor) steady.
    frames, console = settled("cw 9; click; click; cw 4; click; cw 3; click; cw 2; "
                              "double", settings)
    assert "back to the hand C" in console[-1]
    assert steady_states_apart(frames) == [0]
    wheel = frames[-1]["wheel"]
    assert apart(wheel[9], wheel[4]) and apart(wheel[4], wheel[1]) and max(wheel[1]) > 0


def test_alphabet_the_last_card_the_natural_and_the_black_keys():
    # F by Seconds: the last card F, the next letter's natural G, the black keys Gb and G#.
    frames, console = settled("cw 7", {"mode": "alphabet"})
    assert console[-1] == "alphabet by Seconds: last card F, next letter G: Gb, G or G#"
    assert steady_states_apart(frames) == []
    wheel = frames[-1]["wheel"]
    last, natural, flat, sharp = wheel[5], wheel[7], wheel[6], wheel[8]
    assert apart(last, natural) and apart(natural, flat) and apart(natural, sharp)
    assert apart(last, flat) and max(flat) > 0 and flat == sharp


def test_bluff_degree_one_placed_to_come_and_the_blinking_cursor():
    # C locrian with C Db Eb F placed: the cursor blinks on Gb, Ab and Bb still to come.
    settings = {"mode": "bluff"}
    frames, console = settled("cw 10; click; click; click; click; click; click", settings)
    assert "degree b5 (5 of 7) is Gb" in console[-1]
    assert steady_states_apart(frames) == [6]
    wheel = frames[-1]["wheel"]
    root, placed, to_come = wheel[0], wheel[1], wheel[8]
    assert apart(root, placed) and apart(root, to_come) and apart(placed, to_come)
    assert max(placed) > 0 and wheel[1] == wheel[3] == wheel[5]
    # On degree 1 the cursor is steady (degree 1 is marked already).
    frames, _ = settled("cw 10; click; click", settings)
    assert steady_states_apart(frames) == []


def test_key_speller_the_keynote_the_scale_and_the_degree_walked_to():
    settings = {"mode": "key speller"}
    # D major, walked to degree 3 (F#): it blinks; the keynote D apart from the others.
    frames, console = settled("cw 3; click; click; click", settings)
    assert console[-1].endswith("degree 3 is F#")
    assert steady_states_apart(frames) == [6]
    wheel = frames[-1]["wheel"]
    assert apart(wheel[2], wheel[4]) and wheel[4] == wheel[9]
    frames, _ = settled("cw 3", settings)
    assert steady_states_apart(frames) == []


@pytest.mark.parametrize("mode, script", [
    ("meld check", "click; cw 4; click; cw 6; click; cw 1"),
    ("meld check", "click; cw 4; click; cw 4; click; click"),
    ("hand", "click; cw 4; click; cw 3; click; cw 2; click; cw 1; long"),
    ("score", "cw 2; click"),
    ("steps", "cw 4"),
    ("looking glass", "cw 3; click; click; cw 4; click; cw 6; click; ccw 8; double"),
])
def test_the_other_modes_states_apart_or_blinking(mode, script):
    frames, _ = settled(script, {"mode": mode})
    assert len(steady_states_apart(frames)) <= 1               # at most the cursor blinks
