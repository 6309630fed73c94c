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
The hand and the MELD cards held are kept in the record store (KeepsTable): they survive
mode switches, reboots and power cuts. With the `private` setting the ring shows the cursor
alone; the answers are on the display and console."""

from core import degrees
from core.hand import DECK_INTERVAL_COPIES, KIND_PLURALS, HandSearch
from core.hand_loops import STEPS_A_PIECE
from core.notes import format_note, pc_label

from firmware import modes
from firmware.modes.kept import KeepsTable
from firmware.modes.names import root_note
from firmware.modes.table_paint import (
    CARD,
    CURSOR,
    BlinkingCursor,
    paint_cursor,
    paint_kind,
    paint_sector,
)
from firmware.render import DIM_LEVEL, clear

MAX_CARDS = 24            # more than any deal (14) plus the draws of a long turn
ONE_CARD_LEVEL = DIM_LEVEL  # a sector with one card; two or more are full white
# The answer over the hand: the meld's cards in its colour lifted with white, its root with
# more, the cards left dim white; apart in brightness, not only in hue (colour-blind eyes).
LEFT_LEVEL = 130          # a card the meld shown does not use: about 10 on the wire at 64
USED_WHITE = 120
ANSWER_ROOT_WHITE = 230
HELD = "MELD cards"       # the answers' last entry: which MELD cards the answers may use
MAX_HELD = 16             # MELD cards marked held (5 are dealt)


class Mode(KeepsTable, modes.Works, BlinkingCursor, modes.Mode):

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
        # Made with the mode (its arrays, some 20 KB, while the heap is fresh from the switch);
        # the set's table is read a meld a piece of work as the first listing goes.
        self.search = None
        self.search = HandSearch(self.ctx.meldset)
        self._restart()
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
        self._restart()
        return True

    def load_state(self):
        if KeepsTable.load_state(self):
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

    # ---- the search, between passes (modes.Works): the knob stays live -----------------------
    # It starts at every change of the hand or of the MELD cards held, so the answers are
    # ready, or nearly, when asked for: the listing of every meld first, then the best turn of
    # each type, each shown as soon as found and marked "searching" until proven.

    def _restart(self):
        self.listing = None
        self.jobs = [None, None, None]      # type: list
        self.kind = 0
        self.answers = None
        self.shown = []
        self.searching = self.cards() > 0

    def has_work(self):
        return self.searching

    def work(self, time_left):
        changed = False
        while self.searching and time_left():
            if self._work_piece():
                changed = True
        return changed and self.answering

    def _work_piece(self):
        """One bounded piece of the search: True when the answers changed."""
        held = self.held or None
        if self.listing is None:
            self.listing = self.search.listing(self.counts, held)
            return False
        if not self.listing.done:
            if self.listing.step():
                self._build_answers()
                return True
            return False
        job = self.jobs[self.kind]
        if job is None:
            self.jobs[self.kind] = self.search.turn(self.counts, self.kind, held)
            return False
        before = job.result()[0]
        done = job.step(STEPS_A_PIECE)
        if done:
            self.kind += 1
            self.searching = self.kind < 3
        if done or job.result()[0] != before:
            self._build_answers()
            return True
        return False

    def _build_answers(self):
        """The answers: the best turn of each type found so far (`answers`: (label, points,
        plays)), then every meld (the listing's plays, not copied: a 14-card hand builds about
        200), then the MELD cards held. None while the listing is not done."""
        answers = []
        for kind in range(3):
            job = self.jobs[kind]
            if job is not None:
                points, plays = job.result()
                if plays:
                    answers.append((KIND_PLURALS[kind], points, plays))
        answers.sort(key=lambda a: -a[1])
        self.answers = answers
        if self.selected >= self._count():
            self.selected = 0
        self._show()

    def _show(self):
        """The plays of the answer selected, for render() (which makes nothing)."""
        label, points, plays = self._entry(self.selected)
        self.shown = [] if label == HELD else [plays] if label is None else plays

    def _count(self):
        return len(self.answers) + len(self.listing.found) + 1

    def _entry(self, k):
        """Answer k: (label, points, plays) for a best turn; (None, points, play) for a meld;
        (HELD, 0, None) for the MELD cards held."""
        turns = len(self.answers)
        if k < turns:
            return self.answers[k]
        listed = self.listing.found
        if k < turns + len(listed):
            play = self.search.play(listed[k - turns])
            return None, play.points, play
        return HELD, 0, None

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        if self.marking:
            self.mark = (self.mark + steps) % self.ctx.meldset.count
        elif self.answering:
            if self.answers is not None:
                self.selected = (self.selected + steps) % self._count()
                self._show()
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
        self._restart()

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        if self.marking:
            self._mark_one_more()
            return
        if not self.answering:
            self._add(1)
            return
        if self.answers is None:          # still searching: nothing shown to play yet
            return
        label, points, plays = self._entry(self.selected)
        if label == HELD:
            self.marking = True
            self.mark = self.held[0] if self.held else 0
            return
        if label is None:
            plays = [plays]
        from core.games.carmony_table import set_rank

        from firmware import scorebook  # the pad's code, loaded when first credited
        meldset = self.ctx.meldset
        words, taken = scorebook.play(self.ctx, [
            (meldset.meld_id(p.index), p.root, set_rank(meldset, p.index), p.pcs, p.points)
            for p in plays])
        if not taken:                     # the pad refused it (another game's): cards stay
            self.hint = words
            return
        for play in plays:
            for pc in play.pcs:
                self.counts[pc] -= 1
        self.hint = "played %s: %s" % (self._answer_name(self.selected), words)
        for play in plays:                # its MELD card is on the table now
            if play.index in self.held:
                self.held.remove(play.index)
        self._changed()
        if not self.cards():
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
        self._restart()

    def _leave_marking(self):
        self.marking = False
        self.selected = 0
        self.shown = []
        if self.listing is not None and self.listing.done:
            self._build_answers()

    def on_double(self):
        self.blink_restart(self.ctx.now)
        # Two quick clicks: two cards of the note (the press detector reports them as one).
        self.hint = None
        if self.marking:
            self.held = []
            self.keep_state()
            self._restart()
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
            KeepsTable.on_long(self)     # the menu
        elif self.counts[self.cursor]:
            self.counts[self.cursor] -= 1
            self.hint = "took back %s" % pc_label(self.cursor)
            self._changed()
        elif self.cards():
            self.answering = True
            self.selected = 0
            self.keep_state()             # the cursor, turned since the last card
            if self.listing is not None and self.listing.done:
                self._build_answers()
        else:
            KeepsTable.on_long(self)     # the menu

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
        if self.answering and self.answers is not None and self.shown:
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
        for play in self.shown:
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
        label, points, plays = self._entry(k)
        if label == HELD:
            return "MELD cards held: %s (click to mark)" % self._held_text()
        if label is None:
            text = self._play_name(plays)
            if plays.c_root:
                text += " (C root: draw %d)" % len(plays.pcs)
            return text
        job = self.jobs[KIND_PLURALS.index(label)]
        state = " (searching)" if not job.done else "" if job.proven else " (not proven)"
        return "best %s %d%s: %s" % (label, points, state,
                                     " + ".join(self._play_name(p) for p in plays))

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
        if self.answers is None:
            return "%s; searching the melds of %d cards" % (head, self.cards())
        if self._count() == 1:
            return "%s; no meld (%s)" % (head, self._answer_name(0))
        return "%s; %d/%d %s" % (head, self.selected + 1, self._count(),
                                 self._answer_name(self.selected))

    def display(self):
        if self.marking:
            i = self.mark
            return "%s held %d" % (self.ctx.meldset.meld_id(i), self.held.count(i))
        if self.answering and self.answers is not None:
            return "%d/%d %s" % (self.selected + 1, self._count(),
                                 self._answer_name(self.selected))
        if self.answering:
            return "searching..."
        return None
