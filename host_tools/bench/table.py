"""`make bench`: the table questions, each asked in the simulator with knob and button only.

A fixed list of the questions players ask at the table, each with the script that asks it from
the mode's start (the cursor at C), the actions it takes (detents + presses; two quick clicks are
two presses) and the answer it must reach (its console line), so a count is never claimed for a
question the wheel did not answer. "before" is the same question on the wheel before the hand
and score modes (None: the wheel could not answer it). Then the hand search's time on CPython,
the MicroPython unix port and the real rp2 port in the emulated RP2040 (ticks_us there are the
emulated chip's: a real Pico's time)."""

import json
import os
import subprocess
import tempfile
import time

from core.games.rng import Rng
from core.hand import HandSearch, counts_of
from core.meldset import load as load_set

from host_tools import ROOT
from host_tools.tools import micropython_path

SEED = 20261126
HAND_BOUND_ACTIONS = 30
CREDIT_BOUND_ACTIONS = 2
HAND_BOUND_MS = 100
WORST_BOUND_MS = 250      # the worst of the dealt hands
DEALS = 100               # seeded 14-card deals searched on the emulated Pico
LONG_MS = 700             # hardware/presses.py: the long press that asks for the answers


def seeded_hand(seed=SEED, size=14):
    """A 14-card hand (2 players) dealt from a shuffled 96-card NOTE deck."""
    deck = []
    for pc in range(12):
        deck += [pc] * 8
    Rng(seed).shuffle(deck)
    return sorted(deck[:size])


def entry_script(pcs):
    """A sorted hand entered in one sweep: a detent to each next note, a click a card (two
    quick clicks for two), then a long press on an empty sector for the answers."""
    steps = []
    at = 0
    k = 0
    while k < len(pcs):
        pc = pcs[k]
        if pc != at:
            steps.append("cw %d" % (pc - at))
            at = pc
        same = pcs.count(pc)
        while same >= 2:
            steps.append("double")
            same -= 2
        if same:
            steps.append("click")
        k += pcs.count(pc)
    empty = at
    while empty in pcs:
        empty = (empty + 1) % 12
    steps.append("cw %d" % ((empty - at) % 12))
    steps.append("long")
    return "; ".join(steps)


def actions(script):
    """(detents, presses) of a script: cw/ccw N are N detents; click and long one press,
    double two."""
    detents = presses = 0
    for step in script.split("; "):
        verb, _, count = step.partition(" ")
        if verb in ("cw", "ccw"):
            detents += int(count)
        elif verb in ("click", "long"):
            presses += 1
        elif verb == "double":
            presses += 2
    return detents, presses


def questions():
    """(question, mode, setup script (not counted), script, the answer's console start,
    actions before this issue or None, bound or None)."""
    hand = seeded_hand()
    c7 = "click; cw 4; click; cw 3; click; cw 3; click"
    return [
        ("check a 4-card meld (C E G Bb)", "meld check", "", c7,
         "meld check: cursor A#/Bb; cards C E G Bb: C dominant seventh (7) 70 points", 14,
         None),
        ("hand search of a 14-card hand", "hand", "", entry_script(hand), "hand: ", None,
         HAND_BOUND_ACTIONS),
        ("credit a meld to a player (from meld check)", "meld check", c7, "cw 1; long",
         "meld check: cursor B (played, credited 70 to P2", None, CREDIT_BOUND_ACTIONS),
        ("credit a meld to a player (from the hand's answers)", "hand", c7 + "; cw 1; long",
         "click", "hand: E A#/Bb (played C 5 100: credited 100 to P2", None,
         CREDIT_BOUND_ACTIONS),
        ("chord-poker root change (C7 to A7)", "chord poker",
         "cw 9; click; click; cw 4; click; cw 3; click", "cw 2; double; click",
         "chord poker: A dominant seventh (7): on the Wheel A E G", 5, None),
        ("looking-glass pick-up (M3, hand D)", "looking glass",
         "cw 3; click; click; cw 4; click; cw 6; click", "ccw 8; double",
         "looking glass: hand D picks up the major third (M3)", 10, None),
    ]


