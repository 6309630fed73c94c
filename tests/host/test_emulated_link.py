"""The table link on the real ports in the emulated RP2040: a Pico on MicroPython 1.28 and a QT
Py on CircuitPython 10.2.1, their UARTs cabled OUT to IN both ways (a ring of two: host_tools/
emulator/table.py), bytes at 31,250 baud in emulated time, the two clocks kept in step by the
cables. Each on its seat in the score mode, they play a scripted round of The Original and end
with one table: the frames' "link" digests and "score" totals equal, the totals worked out by
hand from the scoring table (2-card meld 20, 3-card 40, 4-card 70), also when one of them
lost its power mid-round, when a cable was pulled and put back, and with a synth's worth of
random MIDI bytes among the link's messages on one wheel's line."""

import random

import pytest

from host_tools.emulator import table

pytestmark = pytest.mark.usefixtures("emulator")

BOARDS = ["pico", "qtpy_rp2040"]
SCORE = {"mode": "score"}
QUIET = dict(progress=lambda line: None)


def last(frames, key):
    return [f[key] for f in frames if key in f][-1]


def one_table(results, entries, totals, current):
    links = [last(frames, "link") for frames, _ in results]
    assert [link["seat"] for link in links] == [1, 2]
    assert all(link["members"] == [1, 2] for link in links)
    assert {(link["entries"], link["digest"]) for link in links} == \
        {(entries, links[0]["digest"])}
    for frames, _ in results:
        assert last(frames, "score") == {"game": "original", "players": 2, "round": 1,
                                         "totals": totals, "current": current}


def test_a_pico_and_a_qtpy_play_a_round_and_keep_one_table_through_their_power_cuts():
    # P2 plays first (P1 deals). Each player enters on the wheel at hand what the player to
    # play scored. The QT Py loses its power while the Pico enters P2's 70, and must have
    # caught up when it is back: it credits the next 70 to the player to play, P1, only if it
    # knows P2's 70 and turn passed. Meanwhile the Pico loses its power, and catches up when
    # it is back. One run for both cuts (a run is two boots); the QT Py's knob is on the first
    # item after its boot as before it (it never moved: a move is saved 5 s later).
    script = "; ".join([
        "wait 3000",                            # the two new games settle on one
        "2: click; double",                     # P2 on the QT Py: a 2-card meld, 20; to P1
        "1: cw 1; click; double",               # P1 on the Pico: a 3-card meld, 40; to P2
        "2: off 2000",
        "1: cw 1; click; double",               # P2 on the Pico: a 4-card meld, 70; to P1
        "wait 5000",
        "1: off 2000",
        "2: cw 2; click; double",               # P1 on the QT Py: a 4-card meld, 70; to P2
        "wait 5000"])
    results = table.run_script(script, BOARDS, settings=SCORE, **QUIET)
    one_table(results, 9, [110, 90], 1)
    assert [line for line in results[1][1] if "(P1 4-card meld +70)" in line]   # caught up
    for _, console in results:
        assert console.count("meld set default loaded: 60 melds") == 2     # it booted again


def test_a_cable_pulled_and_put_back_loses_nothing():
    # The Pico's OUT pulled: what P2 and P1 enter on it does not reach the QT Py, which says
    # its ring is broken (its own HELLO no longer comes round); the cable back, it catches up.
    script = "; ".join([
        "wait 3000",
        "1: cable off",
        "1: click; double",                     # P2 on the Pico: 20; to P1
        "1: cw 1; click; double",               # P1 on the Pico: 40; to P2
        "wait 4000",                            # broken 3.5 s after the last HELLO round
        "1: cable on",
        "wait 3500"])
    results = table.run_script(script, BOARDS, settings=SCORE, **QUIET)
    one_table(results, 5, [40, 20], 1)
    for _, console in results:
        assert [line for line in console if line.startswith("link broken")]
        assert [line for line in console if line.startswith("link: back")]


def test_random_midi_bytes_among_the_sysex_change_nothing_and_crash_nothing():
    """10,000 seeded random bytes played into the QT Py's MIDI IN while the round goes on
    (a synth's notes and clock, SysEx of every kind, halves of them), among the link's own
    messages and across them: what they cut is asked for again."""
    rng = random.Random(4747)
    steps = ["wait 3000", "2: click; double"]
    sent = 0
    while sent < 10000:
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
        steps.append("2: jacks %s; wait 20" % chunk.hex())     # the line half busy
        sent += len(chunk)
        if sent > 5000 and "1: cw 1; click; double" not in steps:
            steps.append("1: cw 1; click; double")
    steps.append("wait 6000")
    results = table.run_script("; ".join(steps), BOARDS, settings=SCORE, **QUIET)
    one_table(results, 5, [40, 20], 1)
    _, console = results[1]
    assert not [line for line in console if "Error" in line or "Traceback" in line]
    assert [line for line in console if line.startswith("link: ignored ")]
