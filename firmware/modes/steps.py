"""Steps trainer (Musicards, Half step / Whole step): what may go on the top card.

Turn: the top card's note. The ring shows it white, the half step above green, less bright,
and the whole step above orange, dim: apart by brightness as well as hue (colour-blind eyes).
Click: a half step is played (it becomes the top card); double press: a whole step is played.
The top card is kept in the record store (steps.txt, KeepsTable): it survives mode
switches, reboots and power cuts."""

from core.notes import pc_label

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.table_paint import CARD, MISSING, PLACED, paint_sector
from firmware.render import DIM_LEVEL, clear

HALF_LEVEL = 200          # between the top card's full and the whole step's dim


class Mode(KeepsTable, modes.Mode):

    kept_per_set = False

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.top = 0

    def state(self):
        return bytes((self.top,))

    def restore(self, raw):
        if len(raw) != 1 or raw[0] > 11:
            return False
        self.top = raw[0]
        return True

    def on_turn(self, steps):
        self.top = (self.top + steps) % 12

    def on_click(self):
        self.top = (self.top + 1) % 12
        self.keep_state()

    def on_double(self):
        self.top = (self.top + 2) % 12
        self.keep_state()

    def render(self, frame):
        clear(frame)
        paint_sector(frame, self.top, CARD)
        paint_sector(frame, (self.top + 1) % 12, PLACED, HALF_LEVEL)
        paint_sector(frame, (self.top + 2) % 12, MISSING, DIM_LEVEL)

    def describe(self):
        return "steps: top card %s: a half step up is %s, a whole step up is %s" % (
            pc_label(self.top), pc_label((self.top + 1) % 12), pc_label((self.top + 2) % 12))
