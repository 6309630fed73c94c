"""Painting a mode's state into the ring's frame (12 x R, G, B, perceptual, C first).

Levels are chosen to stay readable at the lowest brightness: the ring driver gamma-corrects
and never rounds a lit channel to off, and the root differs from the other notes in level as
well as in hue (full and mixed with white, over the other notes a step under full).

Here is what the first frame and the menu need; the table modes' colours, cursor and sector
helpers are in firmware/modes/table_paint.py, which only they import: a board that never
starts one keeps that code off its heap."""

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


def put(frame, sector, palette, at, level, white):
    """Sector `sector` in palette[at:at + 3] (no slice: nothing allocated) at `level`, with
    `white` of 255 mixed in."""
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
                put(frame, sector, palette, at, 255, ROOT_WHITE)
            else:
                put(frame, sector, palette, at, NOTE_LEVEL, 0)
        elif optional & degree_bit:
            put(frame, sector, palette, at, OPTIONAL_LEVEL, 0)
        else:
            for c in range(3):
                frame[3 * sector + c] = 0


def paint_pattern(frame, colour, every):
    """A fixed pattern: `colour` on every `every`-th sector (safe mode, errors)."""
    for sector in range(12):
        on = sector % every == 0
        for c in range(3):
            frame[3 * sector + c] = colour[c] if on else 0


# The colour-order test: red on C, green on C#, blue on D (clockwise from the top).
COLOUR_TEST = (bytes((255, 0, 0)), bytes((0, 255, 0)), bytes((0, 0, 255)))
COLOUR_TEST_TEXT = ("colour test: C red, C# green, D blue (clockwise from the top). Other "
                    "colours: fix \"order\"; other places: \"led_at_c\" or \"direction\" in "
                    "the board file")


def paint_colour_test(frame):
    clear(frame)
    for sector in range(3):
        put(frame, sector, COLOUR_TEST[sector], 0, 255, 0)


def clear(frame):
    for i in range(36):
        frame[i] = 0
