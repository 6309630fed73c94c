"""Through the Looking Glass at the table: which cards on the Wheel pick the INTERVAL up.

Steps:
  interval  turn: the INTERVAL card            click: keep it      (the ring: the interval at C)
  wheel     turn: a cursor                     click: mark / unmark a card on its sector
            double: to the hand step
  hand      turn: a note in your hand          double: back to the wheel
            click: the interval was picked up: to the interval step, turn to the one drawn
In the hand step the ring shows the hand note white, the Wheel's cards that build the interval
with it green (either card may be on position 1), the Wheel's other cards dim; the console
names them. The cursor (the hand note in the hand step) blinks, so it differs from the
Wheel's cards by a blink, not only by hue. With the `private` setting the hand step's ring
shows the cursor (the hand note) alone: the answer is on the display and console.
The table (the step, the INTERVAL card, the Wheel's cards, the cursor and the hand note) is
kept in the record store (looking_glass.txt, KeepsTable): it survives mode switches,
reboots and power cuts; a meld set switch starts afresh."""

from core import degrees
from core.games.looking_glass_table import picks_up
from core.notes import format_note, pc_label
from core.spelling import spell

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import meld_notes, root_note
from firmware.modes.table_paint import (
    CARD,
    CURSOR,
    PLACED,
    BlinkingCursor,
    paint_cursor,
    paint_sector,
)
from firmware.render import DIM_LEVEL, clear, paint_meld

INTERVAL = 0              # the meld kind
STEPS = ("interval", "wheel", "hand")
OTHER_CARD_LEVEL = DIM_LEVEL  # a Wheel card that does not pick the interval up: dim, clearly on


