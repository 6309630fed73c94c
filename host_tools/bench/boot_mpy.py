"""Run by `make bench` under the MicroPython unix port, in a simulator flash folder:

    micropython bench_boot_mpy.py [split]

Cold (the default): boot as a device does, imports included. `split`: import the resident
modules first, so that what boot adds is the app's data alone (code frozen into firmware
would cost no heap: this is the heap such a build would need).

Boots the firmware the way firmware/start.py does, then measures: heap in use after boot,
boot time to the first frame, bytes allocated per steady-state tick (idle, and repainting a
changed frame every tick), and the time from a knob event to its frame on the wire.
Prints one JSON line."""

import gc
import json
import sys

from hardware.clock import ticks_diff, ticks_us


class NullOutput:
    """Stands in for the sim output so only the firmware's own allocations are counted."""

    def __init__(self):
        self.writes = 0

    def write(self, buf):
        self.writes += 1


# What the running app keeps imported (boot-only modules are dropped at start).
RESIDENT = ("asyncio", "firmware.async_loop", "firmware.services", "firmware.modes.names",
            "core.degrees", "core.notes", "core.pcset", "core.spelling", "core.meldset",
            "hardware.quadrature",
            "hardware.presses", "hardware.ring", "hardware.sim", "hardware.sim_parts",
            "hardware.font", "hardware.oled", "hardware.buzzer", "firmware.screen",
            "firmware.devices", "firmware.records",
            "firmware.ports.sim", "firmware.crashes", "firmware.settings",
            "firmware.render", "firmware.modes", "firmware.modes.explorer",
            "firmware.app", "firmware.loop", "firmware.start")


def main():
    frames = 1000
    split = len(sys.argv) > 1 and sys.argv[1] == "split"
    gc.collect()
    empty = gc.mem_alloc()
    if split:
        for name in RESIDENT:
            __import__(name)
    gc.collect()
    code_heap = gc.mem_alloc() - empty
    start = ticks_us()
    from firmware import start as boot
    hw, why = boot._boot()
    assert not why, why
    hw.link = None                      # no host here: nothing to read
    hw.ring._output = NullOutput()
    hw.clock.virtual = True             # this script moves the time
    loop = boot.start_app(hw)
    loop.tick(hw.clock.ticks_ms())
    boot_us = ticks_diff(ticks_us(), start)
    if loop.parts is not None:          # the pass builds them after its first frame
        loop.parts.build_all()
    if hw.display is not None:          # the display's pages and the buzzer's tones: counted,
        hw.display.panel._out = NullOutput()      # not printed
    if hw.buzzer is not None:
        hw.buzzer.output._out = NullOutput()
    gc.collect()
    heap_after_boot = gc.mem_alloc() - empty      # this script was loaded before `empty`
    free_after_boot = gc.mem_free()
    clock = hw.clock

    def tick(ms):
        clock.advance(ms)
        loop.tick(clock.ticks_ms())

    # Warm up past the one-off writes (settings 5 s, crash counter 10 s after boot).
    for _ in range(1100):
        tick(10)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(frames):
        tick(10)
    idle = (gc.mem_alloc() - before) / frames

    # Repaint every tick: the render + ring path with a changed frame, as an animation would.
    mode = loop.app.active
    explorer = mode.name == "explorer"     # other modes change their frame in bench_mode
    before = gc.mem_alloc()
    for i in range(frames):
        if explorer:
            mode.root = i % 12
        loop.dirty = True
        tick(20)
    repaint = (gc.mem_alloc() - before) / frames
    gc.enable()
    writes = hw.ring._output.writes
    busy = bench_mode(loop, tick) if not split else {}
    if busy:
        busy["heap_busy"] -= empty

    # Knob event to frame on the wire: a detent through the decoder, dispatch, render, write.
    console = loop.console
    print_ = console.update
    console.update = lambda now, calm: False    # the console line is measured apart: text
    samples = []
    for _ in range(200):
        clock.advance(30)
        now = clock.ticks_ms()
        t0 = ticks_us()
        hw.encoder.turn(1)
        loop.tick(now)
        samples.append(ticks_diff(ticks_us(), t0))
    console.update = print_
    samples.sort()
    t0 = ticks_us()
    for _ in range(200):
        loop.app.active.describe()
    describe_us = ticks_diff(ticks_us(), t0) / 200

    # Decoder cost per edge.
    from hardware.quadrature import QuadratureDecoder
    decoder = QuadratureDecoder(4)
    edges = (2, 0, 1, 3) * 250
    t0 = ticks_us()
    for state in edges:
        decoder.feed(state)
    edge_us = ticks_diff(ticks_us(), t0) / len(edges)

    print(json.dumps({
        "mode": busy,
        "heap_after_boot": heap_after_boot, "code_heap": code_heap,
        "free_after_boot": free_after_boot,
        "boot_us": boot_us, "alloc_idle_tick": idle, "alloc_repaint_tick": repaint,
        "writes": writes, "event_to_wire_us_median": samples[len(samples) // 2],
        "event_to_wire_us_p95": samples[int(len(samples) * 0.95)],
        "console_line_us": describe_us, "decoder_edge_us": edge_us}))


def bench_mode(loop, tick):
    """The mode the app booted in, driven into a busy state: the heap in use then, and the
    bytes allocated per repainted frame (the render path must allocate nothing)."""
    mode = loop.app.mode
    for event in ("click", "turn", "click", "turn", "click", "double", "turn", "click"):
        if event == "turn":
            mode.on_turn(4)
        elif event == "click":
            mode.on_click()
        else:
            mode.on_double()
        loop.dirty = True
        tick(20)
    for _ in range(300):               # past the one-off settings save the events may cause
        tick(20)
    gc.collect()
    heap = gc.mem_alloc()
    gc.disable()
    start = gc.mem_alloc()
    for _ in range(200):
        loop.dirty = True
        tick(20)
    alloc = (gc.mem_alloc() - start) / 200
    gc.enable()
    return {"name": mode.name, "heap_busy": heap, "alloc_repaint_tick": alloc}


main()
