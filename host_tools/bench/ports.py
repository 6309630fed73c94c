"""Figures on the real ports in the emulated RP2040, in emulated time (host_tools/emulator):
boot time and knob-to-LED latency for MicroPython on the Pico and CircuitPython on the QT Py,
and CircuitPython's free heap after boot and after every mode.

Boot time: power-up to the first frame's first bit on the ring's pin (the second power-up of a
deployed image: the first one of a fresh CIRCUITPY drive also writes boot_out.txt).
Latency: the knob edge that completes a detent to the new frame latched in the LEDs, that is
its last bit plus the reset gap (50 us, the WS2812B's RES); beside it, the edge to the frame's
first bit. The physical floor is one frame on the wire (12 x 24 bits x 1.25 us = 360 us)
plus the reset gap."""

import os
import select
import shutil
import statistics
import tempfile
import time

from host_tools.emulator import emulate
from host_tools.errors import UserError

DETENTS = 50
DETENT_GAP_MS = 300            # the frame, the console line and the display redraw fit in it
RESET_GAP_NS = 50000
WIRE_FLOOR_US = 12 * 24 * 1.25 + RESET_GAP_NS / 1000.0


def _latencies(pico):
    """[(edge to latched, edge to first bit) in us] for each detent: the first frame after the
    edge whose bytes differ from the frame shown before it."""
    out = []
    for edge in pico.detents:
        before = [f for f in pico.frames if f[5] <= edge]
        after = [f for f in pico.frames if f[5] > edge and (not before or f[1] != before[-1][1])]
        if after:
            frame = after[0]
            out.append(((frame[0] + RESET_GAP_NS - edge) / 1000.0, (frame[5] - edge) / 1000.0))
    return out


def bench_port(name):
    """Boot time (ms) and the latency figures for board `name` on its stock firmware."""
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.img")
        shutil.copyfile(emulate.deployed_image(name, progress=lambda line: None), flash)
        with emulate.emulated(name, flash) as pico:
            emulate.wait_started(pico)
            pico.power_cut()
            pico.frames.clear()
            pico.serial.clear()
            pico.power_up()
            emulate.wait_started(pico)
            boot_ns = pico.frames[0][5]
            pico.send("wait 2000", *(["turn 1", "wait %d" % DETENT_GAP_MS] * DETENTS))
            pico.wait_done(timeout=1200)
            found = _latencies(pico)
    if len(found) != DETENTS:
        raise UserError("%s: %d of %d detents reached the ring" % (name, len(found), DETENTS))
    latched = [f[0] for f in found]
    first = [f[1] for f in found]
    return {"boot_ms": boot_ns / 1e6, "latched_median_us": statistics.median(latched),
            "latched_worst_us": max(latched), "first_bit_median_us": statistics.median(first),
            "first_bit_worst_us": max(first)}


# Run at CircuitPython's REPL (after Ctrl-C stopped code.py): boot the firmware as start.py
# does, then put each mode through turns and clicks; the free heap after each.
_CP_HEAP = """
import gc, json
gc.collect()
free_at_repl = gc.mem_free()
from firmware import start as boot
from firmware.modes import MODES
hw, why = boot._boot()
app = boot.start_app(hw)
now = hw.clock.ticks_ms()
app.tick(now)
gc.collect()
out = {"free_at_repl": free_at_repl, "after_boot": gc.mem_free(), "modes": []}
for name, _ in MODES:
    app.mode = app._start_mode(name)
    for step in range(12):
        app.mode.on_turn(1) if step % 3 else app.mode.on_click()
        app.announce()
        app.dirty = True
        now = hw.clock.ticks_add(now, 20)
        app.tick(now)
    gc.collect()
    out["modes"].append([name, gc.mem_free()])
print(json.dumps(out))
"""


class CircuitPythonRepl:
    """CircuitPython's raw REPL on a serial device. mpremote's entry sequence does not fit it:
    after Ctrl-C stops code.py, CircuitPython waits for a key before its REPL starts."""

    def __init__(self, port):
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY)

    def _until(self, marker, timeout):
        data = b""
        deadline = time.time() + timeout
        while marker not in data:
            if time.time() > deadline:
                raise UserError("CircuitPython's REPL did not say %r (it said %r)"
                                % (marker, data[-200:]))
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                data += os.read(self.fd, 4096)
        return data

    def enter(self, timeout=120):
        os.write(self.fd, b"\x03")
        self._until(b"Press any key to enter the REPL", timeout)
        os.write(self.fd, b"\r")
        self._until(b">>> ", timeout)
        os.write(self.fd, b"\x01")
        self._until(b"raw REPL; CTRL-B to exit\r\n>", timeout)

    def run(self, code, timeout=600):
        os.write(self.fd, code.encode() + b"\x04")
        answer = self._until(b"\x04>", timeout)
        out, _, err = answer.partition(b"OK")[2].partition(b"\x04")
        if err.strip(b"\x04>"):
            raise UserError("CircuitPython: %s" % err.decode("utf-8", "replace").strip())
        return out.decode()

    def close(self):
        os.close(self.fd)


def bench_circuitpython_heap():
    import json
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.img")
        shutil.copyfile(emulate.deployed_image("qtpy_rp2040", progress=lambda line: None), flash)
        with emulate.emulated("qtpy_rp2040", flash) as pico:
            emulate.wait_started(pico)
            repl = CircuitPythonRepl(pico.port)
            try:
                repl.enter()
                return json.loads(repl.run(_CP_HEAP).strip().splitlines()[-1])
            finally:
                repl.close()


def report(row):
    print("The real ports in the emulated RP2040, in emulated time (%d detents, %d ms apart)"
          % (DETENTS, DETENT_GAP_MS))
    for name, title in (("pico", "MicroPython 1.28.0, Pico"),
                        ("qtpy_rp2040", "CircuitPython 10.2.1, QT Py RP2040")):
        figures = bench_port(name)
        row("  %s: power-up to the first frame" % title, "%.0f ms" % figures["boot_ms"])
        row("  %s: knob edge to frame latched" % title, "%.0f / %.0f us" % (
            figures["latched_median_us"], figures["latched_worst_us"]),
            "median / worst; floor %.0f us" % WIRE_FLOOR_US)
        row("  %s: knob edge to its first bit" % title, "%.0f / %.0f us" % (
            figures["first_bit_median_us"], figures["first_bit_worst_us"]), "median / worst")
    heap = bench_circuitpython_heap()
    print("CircuitPython 10.2.1 on the QT Py RP2040 (emulated): free heap")
    row("  at the REPL, before the firmware", "%d bytes" % heap["free_at_repl"])
    row("  after boot (the app built, default set)", "%d bytes" % heap["after_boot"])
    for name, free in heap["modes"]:
        row("  after mode %s ran" % name, "%d bytes" % free)
