"""Modules with machine code (host_tools/device/native.py): a Pico's deploy compiles them for
its Cortex-M0+, every port without native code gets them as plain Python, and the plain
source is what CPython runs (core/hand_loops.py's stand-in decorator)."""

import json
import os
import shutil
import subprocess

from host_tools import ROOT
from host_tools.device import deploy, drive, native
from host_tools.device.files import compiled_mpy
from host_tools.tools import micropython_path

LOOPS = os.path.join(ROOT, "core", "hand_loops.py")
ARMV6M = 4        # py/persistentcode.h: MP_NATIVE_ARCH_ARMV6M, bits 2.. of a .mpy's 3rd byte


def _source():
    with open(LOOPS, "rb") as f:
        return f.read()


def test_the_hand_search_loops_ask_for_machine_code_and_their_plain_copy_does_not():
    data = _source()
    assert native.has_machine_code(data)
    plain = native.plain(data)
    assert not native.has_machine_code(plain)
    assert b"def viper(" in plain                  # the stand-in, for CPython, stays
    assert plain.count(b"\n") == data.count(b"\n") - data.count(b"@micropython.viper\n")
    compile(plain, LOOPS, "exec")


def test_each_platform_gets_the_loops_its_port_can_load():
    assert native.arch_of("rp2") == "armv6m"
    assert native.arch_of("circuitpython") is None and native.arch_of("web") is None
    pico = dict(deploy.payload("pico", True))
    assert pico["core/hand_loops.mpy"][2] >> 2 == ARMV6M
    web = dict(deploy.payload("web", True))
    assert web["core/hand_loops.mpy"][2] >> 2 == 0
    source = dict(deploy.payload("web", False))
    assert not native.has_machine_code(source["core/hand_loops.py"])
    qtpy = dict(drive.payload("qtpy_rp2040", True))
    assert qtpy["core/hand_loops.mpy"][:2] == b"C\x06" and qtpy["core/hand_loops.mpy"][2] == 0
    assert not native.has_machine_code(dict(drive.payload("qtpy_rp2040"))["core/hand_loops.py"])


def test_the_compiled_cache_keeps_each_architecture_apart():
    rel = "core/hand_loops.py"
    native_mpy = compiled_mpy(LOOPS, rel, arch="armv6m")
    plain_mpy = compiled_mpy(LOOPS, rel)
    assert native_mpy[2] >> 2 == ARMV6M and plain_mpy[2] >> 2 == 0
    assert compiled_mpy(LOOPS, rel, arch="armv6m") == native_mpy
    # A module without machine code is the same .mpy whatever the board.
    other = os.path.join(ROOT, "core", "degrees.py")
    assert compiled_mpy(other, "core/degrees.py", arch="armv6m") == \
        compiled_mpy(other, "core/degrees.py")


PLAIN_ON_MICROPYTHON = """
import sys, json
sys.path.insert(0, %r)
from core import meldset, hand_loops
from core.hand import HandSearch, counts_of
search = HandSearch(meldset.load(%r))
out = []
for pcs, held in %r:
    counts = counts_of(pcs)
    out.append([list(search.listed(search.expand(counts, held))),
                [[points, [[p.index, p.root] for p in plays]]
                 for points, plays in search.best_turns(counts, held)]])
print(json.dumps([hand_loops.NATIVE, out]))
"""


def test_the_plain_loops_give_cpython_s_answers_on_micropython(tmp_path):
    # What CircuitPython and the page run: the loops without their decorators, on MicroPython
    # (the unix port), against CPython's answers (the machine code's: test_rp2_port.py).
    from core.games.rng import Rng
    from core.hand import HandSearch, counts_of
    from core.meldset import load
    shutil.copytree(os.path.join(ROOT, "core"), str(tmp_path / "core"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "core" / "hand_loops.py").write_bytes(native.plain(_source()))
    hands = []
    for seed in range(8):
        deck = [pc for pc in range(12) for _ in range(8)]
        Rng(seed).shuffle(deck)
        held = [(seed * 5 + 7 * k) % 60 for k in range(5)] if seed % 4 == 3 else None
        hands.append((deck[:(14, 12, 10, 16)[seed % 4]], held))
    cwm = os.path.join(ROOT, "core", "meldsets", "default.cwm")
    search = HandSearch(load(cwm))
    expected = []
    for pcs, held in hands:
        counts = counts_of(pcs)
        expected.append([list(search.listed(search.expand(counts, held))),
                         [[points, [[p.index, p.root] for p in plays]]
                          for points, plays in search.best_turns(counts, held)]])
    code = PLAIN_ON_MICROPYTHON % (str(tmp_path), cwm, hands)
    proc = subprocess.run([micropython_path(), "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    native_code, answers = json.loads(proc.stdout.strip().splitlines()[-1])
    assert native_code is False
    assert answers == expected