def enter(mode):
    from firmware.modes import mode_names
    return "long; click; cw %d; click; long" % mode_names().index(mode)


def ask(mode, setup, script, answer):
    """Run the question in the simulator: True when the last console line gives the answer."""
    from host_tools.sim.simulator import run_script
    full = "; ".join(part for part in (enter(mode), setup, script) if part)
    with tempfile.TemporaryDirectory() as flash:
        _, console = run_script(full, flash=flash)
    return bool(console) and console[-1].startswith(answer), console[-1] if console else ""


# The search as the hand mode runs it (firmware/modes/hand.py): the listing, then each type's
# turn job STEPS_A_PIECE steps a piece, from the last card on. Times: the listing,
# every type's first turn found (the answers a long press shows, "searching" where not yet
# proven), and every turn proven.
_MPY_HAND = """
import sys, time, json, gc
sys.path[:0] = [@ROOT@]
from core import meldset
from core.hand import HandSearch, counts_of
from core.hand_loops import STEPS_A_PIECE
ms = meldset.load(@SET@)
search = HandSearch(ms)
while not search.read_step():
    pass
@FREE@


def timed(hand):
    # What the hand mode did before the last card: a search after each card (its arrays made
    # to the size of such a hand): here the hand without its last card, listed as the mode
    # lists it (packed plays, no Play objects: a hundred hands' lists of those fragment the
    # heap until one of them runs out of memory).
    gc.collect()
    before = counts_of(hand[:-1])
    job = search.listing(before)
    while not job.step():
        pass
    job = None
    search.best_turns(before)
    counts = counts_of(hand)
    # The wheel rested before the last card's click: its collector ran (firmware/services.py).
    gc.collect()
    t0 = time.ticks_us()
    listing = search.listing(counts)
    while not listing.step():
        pass
    t1 = time.ticks_us()
    jobs = [search.turn(counts, kind) for kind in range(3)]
    for job in jobs:
        while not job.done and not job.result()[1]:
            job.step(STEPS_A_PIECE)
    t2 = time.ticks_us()
    for job in jobs:
        while not job.step(STEPS_A_PIECE):
            pass
    t3 = time.ticks_us()
    print(json.dumps({"melds_ms": time.ticks_diff(t1, t0) / 1000,
                      "first_ms": time.ticks_diff(t2, t0) / 1000,
                      "best_ms": time.ticks_diff(t3, t1) / 1000, "melds": len(listing.found),
                      "points": [job.result()[0] for job in jobs]}))


for hand in @HANDS@:
    timed(hand)
"""


# On the emulated Pico the modules and the set come from a RAM disk in its heap (a board keeps
# them in flash): once they are loaded it is unmounted and freed, so that the search has the
# heap a board would give it (with the disk the growing arrays of a hundred hands' searches
# fragmented what was left: a MemoryError from one layout of the code to the next).
_FREE_RAM_DISK = """
import vfs
vfs.umount('/ram')
globals().pop('_disk')
"""


def hand_on_cpython(hand):
    ms = load_set(os.path.join(ROOT, "core", "meldsets", "default.cwm"))
    search = HandSearch(ms)
    counts = counts_of(hand)
    t0 = time.perf_counter()
    search.melds(counts)
    t1 = time.perf_counter()
    search.best_turns(counts)
    t2 = time.perf_counter()
    return {"melds_ms": (t1 - t0) * 1000, "best_ms": (t2 - t1) * 1000}


def hand_on_micropython(hand):
    code = (_MPY_HAND.replace("@ROOT@", repr(ROOT))
            .replace("@SET@", repr(os.path.join(ROOT, "core", "meldsets", "default.cwm")))
            .replace("@HANDS@", repr([hand])).replace("@FREE@", ""))
    proc = subprocess.run([micropython_path(), "-c", code], capture_output=True, text=True,
                          timeout=300)
    if proc.returncode:
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])


