"""The simulated twins of the ring, the encoder and the button, and their link to the host.

The simulator (host_tools/sim/simulator.py) runs the unmodified firmware on the MicroPython unix
port with board `sim` and talks to it over stdin/stdout:

  host -> device, one command a line:
    clock virtual        time advances only through `wait` (scripted runs, deterministic)
    turn N               N detents (negative: anticlockwise), as quadrature edges through
                         the real decoder, with contact bounce on every edge
    press | release      the button contact
    midi HEX             these MIDI bytes arrive on the wheel's USB MIDI input
    jacks HEX            these MIDI bytes arrive on the wheel's MIDI IN jack
    wait MS              let MS milliseconds pass (virtual: in loop-period steps)
    mark                 answer MARK once every command before it has run (the host's step
                         of several wheels in one virtual time: host_tools/sim/table.py)
    quit                 stop the app

  device -> host:
    "\\x01F" + the wire bytes of every frame written to the ring + "\\n" (binary, fixed size)
    "\\x01M" + a count byte + the MIDI bytes the wheel sent + "\\n"
    "\\x01J" + a count byte + the MIDI bytes the wheel sent on its MIDI OUT jack + "\\n"
    "\\x01Y\\n"           a mark: every command before it has run
    anything else is the firmware's serial console

Frames are written as raw bytes, so showing a frame allocates nothing here either.

On the virtual board the serial REPL owns stdin/stdout, so the link moves to two FIFOs named by
the environment variable CHROMAWHEEL_SIM_LINK: PREFIX.in (commands) and PREFIX.out (frames)."""

import os
import select
import sys

from hardware.clock import PERIOD, ticks_add, ticks_diff, ticks_ms, ticks_us
from hardware.presses import Edges
from hardware.quadrature import QuadratureDecoder

LINK_VARIABLE = "CHROMAWHEEL_SIM_LINK"


_streams = []


def link_streams():
    """(command stream, frame stream): the FIFOs the host named, else stdin and stdout. Opened
    once: the ring, the display and the buzzer share the frame stream."""
    if not _streams:
        prefix = os.getenv(LINK_VARIABLE)
        if prefix:
            _streams.extend((open(prefix + ".in", "r"), open(prefix + ".out", "wb")))
        else:
            _streams.extend((sys.stdin, sys.stdout.buffer))
    return _streams[0], _streams[1]

FRAME_MARK = b"\x01F"
DISPLAY_MARK = b"\x01D"      # + first page, last page, the pages' bytes, "\n"
TONE_MARK = b"\x01T"         # + ticks_ms (4 bytes), freq_hz (2), duty (2), little-endian, "\n"
TONE_SIZE = 8
MIDI_MARK = b"\x01M"         # + count (1 byte), the MIDI bytes the wheel sent, "\n"
JACKS_MARK = b"\x01J"        # + count (1 byte), the bytes it sent on its MIDI OUT jack, "\n"
MARK = b"\x01Y\n"            # the host's `mark`: what came before it has run
# The clockwise Gray sequence (A leads B), starting from the usual rest state 11.
_FORWARD = (3, 1, 0, 2)


