# Run in the page's board worker in place of boot.py and main.py (make bench,
# tests/host/test_web.py): the firmware booted as firmware/start.py boots it, on the web board's
# own pins (hardware/web_pins.py: every tick asks the page for a command, every frame goes to
# the page), then the bytes the loop allocates per tick, idle and repainting a changed frame
# every tick, as host_tools/bench/boot_mpy.py measures them on the unix port. One JSON line.
import gc
import json
import os

os.chdir("/flash")
from hardware.clock import ticks_diff, ticks_us

from firmware import start as boot

hw, why = boot._boot()
assert not why, why
hw.clock.virtual = True            # this script moves the time
loop = boot.start_app(hw)
clock = hw.clock


def tick(ms):
    clock.advance(ms)
    loop.tick(clock.ticks_ms())


def idle(n):
    for _ in range(n):
        tick(10)


def repaint(n):
    mode = loop.app.active
    for i in range(n):
        mode.root = i % 12
        loop.dirty = True
        tick(20)


def allocated(run, n):
    """Bytes allocated by run(n), the collector held off."""
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    run(n)
    after = gc.mem_alloc()
    gc.enable()
    return after - before


idle(1100)                         # past the one-off writes (settings 5 s, crash counter 10 s)
repaint(100)                       # and the first frames' one-off allocations
idle_bytes = allocated(idle, 1000)
writes = hw.ring.writes
t0 = ticks_us()
repaint_bytes = allocated(repaint, 1000)
repaint_us = ticks_diff(ticks_us(), t0) / 1000
print(json.dumps({"alloc_idle_tick": idle_bytes / 1000, "alloc_repaint_tick": repaint_bytes / 1000,
                  "frames_written": hw.ring.writes - writes, "repaint_tick_us": repaint_us}))