def hands_on_rp2(hands):
    """The hand search on the real rp2 port in the emulated RP2040 (compiled .mpy on a RAM
    disk, as tests/host/test_rp2_port.py runs the core cases), each hand after the same hand
    less its last card: a figure a hand."""
    from host_tools.device.files import import_closure
    from host_tools.device.link import DeviceLink
    from host_tools.emulator.rp2040 import EmulatedPico, compiled, put_on_ram_disk
    rels = sorted(import_closure(["core/meldset.py", "core/hand.py"]))
    with tempfile.TemporaryDirectory() as tmp:
        files = compiled(rels, tmp)     # the search's loops as machine code, as a deploy's
    with open(os.path.join(ROOT, "core", "meldsets", "default.cwm"), "rb") as f:
        files.append(("/ram/default.cwm", f.read()))
    code = (_MPY_HAND.replace("@ROOT@", repr("/ram")).replace("@SET@", repr("/ram/default.cwm"))
            .replace("@HANDS@", repr(hands)).replace("@FREE@", _FREE_RAM_DISK))
    with EmulatedPico() as pico:
        with DeviceLink(pico.port) as link:
            put_on_ram_disk(link, files)
            # The emulator runs at about a tenth of a Pico's speed: a long silence allowed.
            said = link.run(code, timeout=600 + 60 * len(hands)).strip().splitlines()
    return [json.loads(line) for line in said[-len(hands):]]


def report(row):
    print("Table questions in the simulator (actions = detents + presses, from the mode's "
          "start)")
    for question, mode, setup, script, answer, before, bound in questions():
        answered, line = ask(mode, setup, script, answer)
        detents, presses = actions(script)
        total = detents + presses
        target = []
        ok = answered
        if bound is not None:
            target.append("<= %d" % bound)
            ok = ok and total <= bound
        if before is not None:
            target.append("before %d" % before)
            ok = ok and total <= before
        else:
            target.append("before: no answer")
        row("  " + question, "%d (%d + %d)%s" % (total, detents, presses,
                                                 "" if answered else " UNANSWERED"),
            ", ".join(target), ok)
    hand = seeded_hand()
    print("Hand search, a 14-card hand (seed %d: %s)" % (SEED, " ".join(str(pc) for pc in hand)))
    figures = hand_on_cpython(hand)
    row("  CPython: melds / best turns", "%.1f / %.1f ms" % (figures["melds_ms"],
                                                            figures["best_ms"]))
    figures = hand_on_micropython(hand)
    if figures is not None:
        row("  MicroPython unix port: melds / best turns",
            "%.1f / %.1f ms" % (figures["melds_ms"], figures["best_ms"]))
    deals = [seeded_hand(SEED + k) for k in range(DEALS)]
    try:
        found = hands_on_rp2(deals)
    except Exception as err:          # no emulator here: say so, the other figures stand
        row("  emulated Pico (rp2 port)", "skipped (%s)" % err)
        return
    figures = found[0]
    total = figures["melds_ms"] + figures["best_ms"]
    row("  emulated Pico: every meld listed after the last card", "%.0f ms" % figures["melds_ms"],
        "<= %d ms" % HAND_BOUND_MS, figures["melds_ms"] <= HAND_BOUND_MS)
    row("  emulated Pico: each type's first best turn after the last card",
        "%.0f ms" % figures["first_ms"], "the long press asking takes %d ms" % LONG_MS)
    row("  emulated Pico: every best turn proven after the last card", "%.0f ms" % total,
        "<= %d ms" % HAND_BOUND_MS, total <= HAND_BOUND_MS)
    proven = sorted(f["melds_ms"] + f["best_ms"] for f in found)
    median, worst = proven[len(proven) // 2], proven[-1]
    row("hand search, %d deals on the emulated Pico: median / worst" % DEALS,
        "%.0f / %.0f ms" % (median, worst), "<= %d / %d ms, every best turn proven" % (
            HAND_BOUND_MS, WORST_BOUND_MS),
        median <= HAND_BOUND_MS and worst <= WORST_BOUND_MS)


if __name__ == "__main__":
    from host_tools.bench.__main__ import row as bench_row
    report(bench_row)
