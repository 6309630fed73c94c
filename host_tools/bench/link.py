"""`make bench`: the table link's figures, on the real ports in the emulated RP2040, in emulated
time (host_tools/emulator/table.py: boards cabled OUT to IN, 31,250 baud, their clocks in
step through the cables).

- every wheel shows it: on a ring of four (a Pico, a QT Py, a Pico, a QT Py), each in the
  score mode on its seat, the players in turn credit a meld on their own wheel; from the
  frame that shows it on that wheel to the frame that flashes it on each of the three others
  (the message goes round the ring: three hops, each a whole message on the wire, then the
  wheel's pass). The figure is over every meld and every other wheel.
- bytes a turn: what a turn (a meld, then the turn passed) puts on the cables, every cable
  counted (a message crosses each once); the HELLOs' steady cost beside it.
- catch up: a Pico and a QT Py; the QT Py loses its power while the Pico's player enters a
  60-entry round (30 melds, 30 turns passed); from the QT Py's power-up, and from its first
  frame, to its table equal to the Pico's (the link's digest).
- the heap the link costs: the firmware booted with the link on (the jacks, a seat) and put
  through every mode, against the same with it off; the Pico's heap in use, the QT Py's free
  heap."""

import os
import shutil
import statistics
import tempfile

from host_tools.emulator import emulate, table

RING = ["pico", "qtpy_rp2040", "pico", "qtpy_rp2040"]
SCORE = {"mode": "score"}
QUIET = dict(progress=lambda line: None)
SHOW_BOUND_MS = 50
TURNS = 8                     # two rounds of the table
TURN_GAP_MS = 1500            # each player a moment after the last
CATCH_UP_ENTRIES = 60
# Wheel 1: a new game of The Original for 4 players (the score mode's entries: 11 items, 3
# actions, then the new games: 4 players is The Original's third), confirmed, its seat and
# P1 as the first dealer kept: P2 plays first.
NEW_GAME_4 = "1: cw 16; click; click; click; click; wait 2000"


def _flash_ns(frames, seat, after):
    """The first frame at or after `after` that flashes a meld of P`seat`."""
    for frame in frames:
        if frame["ns"] >= after and frame["console"].startswith("P%d played" % seat):
            return frame["ns"]
    return None


def _credit_ns(frames, seat, after):
    """The first frame at or after `after` that shows this wheel's credit of P`seat`'s meld
    (the score mode's line says what it wrote)."""
    for frame in frames:
        if frame["ns"] >= after and "(P%d 2-card meld +20)" % seat in frame["console"]:
            return frame["ns"]
    return None


def ring_figures():
    """Latencies (ms), bytes a turn, the HELLOs' bytes a second, on the ring of four."""
    steps = ["wait 3000", NEW_GAME_4]
    for turn in range(TURNS):
        seat = (turn + 1) % 4 + 1                   # P2 first
        steps.append("%d: click; double; wait %d" % (seat, TURN_GAP_MS))
    steps.append("wait 2000")
    results, picos = _run("; ".join(steps), RING)
    frames = [f for f, _ in results]
    latencies = []
    after = 0
    for turn in range(TURNS):
        seat = (turn + 1) % 4 + 1
        origin = _credit_ns(frames[seat - 1], seat, after)
        for other in range(4):
            if other != seat - 1:
                shown = _flash_ns(frames[other], seat, origin)
                latencies.append((shown - origin) / 1e6 if shown is not None else float("inf"))
        after = origin
    first = _credit_ns(frames[1], 2, 0)
    sent = [(ns, byte) for pico in picos for ns, byte in pico.jacks]
    in_turns = sum(1 for ns, _ in sent if first <= ns < after + TURN_GAP_MS * 1000000)
    hellos = _hello_bytes(picos, first, after + TURN_GAP_MS * 1000000)
    seconds = (after + TURN_GAP_MS * 1000000 - first) / 1e9
    return {"median_ms": statistics.median(latencies), "worst_ms": max(latencies),
            "bytes_a_turn": (in_turns - hellos) / TURNS, "hello_bytes_s": hellos / seconds}


def _hello_bytes(picos, start, end):
    """The bytes of HELLO messages the boards sent between `start` and `end` (ns)."""
    total = 0
    for pico in picos:
        message = []
        for ns, byte in pico.jacks:
            if byte == 0xF0:
                message = [ns]
            elif message:
                message.append(byte)
                if byte == 0xF7:
                    if start <= message[0] < end and len(message) > 6 and message[5] == 1:
                        total += len(message)        # F0 ... F7, KIND 1: a HELLO
                    message = []
    return total


def catch_up_figures():
    """The QT Py back from a power cut, catching up with a 60-entry round on the Pico."""
    turns = CATCH_UP_ENTRIES // 2
    off_ms = 1000 + turns * 800 + 2000
    steps = ["wait 3000", "2: off %d" % off_ms]
    steps += ["1: click; double"] * turns          # P2's and P1's melds, each turn passed
    steps.append("wait 12000")
    results, picos = _run("; ".join(steps), ["pico", "qtpy_rp2040"])
    (frames1, _), (frames2, _) = results
    digest = frames1[-1]["link"]["digest"]
    back = picos[1].offs[-1][1]                     # the table's ns it was powered up at
    first = [f["ns"] for f in frames2 if f["ns"] >= back][0]
    caught = [f["ns"] for f in frames2 if f["ns"] >= back and f.get("link", {}).get(
        "digest") == digest]
    entries = frames1[-1]["link"]["entries"]
    return {"entries": entries, "from_power_ms": (caught[0] - back) / 1e6 if caught else None,
            "from_frame_ms": (caught[0] - first) / 1e6 if caught else None}


