"""The web board's pins: the unmodified firmware on MicroPython WebAssembly in a browser page
(host_tools/web/site/board_worker.js). Only the pins are new (the port's factory is
firmware/ports/web.py); modes, rendering and settings are the firmware's, and the ring, knob
and button twins are the simulator's (hardware/sim.py): a turn is real quadrature edges,
contact bounce included, through the real decoder.

The page registers a JavaScript module `webpins` with every MicroPython it boots:

  next()                        the next command as a small int, 0 when none: VERB + 8 * ARG
                                (TURN detents, PRESS, RELEASE, WAIT ms, VIRTUAL uptime, MIDI
                                message, QUIT)
  ring(address, length)         a frame's wire bytes; the page reads them out of the heap
  display(address, first, last) pages first..last of the OLED's pixels, likewise
  tone(ticks_ms, freq_hz, duty) the piezo (freq 0: off), for Web Audio and the frames
  midi(address, length)         MIDI bytes the wheel sent (Web MIDI out, the frames)
  notes(text)                   the notes the ring shows, spelled ("3:E♭ 7:G", or ""), each
                                time the console prints a line (firmware/ports/web.py)
  reset_cause                   "power" (the page was opened) or "reset"
  reset()                       machine.reset(): the page boots the firmware again
  (started() and crashed() are for the page's boot, which stands in for asyncio.run)

Only small ints and heap addresses cross (MicroPython never moves an object), so a command, a
frame or a tone allocates nothing here. The clock is real time, or for ?script= the
simulator's virtual clock (time moves only through WAIT, so a script gives the frames
`chromawheel sim --script` gives), kept in small ints: the page's MicroPython is a 32-bit
port, where SimClock's arithmetic (ms * 1000, PERIOD // 4) makes a long int every tick."""

import uctypes
import webpins

from hardware.clock import PERIOD, ticks_add, ticks_diff, ticks_ms, ticks_us
from hardware.sim import CommandQueue

# Command verbs (the low 3 bits of a command; the argument is the rest, signed).
TURN = 1
PRESS = 2
RELEASE = 3
WAIT = 4
VIRTUAL = 5             # "clock virtual UPTIME": the simulator's script clock
MIDI = 6                # a MIDI message in: status << 16 | data1 << 8 | data2
QUIT = 7

_STEP = PERIOD >> 2           # the longest step ticks_add takes, worked out once
_MASK = PERIOD - 1
# The most real time the clock moves between two readings: the loop reads it at every pass,
# 10 ms apart or a frame's 20 ms, so only a stall of the page goes past it.
MAX_GAP_MS = 100
_LOW = (1 << 13) - 1
_HIGH = (1 << 17) - 1


class WebClock:
    """Real time, or virtual time that only WAIT moves: hardware/sim.py's SimClock, the same
    ticks, in arithmetic that stays in small ints on a 32-bit port.

    Real time runs steady: a stall of the page (a busy machine, a background tab the browser
    throttles) counts as MAX_GAP_MS, so a queued gesture keeps its shape (a click's 70 ms
    press is not a 700 ms long press because the page stopped for a second in between)."""

    def __init__(self):
        self.virtual = False
        self._ms = 0
        self._seen = ticks_ms()         # the real ms last read
        self._behind = 0                # what stalls took past MAX_GAP_MS, mod PERIOD

    def ticks_ms(self):
        if self.virtual:
            return self._ms
        return (self._steady() - self._behind) & _MASK

    def ticks_us(self):
        if self.virtual:
            return _us(self._ms)
        self._steady()
        return (ticks_us() - _us(self._behind)) & _MASK

    def _steady(self):
        """The real ms, after noting how far a stall since the last reading went past
        MAX_GAP_MS."""
        real = ticks_ms()
        gap = ticks_diff(real, self._seen)
        self._seen = real
        if gap > MAX_GAP_MS:
            self._behind = (self._behind + gap - MAX_GAP_MS) & _MASK
        return real

    def advance(self, ms):
        while ms:
            step = ms if ms < _STEP else _STEP
            self._ms = ticks_add(self._ms, step)
            ms -= step


def _us(ms):
    """(ms * 1000) mod 2**30 as SimClock has it: with ms = high * 2**13 + low, the high part's
    share is ((high * 1000) mod 2**17) * 2**13, and ticks_add wraps the sum."""
    return ticks_add((((ms >> 13) * 1000) & _HIGH) << 13, (ms & _LOW) * 1000)


def ring_notes(text):
    """The notes the ring shows, spelled, to the page (firmware/ports/web.py's drive)."""
    webpins.notes(text)


class WebRingOutput:
    def __init__(self):
        self._ring = webpins.ring
        self.frames = 0

    def write(self, buf):
        self._ring(uctypes.addressof(buf), len(buf))
        self.frames += 1


class WebLink(CommandQueue):
    """The page's commands, applied as the simulator's link applies its lines."""

    def __init__(self, clock, encoder, button, period_ms):
        CommandQueue.__init__(self, clock, encoder, button, period_ms)
        self._next = webpins.next
        self._message = bytearray(3)

    def poll(self, advance=True):
        """Called once per loop tick. In real time a button's press or release ends the
        tick's commands: a tap on the page whose press and release both came since the last
        pass is still a press, seen by this pass and released at the next. (In virtual time a
        script's waits space them, as the simulator's.)"""
        if self._waiting(advance):
            return
        while not self.quit and self._wait_left == 0:
            command = self._next()
            if not command:
                break
            verb = command & 7
            self._apply(verb, command >> 3)
            if (verb == PRESS or verb == RELEASE) and not self.clock.virtual:
                break

    def _apply(self, verb, arg):
        if verb == TURN:
            self.encoder.turn(arg)
        elif verb == PRESS:
            self.button.down = True
        elif verb == RELEASE:
            self.button.down = False
        elif verb == WAIT:
            self._wait(arg)
        elif verb == VIRTUAL:
            self.clock.virtual = True
            self.clock.advance(arg)
        elif verb == MIDI:
            if self.midi_in is not None:          # else the wheel's MIDI is off
                m = self._message
                m[0] = arg >> 16
                m[1] = (arg >> 8) & 0x7F
                m[2] = arg & 0x7F
                self.midi_in.receive(m, 2 if 0xC0 <= m[0] < 0xE0 else 3)
        elif verb == QUIT:
            self.quit = True
