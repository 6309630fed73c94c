"""Hand: your NOTE cards and MELD cards through a round of Carmony, the original, from the deal
to the round's end, and what they can do at the table as it stands (core/hand.py, the table's
melds and pile from the score pad's log, firmware/scorebook.py).

The hand (entering): turn to a note; a click adds a card of it (a card drawn), a double press
two. A long press shows the answers (with no cards: the menu); turned onto a sector holding
cards, it discards one instead: the card leaves the hand for the pile and the turn passes (the
display says which a long press does).
The answers: the knob steps through them: the best turn of each type (from the MELD cards held,
each playing one meld), the discard pile's what-if (the best turn with it against without),
each eat the MELD cards held allow (which table meld, with which card, and the best turn the
hand then has: eating replaces playing this turn), then every meld the hand builds; one step
back from the first: the MELD cards held, the table, a new round, undo. A click does what the
answer says (plays the turn or the meld, takes the pile, eats); a double press goes back to
the hand, a long press opens the menu. After a play or an eat the wheel asks for each MELD card
drawn to replace one (the rulebook keeps 5 in hand: the picker by kind, meld_picker.py), then
puts the cursor on the card the hand misses least: a long press discards it.
The table: while another player plays (after your discard, on a wheel with a seat), a click
enters the note they discard (the turn passes), a long press on a sector the meld they play
rooted there (the picker, then its optional notes), a double press the rest (they took the
pile, ate one of your melds, went out; back to your hand).
The hand, the MELD cards held, the cursor and the card barred are kept in the record store
(KeepsTable; undo reaches back 6 changes, until a mode switch or a reboot); the table is the
score pad's (read into a View, its code off the heap but while it writes). With the `private`
setting the ring shows the cursor alone; the answers are on the display and console."""

from core import degrees
from core.games.carmony_table import may_go_out, set_rank
from core.hand import KIND_PLURALS
from core.hand_round import deck_cards, discard_choice, eats, joined, without
from core.notes import format_note, pc_label
from core.spelling import spell

from firmware import modes, scorebook
from firmware.modes.hand_work import EAT, PILE, TURN, Answers, prepare
from firmware.modes.kept import KeepsTable
from firmware.modes.names import root_note
from firmware.modes.table_paint import (
    CARD,
    CURSOR,
    BlinkingCursor,
    card_level,
    paint_cursor,
    paint_kind,
    paint_sector,
)
from firmware.render import clear

MAX_CARDS = 24            # more than any deal (14) plus the draws of a long turn
MELDS_IN_HAND = 5         # MELD cards dealt, and kept by drawing
# The answer over the hand: the meld's cards in its colour lifted with white, its root with
# more, the cards left dim white; apart in brightness, not only in hue (colour-blind eyes).
LEFT_LEVEL = 130
USED_WHITE = 120
ANSWER_ROOT_WHITE = 230
MELD_LEVELS = (255, 180)  # a best turn's melds, every other one a step dimmer
UNDO_KEPT = 6             # changes that can be taken back
# After every meld, so one step back from the first answer is the MELD cards held, two the
# table, three a new round, four undo.
TAIL = ("undo", "round", "table", "held")
# The faces: the hand, the answers, the pile's first card (at the deal), and AWAY: the
# MELD card picker or the others' turn (firmware/modes/hand_faces.py, loaded while there).
HAND, ANSWERS, FIRST, AWAY = range(4)
# What the picker picks: MELD cards held at the deal, the one drawn for one played or used to
# eat, a meld another player plays, the MELD card another player ate one of yours with.
MARK, REPLACE, PLAYED, ATE = range(4)
FACES = ("firmware.modes.hand_faces", "firmware.modes.meld_picker")


