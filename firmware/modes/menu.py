"""The menu (long press from any mode): one table of items, each changing one setting.

Turn to choose an item, click to change it (turn through the values, click to keep one),
long or double press to leave. Brightness previews live while it is being changed, and the
sound plays each volume. The colour test shows red, green and blue on C, C# and D until the
next click: a wrong colour order or LED position in the board file shows at once.

The menu alone asks for the menu's calls, of `host` (the app: firmware/app.py): close_menu(),
set_names() (the installed sets), preview(key, value) (brightness shown, a volume sounded,
nothing kept; None: the preview ends) and apply_setting(key, value) (kept and acted on). The
modes' Context has none of them."""

from firmware import modes
from firmware.render import COLOUR_TEST_TEXT, paint_colour_test
from firmware.settings import BRIGHTNESS_LEVELS, LINK_PORTS, MIDI_PORTS, VOLUMES
from firmware.settings import MIDI_DIRECTIONS as DIRECTIONS

# How an item's value is kept in its setting.
AS_VALUE = 0          # the value itself
AS_INDEX = 1          # its place among the values (sound: 0..3)
AS_FLAG = 2           # True for the second value (root name: "other")
AS_NEAREST = 3        # the value itself; the current one is the nearest value (brightness)
AS_SEAT = 4           # "P1".."P4" as 1..4, "none" as None (seat)
SEATS = ("none", "P1", "P2", "P3", "P4")

# label, setting key (None: nothing kept), values (a tuple, or "modes" / "sets" for the names
# found when the item is opened), how it is kept, shown live while turning, the part it needs.
ITEMS = (
    ("mode", "mode", "modes", AS_VALUE, False, None),
    ("meld set", "meldset", "sets", AS_VALUE, False, None),
    ("brightness", "brightness", BRIGHTNESS_LEVELS, AS_NEAREST, True, None),
    ("colours", "colours", ("kind", "note", "safe"), AS_VALUE, False, None),
    ("root name", "other_root_name", ("auto", "other"), AS_FLAG, False, None),
    ("colour test", None, ("on",), AS_VALUE, False, None),
    ("sound", "volume", VOLUMES, AS_INDEX, True, "buzzer"),
    ("private", "private", ("off", "on"), AS_FLAG, False, None),
    # the wheel's seat at a linked table (the score mode asks it at a new game made here)
    ("seat", "seat", SEATS, AS_SEAT, False, "midi"),
    # (the port before the direction: the midi item stays last, one turn back from the first)
    ("link", "link", LINK_PORTS, AS_VALUE, False, "midi"),
    ("midi port", "midi_port", MIDI_PORTS, AS_VALUE, False, "midi ports"),
    ("midi", "midi", DIRECTIONS, AS_VALUE, False, "midi"),
)
LABEL, KEY, VALUES, KEPT, LIVE, NEEDS = range(6)
_BROWSE = bytes((255, 255, 255))
_EDIT = bytes((0, 200, 255))


def paint_bar(frame, lit, colour):
    """Sectors 0..lit-1 lit (menu values)."""
    for sector in range(12):
        for c in range(3):
            frame[3 * sector + c] = colour[c] if sector < lit else 0


def paint_dot(frame, sector, colour, background_level=0):
    for s in range(12):
        for c in range(3):
            frame[3 * s + c] = colour[c] if s == sector else colour[c] * background_level // 255


def items_for(parts):
    """The items a board shows: those whose part (`buzzer`) it has, from `parts`."""
    return [item for item in ITEMS if item[NEEDS] is None or item[NEEDS] in parts]


def stored(item, value):
    """The setting's value for a menu value."""
    if item[KEPT] == AS_INDEX:
        return item[VALUES].index(value)
    if item[KEPT] == AS_FLAG:
        return value == item[VALUES][1]
    if item[KEPT] == AS_SEAT:
        return item[VALUES].index(value) or None
    return value


def shown(item, setting, values):
    """The menu value for a setting's value."""
    if item[KEPT] == AS_INDEX:
        return values[setting]
    if item[KEPT] == AS_FLAG:
        return values[1] if setting else values[0]
    if item[KEPT] == AS_NEAREST:
        return min(values, key=lambda v: abs(v - setting))
    if item[KEPT] == AS_SEAT:
        return values[setting or 0]
    return setting


class Mode(modes.Mode):
    name = "menu"

    def __init__(self, ctx, host, parts=()):
        modes.Mode.__init__(self, ctx)
        self.host = host
        self.items = items_for(parts)
        self.item = 0
        self.editing = False
        self.choices = ()
        self.choice = 0

    @property
    def current(self):
        return self.items[self.item]

    def _choices(self, item):
        """(values, index of the current one) for an item."""
        values = item[VALUES]
        if values == "modes":
            values = modes.mode_names()
        elif values == "sets":
            values = self.host.set_names() or [self.ctx.meldset_name]
        if item[KEY] is None:
            return values, 0
        setting = self.ctx.meldset_name if item[KEY] == "meldset" else self.ctx.settings[
            item[KEY]]
        now = shown(item, setting, values)
        return values, (values.index(now) if now in values else 0)

    def on_turn(self, steps):
        if not self.editing:
            self.item = (self.item + steps) % len(self.items)
            return
        self.choice = (self.choice + steps) % len(self.choices)
        if self.current[LIVE]:
            self.host.preview(self.current[KEY], stored(self.current, self.choices[self.choice]))

    def on_click(self):
        if not self.editing:
            self.choices, self.choice = self._choices(self.current)
            self.editing = True
            return
        self.editing = False
        item = self.current
        if item[KEY] is not None:
            self.host.apply_setting(item[KEY], stored(item, self.choices[self.choice]))

    def on_double(self):
        self.on_long()

    def on_long(self):
        item = self.current
        if self.editing and item[LIVE]:        # a preview not kept: back to the setting
            self.host.preview(item[KEY], None)
        self.editing = False
        self.host.close_menu()

    def render(self, frame):
        item = self.current
        if not self.editing:
            paint_dot(frame, self.item, _BROWSE, 24)
        elif item[KEY] is None:
            paint_colour_test(frame)
        elif item[KEPT] == AS_NEAREST:
            paint_bar(frame, self.choice + 1, _EDIT)
        else:
            paint_dot(frame, self.choice, _EDIT, 24)

    def describe(self):
        if self.editing and self.current[KEY] is None:
            return COLOUR_TEST_TEXT + "; click to end"
        if self.editing:
            return "menu > %s: %s (turn to change, click to keep)" % (
                self.current[LABEL], self.choices[self.choice])
        return "menu: %s (click to change, long press to leave)" % self.current[LABEL]
