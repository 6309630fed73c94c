"""The simulator and the virtual board: the MicroPython unix port with the simulated ring, knob
and button (hardware/sim.py), driven over the host's link. The host says how the board
started; a restart ends the run (the host starts the next)."""

import os

from hardware import sim
from hardware.ring import Ring

from firmware.devices import LOOP_PERIOD_MS, Hardware
from firmware.records import FileRecords


def build(board):
    commands, frames = sim.link_streams()
    clock = sim.SimClock()
    encoder = sim.SimEncoder(board["encoder"])
    button = sim.SimButton(board["button"])
    link = sim.SimLink(clock, encoder, button, LOOP_PERIOD_MS, commands)
    ring = Ring(board["ring"], sim.SimRingOutput(frames))
    return Hardware(board, ring, encoder, button, clock, link, records=FileRecords())


def display_panel(config, hw):
    from hardware import sim_parts
    return sim_parts.SimPanel(config, sim.link_streams()[1])


def tone_output(config, hw):
    from hardware import sim_parts
    return sim_parts.SimBuzzer(hw.clock, sim.link_streams()[1])


def midi_port(hw):
    """The USB MIDI port's twin: the host's `midi` commands in, the wheel's messages out on
    the frame stream."""
    from hardware.midi_twin import SimMidi
    port = SimMidi(sim.link_streams()[1])
    hw.link.midi_in = port
    return port


def watchdog():
    return None


def reset_cause():
    return os.getenv("CHROMAWHEEL_RESET_CAUSE") or "power"


def restart():
    pass
