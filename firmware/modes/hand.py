"""Hand: enter your NOTE cards and see every meld they build in Carmony, the original, and the
best turn of each type (core/hand.py).

Entering: turn to a note; a click adds a card of it, two quick clicks add two (a sorted hand is
one sweep of the knob); a long press on a sector holding cards takes one back; a long press on
an empty sector shows the answers (with no cards, it opens the menu as everywhere).
Answers: the knob steps through them (the best turn of each type first, then every meld, most
points first): `2/7 C min7 70`; the ring shows the meld over the hand (its cards in the meld's
colour, the root marked, the cards left dim white). A click plays the meld shown: its points
go to the score pad's current player (firmware/scorebook.py) and its cards leave the hand. A
double press goes back to entering; a long press opens the menu.
MELD cards: the last answer (one step back from the first) says which MELD cards the answers
may use: any (the deck's) or those marked as held. A click there lists the set's melds: the
knob walks them, a click marks one more card of the meld held (past the deck's copies: none),
a double press marks none, a long press goes back to the answers, each held card playing at
most one meld (as `chromawheel hand --melds`).
The hand and the MELD cards held are kept in the record store (modes.KeepsTable): they survive
mode switches, reboots and power cuts. With the `private` setting the ring shows the cursor
alone; the answers are on the display and console."""

from core import degrees
from core.hand import DECK_INTERVAL_COPIES, KIND_PLURALS, HandSearch, counts_of
from core.notes import format_note, pc_label

from firmware import modes
from firmware.modes.names import root_note
from firmware.render import (CARD, CURSOR, DIM_LEVEL, BlinkingCursor, clear, paint_cursor,
                             paint_kind, paint_sector)

MAX_CARDS = 24            # more than any deal (14) plus the draws of a long turn
ONE_CARD_LEVEL = DIM_LEVEL  # a sector with one card; two or more are full white
# The answer over the hand: the meld's cards in its colour lifted with white, its root with
# more, the cards left dim white; apart in brightness, not only in hue (colour-blind eyes).
LEFT_LEVEL = 130          # a card the meld shown does not use: about 10 on the wire at 64
USED_WHITE = 120
ANSWER_ROOT_WHITE = 230
HELD = "MELD cards"       # the answers' last entry: which MELD cards the answers may use
MAX_HELD = 16             # MELD cards marked held (5 are dealt)