def _run(script, boards):
    """table.run_script, the boards kept for their bytes on the wire."""
    kept = []
    real = emulate.emulated

    def keeping(*args, **kwargs):
        pico = real(*args, **kwargs)
        kept.append(pico)
        return pico
    emulate.emulated = keeping
    try:
        results = table.run_script(script, boards, settings=SCORE, **QUIET)
    finally:
        emulate.emulated = real
    return results, kept[-len(boards):]


# The app booted as start.py boots it, then every mode chosen as the menu chooses it and put
# through turns and clicks; the heap after boot and the least free heap after a mode.
_MODES = """
import gc, json
gc.collect()
from firmware import start as boot
from firmware.modes import MODES
hw, why = boot._boot()
loop = boot.start_app(hw)
app = loop.app
now = hw.clock.ticks_ms()
loop.tick(now)
loop.parts.build_all()    # the display and the buzzer, as the pass builds them after the frame
gc.collect()
out = {"used": gc.mem_alloc(), "free": gc.mem_free(), "modes": [], "link": app.link is not None}
for name in MODES:
    app.apply_setting("mode", name)
    for step in range(12):
        app.mode.on_turn(1) if step % 3 else app.mode.on_click()
        loop.console.due = True
        loop.console.update(now, 1)
        loop.dirty = True
        now = hw.clock.ticks_add(now, 20)
        loop.tick(now)
    gc.collect()
    out["modes"].append([name, gc.mem_free(), app.mode.name])    # (a fallback: not name)
print(json.dumps(out))
"""


def heap_figures(name, settings):
    """{"used", "free", "modes": [[mode, free after it]], "link"} for board `name` with these
    settings, at its REPL (MicroPython: mpremote's raw REPL after a soft reset, main.py not
    run; CircuitPython: after Ctrl-C stopped code.py)."""
    import json

    from host_tools.bench.ports import CircuitPythonRepl
    from host_tools.device.link import DeviceLink
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.img")
        shutil.copyfile(emulate.deployed_image(name, **QUIET), flash)
        emulate.put_settings(name, flash, settings, **QUIET)
        with emulate.emulated(name, flash) as pico:
            emulate.wait_started(pico)
            if emulate.is_circuitpython(emulate.load_board(name)):
                repl = CircuitPythonRepl(pico.port)
                try:
                    repl.enter()
                    return json.loads(repl.run(_MODES).strip().splitlines()[-1])
                finally:
                    repl.close()
            with DeviceLink(pico.port) as link:
                link.close()              # main.py stopped, a clean heap: the raw REPL's soft
                link.connect(soft_reset=True)     # reset runs no main.py
                return link.run_json(_MODES)


def report(row):
    print("The table link, on the real ports in the emulated RP2040 (emulated time)")
    ring = ring_figures()
    row("table link, a 4-wheel ring: every wheel shows it",
        "%.1f / %.1f ms" % (ring["median_ms"], ring["worst_ms"]),
        "<= %d ms (median / worst, %d melds x 3 wheels)" % (SHOW_BOUND_MS, TURNS),
        ring["worst_ms"] <= SHOW_BOUND_MS)
    row("table link: bytes a turn (a meld, the turn passed)",
        "%.0f bytes" % ring["bytes_a_turn"],
        "beside %.0f bytes a second of HELLOs" % ring["hello_bytes_s"])
    caught = catch_up_figures()
    row("table link: catch up, a QT Py off for a %d-entry round" % (caught["entries"] - 1),
        "%.0f ms" % caught["from_frame_ms"] if caught["from_frame_ms"] is not None
        else "not caught up", "from its first frame; %.0f ms from power-up" % (
            caught["from_power_ms"] or 0), caught["from_frame_ms"] is not None)
    for name, title in (("pico", "Pico"), ("qtpy_rp2040", "QT Py")):
        off = heap_figures(name, dict(SCORE, link="off"))
        on = heap_figures(name, dict(SCORE, link="jacks", seat=1))
        least_off = min(free for _, free, _ in off["modes"])
        least_on = min(free for _, free, _ in on["modes"])
        # a mode that could not start ran the explorer in its place: not run
        failed = [name for name, _, ran in on["modes"] + off["modes"] if ran != name]
        row("table link: heap on the %s, after boot" % title,
            "%+d bytes in use" % (on["used"] - off["used"]),
            "%d bytes free with it (%d without)" % (on["free"], off["free"]), on["link"])
        row("table link: heap on the %s, every mode run" % title,
            "%d bytes free at least" % least_on,
            "%d modes ran; %d without the link%s" % (
                len([1 for name, _, ran in on["modes"] if ran == name]), least_off,
                "; did not start: " + ", ".join(sorted(set(failed))) if failed else ""),
            len(on["modes"]) == len(off["modes"]) and least_on > 0 and not failed)
