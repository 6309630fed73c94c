"""The loop (firmware/loop.py) as an asyncio task: on MicroPython's ports, in the simulator
and in the page (CircuitPython's port runs its own plain loop instead:
firmware/ports/circuitpython.py). It is the firmware's one async def, alone in its module: a
module with one stays source on a CircuitPython drive (host_tools/device/drive.py), and this
one is never loaded there.

`step` and `pause` stand in for the loop's own where a port drives more than the pass: the
simulator's and the page's host links (firmware/ports/sim.py)."""

import asyncio


def _sleep_ms(ms):
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


async def run(loop, step=None, pause=None):
    step = step or loop.step
    pause = pause or loop.pause_ms
    loop.begin()
    while step():
        await _sleep_ms(pause())
    loop.end()
