"""The table modes' signs on the ring: their colours, a sector in one colour, a kind's colour,
the cursor and its blink. Only the table modes import it, so a board showing the explorer
and the menu keeps this code off its heap (firmware/render.py has the rest)."""

from hardware.clock import ticks_diff

from firmware.render import KIND_COLOURS, put

CARD = bytes((255, 255, 255))        # a NOTE card entered or on the Wheel
CURSOR = bytes((0, 90, 255))         # where a click acts, on a dark sector
PLACED = bytes((40, 255, 60))        # a sector already holding its card
MISSING = bytes((255, 110, 0))       # a sector still waiting for its card
GOING = bytes((255, 0, 0))           # a card a root change sends back to the hand
CURSOR_WHITE = 170                   # white mixed into a lit sector under the cursor


# A sector's cards by their count: one dim, two a step brighter, three or more full (each
# step about twice the light of the last on the wire, the ring's gamma 2.8).
CARD_LEVELS = (0, 160, 210, 255)


def card_level(count):
    return CARD_LEVELS[count if count < 3 else 3]


def paint_sector(frame, sector, colour, level=255, white=0):
    put(frame, sector, colour, 0, level, white)


def paint_kind(frame, sector, kind, level=255, white=0):
    """A sector in a meld kind's colour (KIND_COLOURS, no slice: nothing allocated)."""
    put(frame, sector, KIND_COLOURS, 3 * kind, level, white)


BLINK_MS = 400            # the cursor's half period: on 400 ms, off 400 ms


class BlinkingCursor:
    """A mixin for a mode whose cursor blinks (where it is not the root), so that it differs
    from the root by a blink, not by a hue. The phase runs from the mode's last input (call
    blink_restart(now) on each): a turn shows the cursor at once. The app asks blink_due(now)
    every pass of a mode that has it and paints the next phase; in the simulator's virtual
    time the frames record it. Nothing here allocates (small ints)."""

    blink_from = 0
    blink_on = True

    def blink_restart(self, now):
        self.blink_from = now

    def blink_phase(self, now):
        """True while the cursor shows."""
        return (ticks_diff(now, self.blink_from) // BLINK_MS) & 1 == 0

    def blink_due(self, now):
        return self.blink_phase(now) != self.blink_on


def paint_cursor(frame, sector):
    """Mark the cursor: blue on a dark sector, whitened on a lit one (its colour still shows)."""
    at = 3 * sector
    if frame[at] or frame[at + 1] or frame[at + 2]:
        for c in range(3):
            value = frame[at + c]
            frame[at + c] = value + (255 - value) * CURSOR_WHITE // 255
    else:
        put(frame, sector, CURSOR, 0, 255, 0)