class Mode(KeepsTable, modes.Works, BlinkingCursor, modes.Mode):

    kept_per_set = False      # the cards are notes; the MELD cards are kept by their ids
    state_format = 3          # 2: no pile card barred; 1: the 12 counts alone

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.cursor = 0
        self.counts = bytearray(12)
        self.held = []            # MELD cards held (meld indexes); [] = any (the deck's)
        self.barred = None        # the single card taken from the pile: not discarded now
        self.armed = False        # the cursor turned onto a card: a long press discards it
        self.face = HAND
        self.selected = 0
        self.confirm = None
        self.hint = None
        self.faces = None         # hand_faces.Faces while AWAY
        self.queue = []           # MELD cards to replace (meld indexes)
        self.undos = []           # (counts, held, barred, [entry ids written]) before a change
        self.shown = []
        # The score pad's state (its code off the heap) and the answers: load_mode made them
        # before this code loaded (PREPARED), or they are made here.
        prepared, ctx.prepared = ctx.prepared, None
        self.table, self.answers = prepared or prepare(ctx)
        self._restart()

    def set_changed(self):
        self.answers = None
        self.answers = Answers(self.ctx.meldset)
        self._restart()
        if self._kept is not None:        # another set: its melds are not the cards marked
            self.held = []
            self.keep_state()

    # ---- the table, kept: the counts, the cursor, the barred card, the MELD cards' ids -----

    def state(self):
        """The 12 counts, the cursor, the barred card (255: none), the MELD cards held's ids."""
        ids = [self.ctx.meldset.meld_id(i) for i in self.held]
        return bytes(self.counts) + bytes((self.cursor, 255 if self.barred is None else
                                           self.barred)) + ",".join(ids).encode()

    def restore(self, raw):
        if len(raw) < 14 or sum(raw[:12]) > MAX_CARDS or raw[12] > 11 or \
                (raw[13] > 11 and raw[13] != 255):
            return False
        held = []
        if len(raw) > 14:
            for name in bytes(raw[14:]).decode().split(","):
                i = self._meld_index(name)
                if i is not None and len(held) < MELDS_IN_HAND:
                    held.append(i)
        self.counts[:] = raw[:12]
        self.cursor = raw[12]
        self.barred = None if raw[13] == 255 else raw[13]
        self.held = held
        self._restart()
        return True

    def _meld_index(self, name):
        meldset = self.ctx.meldset
        for i in range(meldset.count):
            if meldset.meld_id(i) == name:
                return i
        return None

    def cards(self):
        return sum(self.counts)

    # ---- the table: the score pad's state ------------------------------------------------

    def _original(self):
        return self.table.original

    def seat(self):
        """This wheel's seat, or with none the player to play's."""
        return self.table.actor()

    def other(self):
        """The player another player's doings are about: the player to play, or the next."""
        table = self.table
        return table.current if table.current != self.seat() else \
            (table.current + 1) % table.players

    def write(self, name, *args):
        """A pad entry (the pad's method `name` with args): its id, or None and the refusal
        said."""
        ids, error = self.writes([(name, args)])
        if error:
            self.hint = "not kept: %s" % error
        return ids[0] if ids else None

    def writes(self, calls):
        """Pad entries (scorebook.write): the search's arrays leave the heap while the pad's
        code is in it (a QT Py has room for one of them), and are made again after: every
        write restarts the answers. (ids written, the refusal or None)."""
        self.answers = None
        ids, error, self.table = scorebook.write(self.ctx, calls)
        self.answers = Answers(self.ctx.meldset)
        self.answers.start([(TURN, b"", [], None)])     # nothing asked until the restart
        return ids, error

    def _table_cards(self):
        return [m[3] for m in self.table.melds if m[3]]

    # ---- the search, between passes (modes.Works) ------------------------------------------

    def _held_cards(self):
        """The MELD cards the answers use: those held, or the deck's less the table's."""
        return self.held or deck_cards(self.ctx.meldset, self._table_cards())

    def _restart(self):
        held = self._held_cards()
        questions = [(TURN, bytes(self.counts), held, None)]
        if self.table.pile and self._original():
            questions.append((PILE, joined(self.counts, self.table.pile), held, None))
        table = [(m[2], m[5], m[6]) for m in self.table.melds]
        if self.held and self._original():
            for t, k in eats(self.ctx.meldset, self.held, table, self.seat()):
                questions.append((EAT, joined(self.counts, table[t][2]), without(self.held, k),
                                  (t, k)))
        self.answers.start(questions)
        self.entries = None
        self.shown = []

    def on_table(self):
        """Another wheel changed the shared table (the link): the answers for it, and the hand
        face when the turn came back to this wheel or the round went out (the cards left to
        count, a new round to start)."""
        self.answers = None               # room for the pad's code (writes())
        self.table = scorebook.view(self.ctx)
        self.answers = Answers(self.ctx.meldset)
        self._restart()
        out = self.table.went_out
        if self.face == AWAY and self.faces.face in (self.faces.TABLE, self.faces.MORE) and \
                (self.table.current == self.seat() or out is not None):
            self.to_hand()
            if out is not None and out != self.seat():
                self.hint = "P%d went out: the round is over (the answers' new round counts " \
                    "your cards left)" % (out + 1)

    def has_work(self):
        return not self.answers.done

    def work(self, time_left):
        changed = False
        while not self.answers.done and time_left():
            if self.answers.step():
                changed = True
        if changed:
            self._build_entries()
        return changed

    def _build_entries(self):
        """The answers before every meld: the best turn of each type, the pile, the eats."""
        answers = self.answers
        entries = [("turn", t) for t in answers.turns(0)]
        for q in range(1, len(answers.questions)):
            entries.append(("pile" if answers.questions[q][0] == PILE else "eat", q))
        self.entries = entries
        if self.selected >= self._count():
            self.selected = 0
        self._show()

    def _count(self):
        return len(self.entries) + len(self.answers.found) + len(TAIL)

    def _entry(self, k):
        """Answer k: (what, value): ("turn", (points, plays, kind)), ("pile", q), ("eat", q),
        ("meld", Play), or a TAIL name with None."""
        k %= self._count()
        if k < len(self.entries):
            return self.entries[k]
        k -= len(self.entries)
        listed = self.answers.found
        if k < len(listed):
            return "meld", self.answers.search.play(listed[k])
        return TAIL[k - len(listed)], None

    def _show(self):
        """The plays the ring shows for the answer selected (render() makes nothing)."""
        what, value = self._entry(self.selected)
        self.shown = []
        if what == "turn":
            self.shown = value[1]
        elif what == "meld":
            self.shown = [value]
        elif what in ("pile", "eat"):
            best = self.answers.best(value)
            self.shown = best[1] if best else []

    def _ready(self):
        answers = self.answers
        return answers.listing is not None and answers.listing.done and \
            answers.distinct is None and self.entries is not None

    # ---- events ----------------------------------------------------------------------------

    def on_turn(self, steps):
        self.blink_restart(self.ctx.now)
        self.hint = None
        self.confirm = None
        face = self.face
        if face == AWAY:
            self.faces.turn(steps)
        elif face == ANSWERS:
            if self._ready():
                self.selected = (self.selected + steps) % self._count()
                self._show()
        else:
            self.cursor = (self.cursor + steps) % 12
            self.armed = face == HAND and self.counts[self.cursor] > 0

    def on_click(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        face = self.face
        if face == HAND:
            self._add(1)
        elif face == ANSWERS:
            self._answer_click()
        elif face == AWAY:
            self.faces.click()
        else:                             # the pile's first card
            self.write("start_pile", self.cursor)
            self.hint = "the pile starts with %s" % pc_label(self.cursor)
            self._dealt()

    def on_double(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        face = self.face
        if face == HAND:
            self._add(2)                  # two quick clicks: two cards of the note
        elif face == ANSWERS:
            self.face = HAND
        elif face == AWAY:
            self.faces.double()

    def on_long(self):
        self.blink_restart(self.ctx.now)
        self.hint = None
        face = self.face
        if face == HAND:
            self._hand_long()
        elif face == AWAY:
            self.faces.long()
        elif face == FIRST:
            self._dealt()
        else:
            KeepsTable.on_long(self)     # the menu

    # ---- the faces away (hand_faces.py: loaded while there, then dropped) --------------------

    def away(self, purpose=None):
        """To the picker (a purpose: MARK, REPLACE) or the others' turn (None)."""
        if self.faces is None:
            from firmware.modes import hand_faces
            self.faces = hand_faces.Faces(self)
        if purpose is None:
            self.faces.face = self.faces.TABLE
        else:
            self.faces.pick(purpose)
        self.face = AWAY

    def home(self, face):
        """Back from the faces away: their code leaves the heap."""
        self.face = face
        if self.faces is not None:
            self.faces = None
            from firmware import unload
            unload(FACES)

    def to_hand(self):
        self.home(HAND)
        self.armed = False

    def marked(self):
        """The MELD cards held marked: at the deal (nothing on the pile, no turn played yet)
        the wheel asks for the pile's first card, then it is the hand's turn or the table's."""
        self.changed()
        if self._original() and not self.table.pile and not self.table.turns:
            self.home(FIRST)
        else:
            self._dealt()

    def _dealt(self):
        table = self.table
        if self._original() and table.seat is not None and table.current != table.seat:
            self.away()
        else:
            self.home(HAND)
        self.changed()

    def replaced(self):
        """The MELD cards drawn entered: the hand, the cursor on its least missed card."""
        self.keep_state()
        self._restart()
        self._to_discard()

    def _hand_long(self):
        if self.armed and self.counts[self.cursor]:
            self._discard()
        elif self.cards():
            self.face = ANSWERS
            self.selected = 0
            self.keep_state()             # the cursor, turned since the last card
            if self._ready():
                self._build_entries()
        else:
            KeepsTable.on_long(self)     # the menu

    # ---- the hand's changes, each kept, and taken back by undo -----------------------------

    def changing(self):
        """Keep the state before a change (undo); returns the list the change's pad entries
        go into."""
        written = []
        self.undos.append((bytes(self.counts), list(self.held), self.barred, written))
        if len(self.undos) > UNDO_KEPT:
            self.undos.pop(0)
        return written

    def changed(self):
        self.keep_state()
        self.selected = 0
        self._restart()

    def _add(self, n):
        self.changing()
        for _ in range(n):
            if self.cards() >= MAX_CARDS:
                self.hint = "a hand holds at most %d cards here" % MAX_CARDS
                break
            self.counts[self.cursor] += 1
        self.armed = False
        self.changed()

    def _undo(self):
        if not self.undos:
            self.hint = "nothing to undo"
            return
        counts, held, barred, written = self.undos.pop()
        self._take_back(written)
        self.counts[:] = counts
        self.held = held
        self.barred = barred
        self.hint = "took back the last change"
        self.changed()

    def _take_back(self, written):
        """Undo entries for the pad entries a change wrote, the last first (one the game has
        moved past stands)."""
        if written:
            self.writes([("undo", (ident,)) for ident in reversed(written)])

    def _discard(self):
        pc = self.cursor
        if pc == self.barred and self.counts[pc] < self.cards():
            self.hint = "%s was the pile's only card: not discarded this turn" % pc_label(pc)
            return
        if pc == self.barred:
            # The rulebook bars that note's discard and the hand holds no other: the engine's
            # turn ends without a discard (core/games/carmony.py), so does the wheel's.
            self._pass_turn("%s was the pile's only card and the hand holds no other: not "
                            "discarded, the turn passes" % pc_label(pc))
            return
        if self.cards() == 1 and self._original() and not self._may_go_out():
            # The rulebook's going out needs the right: the card stays, the turn passes.
            self._pass_turn("the last card stays (going out needs 1 scale or 3 chords "
                            "played): the turn passes")
            return
        written = self.changing()
        self.counts[pc] -= 1
        self.hint = "discarded %s" % pc_label(pc)
        if self._original():
            ident = self.write("discard", pc)
            if ident:
                written.append(ident)
            self._went_out(written)
        self.barred = None
        self.changed()
        if self.cards():
            self._to_table()

    def _pass_turn(self, hint):
        """No card may be discarded: the turn passes without one (the pad's entry)."""
        written = self.changing()
        ident = self.write("next_player")
        if ident:
            written.append(ident)
        self.hint = hint
        self.barred = None                # the bar lasts the turn it was taken in
        self.keep_state()
        self._to_table()

    def _to_table(self):
        """The turn passed: on a wheel with a seat, the table face for the others' turn."""
        self.armed = False
        if self._original() and self.table.seat is not None and \
                self.table.current != self.table.seat:
            self.away()

    def _may_go_out(self):
        seat = self.seat()
        return may_go_out([m[5] for m in self.table.melds if m[2] == seat])

    def _went_out(self, written):
        """The hand is empty: the player went out (the pad's entry, its rules)."""
        if self.cards() or not self._original():
            return
        ident = self.write("goes_out")
        if ident:
            written.append(ident)
            self.hint += "; went out, +200"

    # ---- the answers' clicks ---------------------------------------------------------------

    def _answer_click(self):
        if not self._ready():
            return                        # still searching: nothing shown to act on yet
        what, value = self._entry(self.selected)
        if what == "turn":
            self._play(value[1])
        elif what == "meld":
            self._play([value])
        elif what == "pile":
            self._take_pile()
        elif what == "eat":
            self._eat(self.answers.questions[value][3])
        elif what == "held":
            self.held = []
            self.away(MARK)
        elif what == "table":
            self.away()
        elif what == "round":
            self._new_round()
        else:
            self._undo()

    def _play(self, plays):
        """Play these melds: their cards leave the hand, they go on the table (the pad), and
        the wheel asks for the MELD cards drawn for those held. A turn that would play every
        card without the right to go out plays all but its last meld (the fewest points)."""
        kept = None
        if self._empties(plays):
            if len(plays) == 1:
                self.hint = "that plays every card: going out needs 1 scale or 3 chords played"
                return
            kept = plays[-1]
            plays = plays[:-1]
        meldset = self.ctx.meldset
        ids, error = self.writes([("meld", (
            meldset.meld_id(p.index), p.root, set_rank(meldset, p.index), p.pcs, p.points))
            for p in plays])
        if error:                         # refused (a pad of another game): nothing changes
            self.hint = "not kept: %s" % error
            if ids:
                self._take_back(ids)
            return
        written = self.changing()
        written.extend(ids)
        for play in plays:
            for pc in play.pcs:
                self.counts[pc] -= 1
            if play.index in self.held:
                self.held.remove(play.index)
                self.queue.append(play.index)
        points = 0
        for play in plays:
            points += play.points
        self.hint = "played %s: credited %d to P%d; %s" % (
            " + ".join(self._play_name(p) for p in plays), points, self.seat() + 1,
            self.table.summary)
        if kept is not None:
            self.hint += " (%s kept: going out needs 1 scale or 3 chords played)" % (
                self._play_name(kept))
        self._went_out(written)
        self._after_turn()

    def _empties(self, plays):
        """Would these melds play every card, without the right to go out?"""
        used = 0
        for play in plays:
            used += len(play.pcs)
        return used == self.cards() and self._original() and not may_go_out(
            [m[5] for m in self.table.melds if m[2] == self.seat()] +
            [set_rank(self.ctx.meldset, p.index) for p in plays])

    def _take_pile(self):
        written = self.changing()
        pile = self.table.pile
        ident = self.write("take_pile")
        if ident is None:
            self.undos.pop()
            return
        written.append(ident)
        for pc in pile:
            self.counts[pc] += 1
        self.barred = pile[0] if len(pile) == 1 else None
        self.hint = "took the pile: %s" % " ".join(pc_label(pc) for pc in pile)
        self.changed()

    def _eat(self, pair):
        t, k = pair
        meld = self.table.melds[t]
        card = self.held[k]
        written = self.changing()
        ident = self.write("eat", (meld[0], meld[1]), self.ctx.meldset.meld_id(card),
                            set_rank(self.ctx.meldset, card))
        if ident is None:
            self.undos.pop()
            return
        written.append(ident)
        for pc in meld[6]:
            self.counts[pc] += 1
        self.held.pop(k)
        self.queue.append(card)
        self.hint = "ate P%d's %s with %s" % (meld[2] + 1, meld[3] or "meld",
                                              self.ctx.meldset.meld_id(card))
        self._after_turn()

    def _after_turn(self):
        """After a play or an eat: the MELD cards drawn for those used, then the hand, the
        cursor on the card it misses least."""
        self.keep_state()
        self._restart()
        if self.queue:
            self.away(REPLACE)
            return
        self._to_discard()

    def _to_discard(self):
        self.face = HAND
        self.selected = 0
        self.queue = []
        search = self.answers.search
        # The hand's melds one at a time (a list of them all is some 20 KB on a board).
        plays = (search.play(code) for code in
                 search.listed(search.expand(self.counts, self._held_cards())))
        pc = discard_choice(plays, self.counts, self.barred) if self.cards() else None
        if pc is None and self.cards():
            pc = self.barred              # none may go: its long press passes the turn
        if pc is not None:
            self.cursor = pc
            self.armed = True
        self.keep_state()

    def _new_round(self):
        if self.confirm != "round":
            self.confirm = "round"
            self.hint = "click again: the cards left (%d) to the score pad, the hand cleared" % (
                self.cards())
            return
        self.confirm = None
        left = self.cards()
        if left and self._original() and not self.table.left[self.seat()]:
            self.write("cards_left", left)
        for pc in range(12):
            self.counts[pc] = 0
        self.held = []
        self.barred = None
        self.undos = []
        self.face = HAND
        self.hint = "new round: %d cards left counted; enter the deal" % left
        self.changed()

    # ---- the ring (allocates nothing) ------------------------------------------------------

    def render(self, frame):
        if self.ctx.settings["private"]:        # one's own hand: the cursor alone
            self.blink_on = self.blink_phase(self.ctx.now)
            clear(frame)
            paint_sector(frame, self.cursor, CURSOR)
            return
        face = self.face
        if face == AWAY:
            self.faces.render(frame)
            return
        if face == ANSWERS and self.shown:
            self._render_answer(frame)
            return
        for sector in range(12):
            paint_sector(frame, sector, CARD, card_level(self.counts[sector]))
        self.blink_on = self.blink_phase(self.ctx.now)     # the cursor blinks
        if self.blink_on:
            paint_cursor(frame, self.cursor)

    def _render_answer(self, frame):
        clear(frame)
        for sector in range(12):
            if self.counts[sector]:
                paint_sector(frame, sector, CARD, LEFT_LEVEL)
        for k in range(len(self.shown)):   # a turn's melds a step apart: whose cards are whose
            play = self.shown[k]
            for pc in play.pcs:
                paint_kind(frame, pc, play.kind, MELD_LEVELS[k % 2],
                           ANSWER_ROOT_WHITE if pc == play.root else USED_WHITE)

    # ---- the console ---------------------------------------------------------------------

    def _hand_text(self):
        names = []
        for pc in range(12):
            names.extend([pc_label(pc)] * self.counts[pc])
        return " ".join(names) if names else "no cards"

    def _play_name(self, play):
        meldset = self.ctx.meldset
        root = root_note(self.ctx, play.root, meldset.meld_codes(play.index))
        return "%s %s %d" % (format_note(root), meldset.meld_id(play.index), play.points)

    def _turn_text(self, q, turn):
        points, plays, kind = turn
        state = "" if self.answers.proven(q, kind) else " (searching)"
        if (q, kind) in self.answers.cut or self.answers.short:
            state = " (not proven: this board's memory)"
        # Which cards go into which meld: each meld's cards spelled after it.
        return "best %s %d%s: %s" % (KIND_PLURALS[kind], points, state, " + ".join(
            "%s (%s)" % (self._play_name(p), self._play_cards(p)) for p in plays))

    def _play_cards(self, play):
        """'G-D': a meld's cards, in card order, named as its notes."""
        root = root_note(self.ctx, play.root, self.ctx.meldset.meld_codes(play.index))
        return "-".join(format_note(spell(root, code & ~degrees.OPTIONAL))
                        for code in play.positions)

    def _best_text(self, q):
        best = self.answers.best(q)
        return self._nothing_text() if best is None else self._turn_text(q, best)

    def _nothing_text(self):
        """No best turn: none there, or none found before a small board's heap cut the search
        short (a 14-card hand on the QT Py), which "nothing to play" would misstate."""
        return "not searched: this board's memory" if self.answers.short else "nothing to play"

    def root_text(self, meld):
        """A table meld's root, spelled, or '' for one entered as a score item."""
        if not meld[3]:
            return ""
        i = self._meld_index(meld[3])
        if i is None or meld[4] > 11:
            return pc_label(meld[4]) if meld[4] <= 11 else ""
        return format_note(root_note(self.ctx, meld[4], self.ctx.meldset.meld_codes(i)))

    def _answer_text(self, k):
        what, value = self._entry(k)
        if what == "turn":
            return self._turn_text(0, value)
        if what == "meld":
            text = self._play_name(value)
            return text + (" (C root: draw %d)" % len(value.pcs) if value.c_root else "")
        if what == "pile":
            return "take the pile %s: %s (now %s) (click: take it)" % (
                " ".join(pc_label(pc) for pc in self.table.pile), self._best_text(value),
                self._points(0))
        if what == "eat":
            t, card = self.answers.questions[value][3]
            meld = self.table.melds[t]
            return "eat P%d's %s %s with %s: then %s (eating replaces playing)" % (
                meld[2] + 1, self.root_text(meld), meld[3] or "meld",
                self.ctx.meldset.meld_id(self.held[card]), self._best_text(value))
        return self._tail_text(what)

    def _points(self, q):
        best = self.answers.best(q)
        return "0" if best is None else str(best[0])

    def _tail_text(self, what):
        if what == "held":
            return "MELD cards held: %s (click: mark the 5 held)" % self._held_text()
        if what == "table":
            return "the table (click: what the others do)"
        if what == "round":
            return "new round (click twice: the cards left counted, the hand cleared)"
        return "undo the last change" if self.undos else "nothing to undo"

    def _held_text(self):
        if not self.held:
            return "any (the deck's)"
        return " ".join(self.ctx.meldset.meld_id(i) for i in self.held)

    def _table_text(self):
        """'P2 maj C-E-G, P1 5 G-D': the melds on the table, each by its seat, MELD card and
        NOTE cards spelled (the frames' "table")."""
        parts = []
        for meld in self.table.melds:
            parts.append("P%d %s %s" % (meld[2] + 1, meld[3] or "*",
                                        "-".join(self._spelled(meld))))
        return ", ".join(parts) or "none"

    def _spelled(self, meld):
        """A table meld's NOTE cards, named as the notes of its meld."""
        i = self._meld_index(meld[3]) if meld[3] else None
        if i is None or meld[4] > 11:
            return [pc_label(pc) for pc in meld[6]]
        codes = self.ctx.meldset.meld_codes(i)
        root = root_note(self.ctx, meld[4], codes)
        left = list(meld[6])
        names = []
        for code in codes:
            pc = (meld[4] + degrees.semitones(code)) % 12
            if pc in left:
                left.remove(pc)
                names.append(format_note(spell(root, code & ~degrees.OPTIONAL)))
        return names

    def _face_text(self):
        if self.face == AWAY:
            return self.faces.text()
        if self.face == FIRST:
            return ("the pile's first card, turned over at the deal: cursor %s (click; long: "
                    "none)" % pc_label(self.cursor))
        return None

    def _hand_face_text(self):
        if not self.cards():
            return "click adds the card under the cursor"
        if self._passes():
            long = "long press: the turn passes, %s not discarded" % pc_label(self.cursor)
        elif self.armed and self.counts[self.cursor]:
            long = "long press: discard %s" % pc_label(self.cursor)
        else:
            long = "long press: the answers"
        # The best turn once proven (the console's line the same on every board, however fast
        # its search): "searching" until then, as the display shows the best found so far.
        best = self._best_text(0) if self.answers.answered(0) else "searching"
        return "%d cards; cursor %s (%s); %s%s" % (self.cards(), pc_label(self.cursor), long, best,
                                                   self._table_answers())

    def _passes(self):
        """Armed on the pile's single card, the hand holding no other: no discard, a pass."""
        return self.armed and self.cursor == self.barred and \
            self.counts[self.cursor] == self.cards()

    def _table_answers(self):
        """'; pile: best 180; eat: 2': what the table's answers say, at a glance."""
        text = ""
        eats = 0
        for q in range(1, len(self.answers.questions)):
            if self.answers.questions[q][0] == PILE:
                text += "; pile: best %s" % (self._points(q) if self.answers.answered(q) else
                                             "searching")
            else:
                eats += 1
        if eats:
            text += "; eat: %d" % eats
        return text

    def describe(self):
        head = "hand: %s" % self._hand_text()
        if self.hint:
            head += " (%s)" % self.hint
        text = self._face_text()
        if text is None and self.face == ANSWERS:
            if not self._ready():
                text = "searching the melds of %d cards" % self.cards()
            else:
                text = "%d/%d %s" % (self.selected % self._count() + 1, self._count(),
                                     self._answer_text(self.selected))
        elif text is None:
            text = self._hand_face_text()
        tail = "; held: %s; table: %s" % (" ".join(self.ctx.meldset.meld_id(i)
                                                   for i in self.held) or "any",
                                          self._table_text())
        if self.table.pile:
            tail += "; pile: %s" % " ".join(pc_label(pc) for pc in self.table.pile)
        return "%s; %s%s" % (head, text, tail)

    def display(self):
        """The panel's shorter text: what a long press does and the best turn come before the
        cards (a hand of 14 fills the panel)."""
        text = self._face_text()
        if text is not None:
            return text
        if self.face == ANSWERS and self._ready():
            return "%d/%d %s" % (self.selected % self._count() + 1, self._count(),
                                 self._answer_text(self.selected))
        if self.face == ANSWERS:
            return "searching..."
        if not self.cards():
            return "hand: no cards; click adds the card under the cursor"
        best = self.answers.best(0)
        return "%d cards, cursor %s; long: %s; %s; %s" % (
            self.cards(), pc_label(self.cursor),
            "pass" if self._passes() else
            "discard" if self.armed and self.counts[self.cursor] else "the answers",
            ("best %s %d" % (KIND_PLURALS[best[2]], best[0]) if best else
             "searching" if not self.answers.done else self._nothing_text()) +
            self._table_answers(), self._hand_text())