class SimClock:
    """Real time, or virtual time that only `wait` moves (scripted, reproducible runs)."""

    def __init__(self):
        self.virtual = False
        self._ms = 0

    def ticks_ms(self):
        return self._ms if self.virtual else ticks_ms()

    def ticks_us(self):
        return (self._ms * 1000) & (PERIOD - 1) if self.virtual else ticks_us()

    def advance(self, ms):
        while ms:                               # ticks_add takes less than half a period
            step = min(ms, PERIOD // 4)
            self._ms = ticks_add(self._ms, step)
            ms -= step


class SimRingOutput:
    def __init__(self, stream=None):
        self._out = stream or sys.stdout.buffer
        self.frames = 0

    def write(self, buf):
        self._out.write(FRAME_MARK)
        self._out.write(buf)
        self._out.write(b"\n")
        self.frames += 1


class SimEncoder:
    """Turns become real quadrature edges, bounce included, fed to the real decoder."""

    def __init__(self, config):
        self.decoder = QuadratureDecoder(config["pulses_per_detent"], config["reverse"],
                                         config["rest_state"])
        self._ppd = config["pulses_per_detent"]
        self._state = config["rest_state"] if self._ppd == 4 else 3
        self.decoder.reset(self._state)

    def _edge(self, state):
        # Contact bounce: the new state, a flicker back, then the new state again.
        previous = self._state
        self.decoder.feed(state)
        self.decoder.feed(previous)
        self.decoder.feed(state)
        self._state = state

    def turn(self, detents):
        step = 1 if detents > 0 else -1
        for _ in range(abs(detents)):
            for _ in range(self._ppd):
                at = _FORWARD.index(self._state)
                self._edge(_FORWARD[(at + step) % 4])

    def take(self):
        return self.decoder.take()


class SimButton:
    """The button's pin: `down`, and each change stamped as a pin interrupt stamps it
    (set(): the edges, hardware/presses.py)."""

    def __init__(self, config, knob=None):
        self.down = False
        self.edges = Edges(knob)

    def set(self, down, now):
        if down != self.down:
            self.down = down
            self.edges.put(down, now)

    def pressed(self):
        return self.down


class CommandQueue:
    """Host commands applied to the twins one at a time: a wait holds the queue until its
    time has passed (in virtual time: one loop period a tick), so a script replays the same
    way every run. The simulator's link reads them as lines, the web board's from the page."""

    def __init__(self, clock, encoder, button, period_ms):
        self.clock = clock
        self.encoder = encoder
        self.button = button
        self.period_ms = period_ms
        self._wait_left = 0
        self._wait_until = 0
        self.quit = False
        self.closed = False
        self.midi_in = None           # the MIDI port's twin, once the app has started MIDI
        self.jacks_in = None          # the jacks' twin, once the app has started them

    def _wait(self, ms):
        self._wait_left = ms
        self._wait_until = ticks_add(self.clock.ticks_ms(), ms)

    def _waiting(self, advance):
        """Called once per loop tick, first: True while a wait still holds the queue. In
        virtual time a tick moves the clock one loop period, unless `advance` is False: the
        app has more to do at once (a pass a real board runs without a sleep)."""
        if self._wait_left > 0:
            if self.clock.virtual:
                if not advance:
                    return True
                step = min(self.period_ms, self._wait_left)
                self.clock.advance(step)
                self._wait_left -= step
                return True
            if ticks_diff(self.clock.ticks_ms(), self._wait_until) < 0:
                return True
            self._wait_left = 0
        return False


class SimLink(CommandQueue):
    """The simulator's commands, one a line on its input stream."""

    def __init__(self, clock, encoder, button, period_ms, stream=None, out=None):
        CommandQueue.__init__(self, clock, encoder, button, period_ms)
        self._in = stream or sys.stdin
        self._out = out               # the frame stream: where a mark is answered
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._idle = False            # the last pass read no command

    def _ready(self):
        for _ in self._poll.ipoll(0):
            return True
        return False

    def poll(self, advance=True):
        """Called once per loop tick. In virtual time, once a pass has run with nothing new
        and no work waiting, nothing can happen before the host's next command: the loop
        waits for it (a table of wheels hands out its steps one at a time, and a loop that
        spun meanwhile took the cores from the other wheels)."""
        if self._waiting(advance):
            return
        if self._idle and advance and self.clock.virtual and not self.quit:
            self._out.flush()
            self._poll.ipoll(-1)
        self._idle = True
        while not self.closed and not self.quit and self._wait_left == 0 and self._ready():
            self._idle = False
            line = self._in.readline()
            if not line:
                self.closed = True
                break
            self._apply(line.split())

    def _apply(self, words):
        if not words:
            return
        verb = words[0]
        if verb == "turn":
            self.encoder.turn(int(words[1]))
        elif verb in ("press", "release"):
            self.button.set(verb == "press", self.clock.ticks_ms())
        elif verb == "wait":
            self._wait(int(words[1]))
        elif verb == "clock":                # "clock virtual [UPTIME_MS]" or "clock real"
            self.clock.virtual = words[1] == "virtual"
            if len(words) > 2:
                self.clock.advance(int(words[2]))
        elif verb in ("midi", "jacks"):
            port = self.midi_in if verb == "midi" else self.jacks_in
            if port is not None:              # else that port is off: nothing hears it
                from binascii import unhexlify
                port.receive(unhexlify(words[1]))
        elif verb == "mark":
            self._out.write(MARK)
            self._out.flush()
        elif verb == "quit":
            self.quit = True
        elif verb == "interrupt":            # Ctrl-C on the console, as mpremote sends it
            raise KeyboardInterrupt
        else:
            print("sim: unknown command %r" % verb)
