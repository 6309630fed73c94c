"""The real MicroPython rp2 port (the stock v1.28.0 Pico UF2) in an emulated RP2040, reached
through its USB serial port with the same transport as a Pico (host_tools/emulator/rp2040.py).

A 32-bit port: ticks wrap at 2**30 there, so the tick-sensitive core cases (presses, ring)
run against the port's own time.ticks_*. The files are on the board's littlefs drive when it
boots, laid out on the laptop as `make uf2` lays out a drive (rp2040.flash_holding): copied
over the emulated USB serial port they cost more CPU than the cases' run."""

import contextlib
import os

import pytest

import hand_answers
from host_tools.device.files import ROOT
from host_tools.device.link import DeviceLink
from host_tools.emulator.rp2040 import EmulatedPico, compiled, flash_holding

pytestmark = pytest.mark.usefixtures("emulator")

# The music core and the drivers' pure logic, with their core cases: what a board runs.
# (test_meldset builds oversize sets on purpose: more than the heap left beside the RAM disk
# the cases ran from until 2026-12-08.)
CASES = ("expect", "test_notes", "test_degrees", "test_spelling", "test_melds", "test_check",
         "test_identify", "test_presses", "test_ring", "test_quadrature", "test_table")
HARDWARE = ("__init__", "clock", "presses", "ring", "quadrature")
# The core modules those cases import, no more (what a board has; it was a RAM disk on the
# Pico's heap once, where every core module ran the cases out of memory).
# The set as a board has it, compiled (tests/core/expect.py): the compiler is host-only.
CORE = ("__init__", "check", "degrees", "identify", "melds", "meldset", "meldset_check",
        "notes", "parse", "pcset", "spelling", "table")
DATA = ("core/meldsets/default.cwm",)


@contextlib.contextmanager
def booted_with(files, folder):
    """A Pico with `files` [(path on its drive, bytes)] on its drive, booted: its DeviceLink."""
    flash = os.path.join(folder, "flash.img")
    flash_holding(flash, files)
    with EmulatedPico(flash_image=flash) as emulated:
        with DeviceLink(emulated.port) as link:
            yield link


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    """The stock port with the core cases' files on its drive."""
    folder = str(tmp_path_factory.mktemp("rp2"))
    with booted_with(files_for_the_cases(folder), folder) as link:
        yield link


def test_the_stock_rp2_port_boots_and_its_ticks_wrap_at_2_30(pico):
    info = pico.info()
    assert info["platform"] == "rp2" and info["version"] == [1, 28, 0]
    assert info["mpy"] >> 10 == 4                       # armv6m: a Cortex-M0+ build
    period = pico.run_json("import time, json\nprint(json.dumps(time.ticks_add(0, -1) + 1))")
    assert period == 1 << 30
    free = pico.run_json("import gc, json\ngc.collect()\nprint(json.dumps(gc.mem_free()))")
    assert 200000 < free < 270000                       # the Pico's heap, measured: 243,968


def files_for_the_cases(tmp):
    """(drive path, bytes): the modules and cases compiled with mpy-cross (a Pico has no RAM
    to spare for compiling them), the data, the runner."""
    rels = []
    for folder, names in (("core", CORE), ("core/games", ("__init__", "carmony_table", "rng")),
                          ("hardware", HARDWARE), ("tests/core", CASES)):
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith(".py") and (names is None or name[:-3] in names):
                rels.append("%s/%s" % (folder, name))
    out = compiled(rels, tmp, under="")
    for rel in DATA + ("tests/run_core_micropython.py",):
        with open(os.path.join(ROOT, rel), "rb") as f:
            out.append((rel, f.read()))
    return out


def test_the_core_cases_pass_on_the_real_rp2_port(pico):
    # The emulator runs at about a tenth of a real Pico's speed: a long time-out.
    out, err = pico.transport.exec_raw(
        "import sys, os\n"
        "sys.path[:0] = ['/']\n"
        "_f = '/tests/run_core_micropython.py'\n"
        "try:\n"
        "    exec(open(_f).read(), {'__file__': _f, '__name__': '__main__'})\n"
        "except SystemExit:\n"
        "    pass\n", timeout=900)
    out = out.decode("utf-8", "replace")
    assert not err, err.decode("utf-8", "replace")[-2000:]
    last = out.strip().splitlines()[-1]
    assert last.startswith("micropython: ") and last.endswith(" 0 failed"), out[-2000:]
    assert int(last.split()[1]) >= 55


HAND_SEARCH = """
import sys
sys.path[:0] = ['/']
import hand_answers
hand_answers.main('/default.cwm', %r)
"""


def test_the_hand_search_runs_as_machine_code_with_cpython_s_answers(tmp_path):
    # The same core answers on CPython (its loops as plain Python) and on the rp2 port, whose
    # deploy compiles them to machine code: dealt hands of 14, 12 and 10 cards, with and
    # without MELD cards held, each listing and each type's best turn, plays and tie-breaks.
    from core.meldset import load
    hands = hand_answers.dealt(6, (14, 12, 10), 3, 3)
    cwm = os.path.join(ROOT, "core", "meldsets", "default.cwm")
    expected = hand_answers.answers(load(cwm), hands)
    rels = ["core/%s.py" % n for n in ("__init__", "degrees", "meldset", "meldset_check", "hand",
                                        "hand_loops")]
    rels += ["core/games/__init__.py", "core/games/carmony_table.py"]
    files = compiled(rels, str(tmp_path), under="")
    with open(os.path.join(ROOT, "tests", "host", "hand_answers.py"), "rb") as f:
        files.append(("hand_answers.py", f.read()))
    with open(cwm, "rb") as f:
        files.append(("default.cwm", f.read()))
    with booted_with(files, str(tmp_path)) as link:
        said = link.run(HAND_SEARCH % (hands,), timeout=600)
    native, answers = hand_answers.read(said, hands)
    assert native is True
    assert answers == expected
