"""Meld Check: enter NOTE cards on the wheel and see the melds they build, with Carmony points.

Turn to a note, click to add a card of it: at once, and two quick clicks add two cards (the
press detector reports each click on release here, no double press). On a sector holding
cards (the card just added too), a long press takes one of them back; on an empty sector it
plays the meld the cards build (its points go to the score pad's player to play, or the
wheel's seat, firmware/scorebook.py; refused in a pad of another game, the cards stay) or,
with no meld, clears them. With no cards, long press opens the menu as everywhere.
Cards that build more than one meld (C Eb F G Bb: C min11, and pentatonic readings) are read
one at a time: that long press steps into the readings instead, the knob steps through them
(`1/3 C min11 100` on the display, the ring showing the one selected), a click plays the one
shown and a long press goes back to the cards.
With the `private` setting the ring shows the cursor alone (one's own cards are not for the
table to see); the answer is on the display and the console.
The cards (and the cursor, the reading shown) are kept in the record store (meld_check.txt,
KeepsTable): they survive a reboot or a power cut.
The ring shows the cards (white, brighter for two or more); once they build a meld it shows
that meld instead (its colours, the root marked, optional sectors not entered dim). The
console names every meld the cards build, best points first, or what one more card builds
(from two cards on)."""

from core.games.carmony_table import meld_points
from core.identify import Identifier
from core.notes import format_note, pc_label

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import meld_title, root_note
from firmware.modes.readings import names_in, one_more
from firmware.modes.table_paint import (
    CARD,
    CURSOR,
    BlinkingCursor,
    card_level,
    paint_cursor,
    paint_sector,
)
from firmware.render import clear, paint_meld

MAX_CARDS = 12            # the largest meld, the chromatic scale, has 12 positions


