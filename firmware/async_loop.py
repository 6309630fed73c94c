"""The app's loop as an asyncio task: on MicroPython's ports, in the simulator and in the page
(CircuitPython's port runs App.run_plain instead: firmware/ports/circuitpython.py). It is the
firmware's one async def, alone in its module: a module with one stays source on a
CircuitPython drive (host_tools/device/drive.py), and this one is never loaded there.

`step` and `pause` stand in for the app's own where a port drives more than the app: the
simulator's and the page's host links (firmware/ports/sim.py)."""

import asyncio


def _sleep_ms(ms):
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


async def run(app, step=None, pause=None):
    step = step or app.step
    pause = pause or app.pause_ms
    app.begin()
    while step():
        await _sleep_ms(pause())
    app.end()
