"""`make bench`: figures for the closing notes, printed as a table (never a timed test).

Identification: queries per second of our core on CPython and on the MicroPython unix port,
next to music21 and pychord on the same random inputs; the compiled default set's size, load
time and heap on MicroPython."""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from core import degrees
from core.identify import Identifier
from core.meldsource import compile_source
from core.meldset import MeldSet

from host_tools.meldfiles import DEFAULT_SOURCE, read_source

HERE = os.path.dirname(os.path.abspath(__file__))
SHARP_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
QUERIES = 2000
SEED = 20261122


def random_queries(count, seed):
    """Chord-sized sets of distinct pitch classes (3 to 7 notes), as a table player has."""
    rng = random.Random(seed)
    return [rng.sample(range(12), rng.randint(3, 7)) for _ in range(count)]


def built_melds(meldset, count, seed):
    """Every query a real meld: a random meld at a random root, random optional cards, shuffled."""
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        meld = meldset.meld(rng.randrange(meldset.count))
        root = rng.randrange(12)
        cards = [(root + degrees.semitones(c)) % 12 for c in meld.codes
                 if not degrees.is_optional(c) or rng.random() < 0.5]
        rng.shuffle(cards)
        queries.append(cards)
    return queries


def per_query(fn, queries):
    start = time.perf_counter()
    for q in queries:
        fn(q)
    return (time.perf_counter() - start) / len(queries)


def bench_ours(meldset, queries):
    identifier = Identifier(meldset)
    return per_query(identifier.exact, queries)


def bench_pychord(queries):
    from pychord import find_chords_from_notes

    def identify(pcs):
        try:
            return find_chords_from_notes([SHARP_NAMES[p] for p in pcs])
        except Exception:
            return []
    return per_query(identify, queries)


def bench_music21(queries):
    from music21 import chord

    def identify(pcs):
        c = chord.Chord([SHARP_NAMES[p] for p in pcs])
        return c.pitchedCommonName
    return per_query(identify, queries)


def micropython():
    exe = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable),
                                                      "micropython")
    return exe if os.path.exists(exe) else None


def bench_micropython(blob, queries):
    exe = micropython()
    if exe is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        set_path = os.path.join(tmp, "default.cwm")
        with open(set_path, "wb") as f:
            f.write(blob)
        queries_path = os.path.join(tmp, "queries.json")
        with open(queries_path, "w") as f:
            json.dump(queries, f)
        proc = subprocess.run([exe, "-X", "heapsize=256k",
                               os.path.join(HERE, "bench_identify_mpy.py"), set_path,
                               queries_path], capture_output=True, text=True, timeout=300)
    if proc.returncode:
        raise RuntimeError("micropython failed: " + proc.stderr.strip())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def row(label, value, target="", ok=None):
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print("%-52s %18s  %-22s%s" % (label, value, target, mark))


def compare(label, meldset, queries, mpy):
    ours = bench_ours(meldset, queries)
    print("%s (%d queries)" % (label, len(queries)))
    row("  core on CPython", "%.1f us/query" % (ours * 1e6))
    row("  core on CPython, queries per second", "%.0f" % (1 / ours))
    try:
        pychord_time = bench_pychord(queries)
        row("  pychord find_chords_from_notes", "%.1f us/query" % (pychord_time * 1e6))
        row("  core vs pychord", "%.0fx faster" % (pychord_time / ours), ">= 5x",
            pychord_time / ours >= 5)
    except ImportError:
        row("  pychord", "not installed (make bench installs it)")
    try:
        few = queries[:500]
        music21_time = bench_music21(few)
        row("  music21 Chord.pitchedCommonName (500)", "%.1f us/query" % (music21_time * 1e6))
        row("  core vs music21", "%.0fx faster" % (music21_time / ours), ">= 50x",
            music21_time / ours >= 50)
    except ImportError:
        row("  music21", "not installed (make bench installs it)")
    if mpy is not None:
        row("  core on MicroPython unix port", "%.1f us/query" % mpy["query_us"],
            "< 200 us", mpy["query_us"] < 200)


def main():
    blob = compile_source(read_source(DEFAULT_SOURCE), DEFAULT_SOURCE)
    meldset = MeldSet(blob)
    random_sets = random_queries(QUERIES, SEED)
    real_melds = built_melds(meldset, QUERIES, SEED)
    print("ChromaWheel benchmarks (seed %d, Python %s)" % (SEED, sys.version.split()[0]))
    print("-" * 104)
    mpy_random = bench_micropython(blob, random_sets)
    mpy_melds = bench_micropython(blob, real_melds)
    compare("Identification, random sets of 3-7 notes", meldset, random_sets, mpy_random)
    compare("Identification, real melds (a random meld, root and optional notes)", meldset,
            real_melds, mpy_melds)
    print("Compiled default meld set")
    row("  size", "%d bytes" % len(blob), "< 3072 bytes", len(blob) < 3072)
    if mpy_random is None:
        row("  MicroPython unix port", "not found")
    else:
        row("  load time on MicroPython unix port", "%.2f ms" % (mpy_random["load_us"] / 1000.0))
        row("  heap once loaded (MicroPython)", "%d bytes" % mpy_random["set_heap"],
            "< 8192 bytes", mpy_random["set_heap"] < 8192)
        row("  + identification index (MicroPython)", "%d bytes" % mpy_random["index_heap"])
    print("-" * 104)


if __name__ == "__main__":
    main()
