"""Signs read across a table, for colour-blind eyes too: every distinction a mode shows on the
ring differs in brightness or in a blink, not in hue alone. The ring's frames (the wire's
values: light, after the ring's gamma and the default brightness) are seen through the standard
simulations of deuteranopia and protanopia (Machado, Oliveira and Fernandes 2009, severity 1,
on linear RGB), and each pair of states must stay apart in luminance (the brighter at least
1.5 times the dimmer) or one of them must blink."""

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
