"""Painting a mode's state into the ring's frame (12 x R, G, B, perceptual, C first).

Levels are chosen to stay readable at the lowest brightness: the ring driver gamma-corrects
and never rounds a lit channel to off, and the root differs from the other notes in level as
well as in hue (full and mixed with white, over the other notes a step under full)."""

from hardware.clock import ticks_diff

# Colour by meld kind: intervals, chords, scales.
KIND_COLOURS = bytes((0, 150, 255,   255, 110, 0,   40, 255, 60))
# The `colours` value `safe`: the kinds in hues that deuteranopes and protanopes tell apart too
# (Okabe and Ito's palette: blue, orange, yellow), each brighter than the last.
SAFE_KIND_COLOURS = bytes((0, 114, 178,   230, 159, 0,   240, 228, 66))
# Colour by note: a hue wheel with C red, one hue per pitch class, each hue at the same light
# (within 1.2x on the wire, for normal, deuteranopic and protanopic eyes alike), so the levels
# below still carry the meaning: a root, a required and an optional note are apart by
# brightness whatever their hues. Full hues differ tenfold (blue is dark, yellow-green bright;
# red dims for protanopes), so the bright ones are darker and red, rose and violet paler.
NOTE_COLOURS = bytes((
    210, 130, 110,  205, 135, 40,   190, 140, 0,    125, 160, 0,
    55, 170, 0,     0, 170, 40,     0, 160, 120,    0, 150, 225,
    55, 140, 255,   190, 80, 255,   210, 0, 255,    215, 115, 185))
# Levels carry the meaning as well as hues do, so a sign reads for colour-blind eyes and across
# a table: full for what is there (a card, a required note), DIM_LEVEL for what is optional or
# still missing. DIM_LEVEL is the dimmest meaningful level: at the default brightness (64) it
# is about 17 of 255 on the wire after the ring's gamma (2.8), clearly lit, and a quarter of
# full's light.
DIM_LEVEL = 160
OPTIONAL_LEVEL = DIM_LEVEL   # of 255, perceptual: dim but the same hue
# A required note that is not the root: a step under full (about 2/3 of its light), so the
# root (full, whitened) is at least 1.5 times brighter in every kind's hue, for deuteranopic
# and protanopic eyes too, and an optional note (DIM_LEVEL) 2.5 times dimmer.
NOTE_LEVEL = 220
ROOT_WHITE = 140         # how much white is mixed into the root

SAFE_MODE = bytes((255, 140, 0))     # amber, on the 4 quarter sectors
ERROR = bytes((255, 0, 0))           # red, every other sector


def _put(frame, sector, palette, at, level, white):
    for c in range(3):
        value = palette[at + c] * level // 255
        frame[3 * sector + c] = value + (255 - value) * white // 255


def paint_meld(frame, required, optional, root, kind, colours):
    """The meld's sectors: the root full and whitened, the other required notes a step under
    full (NOTE_LEVEL), optional ones dim (OPTIONAL_LEVEL); the rest dark.
    `required` and `optional` are masks relative to the root (as stored in the set);
    `colours` the setting: "kind", "note" (a hue per note) or "safe" (colour-blind safe)."""
    by_note = colours == "note"
    for sector in range(12):
        degree_bit = 1 << ((sector - root) % 12)
        palette = NOTE_COLOURS if by_note else SAFE_KIND_COLOURS if colours == "safe" else \
            KIND_COLOURS
        at = 3 * sector if by_note else 3 * kind
        if required & degree_bit:
            if sector == root:
                _put(frame, sector, palette, at, 255, ROOT_WHITE)
            else:
                _put(frame, sector, palette, at, NOTE_LEVEL, 0)
        elif optional & degree_bit:
            _put(frame, sector, palette, at, OPTIONAL_LEVEL, 0)
        else:
            for c in range(3):
                frame[3 * sector + c] = 0


def paint_pattern(frame, colour, every):
    """A fixed pattern: `colour` on every `every`-th sector (safe mode, errors)."""
    for sector in range(12):
        on = sector % every == 0
        for c in range(3):
            frame[3 * sector + c] = colour[c] if on else 0


# The table modes' colours.
CARD = bytes((255, 255, 255))        # a NOTE card entered or on the Wheel
CURSOR = bytes((0, 90, 255))         # where a click acts, on a dark sector
PLACED = bytes((40, 255, 60))        # a sector already holding its card
MISSING = bytes((255, 110, 0))       # a sector still waiting for its card
GOING = bytes((255, 0, 0))           # a card a root change sends back to the hand
CURSOR_WHITE = 170                   # white mixed into a lit sector under the cursor


# The colour-order test: red on C, green on C#, blue on D (clockwise from the top).
COLOUR_TEST = (bytes((255, 0, 0)), bytes((0, 255, 0)), bytes((0, 0, 255)))
COLOUR_TEST_TEXT = ("colour test: C red, C# green, D blue (clockwise from the top). Other "
                    "colours: fix \"order\"; other places: \"led_at_c\" or \"direction\" in "
                    "the board file")


def paint_colour_test(frame):
    clear(frame)
    for sector in range(3):
        _put(frame, sector, COLOUR_TEST[sector], 0, 255, 0)


def clear(frame):
    for i in range(36):
        frame[i] = 0


def paint_sector(frame, sector, colour, level=255, white=0):
    _put(frame, sector, colour, 0, level, white)


def paint_kind(frame, sector, kind, level=255, white=0):
    """A sector in a meld kind's colour (KIND_COLOURS, no slice: nothing allocated)."""
    _put(frame, sector, KIND_COLOURS, 3 * kind, level, white)


BLINK_MS = 400            # the cursor's half period: on 400 ms, off 400 ms


class BlinkingCursor:
    """A mixin for a mode whose cursor blinks (where it is not the root), so that it differs
    from the root by a blink, not by a hue. The phase runs from the mode's last input (call
    blink_restart(now) on each): a turn shows the cursor at once. The app asks blink_due(now)
    every pass and paints the next phase; in the simulator's virtual time the frames record
    it. Nothing here allocates (small ints)."""

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
        _put(frame, sector, CURSOR, 0, 255, 0)
