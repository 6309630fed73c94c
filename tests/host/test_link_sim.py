"""The table link through the whole firmware in the simulator: several wheels (`sim --wheels`,
host_tools/sim/table.py) in one virtual time, their jacks on one bus, each on its seat in the
score mode. A round entered on the wheels, each player on the wheel at hand, ends with one
table on every wheel (the frames' "link" digests and "score" totals equal, and the totals
worked out by hand from the scoring table: 2-card meld 20, 3-card 40, 4-card 70), also when a
wheel lost its power mid-round; what another seat did is flashed and said; a wheel alone says
its link is broken; two wheels on one seat are told; garbage on the line changes nothing."""

import random

import pytest

from host_tools.sim import table

pytestmark = pytest.mark.usefixtures("simulator")

SCORE = {"mode": "score"}
# Wheel 1: a new game of The Original for 4 players (the score mode's entries: 11 items, 3
# actions, then the new games; 4 players is the third of The Original's), confirmed, its
# seat and P1 as the first dealer kept: P2 plays first.
NEW_GAME_4 = "1: cw 16; click; click; click; click; wait 1500"


def last(frames, key):
    return [f[key] for f in frames if key in f][-1]


def test_a_round_on_four_wheels_ends_with_one_table_also_after_a_power_cut():
    script = "; ".join([
        "wait 2000", NEW_GAME_4,
        "2: click; double",                 # P2: a 2-card meld, 20; the turn to P3
        "3: cw 1; click; double",           # P3: a 3-card meld, 40; to P4
        "4: off 3000",                      # P4's wheel loses its power
        "1: cw 2; click; double",           # P1 enters P4's 4-card meld, 70; to P1
        "wait 4000",                        # P4's wheel is back and catches up
        "1: ccw 2; click; double",          # P1: a 2-card meld, 20; to P2
        "4: click; double",                 # P2's 2-card meld, 20, on P4's wheel; to P3
        "wait 3000"])
    results = table.run_script(script, 4, settings=SCORE)
    links = [last(frames, "link") for frames, _ in results]
    scores = [last(frames, "score") for frames, _ in results]
    assert [link["seat"] for link in links] == [1, 2, 3, 4]
    assert all(link["members"] == [1, 2, 3, 4] for link in links)
    # the new game and ten entries (five melds, five turns passed), the same log everywhere
    assert {(link["entries"], link["digest"]) for link in links} == \
        {(11, links[0]["digest"])}
    assert all(score == {"game": "original", "players": 4, "round": 1,
                         "totals": [20, 40, 40, 70], "current": 2} for score in scores)
    # the wheel that was off came back with the table it had kept, then caught up
    _, console4 = results[3]
    back = console4.index("meld set default loaded: 60 melds", 1)
    caught = [line for line in console4[back:] if line.startswith("link: P4")]
    assert caught[0].split("; ")[2] != "11 entries" and caught[-1].split("; ")[2] == \
        "11 entries"


def test_what_another_seat_did_is_flashed_and_said():
    frames, console = table.run_script("wait 2000; 2: click; wait 800", 2, settings=SCORE)[0]
    said = [k for k, f in enumerate(frames) if f["console"].startswith("P2 played a meld, 20")]
    assert said, console
    flash = frames[said[0]]
    # P2's quarter (sectors 3, 4, 5) in P2's colour (green), the rest dark, for a moment;
    # then the score again, with P2's 20
    assert [pc for pc in range(12) if any(flash["wheel"][pc])] == [3, 4, 5]
    assert flash["wheel"][3][1] > 4 * flash["wheel"][3][0]
    after = frames[said[0] + 1:]
    assert after and after[0]["console"].startswith("score: ") and \
        after[-1]["score"]["totals"] == [0, 20]


def test_a_wheel_alone_says_its_link_is_broken_and_when_it_is_back():
    _, console = table.run_script("wait 2000; 2: off 6000; wait 8000", 2, settings=SCORE)[0]
    broken = [k for k, line in enumerate(console) if line.startswith("link broken")]
    back = [k for k, line in enumerate(console) if line.startswith("link: back, members "
                                                                   "P1 P2")]
    assert broken and back and broken[0] < back[0]


def test_two_wheels_on_one_seat_are_told_so_on_both():
    results = table.run_script("wait 3000", 2, settings=dict(SCORE, seat=2))
    for _, console in results:
        assert "link: another wheel says it is P2 too: choose another seat (menu > seat)" \
            in console


def test_a_seat_chosen_in_the_menu_is_the_links_and_what_the_wheel_writes():
    # No wheel has a seat; wheel 1 starts a 3-player game. Wheel 2: menu > seat (4 back from
    # the first item), P3; its meld in meld check then goes to P3 on every wheel, and its
    # link says P3.
    script = "; ".join([
        "wait 2000", "1: cw 15; click; click; click; click; wait 1500",   # 3 players, P1 deals
        "2: long; ccw 4; click; cw 3; click; long; wait 1500",
        "2: long; click; ccw 2; click; long; wait 1000",               # to meld check
        "2: click; cw 4; click; cw 3; click; cw 1; long; wait 1500"])    # C E G played
    results = table.run_script(script, 3, settings=dict(SCORE, seat=None))
    links = [last(frames, "link") for frames, _ in results]
    assert links[1]["seat"] == 3 and {link["digest"] for link in links} == {links[0]["digest"]}
    # the C major triad, 40, to P3 on every wheel (meld check credits the wheel's seat)
    assert [last(frames, "score")["totals"] for frames, _ in results] == [[0, 0, 40]] * 3


