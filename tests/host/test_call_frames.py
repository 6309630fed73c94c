"""The knob's path to the LEDs keeps its call frames off the heap. MicroPython puts a call's
state (its locals and value stack, n_state words, and 3 words a try block, mp_exc_stack_t) on
the C stack when it fits in 11 words (py/objfun.c, VM_MAX_STATE_ON_STACK); a bigger one is
allocated on the heap at every call, a search through the heap's garbage that the detent waits
for (the emulated Pico's fast spin moved between 1.16 and 1.68 ms median with the heap's
state). The sizes come from MicroPython's own compiler: the unix port's `-v -v` prints each
code block's N_STATE and N_EXC_STACK (the same compiler version as the deploy's mpy-cross)."""

import os
import re

import pytest

from host_tools import ROOT
from host_tools.tools import micropython_path
from running import run

ON_C_STACK = 11                # words: VM_MAX_STATE_ON_STACK, sizeof(mp_uint_t) * 11
EXC_BLOCK_WORDS = 3            # mp_exc_stack_t: handler, val_sp, prev_exc
# From a detent (the knob's interrupt: wake_pass) to the turned frame written (Ring.turn's
# steps up to the write); what runs after the write may be bigger.
KNOB_PATH = {"firmware/loop.py": ("wake_pass", "_woken_pass", "__enter__", "__exit__", "_pass",
                                   "tick", "_fast"),
             "hardware/ring.py": ("turn", "_turn_wire")}
# From a USB packet of MIDI in (the TinyUSB task's transfer callback) to the notes' sectors lit
# (Ring.light's steps up to the write); the byte loops between are viper machine code, whose
# frames are the C stack's.
MIDI_PATH = {"hardware/mp_usb_midi.py": ("_xfer", "_schedule_heard", "_heard", "readinto"),
             "firmware/midi.py": ("poll", "_poll"),
             "core/midi.py": ("feed_all", "_system", "_keep", "apply", "_press", "_let_go"),
             "firmware/loop.py": ("wake_pass", "_woken_pass", "__enter__", "__exit__", "_pass",
                                  "tick", "_fast"),
             "hardware/ring.py": ("light", "_light_ma", "_light_wire", "_light_sector")}


def frame_words(source, name="<source>"):
    """{code block name: [state words, ...]} of `source` compiled by the unix port."""
    proc = run([micropython_path(), "-v", "-v", "-c",
                "import sys\ncompile(sys.stdin.read(), %r, 'exec')" % name],
               input=source, timeout=60, expect=0)
    out = {}
    block = None
    for line in proc.stdout.splitlines():
        found = re.search(r"code block '([^']*)'", line)
        if found:
            block = found.group(1)
        found = re.match(r"\(N_STATE (\d+)\)", line)
        if found:
            state = int(found.group(1))
        found = re.match(r"\(N_EXC_STACK (\d+)\)", line)
        if found:
            out.setdefault(block, []).append(state + EXC_BLOCK_WORDS * int(found.group(1)))
    return out


def test_the_sizes_are_read_as_the_vm_counts_them():
    small = "def f(a):\n    return a + 1\n"
    big = "def f(a):\n    b = c = d = e = g = h = i = j = k = l = m = a\n    return b\n"
    guarded = "def f(a):\n    try:\n        return a()\n    except Exception as err:\n" \
              "        return err\n"
    assert frame_words(small)["f"] == [3]              # a, and a stack of 2
    assert frame_words(big)["f"][0] > ON_C_STACK
    assert frame_words(guarded)["f"][0] >= 2 * EXC_BLOCK_WORDS


@pytest.mark.parametrize("path_to_leds", [KNOB_PATH, MIDI_PATH], ids=["knob", "midi"])
def test_the_way_to_the_leds_keeps_its_frames_on_the_c_stack(path_to_leds):
    for path, names in path_to_leds.items():
        with open(os.path.join(ROOT, path)) as f:
            words = frame_words(f.read(), path)
        for name in names:
            assert len(words.get(name, ())) == 1, (path, name, "one function of that name")
            assert words[name][0] <= ON_C_STACK, (
                "%s %s: a frame of %d words is allocated on the heap at every call (at most "
                "%d stay on the C stack): fewer locals, or a step of it in a function of its "
                "own" % (path, name, words[name][0], ON_C_STACK))
