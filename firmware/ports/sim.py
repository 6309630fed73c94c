"""The simulator and the virtual board: the MicroPython unix port with the simulated ring, knob
and button (hardware/sim.py), driven over the host's link. The host says how the board
started; a restart ends the run (the host starts the next). The link is driven here, in the
port's loop (drive: firmware/async_loop.py runs the loop with it): the pass never sees
it."""

import os

from hardware import sim
from hardware.ring import Ring

from firmware.devices import LOOP_PERIOD_MS, Hardware
from firmware.records import FileRecords


def build(board):
    commands, frames = sim.link_streams()
    clock = sim.SimClock()
    encoder = sim.SimEncoder(board["encoder"])
    button = sim.SimButton(board["button"], encoder.decoder)
    link = sim.SimLink(clock, encoder, button, LOOP_PERIOD_MS, commands, frames)
    ring = Ring(board["ring"], sim.SimRingOutput(frames))
    link.poll()                   # the host may hold the button before power-up (safe mode)
    return Hardware(board, ring, encoder, button, clock, link, records=FileRecords())


def drive(loop):
    """(step, pause) for firmware/async_loop.py: the host's commands first in each pass (in
    virtual time a pass with no work waiting moves the clock one loop period), then the
    pass; no sleep in virtual time; the loop ends when the host says quit or goes away."""
    link = loop.hw.link

    def step():
        link.poll(not loop.busy)          # a pass with work waiting takes no time
        return loop.step() and not (link.quit or link.closed)

    def pause():
        return 0 if link.clock.virtual else loop.pause_ms()
    return step, pause


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


def jacks_port(hw):
    """The MIDI jacks' twin: the host's `jacks` commands in, what the wheel sends on the frame
    stream; the simulator's wheels hear each other through it."""
    from hardware.midi_twin import SimJacks
    port = SimJacks(sim.link_streams()[1])
    hw.link.jacks_in = port
    return port


def watchdog():
    return None


def reset_cause():
    return os.getenv("CHROMAWHEEL_RESET_CAUSE") or "power"


def restart():
    pass