class Mode(KeepsTable, BlinkingCursor, modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.position = 0
        self.hint = None
        self.set_changed()

    def set_changed(self):
        self.intervals = self.ctx.meldset.of_kind(INTERVAL)
        self.position %= max(1, len(self.intervals))
        self.step = "interval"
        self.cursor = 0
        self.hand = 0
        self.wheel = bytearray(12)         # 1 where a card lies on top of a sector
        self._picks()
        self.keep_state()

    # ---- the table, kept (KeepsTable) ----------------------------------------------

    def state(self):
        cards = 0
        for pc in range(12):
            cards |= self.wheel[pc] << pc
        return bytes((STEPS.index(self.step), self.position >> 8, self.position & 255,
                      self.cursor, self.hand, cards >> 8, cards & 255))

    def restore(self, raw):
        """A kept table, if it fits this set (else nothing changes)."""
        if len(raw) != 7 or raw[0] >= len(STEPS) or max(raw[3:5]) > 11 or raw[5] > 15:
            return False
        position = raw[1] << 8 | raw[2]
        if position >= len(self.intervals):
            return False
        self.step = STEPS[raw[0]]
        self.position = position
        self.cursor, self.hand = raw[3], raw[4]
        cards = raw[5] << 8 | raw[6]
        for pc in range(12):
            self.wheel[pc] = cards >> pc & 1
        self._picks()
        return True

    @property
    def interval(self):
        return self.intervals[self.position] if self.intervals else None

    def _picks(self):
        """Sectors whose top card builds the interval with the hand note (a pc mask): the
        rule the engine plays by (core/games/looking_glass_table.py)."""
        self.picks = 0
        if self.interval is None:
            return
        occupied = 0
        for pc in range(12):
            if self.wheel[pc]:
                occupied |= 1 << pc
        self.picks = picks_up(self.semitones(), self.hand, occupied)

    def semitones(self):
        """The interval's size within the octave (the octave itself: 0, two of one note)."""
        codes = self.ctx.meldset.meld_codes(self.interval)
        return degrees.semitones(codes[-1]) % 12

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "interval" and self.intervals:
            self.position = (self.position + steps) % len(self.intervals)
        elif self.step == "wheel":
            self.cursor = (self.cursor + steps) % 12
        elif self.step == "hand":
            self.hand = (self.hand + steps) % 12
        self._picks()

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "interval":
            if self.intervals:
                self.step = "wheel"
        elif self.step == "wheel":
            self.wheel[self.cursor] ^= 1
        else:
            # The interval was picked up; the next player turns over the deck's top card (a
            # shuffled deck: the next in the set's list is no better a guess).
            self.step = "interval"
            self.hint = "turn to the INTERVAL card drawn"
        self._picks()
        self.keep_state()

    def on_double(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.step == "wheel":
            self.hand = self.cursor
            self.step = "hand"
        elif self.step == "hand":
            self.step = "wheel"
        self._picks()
        self.keep_state()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        if self.interval is None:
            clear(frame)
            return
        if self.step == "interval":
            meldset = self.ctx.meldset
            paint_meld(frame, meldset.required_mask(self.interval),
                       meldset.optional_mask(self.interval), 0, INTERVAL,
                       self.ctx.settings["colours"])
            return
        hand = self.step == "hand"
        self.blink_on = self.blink_phase(self.ctx.now)
        if hand and self.ctx.settings["private"]:      # one's own hand: the cursor alone
            clear(frame)
            paint_sector(frame, self.hand, CURSOR)
            return
        for pc in range(12):
            if hand and pc == self.hand and not self.picks >> pc & 1:
                paint_sector(frame, pc, CARD, 255, 0)
            elif hand and self.picks >> pc & 1:
                paint_sector(frame, pc, PLACED, 255, 0)
            elif self.wheel[pc]:
                paint_sector(frame, pc, CARD, OTHER_CARD_LEVEL if hand else 255, 0)
            else:
                paint_sector(frame, pc, CARD, 0, 0)
        cursor = self.hand if hand else self.cursor
        if self.blink_on:
            paint_cursor(frame, cursor)
        elif hand and not self.picks >> cursor & 1:
            paint_sector(frame, cursor, CARD, 0, 0)     # the hand note's off phase

    # ---- the console --------------------------------------------------------------------

    def describe(self):
        if self.interval is None:
            return "looking glass: this meld set has no intervals"
        meldset = self.ctx.meldset
        i = self.interval
        codes = meldset.meld_codes(i)
        title = "%s (%s)" % (meldset.meld_name(i), meldset.meld_id(i))
        if self.step == "interval":
            return "looking glass: INTERVAL card %s, at C: %s (click to keep)%s" % (
                title, meld_notes(root_note(self.ctx, 0, codes), codes),
                " (%s)" % self.hint if self.hint else "")
        cards = " ".join(pc_label(pc) for pc in range(12) if self.wheel[pc]) or "none"
        if self.step == "wheel":
            return "looking glass: %s; cards on the Wheel: %s; cursor %s" % (
                title, cards, pc_label(self.cursor))
        if not self.picks:
            return "looking glass: hand %s: no card on the Wheel builds the %s" % (
                pc_label(self.hand), title)
        return "looking glass: hand %s picks up the %s with %s" % (
            pc_label(self.hand), title, " or ".join(self._pairs(codes)))

    def _pairs(self, codes):
        """Each pick-up pair spelled with its position-1 card as the root: 'D-F#', 'Bb-D'."""
        up = self.semitones()
        pairs = []
        for pc in range(12):
            if not self.picks >> pc & 1:
                continue
            ways = []                                 # a card named once, each way it reads
            if (pc - self.hand) % 12 == up:           # the hand card on position 1
                root = root_note(self.ctx, self.hand, codes)
                ways.append("%s-%s" % (format_note(root), format_note(spell(root, codes[-1]))))
            if up and (self.hand - pc) % 12 == up:    # the Wheel card on position 1
                root = root_note(self.ctx, pc, codes)
                ways.append("%s-%s" % (format_note(root), format_note(spell(root, codes[-1]))))
            pairs.append("%s (%s)" % (pc_label(pc), " or ".join(ways)))
        return pairs