class Mode(modes.KeepsTable, BlinkingCursor, modes.Mode):

    kept_per_set = False      # the cards are notes; the MELD cards are kept by their ids
    state_format = 2          # 1: the 12 counts alone

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.cursor = 0
        self.counts = bytearray(12)
        self.held = []            # MELD cards held (meld indexes, repeats allowed); [] = any
        self.answering = False
        self.marking = False      # walking the set's melds to mark the MELD cards held
        self.mark = 0
        self.selected = 0
        self.hint = None
        self.set_changed()

    def set_changed(self):
        # The search's shapes (one per meld) are built when the answers are first asked for:
        # entering cards needs none of them (the mode fits a small heap).
        self.search = None
        self.answers = None
        if self._kept is not None:        # another set: its melds are not the cards marked
            self.held = []
            self.marking = False
            self.keep_state()

    # ---- the table, kept: the cards' counts, the cursor, the held MELD cards' ids -----------

    def state(self):
        ids = [self.ctx.meldset.meld_id(i) for i in self.held]
        return bytes(self.counts) + bytes((self.cursor,)) + ",".join(ids).encode()

    def restore(self, raw):
        if len(raw) < 12 or sum(raw[:12]) > MAX_CARDS or (len(raw) > 12 and raw[12] > 11):
            return False
        held = []
        if len(raw) > 13:
            for name in bytes(raw[13:]).decode().split(","):
                i = self._meld_index(name)
                if i is not None and len(held) < MAX_HELD:
                    held.append(i)
        self.counts[:] = raw[:12]
        self.cursor = raw[12] if len(raw) > 12 else 0
        self.held = held
        return True

    def load_state(self):
        if modes.KeepsTable.load_state(self):
            return True
        raw = self._kept                  # a hand kept before the header: its 12 counts
        return len(raw) == 12 and self.restore(bytes(raw))

    def _meld_index(self, name):
        meldset = self.ctx.meldset
        for i in range(meldset.count):
            if meldset.meld_id(i) == name:
                return i
        return None

    def cards(self):
        return sum(self.counts)

    def _answer(self):
        """The answers: the best turn of each type that has one, then every meld. Searched
        when asked for (the answers shown), not at every card: a click stays quick."""
        answers = []
        if self.search is None:
            self.search = HandSearch(self.ctx.meldset)
        held = self.held or None
        if self.cards():
            for kind in range(3):
                points, plays = self.search.best(self.counts, kind, held)
                if plays:
                    answers.append((KIND_PLURALS[kind], points, plays))
            answers.sort(key=lambda a: -a[1])
            for play in self.search.melds(self.counts, held):
                answers.append((None, play.points, [play]))
        answers.append((HELD, 0, []))
        self.answers = answers
        if self.selected >= len(answers):
            self.selected = 0

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        if self.marking:
            self.mark = (self.mark + steps) % self.ctx.meldset.count
        elif self.answering and self.answers:
            self.selected = (self.selected + steps) % len(self.answers)
        else:
            self.cursor = (self.cursor + steps) % 12
        self.hint = None

    def _add(self, n):
        for _ in range(n):
            if self.cards() >= MAX_CARDS:
                self.hint = "a hand holds at most %d cards here" % MAX_CARDS
                break
            self.counts[self.cursor] += 1
        self._changed()

    def _changed(self):
        self.keep_state()
        self.selected = 0
        self.answers = None
        if self.answering:
            self._answer()

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.marking:
            self._mark_one_more()
            return
        if not self.answering:
            self._add(1)
            return
        label, points, plays = self.answers[self.selected]
        if label == HELD:
            self.marking = True
            self.mark = self.held[0] if self.held else 0
            return
        from firmware import scorebook      # the pad's code, loaded when first credited
        words = scorebook.credit(self.ctx, points)
        for play in plays:
            for pc in play.pcs:
                self.counts[pc] -= 1
        self.hint = "played %s: %s" % (self._answer_name(self.selected), words)
        for play in plays:                # its MELD card is on the table now
            if play.index in self.held:
                self.held.remove(play.index)
        self._changed()
        if len(self.answers) == 1:        # no meld left: back to entering
            self.answering = False

    # ---- the MELD cards held ----------------------------------------------------------

    def _deck_copies(self, i):
        return DECK_INTERVAL_COPIES if self.ctx.meldset.kind(i) == 0 else 1

    def _mark_one_more(self):
        """One more MELD card of the meld under the knob held; past the deck's copies, none."""
        i = self.mark
        if self.held.count(i) >= self._deck_copies(i):
            while i in self.held:
                self.held.remove(i)
        elif len(self.held) < MAX_HELD:
            self.held.append(i)
        else:
            self.hint = "at most %d MELD cards marked" % MAX_HELD
        self.keep_state()

    def _leave_marking(self):
        self.marking = False
        self.answers = None
        self._answer()
        self.selected = 0

    def on_double(self):
        self.blink_restart(self.ctx.now)
        # Two quick clicks: two cards of the note (the press detector reports them as one).
        self.hint = None
        if self.marking:
            self.held = []
            self.keep_state()
        elif self.answering:
            self.answering = False
        else:
            self._add(2)

    def on_long(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.marking:
            self._leave_marking()
        elif self.answering:
            modes.KeepsTable.on_long(self)     # the menu
        elif self.counts[self.cursor]:
            self.counts[self.cursor] -= 1
            self.hint = "took back %s" % pc_label(self.cursor)
            self._changed()
        elif self.cards():
            self.answering = True
            self.selected = 0
            self.keep_state()             # the cursor, turned since the last card
            self._answer()
        else:
            modes.KeepsTable.on_long(self)     # the menu

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        if self.ctx.settings["private"]:        # one's own hand: the cursor alone
            self.blink_on = self.blink_phase(self.ctx.now)
            clear(frame)
            paint_sector(frame, self.cursor, CURSOR)
            return
        if self.marking:
            self._render_meld_card(frame)
            return
        if self.answering and self.answers and self.answers[self.selected][2]:
            self._render_answer(frame)
            return
        for sector in range(12):
            count = self.counts[sector]
            paint_sector(frame, sector, CARD,
                         0 if not count else ONE_CARD_LEVEL if count == 1 else 255)
        self.blink_on = self.blink_phase(self.ctx.now)     # the cursor blinks
        if self.blink_on:
            paint_cursor(frame, self.cursor)

    def _render_answer(self, frame):
        clear(frame)
        for sector in range(12):
            if self.counts[sector]:
                paint_sector(frame, sector, CARD, LEFT_LEVEL)
        plays = self.answers[self.selected][2]
        for play in plays:
            for pc in play.pcs:
                paint_kind(frame, pc, play.kind, 255,
                           ANSWER_ROOT_WHITE if pc == play.root else USED_WHITE)

    def _render_meld_card(self, frame):
        """The meld under the knob at C, full when a card of it is held, dim when not."""
        clear(frame)
        meldset = self.ctx.meldset
        kind = meldset.kind(self.mark)
        level = 255 if self.mark in self.held else DIM_LEVEL
        for code in meldset.meld_codes(self.mark):
            pc = degrees.semitones(code) % 12
            paint_kind(frame, pc, kind, level, ANSWER_ROOT_WHITE if pc == 0 else 0)

    # ---- the console --------------------------------------------------------------------

    def _hand_text(self):
        names = []
        for pc in range(12):
            names.extend([pc_label(pc)] * self.counts[pc])
        return " ".join(names) if names else "no cards"

    def _play_name(self, play):
        meldset = self.ctx.meldset
        root = root_note(self.ctx, play.root, meldset.meld_codes(play.index))
        return "%s %s %d" % (format_note(root), meldset.meld_id(play.index), play.points)

    def _held_text(self):
        if not self.held:
            return "any (the deck's)"
        meldset = self.ctx.meldset
        names = []
        for i in self.held:
            if i not in names:
                names.append(i)
        return ", ".join(meldset.meld_id(i) + ("" if self.held.count(i) == 1 else
                                               " x%d" % self.held.count(i)) for i in names)

    def _answer_name(self, k):
        label, points, plays = self.answers[k]
        if label == HELD:
            return "MELD cards held: %s (click to mark)" % self._held_text()
        if label is None:
            text = self._play_name(plays[0])
            if plays[0].c_root:
                text += " (C root: draw %d)" % len(plays[0].pcs)
            return text
        return "best %s %d: %s" % (label, points, " + ".join(self._play_name(p)
                                                               for p in plays))

    def describe(self):
        head = "hand: %s" % self._hand_text()
        if self.hint:
            head += " (%s)" % self.hint
        if self.marking:
            i = self.mark
            return ("%s; MELD cards held: %s; %d/%d %s held %d (click: one more, double: none, "
                    "long: the answers)" % (head, self._held_text(), i + 1, self.ctx.meldset.count,
                                           self.ctx.meldset.meld_id(i), self.held.count(i)))
        if not self.cards():
            return head + "; click adds the card under the cursor"
        if not self.answering:
            return "%s; %d cards; cursor %s (long press on an empty sector: the answers)" % (
                head, self.cards(), pc_label(self.cursor))
        if len(self.answers) == 1:
            return "%s; no meld (%s)" % (head, self._answer_name(0))
        return "%s; %d/%d %s" % (head, self.selected + 1, len(self.answers),
                                 self._answer_name(self.selected))

    def display(self):
        if self.marking:
            i = self.mark
            return "%s held %d" % (self.ctx.meldset.meld_id(i), self.held.count(i))
        if self.answering and self.answers:
            return "%d/%d %s" % (self.selected + 1, len(self.answers),
                                 self._answer_name(self.selected))
        return None