class Mode(KeepsTable, BlinkingCursor, modes.Mode):

    clicks_at_once = True       # card entry: the app's press detector reports no double press
    kept_per_set = False        # the cards are notes: any set reads them

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.cursor = 0
        self.cards = []                 # pitch classes, in the order entered
        self.counts = bytearray(12)
        self.hint = None
        self.stepping = False           # the knob steps through the readings
        self.selected = 0               # the reading shown
        self.set_changed()

    def set_changed(self):
        self.identifier = Identifier(self.ctx.meldset)
        self._identify()
        self.keep_state()

    def _identify(self):
        """Readings as (points, meld index, root), best points first; the ring shows the first."""
        meldset = self.ctx.meldset
        readings = []
        for i, root in self.identifier.exact(self.cards):
            readings.append((meld_points(meldset.meld(i), len(self.cards)), i, root))
        readings.sort(key=lambda r: (-r[0], r[1], r[2]))
        self.readings = readings
        self.selected = 0
        self.stepping = False
        self.shown = readings[0] if readings else None

    # ---- the cards, kept (KeepsTable) ----------------------------------------------

    def state(self):
        """The cursor, whether the readings are stepped (bit 1; bit 0 is no longer used), the
        reading shown, the cards in the order entered."""
        return bytes((self.cursor, self.stepping << 1, self.selected)) + \
            bytes(self.cards)

    def restore(self, raw):
        cards = raw[3:]
        if len(raw) < 3 or len(cards) > MAX_CARDS or max(raw[:1] + cards) > 11 or raw[1] > 3:
            return False
        self.cursor = raw[0]
        self._clear()
        for pc in cards:
            self.cards.append(pc)
            self.counts[pc] += 1
        self._identify()
        if raw[1] & 2 and raw[2] < len(self.readings) > 1:     # stepping through the readings
            self.stepping = True
            self.selected = raw[2]
            self.shown = self.readings[raw[2]]
        return True

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        if self.stepping:
            self.selected = (self.selected + steps) % len(self.readings)
            self.shown = self.readings[self.selected]
            self.hint = None
            return
        self.cursor = (self.cursor + steps) % 12
        self.hint = None

    def on_click(self):
        self.blink_restart(self.ctx.now)
        if self.stepping:
            self._play()
        else:
            self._add(1)
        self.keep_state()

    def on_double(self):
        # Reported only where clicks wait for a double press (a script's "double"): two
        # quick clicks, two cards of the note, as in the hand mode.
        self.blink_restart(self.ctx.now)
        if not self.stepping:
            self._add(2)
        self.keep_state()

    def _add(self, n):
        self.hint = None
        for _ in range(n):
            if len(self.cards) == MAX_CARDS:
                self.hint = "a meld holds at most %d cards" % MAX_CARDS
                break
            self.cards.append(self.cursor)
            self.counts[self.cursor] += 1
        self._identify()

    def on_long(self):
        self.blink_restart(self.ctx.now)
        self._long()
        self.keep_state()

    def _long(self):
        if not self.cards:
            self.ctx.open_menu()
            return
        if self.stepping:                   # back to the cards
            self.stepping = False
            self.selected = 0
            self.shown = self.readings[0]
            self.hint = None
            return
        if self.counts[self.cursor]:
            # On a card (the one just added too): one of that note taken back, the last one
            # entered; the meld is played from an empty sector.
            pc = self.cursor
            for k in range(len(self.cards) - 1, -1, -1):
                if self.cards[k] == pc:
                    self.cards.pop(k)
                    break
            self.counts[pc] -= 1
            self.hint = "took back %s" % pc_label(pc)
            self._identify()
            return
        if len(self.readings) > 1:
            self.stepping = True            # more than one meld: chosen with the knob
            self.hint = None
            return
        if self.shown is not None:
            self._play()
            return
        self.hint = "cleared"
        self._clear()

    def _play(self):
        # The meld shown is played, its points go to the score pad's player (the pad's code
        # is loaded then, not before: meld check runs in a small heap).
        from core.games.carmony_table import set_rank

        from firmware import scorebook
        points, i, root = self.shown
        meldset = self.ctx.meldset
        words, taken = scorebook.play(self.ctx, [(meldset.meld_id(i), root,
                                                  set_rank(meldset, i), self.cards, points)])
        if not taken:
            self.hint = words               # refused: the cards stay
            return
        self.hint = "played, " + words
        self._clear()

    def _clear(self):
        self.cards = []
        for pc in range(12):
            self.counts[pc] = 0
        self._identify()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        if self.ctx.settings["private"]:        # one's own cards: the cursor alone
            self.blink_on = self.blink_phase(self.ctx.now)
            clear(frame)
            paint_sector(frame, self.cursor, CURSOR)
            return
        shown = self.shown
        if shown is not None:
            meldset = self.ctx.meldset
            i = shown[1]
            colours = self.ctx.settings["colours"]
            required = meldset.required_mask(i)
            optional = meldset.optional_mask(i)
            # An optional note entered is a card of the meld like a required one: lit as
            # entered, full; only the optional notes not entered stay dim.
            root = shown[2]
            for sector in range(12):
                if self.counts[sector]:
                    required |= 1 << ((sector - root) % 12)
            paint_meld(frame, required, optional & ~required, root, meldset.kind(i), colours)
        else:
            for sector in range(12):
                count = self.counts[sector]
                paint_sector(frame, sector, CARD,
                             card_level(count))
        # The cursor blinks (the root is marked steady): shown in the blink's on phase.
        self.blink_on = self.blink_phase(self.ctx.now)
        if self.blink_on or (shown is not None and self.cursor == shown[2]):
            paint_cursor(frame, self.cursor)

    # ---- the console --------------------------------------------------------------------

    def describe(self):
        head = "meld check: cursor %s" % pc_label(self.cursor)
        if self.hint:
            head += " (%s)" % self.hint
        if not self.cards:
            return head + "; no cards (click adds one)"
        meldset = self.ctx.meldset
        if not self.readings:
            return "%s; cards %s: no meld%s" % (
                head, " ".join(pc_label(pc) for pc in self.cards), self._near())
        words = []
        for points, i, root_pc in self.readings:
            codes = meldset.meld_codes(i)
            root = root_note(self.ctx, root_pc, codes)
            words.append("%s %d points%s" % (meld_title(meldset, i, root), points,
                                             " (C root: refill)" if root_pc == 0 else ""))
        if self.stepping:
            points, i, root_pc = self.shown
            return "meld check: reading %d/%d %s (click plays it, long press: the cards); " \
                "cards %s" % (self.selected + 1, len(self.readings), words[self.selected],
                              self._spelled(i, root_pc))
        points, i, root_pc = self.readings[0]
        # What one more card makes, after a meld too (E G Bb: with D, E half-diminished 7th).
        return "%s; cards %s: %s%s" % (head, self._spelled(i, root_pc), " | ".join(words),
                                       self._near())

    def display(self):
        """The panel's shorter text: the reading shown by root and id with its points and
        its place among the readings ('1/3 C min11 100'), never cut: one reading at a time."""
        if not self.cards:
            return self.describe()
        meldset = self.ctx.meldset
        if not self.readings:
            # No meld: the cards and the best of what one more card builds (the console
            # names more of them).
            parts = ["cursor " + pc_label(self.cursor),
                     "cards %s: no meld" % " ".join(pc_label(pc) for pc in self.cards)]
            near = self.identifier.near(self.cards) if len(self.cards) > 1 else ()
            if near:
                i, root_pc, extra = near[0]
                root = root_note(self.ctx, root_pc, meldset.meld_codes(i))
                parts.append("+%s: %s %s" % (pc_label(extra), format_note(root),
                                             meldset.meld_id(i)))
                if len(near) > 1:
                    parts.append("(%d more)" % (len(near) - 1))
            return "; ".join(parts)
        points, i, root_pc = self.shown
        root = root_note(self.ctx, root_pc, meldset.meld_codes(i))
        parts = ["cards " + self._spelled(i, root_pc),
                 "%d/%d %s %s %d" % (self.selected + 1, len(self.readings), format_note(root),
                                     meldset.meld_id(i), points)]
        if root_pc == 0:
            parts.append("(C root: refill)")
        if self.stepping:
            parts.append("(turn: the next)")
        else:
            parts.append("cursor " + pc_label(self.cursor))
        return "; ".join(parts)

    def _spelled(self, i, root_pc):
        """The cards in the order entered, named as the notes of the meld they build."""
        names = names_in(self.ctx, i, root_pc)
        return " ".join(names[pc] for pc in self.cards)

    def _near(self):
        return one_more(self.ctx, self.identifier, self.cards, "card builds")

