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
The hand is kept in the record store: it survives mode switches and reboots. With the
`private` setting the ring shows the cursor alone; the answers are on the display and console."""

from core.hand import KIND_PLURALS, HandSearch, counts_of
from core.notes import format_note, pc_label

from firmware import modes
from firmware.modes.names import root_note
from firmware.render import (CARD, CURSOR, DIM_LEVEL, BlinkingCursor, clear, paint_cursor,
                             paint_kind, paint_sector)

PATH = "hand.txt"
MAX_CARDS = 24            # more than any deal (14) plus the draws of a long turn
ONE_CARD_LEVEL = DIM_LEVEL  # a sector with one card; two or more are full white
# The answer over the hand: the meld's cards in its colour lifted with white, its root with
# more, the cards left dim white; apart in brightness, not only in hue (colour-blind eyes).
LEFT_LEVEL = 130          # a card the meld shown does not use: about 10 on the wire at 64
USED_WHITE = 120
ANSWER_ROOT_WHITE = 230


class Mode(BlinkingCursor, modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.cursor = 0
        self.counts = bytearray(12)
        self.answering = False
        self.selected = 0
        self.hint = None
        self._load()
        self.set_changed()

    def set_changed(self):
        # The search's shapes (one per meld) are built when the answers are first asked for:
        # entering cards needs none of them (the mode fits a small heap).
        self.search = None
        self.answers = None

    # ---- the hand, kept ----------------------------------------------------------------

    def _load(self):
        raw = self.ctx.settings.records.read(PATH)
        if raw and len(raw) == 12:
            for pc in range(12):
                self.counts[pc] = raw[pc] if raw[pc] <= MAX_CARDS else 0

    def _save(self):
        self.ctx.settings.records.write(PATH, bytes(self.counts))

    def cards(self):
        return sum(self.counts)

    def _answer(self):
        """The answers: the best turn of each type that has one, then every meld. Searched
        when asked for (the answers shown), not at every card: a click stays quick."""
        answers = []
        if self.search is None:
            self.search = HandSearch(self.ctx.meldset)
        if self.cards():
            for kind in range(3):
                points, plays = self.search.best(self.counts, kind)
                if plays:
                    answers.append((KIND_PLURALS[kind], points, plays))
            answers.sort(key=lambda a: -a[1])
            for play in self.search.melds(self.counts):
                answers.append((None, play.points, [play]))
        self.answers = answers
        if self.selected >= len(answers):
            self.selected = 0

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        if self.answering and self.answers:
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
        self._save()
        self.selected = 0
        self.answers = None
        if self.answering:
            self._answer()

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if not self.answering:
            self._add(1)
            return
        if not self.answers:
            return
        label, points, plays = self.answers[self.selected]
        from firmware import scorebook      # the pad's code, loaded when first credited
        words = scorebook.credit(self.ctx, points)
        for play in plays:
            for pc in play.pcs:
                self.counts[pc] -= 1
        self.hint = "played %s: %s" % (self._answer_name(self.selected), words)
        self._changed()
        if not self.answers:
            self.answering = False

    def on_double(self):
        self.blink_restart(self.ctx.now)
        # Two quick clicks: two cards of the note (the press detector reports them as one).
        self.hint = None
        if self.answering:
            self.answering = False
        else:
            self._add(2)

    def on_long(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.answering:
            self.ctx.open_menu()
        elif self.counts[self.cursor]:
            self.counts[self.cursor] -= 1
            self.hint = "took back %s" % pc_label(self.cursor)
            self._changed()
        elif self.cards():
            self.answering = True
            self.selected = 0
            self._answer()
        else:
            self.ctx.open_menu()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        if self.ctx.settings["private"]:        # one's own hand: the cursor alone
            self.blink_on = self.blink_phase(self.ctx.now)
            clear(frame)
            paint_sector(frame, self.cursor, CURSOR)
            return
        if self.answering and self.answers:
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

    def _answer_name(self, k):
        label, points, plays = self.answers[k]
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
        if not self.cards():
            return head + "; click adds the card under the cursor"
        if not self.answering:
            return "%s; %d cards; cursor %s (long press on an empty sector: the answers)" % (
                head, self.cards(), pc_label(self.cursor))
        if not self.answers:
            return head + "; no meld"
        return "%s; %d/%d %s" % (head, self.selected + 1, len(self.answers),
                                 self._answer_name(self.selected))

    def display(self):
        if self.answering and self.answers:
            return "%d/%d %s" % (self.selected + 1, len(self.answers),
                                 self._answer_name(self.selected))
        return None
