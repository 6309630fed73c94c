"""Builds the devices a board file describes. Backends are imported only for their own
platform, so the simulator never imports `machine` and a Pico never imports `rotaryio`.
Used at boot only (firmware/start.py unloads it to give its RAM back)."""

import hardware.clock
from hardware.ring import Ring

from firmware.devices import LOOP_PERIOD_MS, Hardware


def build(board):
    platform = board["platform"]
    if platform == "sim":
        from hardware import sim
        commands, frames = sim.link_streams()
        clock = sim.SimClock()
        encoder = sim.SimEncoder(board["encoder"])
        button = sim.SimButton(board["button"])
        link = sim.SimLink(clock, encoder, button, LOOP_PERIOD_MS, commands)
        ring = Ring(board["ring"], sim.SimRingOutput(frames))
        return Hardware(board, ring, encoder, button, clock, link)
    if platform == "circuitpython":
        from hardware import cp_devices
        ring = Ring(board["ring"], cp_devices.NeoPixelOutput(board["ring"]))
        return Hardware(board, ring, cp_devices.RotaryEncoder(board["encoder"]),
                        cp_devices.PinButton(board["button"]), hardware.clock)
    from hardware import mp_devices
    driver = board["encoder"]["driver"]
    if driver == "pio":
        from hardware.rp2_pio_encoder import PioEncoder
        encoder = PioEncoder(board["encoder"])
    elif driver == "pcnt":
        from hardware.esp32_encoder import PcntEncoder
        encoder = PcntEncoder(board["encoder"])
    else:
        encoder = mp_devices.IrqEncoder(board["encoder"])
    ring = Ring(board["ring"], mp_devices.NeoPixelOutput(board["ring"]))
    return Hardware(board, ring, encoder, mp_devices.PinButton(board["button"]), hardware.clock)
