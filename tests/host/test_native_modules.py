"""Modules with machine code (host_tools/device/native.py): a Pico's deploy compiles them for
its Cortex-M0+, every port without native code gets them as plain Python, and the plain
source is what CPython runs (core/hand_loops.py's stand-in decorator)."""

import os
import shutil

import hand_answers
from host_tools import ROOT
from host_tools.device import deploy, drive, native
from host_tools.device.files import compiled_mpy
from host_tools.tools import micropython_path
from running import run

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
import sys
sys.path[:0] = [%r, %r]
import hand_answers
hand_answers.main(%r, %r)
"""


def test_the_plain_loops_give_cpython_s_answers_on_micropython(tmp_path):
    # What CircuitPython and the page run: the loops without their decorators, on MicroPython
    # (the unix port), against CPython's answers (the machine code's: test_rp2_port.py).
    from core.meldset import load
    shutil.copytree(os.path.join(ROOT, "core"), str(tmp_path / "core"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "core" / "hand_loops.py").write_bytes(native.plain(_source()))
    hands = hand_answers.dealt(8, (14, 12, 10, 16), 4, 5)
    cwm = os.path.join(ROOT, "core", "meldsets", "default.cwm")
    expected = hand_answers.answers(load(cwm), hands)
    code = PLAIN_ON_MICROPYTHON % (str(tmp_path), os.path.dirname(hand_answers.__file__), cwm,
                                   hands)
    proc = run([micropython_path(), "-c", code], timeout=300, expect=0)
    native_code, answers = hand_answers.read(proc.stdout, hands)
    assert native_code is False
    assert answers == expected
