"""The menu (long press from any mode): mode, meld set, brightness, colour scheme, root name,
the colour-order test, and the sound (off, soft, medium, loud) on a board with a buzzer.

Turn to choose an item, click to change it (turn through the values, click to keep one),
long or double press to leave. Brightness previews live while it is being changed. The colour
test shows red, green and blue on C, C# and D until the next click: a wrong colour order or LED
position in the board file shows at once."""

from firmware import meldstore
from firmware.modes import mode_names
from firmware.render import COLOUR_TEST_TEXT, paint_bar, paint_colour_test, paint_dot
from firmware.settings import BRIGHTNESS_LEVELS

ITEMS = ("mode", "meld set", "brightness", "colours", "root name", "colour test", "sound")
TEST_ITEM = 5
SOUND_ITEM = 6                 # only on a board with a buzzer
VOLUMES = ("off", "soft", "medium", "loud")
_BROWSE = bytes((255, 255, 255))
_EDIT = bytes((0, 200, 255))


class Mode:
    name = "menu"

    def __init__(self, app):
        self.app = app
        self.items = ITEMS if app.hw.buzzer is not None else ITEMS[:SOUND_ITEM]
        self.item = 0
        self.editing = False
        self.choices = ()
        self.choice = 0

    def _choices(self, item):
        """(values, index of the current one) for an item."""
        settings = self.app.settings
        if item == 0:
            values = mode_names()
            current = settings["mode"]
        elif item == 1:
            values = meldstore.names() or [self.app.meldset_name]
            current = self.app.meldset_name
        elif item == 2:
            values = BRIGHTNESS_LEVELS
            current = min(BRIGHTNESS_LEVELS, key=lambda v: abs(v - settings["brightness"]))
        elif item == 3:
            values = ("kind", "note")
            current = settings["colours"]
        elif item == TEST_ITEM:
            return ("on",), 0
        elif item == SOUND_ITEM:
            values = VOLUMES
            current = VOLUMES[settings["volume"]]
        else:
            values = ("auto", "other")
            current = "other" if settings["other_root_name"] else "auto"
        return values, (values.index(current) if current in values else 0)

    def on_turn(self, steps):
        if self.editing:
            self.choice = (self.choice + steps) % len(self.choices)
            if self.item == 2:
                self.app.set_brightness(self.choices[self.choice], preview=True)
            elif self.item == SOUND_ITEM:
                self.app.beep(self.choice)
        else:
            self.item = (self.item + steps) % len(self.items)

    def on_click(self):
        if not self.editing:
            self.choices, self.choice = self._choices(self.item)
            self.editing = True
            return
        self.editing = False
        if self.item != TEST_ITEM:
            self.app.apply_setting(self.items[self.item], self.choices[self.choice])

    def on_double(self):
        self.on_long()

    def on_long(self):
        if self.editing and self.item == 2:
            self.app.set_brightness(self.app.settings["brightness"], preview=True)
        self.editing = False
        self.app.close_menu()

    def render(self, frame):
        if not self.editing:
            paint_dot(frame, self.item, _BROWSE, 24)
        elif self.item == TEST_ITEM:
            paint_colour_test(frame)
        elif self.item == 2:
            paint_bar(frame, self.choice + 1, _EDIT)
        else:
            paint_dot(frame, self.choice, _EDIT, 24)

    def describe(self):
        if self.editing and self.item == TEST_ITEM:
            return COLOUR_TEST_TEXT + "; click to end"
        if self.editing:
            return "menu > %s: %s (turn to change, click to keep)" % (
                self.items[self.item], self.choices[self.choice])
        return "menu: %s (click to change, long press to leave)" % self.items[self.item]
