"""Button presses from a polled contact: debounce, then short, long and double press.

Pure logic on (pressed, now_ms); the backends only read the pin. Events are small ints so
that polling allocates nothing."""

from hardware.clock import ticks_since

NONE = 0
CLICK = 1     # a short press, once no second press followed within the double-press window
#               (at once on release while `at_once` is set: then no DOUBLE is reported)
DOUBLE = 2    # a second press within the window (reported as it goes down)
LONG = 3      # held for long_ms (reported while still held)


class PressDetector:
    def __init__(self, debounce_ms=50, long_ms=700, double_ms=350):
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.double_ms = double_ms
        self._down = False          # debounced state
        self._changed_at = None     # when the debounced state last changed; None once it no
        #                             longer matters (so it never ages past a tick wrap)
        self._pending_click = False
        self._handled = False       # this press already produced LONG or DOUBLE
        # Set while the active mode enters cards: a click acts on release, and two quick
        # clicks are two clicks (no wait for a possible double press, no DOUBLE).
        self.at_once = False

    def update(self, pressed, now):
        """Feed the raw contact state; returns an event (NONE most of the time)."""
        if pressed != self._down and (self._changed_at is None or
                                      ticks_since(now, self._changed_at) >= self.debounce_ms):
            # A press after the double-press window closed is a new press even when no poll
            # ran in between (a slow pass): the click before it is reported now.
            late = self._pending_click and ticks_since(now, self._changed_at) >= self.double_ms
            self._down = pressed
            self._changed_at = now
            if pressed:
                self._handled = not late and self._pending_click
                if self._pending_click:
                    self._pending_click = False
                    return CLICK if late else DOUBLE
                return NONE
            if not self._handled:
                if self.at_once:
                    return CLICK
                self._pending_click = True
            return NONE
        return self.due(now)

    @property
    def settled(self):
        """Nothing in play: the button up (or held past its long press) and no click waiting
        for its double-press window."""
        return self._changed_at is None

    def due(self, now):
        """The event that time alone makes due (a click once the double-press window closes, a
        long press while held), the contact not read: the app asks this before it takes the
        knob's detents, so a click whose window closed during a slow pass comes before a turn
        made after it."""
        if self._changed_at is None:
            return NONE
        held_for = ticks_since(now, self._changed_at)
        if self._down and not self._handled and held_for >= self.long_ms:
            self._handled = True
            return LONG
        if self._pending_click and not self._down and held_for >= self.double_ms:
            self._pending_click = False
            return CLICK
        if held_for >= self.debounce_ms and not self._pending_click and (
                self._handled or not self._down):
            self._changed_at = None             # settled: nothing waits on this moment now
        return NONE


EDGES = 16                    # a power of two: the ring's size
BOUNCE_MS = 10                # an edge another follows this soon: bounce, or a glitch
_SLOT = EDGES - 1
_COUNT = 2 * EDGES - 1        # put and taken count modulo 2 * EDGES: a full ring is not empty


class Edges:
    """The button's edges, each stamped where it came (a pin interrupt, the simulator's pin)
    with its ticks_ms and the knob's `turned` count then, kept until the pass takes them: a
    press made while a pass was busy (a mode's start, a write to flash, a long search) is
    neither lost nor judged on the pass's time, and it goes to the mode in order with the
    turns around it (firmware/loop.py). Preallocated: put() allocates nothing, so a hard
    interrupt may run it. A full ring keeps its newest slot for the latest edge: the level
    the contact settles at is the one that must not be lost (the pass reads the pin too)."""

    def __init__(self, knob=None):
        self.knob = knob              # what counts the detents (its `turned`), or None
        self.levels = bytearray(EDGES)
        self.times = [0] * EDGES
        self.turns = [0] * EDGES
        self.put_count = 0            # edges put, modulo 2 * EDGES
        self.taken = 0                # edges taken, modulo 2 * EDGES
        self.seen = 0                 # the knob's `turned` at the loop's last take (its own)

    def put(self, pressed, at):
        count = self.put_count
        if (count - self.taken) & _COUNT == EDGES:
            count = (count - 1) & _COUNT          # full: the newest slot again
        slot = count & _SLOT
        self.levels[slot] = 1 if pressed else 0
        self.times[slot] = at
        knob = self.knob
        self.turns[slot] = knob.turned if knob is not None else 0
        self.put_count = (count + 1) & _COUNT

    def waiting(self):
        return self.put_count != self.taken

    def oldest(self):
        """The slot of the oldest edge not taken (read its levels, times and turns), then
        take() it."""
        return self.taken & _SLOT

    def take(self):
        self.taken = (self.taken + 1) & _COUNT
