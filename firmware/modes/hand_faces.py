"""The hand mode's faces away from the hand and its answers (firmware/modes/hand.py): the MELD
card picker (the cards held marked at the deal, the one drawn for a card played or used to eat,
a meld another player plays, the card another player ate with), a table meld's optional notes,
the others' turn and their rarer doings. A module of its own, loaded when the hand mode turns
to one of them and dropped when it comes back: the hand's search then has the heap.

The others' turn: the cursor is the hand's; a click enters the note the player to play
discards (the turn passes: back to the hand when it is this wheel's), a long press the meld
they play rooted at the cursor (the picker, then its optional notes), a double press their
rarer doings (took the pile, ate one of this wheel's melds, went out, kept their last card,
back to the hand)."""

from core import degrees
from core.games.carmony_table import meld_points, set_rank
from core.notes import pc_label

from firmware.modes.hand import ATE, MARK, MELDS_IN_HAND, PLAYED, REPLACE
from firmware.modes.meld_picker import Picker, groups_of
from firmware.modes.table_paint import CARD, card_level, paint_cursor, paint_sector
from firmware.render import clear

PICK, OPTIONAL, TABLE, MORE = range(4)


class Faces:

    TABLE, MORE = TABLE, MORE             # the faces the hand mode asks after

    def __init__(self, mode):
        self.mode = mode
        self.groups = groups_of(mode.ctx.meldset)
        self.face = TABLE
        self.picker = None
        self.purpose = None
        self.root = 0             # where a meld another player plays is rooted
        self.optional = 0         # its optional notes: a subset's index (0: all of them)
        self.more = 0             # the rarer doing under the knob
        self.eaten = None         # the table meld another player eats (its id)

    def pick(self, purpose):
        self.purpose = purpose
        self.picker = Picker(self.mode.ctx.meldset, self.groups,
                             self.root if purpose == PLAYED else 0)
        self.face = PICK

    # ---- events ------------------------------------------------------------------------------

    def turn(self, steps):
        face = self.face
        if face == PICK:
            self.picker.turn(steps)
        elif face == OPTIONAL:
            self.optional = (self.optional + steps) % self._subsets()
        elif face == MORE:
            self.more = (self.more + steps) % len(self._doings())
        else:
            mode = self.mode
            mode.cursor = (mode.cursor + steps) % 12

    def click(self):
        face = self.face
        if face == PICK:
            self._picked(self.picker.click())
        elif face == OPTIONAL:
            self._table_meld(self.picker.shown())
        elif face == TABLE:
            self._others_discard()
        else:
            self._doing(self._doings()[self.more])

    def double(self):
        face = self.face
        if face == PICK:
            if not self.picker.back() and self.purpose == PLAYED:
                self.face = TABLE
        elif face == TABLE:
            self.face, self.more = MORE, 0
        else:
            self.face = TABLE if face == MORE else PICK

    def long(self):
        face = self.face
        if face == TABLE:
            self.root = self.mode.cursor
            self.pick(PLAYED)
        elif face == PICK:
            self._pick_long()
        else:
            self.face = TABLE

    # ---- the picker: MELD cards held, drawn, played by others ----------------------------------

    def _pick_long(self):
        """A long press in the picker: back from a meld to the groups, else done (marking:
        none marked is `any`, chosen), no card drawn (the deck ran out), or back to the
        table."""
        if self.picker.back():
            return
        purpose = self.purpose
        if purpose == MARK:
            self.mode.marked()
        elif purpose == REPLACE:
            self.mode.queue.pop(0)
            self._replace_next()
        else:
            self.face = TABLE

    def _picked(self, i):
        if i is None:
            return                        # a group opened
        mode = self.mode
        purpose = self.purpose
        meldset = mode.ctx.meldset
        if purpose == MARK:
            mode.held.append(i)
            mode.hint = "marked %s (%d of %d)" % (meldset.meld_id(i), len(mode.held),
                                                 MELDS_IN_HAND)
            if len(mode.held) < MELDS_IN_HAND:
                self.pick(MARK)
                return
            mode.marked()
        elif purpose == REPLACE:
            mode.held.append(i)
            mode.queue.pop(0)
            mode.hint = "drew %s" % meldset.meld_id(i)
            self._replace_next()
        elif purpose == ATE:
            self._others_eat(i)
        elif self._subsets() > 1:
            self.face = OPTIONAL
            self.optional = 0
        else:
            self._table_meld(i)

    def _replace_next(self):
        if self.mode.queue:
            self.pick(REPLACE)
            return
        self.mode.replaced()

    # ---- the others' turn ----------------------------------------------------------------------

    def _subsets(self):
        """The ways a meld another player plays may take its optional notes."""
        i = self.picker.shown()
        if i is None:
            return 1
        return 1 << len([c for c in self.mode.ctx.meldset.meld_codes(i)
                         if c & degrees.OPTIONAL])

    def _optional_codes(self, i):
        """The positions of meld i played with the optional subset chosen: all of them first,
        then fewer (the subset's bits clear the optional notes left out)."""
        out = []
        k = 0
        for code in self.mode.ctx.meldset.meld_codes(i):
            if code & degrees.OPTIONAL:
                k += 1
                if self.optional >> (k - 1) & 1:
                    continue
            out.append(code)
        return out

    def _table_meld(self, i):
        """Another player's meld, rooted at self.root, its optional notes as chosen."""
        mode = self.mode
        meldset = mode.ctx.meldset
        pcs = bytes([(self.root + degrees.semitones(c)) % 12 for c in self._optional_codes(i)])
        points = meld_points(meldset.meld(i), len(pcs))
        who = mode.other()
        written = mode.changing()
        ident = mode.write("meld", meldset.meld_id(i), self.root, set_rank(meldset, i), pcs,
                           points, who)
        if ident:
            written.append(ident)
            mode.hint = "P%d played %s %s %d" % (who + 1, pc_label(self.root),
                                                 meldset.meld_id(i), points)
        self.face = TABLE
        mode.changed()

    def _others_discard(self):
        mode = self.mode
        who = mode.other()
        written = mode.changing()
        ident = mode.write("discard", mode.cursor, who)
        if ident:
            written.append(ident)
            mode.hint = "P%d discarded %s" % (who + 1, pc_label(mode.cursor))
        mode.changed()
        if mode.table.current == mode.seat():
            mode.to_hand()

    def _doings(self):
        """The others' rarer doings: (label, what, value)."""
        mode = self.mode
        who = mode.other()
        out = [("P%d took the pile" % (who + 1), "pile", None)]
        seat = mode.seat()
        for m in mode.table.melds:
            if m[2] == seat:
                out.append(("P%d ate your %s %s" % (who + 1, mode.root_text(m), m[3]),
                            "ate", (m[0], m[1])))
        out.append(("P%d went out" % (who + 1), "out", None))
        out.append(("P%d kept the last card: the turn passes" % (who + 1), "pass", None))
        out.append(("back to your hand", "hand", None))
        return out

    def _doing(self, doing):
        mode = self.mode
        what = doing[1]
        if what == "hand":
            mode.to_hand()
            return
        if what == "ate":
            self.eaten = doing[2]
            self.pick(ATE)
            return
        who = mode.other()
        written = mode.changing()
        if what == "pile":
            ident = mode.write("take_pile", who)
        elif what == "out":
            ident = mode.write("goes_out", who)
        else:
            ident = mode.write("next_player")
        if ident:
            written.append(ident)
            mode.hint = doing[0]
        self.face = TABLE
        mode.changed()
        if what == "pass" and mode.table.current == mode.seat():
            mode.to_hand()

    def _others_eat(self, card):
        mode = self.mode
        meldset = mode.ctx.meldset
        who = mode.other()
        written = mode.changing()
        ident = mode.write("eat", self.eaten, meldset.meld_id(card), set_rank(meldset, card),
                           who)
        if ident:
            written.append(ident)
            mode.hint = "P%d ate it with %s" % (who + 1, meldset.meld_id(card))
        self.face = TABLE
        mode.changed()

    # ---- the ring (allocates nothing) -------------------------------------------------------

    def render(self, frame):
        if self.face in (PICK, OPTIONAL):
            self.picker.render(frame)
            return
        mode = self.mode
        clear(frame)
        if self.face == TABLE:            # the pile: what the others' discards join
            pile = mode.table.pile
            for sector in range(12):
                count = 0
                for pc in pile:
                    if pc == sector:
                        count += 1
                if count:
                    paint_sector(frame, sector, CARD, card_level(count))
        mode.blink_on = mode.blink_phase(mode.ctx.now)     # the cursor blinks
        if mode.blink_on:
            paint_cursor(frame, mode.cursor)

    # ---- the console ---------------------------------------------------------------------------

    def text(self):
        face = self.face
        mode = self.mode
        who = mode.other() + 1
        if face == PICK:
            return self._pick_text()
        if face == OPTIONAL:
            i = self.picker.shown()
            return "P%d's %s %s with %s (turn: its optional notes; click)" % (
                who, pc_label(self.root), mode.ctx.meldset.meld_id(i),
                " ".join(pc_label((self.root + degrees.semitones(c)) % 12)
                         for c in self._optional_codes(i)))
        if face == TABLE:
            return ("P%d to play, cursor %s: click, P%d discards it; long, P%d plays a meld "
                    "on it; double: more" % (who, pc_label(mode.cursor), who, who))
        doings = self._doings()
        return "%d/%d %s (click)" % (self.more + 1, len(doings), doings[self.more][0])

    def _pick_text(self):
        mode = self.mode
        purpose = self.purpose
        if purpose == MARK:
            what = "MELD card held %d of %d" % (len(mode.held) + 1, MELDS_IN_HAND)
        elif purpose == REPLACE:
            what = "the MELD card drawn for %s" % mode.ctx.meldset.meld_id(mode.queue[0])
        elif purpose == PLAYED:
            what = "P%d's meld on %s" % (mode.other() + 1, pc_label(self.root))
        else:
            what = "the MELD card P%d ate with" % (mode.other() + 1)
        return "%s: %s (click: %s; long: %s)" % (
            what, self.picker.text(), "open" if self.picker.shown() is None else "this one",
            "back" if self.picker.group is not None else
            ("done", "none drawn", "back", "back")[purpose])
