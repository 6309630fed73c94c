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
from core.meldset import MeldSet
from core.meldset_compiler import compile_source

from host_tools import ROOT
from host_tools.errors import UserError
from host_tools.set_files import DEFAULT_SOURCE, read_source
from host_tools.tools import micropython_path

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
    try:
        return micropython_path()
    except UserError:
        return None


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
                               os.path.join(HERE, "identify_mpy.py"), set_path,
                               queries_path], capture_output=True, text=True, timeout=300)
    if proc.returncode:
        raise RuntimeError("micropython failed: " + proc.stderr.strip())
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_firmware():
    """Boot figures and the frame loop on the MicroPython unix port, in a simulator flash."""
    from firmware.modes import mode_names
    from host_tools.device.files import build_flash
    exe = micropython()
    if exe is None:
        return None
    results = {}
    with tempfile.TemporaryDirectory() as flash:
        build_flash(flash, "sim")
        shutil.copy(os.path.join(HERE, "boot_mpy.py"), flash)
        def run(kind, mode=None):
            for leftover in ("settings.json", "crashes.txt"):
                if os.path.exists(os.path.join(flash, leftover)):
                    os.remove(os.path.join(flash, leftover))
            if mode is not None:            # boot straight into this mode
                with open(os.path.join(flash, "settings.json"), "w") as f:
                    json.dump({"mode": mode}, f)
            proc = subprocess.run([exe, "-X", "heapsize=256k", "boot_mpy.py", kind],
                                  cwd=flash, capture_output=True, text=True, timeout=300)
            if proc.returncode:
                raise RuntimeError("firmware benchmark failed: " + proc.stdout[-400:])
            return json.loads(proc.stdout.strip().splitlines()[-1])

        results["cold"] = run("cold")
        results["split"] = run("split")
        results["modes"] = [run("cold", name)["mode"] for name in mode_names()]
        results["min_heap_kb"] = smallest_heap(exe, flash)
        # The same board without its optional display and buzzer (absent from most builds).
        without_parts(flash)
        results["cold_bare"] = run("cold")
        results["min_heap_kb_bare"] = smallest_heap(exe, flash)
    return results


def without_parts(flash):
    path = os.path.join(flash, "board.json")
    with open(path) as f:
        board = json.load(f)
    board.pop("display", None)
    board.pop("buzzer", None)
    with open(path, "w") as f:
        json.dump(board, f)


def smallest_heap(exe, flash):
    """The smallest heap the app boots and runs a short script in, in 8 KB steps."""
    from host_tools.sim.simulator import BOOT
    script = "clock virtual\nwait 20\nturn 1\nwait 20\npress\nwait 800\nrelease\nwait 100\nquit\n"
    for kb in range(32, 161, 8):
        for leftover in ("settings.json", "crashes.txt"):
            if os.path.exists(os.path.join(flash, leftover)):
                os.remove(os.path.join(flash, leftover))
        proc = subprocess.run([exe, "-X", "heapsize=%dk" % kb, "-c", BOOT], cwd=flash,
                              input=script.encode(), capture_output=True, timeout=60)
        if proc.returncode == 0 and b"MemoryError" not in proc.stdout:
            return kb
    return None


def bench_display():
    """The OLED path with the MicroPython boards' driver (hardware/mp_parts.py) on the unix
    port (chip modelled)."""
    exe = micropython()
    if exe is None:
        return None
    prelude = "import sys\n" + "".join("sys.path.insert(0, %r)\n" % p for p in (
        ROOT, os.path.join(ROOT, "host_tools", "emulator")))
    with open(os.path.join(HERE, "display_mpy.py")) as f:
        code = prelude + f.read()
    # A heap of its own: the chip model keeps every command it was sent, more than the unix
    # port's default heap holds (a MemoryError there since before USB MIDI).
    proc = subprocess.run([exe, "-X", "heapsize=8m", "-c", code], capture_output=True, text=True,
                          timeout=120)
    if proc.returncode:
        raise RuntimeError("display benchmark failed: " + (proc.stdout + proc.stderr)[-400:])
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_deploy():
    """Deploy twice (the second time nothing changed) and flash a set, on a virtual board."""
    from host_tools.device import deploy
    from host_tools.sim.vboard import VirtualBoard

    def quiet(line):
        pass
    with tempfile.TemporaryDirectory() as flash:
        with VirtualBoard(flash) as board:
            first = deploy.deploy(board.port, "sim", progress=quiet)
            second = deploy.deploy(board.port, None, progress=quiet)
            flashed = deploy.flash_set(board.port, os.path.join(ROOT, "core", "meldsets",
                                                                "jazz.json"), progress=quiet)
    return first, second, flashed


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