def test_the_hand_mode_answers_from_the_shared_table_with_nothing_entered():
    # The pile: both wheels in the hand mode, P1 deals, P2 plays first. On wheel 2 P2 holds
    # C and D and discards C; wheel 1, where nothing but P1's own E and G was entered, asks
    # "take the pile?" with that C: C 5 (C-G), 100, against 20 without.
    script = "; ".join([
        "wait 2000",
        "2: click; cw 2; click; ccw 2; wait 300; long; wait 1500",     # C, D; C discarded
        "1: cw 4; click; cw 3; click; cw 1; wait 3000; long; wait 3000",   # E, G; the answers
        "1: cw 1; wait 500"])                                          # the pile's answer
    frames, console = table.run_script(script, 2, settings={"mode": "hand"})[0]
    assert last(frames, "table") == [] and "pile: C" in frames[-1]["console"]
    assert [line for line in console if "take the pile C: best chords 100: C 5 100 (C-G) "
            "(now 20)" in line], console[-3:]
    # The melds on the table: P1 plays C E G in meld check on wheel 1; wheel 2's hand mode
    # (the menu's mode, one after meld check) has it on its table, entered nowhere else.
    script = "; ".join([
        "wait 2000", "2: long; click; cw 1; click; long; wait 1000",
        "1: click; cw 4; click; cw 3; click; cw 1; long; wait 1500"])
    frames, console = table.run_script(script, 2, settings={"mode": "meld check"})[1]
    assert last(frames, "table") == [{"seat": 1, "id": "maj", "notes": ["C", "E", "G"]}]
    assert console[-1].startswith("hand: ") and console[-1].endswith("table: P1 maj C-E-G")


def test_ten_thousand_random_midi_bytes_among_the_sysex_change_nothing():
    """A synth's notes and clock, a SysEx cut short, another maker's: seeded random bytes in
    chunks between the link's messages on wheel 2's line, while the round goes on."""
    rng = random.Random(47)
    chunks = []
    sent = 0
    while sent < 10000:
        chunk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        chunks.append("2: jacks %s; wait 10" % chunk.hex())
        sent += len(chunk)
    steps = ["wait 2000", "1: click; double"]
    for k, chunk in enumerate(chunks):
        steps.append(chunk)
        if k == len(chunks) // 2:
            steps.append("2: click; double")
    steps.append("wait 4000")
    results = table.run_script("; ".join(steps), 2, settings=SCORE)
    links = [last(frames, "link") for frames, _ in results]
    assert links[0]["digest"] == links[1]["digest"] and links[0]["entries"] == 5
    assert [last(frames, "score")["totals"] for frames, _ in results] == [[20, 20]] * 2
    _, console = results[1]
    assert not [line for line in console if "Error" in line or "Traceback" in line]
    ignored = [line for line in console if line.startswith("link: ignored ")]
    assert ignored, console[-5:]


STEADY = """
import micropython, sys, gc
sys.path.insert(0, %r)
from core import link as protocol
from firmware.link import Link
from firmware.midi import Midi
from firmware.modes import Context
from firmware.settings import Settings

class Records:
    def read(self, name):
        return None
    def write(self, name, data):
        pass
    def log(self, line):
        pass

class Clock:
    def ticks_ms(self):
        return now

class Ring:                         # the jacks: OUT to the next wheel, not a bus
    broadcast = False
    def readinto(self, buf):
        return 0
    def write(self, buf, count):
        pass
    def waiting(self):
        return 0

now = 0
settings = Settings(Records())
settings.values.update({"seat": 1, "link": "jacks"})
midi = Midi(settings)
midi.follow(settings, ("jacks",))
port = midi.add("jacks", Ring())
ctx = Context(None, settings, None, "default")
said = []
service = Link(midi, ctx, Clock(), print, lambda news, line: said.append(line))
# another wheel's HELLO (seat 2, id 77), as its parser hands it over: nothing to ask for
other = protocol.Link(protocol.LogTable(ctx.table), 2, 77, 0, lambda a, b: a - b)
other_port = other.add_port("jacks", False, 0)
other.update(0)
hello = bytearray(other_port.out[1:other_port.queued - 1])
# and ours coming back round the ring
service.update(0, 2)
now = 400
for step in range(2):              # the second second runs with the heap locked
    gc.collect()
    if step:
        micropython.heap_lock()
    try:
        for k in range(100):        # a second of passes: a HELLO sent, one heard, forwarded
            now += 10
            ctx.now = now
            port.parser.on_sysex(hello, len(hello))
            service.update(now, 2)
    finally:
        if step:
            micropython.heap_unlock()
print("no allocation", service.core.ignored, said)
"""


def test_a_second_of_the_link_allocates_nothing_on_micropython():
    """The link's steady state with the heap locked (an allocation raises MemoryError): a
    HELLO a second sent, another wheel's heard and forwarded round the ring, the state looked
    at four times a second, whole messages written as the line takes them."""
    import subprocess

    from host_tools.device.files import ROOT
    from host_tools.tools import micropython_path
    done = subprocess.run([micropython_path(), "-c", STEADY % ROOT], capture_output=True,
                          text=True, timeout=60)
    assert "no allocation [0, 0, 0, 0, 0, 0] []" in done.stdout, done.stdout + done.stderr
