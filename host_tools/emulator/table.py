"""Emulated boards at one table: MIDI cables from one board's OUT jack to another's IN, each
board in its own emulator process (host_tools/emulator/rp2040.py), the bytes at 31,250 baud in
emulated time and the boards' clocks kept in step by the cables themselves
(rp2040js/wire.cjs: a board runs no further ahead of the board cabled into it than one byte's
time), so a run of several boards is the same every time, however loaded the machine is.

A cable is a socket pair the host makes and keeps open: a board powered off and on again (its
process ended and a new one started) finds its cables where it left them."""

import socket

BYTE_NS = 320000                      # 10 bits at 31,250 baud: the cables' lookahead


class Cable:
    """A MIDI cable: what the board at its OUT end sends, the board at its IN end hears."""

    def __init__(self):
        self._out, self._in = socket.socketpair()

    def ends(self):
        return self._out.fileno(), self._in.fileno()

    def close(self):
        self._out.close()
        self._in.close()


def cable(sender, receiver, cables):
    """A cable from `sender`'s MIDI OUT to `receiver`'s MIDI IN (EmulatedPico, not yet
    entered), kept in `cables` (closed by the caller once the boards are off)."""
    made = Cable()
    out_fd, in_fd = made.ends()
    for pico, end, fd in ((sender, "out_fd", out_fd), (receiver, "in_fd", in_fd)):
        if pico.wire is None:
            pico.wire = {"in_fd": None, "out_fd": None, "byte_ns": BYTE_NS}
        pico.wire[end] = fd
    cables.append(made)
    return made


def ring(picos, cables):
    """The boards in a ring: each one's OUT to the next one's IN, the last back to the first."""
    for k, pico in enumerate(picos):
        cable(pico, picos[(k + 1) % len(picos)], cables)