_RP2_HEAP = """import gc, sys, json
sys.path[:0] = ['/ram']
gc.collect(); before = gc.mem_free()
from core import meldset, identify
gc.collect(); code = gc.mem_free()
ms = meldset.load('/ram/default.cwm')
# The checks a load runs are a module the firmware drops once its set is loaded
# (firmware/installed_sets.py): the set's own heap is what stays.
del sys.modules['core.meldset_check']
import core
delattr(core, 'meldset_check')
gc.collect(); loaded = gc.mem_free()
index = identify.Identifier(ms)
gc.collect(); indexed = gc.mem_free()
print(json.dumps({'free': before, 'modules': before - code, 'set': code - loaded,
                  'index': loaded - indexed}))
"""


def bench_rp2():
    """Heap figures on the real rp2 port (32-bit), in the emulated RP2040."""
    import tempfile

    from host_tools.device.files import import_closure
    from host_tools.device.link import DeviceLink
    from host_tools.emulator.rp2040 import EmulatedPico, compiled, put_on_ram_disk
    rels = sorted(import_closure(["core/meldset.py", "core/identify.py", "core/check.py"]))
    with tempfile.TemporaryDirectory() as tmp:
        files = compiled(rels, tmp)
    with open(os.path.join(ROOT, "core", "meldsets", "default.cwm"), "rb") as f:
        files.append(("/ram/default.cwm", f.read()))
    with EmulatedPico() as pico:
        with DeviceLink(pico.port) as link:
            free = link.run_json("import gc, json\ngc.collect()\nprint(json.dumps(gc.mem_free()))")
            put_on_ram_disk(link, files)
            figures = link.run_json(_RP2_HEAP)
    figures["boot_free"] = free
    return figures


# Run on the emulated Pico after a soft reset (a clean heap; the raw REPL's soft reset does not
# run main.py): boot the firmware as start.py does, one tick, and measure. BLOCK bytes are held
# first, to find the smallest heap the app runs in.
_RP2_FIRMWARE = """
import gc, json
gc.collect()
block = bytearray(BLOCK) if BLOCK else None
gc.collect()
empty = gc.mem_alloc()
free = gc.mem_free()
from firmware import start as boot
hw, why = boot._boot()
loop = boot.start_app(hw)
app = loop.app
now = hw.clock.ticks_ms()
loop.tick(now)
mode = app.mode
for step in range(12):
    mode.on_turn(1) if step % 3 else mode.on_click()
    loop.console.due = True
    loop.console.update(now, 1)     # the line printed (SHOWN), as the pass prints it
    loop.dirty = True
    now = hw.clock.ticks_add(now, 20)
    loop.tick(now)
app.open_menu()
loop.console.due = True
loop.console.update(now, 1)
gc.collect()
print(json.dumps({"heap_after_boot": gc.mem_alloc() - empty, "free_before": free,
                  "free_after": gc.mem_free()}))
"""


FROZEN_UF2 = os.path.join(ROOT, "build", "uf2", "chromawheel-RPI_PICO.uf2")
# The plain deploy's heap in use after boot before the loop's rework (issue 35): no worse.
HEAP_BEFORE_REWORK = 72864


def bench_rp2_firmware(frozen=False, midi=False):
    """The firmware on the real rp2 port: deployed as .mpy files onto an empty emulated Pico
    (deploy time), or frozen into the UF2 (host_tools/builds/build_uf2.sh frozen) with only boot.py,
    main.py, the board file and the default set copied; heap after boot, and the smallest heap
    it boots and runs in (8 KB steps). `midi`: with USB MIDI on (the setting), the heap after
    boot only."""
    from host_tools.device import deploy
    from host_tools.device.files import data_files, python_files
    from host_tools.device.link import DeviceLink
    from host_tools.emulator import emulate
    from host_tools.emulator.rp2040 import EmulatedPico
    board = emulate.load_board("pico")
    with tempfile.TemporaryDirectory() as tmp:
        image = os.path.join(tmp, "flash.img")
        with EmulatedPico(image, board, uf2=FROZEN_UF2 if frozen else None) as pico:
            if frozen:
                report = {"seconds": 0, "files": 0, "bytes_sent": 0}
                with DeviceLink(pico.port) as link:
                    files = [(rel, open(src, "rb").read()) for src, rel in python_files()
                             if "/" not in rel] + [(rel, data) for data, rel in
                                                   data_files("pico")]
                    for rel, data in files:
                        link.makedirs(rel)
                        link.write_atomic(rel, data)
            else:
                report = deploy.deploy(pico.port, "pico", progress=lambda line: None)
            with DeviceLink(pico.port) as link:
                if midi:
                    link.write_atomic("settings.json", b'{"midi": "both"}')

                def trial(block):
                    link.close()
                    link.connect(soft_reset=True)
                    try:
                        return link.run_json(_RP2_FIRMWARE.replace("BLOCK", str(block)))
                    except UserError:
                        return None                    # MemoryError: too small
                first = trial(0)
                heap = first["free_before"]
                smallest = None
                for kb in range(16, 0 if midi else heap // 1024, 8):
                    if trial(heap - kb * 1024) is not None:
                        smallest = kb
                        break
    return {"deploy_s": report["seconds"], "files": report["files"],
            "bytes": report["bytes_sent"], "heap_after_boot": first["heap_after_boot"],
            "free_after": first["free_after"], "min_heap_kb": smallest}


def report_rp2():
    """The real rp2 port's figures, from the emulated RP2040."""
    rp2 = bench_rp2()
    print("The real rp2 port (stock MicroPython 1.28.0 Pico UF2, 32-bit) in the emulated RP2040")
    row("  free heap after boot", "%d bytes" % rp2["boot_free"])
    row("  default set heap once loaded", "%d bytes" % rp2["set"], "< 8192 bytes",
        rp2["set"] < 8192)
    row("  + identification index", "%d bytes" % rp2["index"])
    row("  meldset + identify modules (.mpy), heap", "%d bytes" % rp2["modules"])
    fw = bench_rp2_firmware()
    row("  deploy to an empty emulated Pico (real mpremote)", "%.1f s, %d files, %d bytes" % (
        fw["deploy_s"], fw["files"], fw["bytes"]), "emulator ~0.1x a Pico")
    row("  firmware heap in use after boot (plain deploy, .mpy)",
        "%d bytes" % fw["heap_after_boot"], "< 32768 bytes", fw["heap_after_boot"] < 32768)
    row("    the same, against the loop's rework (MIDI off)", "%d bytes" % fw["heap_after_boot"],
        "<= %d bytes" % HEAP_BEFORE_REWORK, fw["heap_after_boot"] <= HEAP_BEFORE_REWORK)
    row("  free heap left with the firmware running", "%d bytes" % fw["free_after"])
    kb = fw["min_heap_kb"]
    row("  smallest heap the firmware runs in (8 KB steps)", "%s KB" % kb, "<= 48 KB",
        kb is not None and kb <= 48)
    midi = bench_rp2_firmware(midi=True)
    row("  firmware heap in use after boot with USB MIDI on", "%d bytes" % midi["heap_after_boot"],
        "%+d bytes" % (midi["heap_after_boot"] - fw["heap_after_boot"]),
        midi["heap_after_boot"] < 32768)
    if os.path.exists(FROZEN_UF2):
        fz = bench_rp2_firmware(frozen=True)
        row("  frozen UF2 (build_uf2.sh frozen): heap in use after boot",
            "%d bytes" % fz["heap_after_boot"], "< 32768 bytes", fz["heap_after_boot"] < 32768)
        row("  frozen UF2: smallest heap the firmware runs in", "%s KB" % fz["min_heap_kb"],
            "<= 48 KB", fz["min_heap_kb"] is not None and fz["min_heap_kb"] <= 48)
    else:
        row("  frozen UF2", "not built (host_tools/builds/build_uf2.sh frozen)")


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
    firmware = bench_firmware()
    if firmware is not None:
        cold, split = firmware["cold"], firmware["split"]
        print("Firmware on the MicroPython unix port (board sim with its OLED and buzzer, default "
              "set; 64-bit port)")
        row("  heap in use after boot", "%d bytes" % cold["heap_after_boot"], "< 32768 bytes",
            cold["heap_after_boot"] < 32768)
        row("    of which loaded code (.mpy)", "%d bytes" % split["code_heap"])
        row("    of which app data (= heap with frozen code)",
            "%d bytes" % (split["heap_after_boot"] - split["code_heap"]))
        kb = firmware["min_heap_kb"]
        row("  smallest heap the app runs in (8 KB steps)", "%s KB" % kb, "<= 48 KB",
            kb is not None and kb <= 48)
        row("  boot to first frame", "%.1f ms" % (cold["boot_us"] / 1000.0))
        row("  bytes allocated per idle tick", "%.2f" % cold["alloc_idle_tick"], "0",
            cold["alloc_idle_tick"] == 0)
        row("  bytes allocated per repainted frame", "%.2f" % cold["alloc_repaint_tick"], "0",
            cold["alloc_repaint_tick"] == 0)
        for mode in firmware["modes"]:
            row("  mode %s: heap busy, bytes a frame" % mode["name"],
                "%d B, %.2f" % (mode["heap_busy"], mode["alloc_repaint_tick"]), "0 per frame",
                mode["alloc_repaint_tick"] == 0)
        row("  knob event to frame on the wire (median)",
            "%d us" % cold["event_to_wire_us_median"], "vs 640 us on the wire")
        row("  knob event to frame on the wire (p95)", "%d us" % cold["event_to_wire_us_p95"])
        row("  console line for a change", "%.0f us" % cold["console_line_us"])
        row("  quadrature decoder, per edge", "%.2f us" % cold["decoder_edge_us"])
        bare = firmware["cold_bare"]
        row("  without the optional display and buzzer: heap after boot",
            "%d bytes" % bare["heap_after_boot"], "< 32768 bytes",
            bare["heap_after_boot"] < 32768)
        kb = firmware["min_heap_kb_bare"]
        row("  without them: smallest heap the app runs in", "%s KB" % kb, "<= 48 KB",
            kb is not None and kb <= 48)
        display = bench_display()
        if display is not None:
            print("OLED (hardware/mp_parts.py's SSD1306 panel on the unix port, the chip modelled "
                  "at I2C)")
            row("  lay out and draw a changed line", "%.0f us" % display["us_per_change"])
            row("  bytes sent per change (only changed pages)",
                "%.0f in %.0f transfers" % (display["data_bytes_per_change"],
                                            display["transfers_per_change"]))
            row("  I2C time per change at 400 kHz", "%.1f ms" % (
                display["bus_us_per_change_400k"] / 1000.0),
                "vs %.1f ms a full screen" % (display["full_screen_bus_us_400k"] / 1000.0))
        first, second, flashed = bench_deploy()
        print("Deploy and flash with mpremote, to the virtual board")
        row("  first deploy (empty board)", "%.1f s, %d files, %d bytes" % (
            first["seconds"], first["sent"], first["bytes_sent"]))
        row("  second deploy (nothing changed)", "%.1f s, %d files, %d bytes" % (
            second["seconds"], second["sent"], second["bytes_sent"]))
        row("  flash the jazz set, confirmed by the device", "%.1f s, %d bytes" % (
            flashed["seconds"], flashed["bytes"]))
    from host_tools.bench import round_play, table
    table.report(row)
    round_play.report(row)
    try:
        report_rp2()
        from host_tools.bench import ports
        ports.report(row)
        from host_tools.bench import link
        link.report(row)
    except UserError as err:              # no Node.js or no emulator: say what to install
        print("The real ports in the emulated RP2040: skipped (%s)" % err)
    try:
        from host_tools.web import bench as web_bench
        web_bench.report(row)
    except UserError as err:              # no Chromium or no runtime: say what to install
        print("The web page in headless Chromium: skipped (%s)" % err)
    print("-" * 104)


if __name__ == "__main__":
    try:
        main()
    except UserError as err:
        sys.exit("error: %s" % err)
