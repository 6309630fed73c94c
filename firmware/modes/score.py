"""Score: the table's score pad (core/scorepad.py, kept by firmware/scorebook.py).

The knob steps through the game's scoring items, then the pad's actions (next player, undo,
end of round) and the new games. A click adds the item to the player whose turn it is (or does
the action); a double press passes the turn to the next player; a long press opens the menu.
In The Original a meld item is a meld played: for a row of "chords or scales" (5, 6 and 7
cards) the knob then says which, and "card left in hand" asks how many (one entry). What the
rules refuse (a "went out" without 1 scale or 3 chords played, or a second one in a round) is
said, not written.
A new game takes two clicks (the second confirms: only that clears the score); then the wheel
asks its seat (P1-P4, or none for a wheel the table shares: the `seat` setting) and the first
dealer, a click keeping each (the long press that opens the menu leaves them: P1 deals).
The ring shows the seats as quarters (P1 at the top, clockwise): the player to play bright,
the others dim, the leader's quarter with its middle sector whitened. At the end of a round
the console names the next dealer by the game's rule. The entry selected is kept (the
`score_entry` setting: a reboot finds it where it was)."""

from core.scorepad import (
    CARDS_LEFT_ITEM,
    CHORD_OR_SCALE,
    GAMES,
    MAX_PLAYERS,
    MELD_ITEM_RANKS,
    MIN_PLAYERS,
    ORIGINAL,
    RANK_CHORD,
    RANK_SCALE,
    TITLES,
    ScorePadError,
)

from firmware import modes, scorebook
from firmware.modes.table_paint import paint_kind
from firmware.render import DIM_LEVEL, clear

ACTIONS = ("next player", "undo", "end of round")
SEAT_LEVEL = DIM_LEVEL    # a seat not playing: dim, clearly on
LEADER_WHITE = 170
MAX_LEFT = 30             # cards left in hand, at most (a hand of 14 and its draws)
# The steps after a click on an entry: which kind a chords-or-scales row is, how many cards
# are left; after a new game, its seat and first dealer.
PAD, KIND, LEFT, SEAT, DEALER = range(5)


class Mode(modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.pad = scorebook.load(ctx)
        self.lead = self.pad.leaders()      # kept for render(), which allocates nothing
        self.step = PAD
        self.choice = 0                     # the knob's value in a step after PAD
        self.confirm = None
        self.hint = None
        self.new_games = []
        for game in range(len(GAMES)):
            for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                self.new_games.append((game, players))
        # The entry selected is a setting, as the explorer's meld: a reboot finds it there.
        self.selected = ctx.settings["score_entry"] % self._entries()

    def _entries(self):
        return len(self.pad.items) + len(ACTIONS) + len(self.new_games)

    def _entry(self, k):
        """('item', index) | ('action', name) | ('new', (game, players))."""
        items = len(self.pad.items)
        if k < items:
            return "item", k
        k -= items
        if k < len(ACTIONS):
            return "action", ACTIONS[k]
        return "new", self.new_games[k - len(ACTIONS)]

    def _entry_text(self, k):
        what, value = self._entry(k)
        if what == "item":
            label, points = self.pad.items[value]
            return "%s %+d" % (label, points)
        if what == "action":
            return value
        return "new game: %s, %d players" % (TITLES[value[0]], value[1])

    # ---- events -------------------------------------------------------------------------

    def on_turn(self, steps):
        self.hint = None
        self.confirm = None
        if self.step == PAD:
            self.selected = (self.selected + steps) % self._entries()
            self.ctx.keep("score_entry", self.selected)
        else:
            self.choice = (self.choice + steps) % self._choices()

    def _choices(self):
        step = self.step
        if step == KIND:
            return 2
        if step == LEFT:
            return MAX_LEFT
        return self.pad.players + 1 if step == SEAT else self.pad.players

    def on_click(self):
        self.hint = None
        step = self.step
        if step == PAD:
            self._click_entry()
        elif step == KIND:
            self._add(self._entry(self.selected)[1], rank=(RANK_CHORD, RANK_SCALE)[self.choice])
        elif step == LEFT:
            self._add(CARDS_LEFT_ITEM, count=self.choice + 1)
        else:
            self._set_up(step)

    def _click_entry(self):
        what, value = self._entry(self.selected)
        if what == "new":
            self._new_game(value)
            return
        self.confirm = None
        if what == "action" and value == "undo":
            self.hint = "took back the last entry" if self.pad.undo() else "nothing to undo"
            self._saved()
            return
        if self.pad.over:
            self.hint = "game over: undo, or a new game"
            return
        if what == "action":
            self._action(value)
        elif self.pad.game == ORIGINAL and value < len(MELD_ITEM_RANKS) and \
                MELD_ITEM_RANKS[value] == CHORD_OR_SCALE:
            self.step, self.choice = KIND, 0
        elif self.pad.game == ORIGINAL and value == CARDS_LEFT_ITEM:
            self.step, self.choice = LEFT, 0
        else:
            self._add(value)

    def _action(self, value):
        if value == "next player":
            self.pad.next_player()
        else:
            dealer = self.pad.end_round()
            if dealer is None:
                self.hint = "game over, winner %s" % ", ".join(
                    "P%d" % (p + 1) for p in self.pad.leaders())
            else:
                self.hint = "round %d: P%d deals, P%d plays first" % (
                    self.pad.round + 1, dealer + 1, self.pad.current + 1)
        self._saved()

    def _add(self, item, count=1, rank=None):
        """Item `item` to the player to play (the pad's pencil: whoever's turn it is)."""
        self.step = PAD
        label, points = self.pad.items[item]
        player = self.pad.current
        try:
            self.pad.add(item, count, rank, who=player)
        except ScorePadError as err:
            self.hint = "refused: %s" % err
            return
        self.hint = "P%d %s%s %+d" % (player + 1, "%d x " % count if count > 1 else "", label,
                                      points * count)
        self._saved()

    def _new_game(self, value):
        """A new game takes two clicks (the second confirms: only that clears the score); then
        the wheel asks its seat and the first dealer (a click keeps each; the long press that
        opens the menu leaves them as they are: the seat kept, P1 dealing)."""
        if self.confirm != self.selected:
            self.confirm = self.selected
            self.hint = "click again to clear the score and start it"
            return
        self.confirm = None
        seat = scorebook.seat(self.ctx)
        # on the pad's own log: its seqs and clock go on, so the wheels it is linked to take it
        self.pad.new_game(value[0], value[1], 0, seat)
        self.selected = 0
        self.ctx.keep("score_entry", 0)
        self.hint = "new game"
        self._saved()
        self.step = SEAT
        self.choice = 0 if self.pad.seat is None else self.pad.seat + 1

    def _set_up(self, step):
        """A click in the new game's asks: the seat, then the first dealer. The pad holds the
        new game alone still, so it is made again with them."""
        seat = self.pad.seat
        dealer = self.pad.dealer
        if step == SEAT:
            seat = self.choice - 1 if self.choice else None
            self.ctx.keep("seat", None if seat is None else seat + 1)
            self.step, self.choice = DEALER, dealer
        else:
            dealer = self.choice
            self.step = PAD
            self.hint = "P%d deals, P%d plays first%s" % (
                dealer + 1, (dealer + 1) % self.pad.players + 1,
                "" if seat is None else ", this wheel P%d" % (seat + 1))
        if len(self.pad.log) == 1:                # the new game again, with these
            self.pad.new_game(self.pad.game, self.pad.players, dealer, seat)
            self._saved()
        else:                               # a player wrote meanwhile (another wheel)
            self.pad.seat = seat

    def _saved(self):
        scorebook.save(self.ctx, self.pad)
        self.lead = self.pad.leaders()

    def on_table(self):
        """Another wheel changed the table (the link): the shared pad, as it is now."""
        self.pad = scorebook.load(self.ctx)
        self.lead = self.pad.leaders()
        if self.selected >= self._entries():       # another game's items
            self.selected = 0

    def on_double(self):
        self.confirm = None
        if self.step != PAD:
            return
        if self.pad.over:
            self.hint = "game over: undo, or a new game"
            return
        self.pad.next_player()
        self.hint = None
        self._saved()

    def on_long(self):
        if self.step in (KIND, LEFT):
            self.step = PAD                   # back to the pad: nothing written
            self.hint = None
            return
        self.step = PAD                       # the seat and dealer asked: left as they are
        self.confirm = None
        self.ctx.open_menu()

    # ---- the ring (allocates nothing) ---------------------------------------------------

    def render(self, frame):
        clear(frame)
        pad = self.pad
        lead = self.lead
        for seat in range(pad.players):
            level = 255 if seat == pad.current and not pad.over else SEAT_LEVEL
            for k in range(3):
                white = LEADER_WHITE if k == 1 and seat in lead and len(lead) < pad.players \
                    else 0
                paint_kind(frame, 3 * seat + k, 1, level, white)

    # ---- the console --------------------------------------------------------------------

    def _step_text(self):
        step = self.step
        if step == KIND:
            return "%s: a %s? (turn, click; long: back)" % (
                self.pad.items[self._entry(self.selected)[1]][0], ("chord", "scale")[self.choice])
        if step == LEFT:
            return "cards left in hand: %d (turn, click; long: back)" % (self.choice + 1)
        if step == SEAT:
            return "this wheel's seat: %s (turn, click)" % (
                "P%d" % self.choice if self.choice else "none, shared by the table")
        return "first dealer: P%d (turn, click)" % (self.choice + 1)

    def describe(self):
        pad = self.pad
        entry = self._entry_text(self.selected) if self.step == PAD else self._step_text()
        text = "%s; %s" % (scorebook.summary(pad), entry)
        if self.hint:
            text += " (%s)" % self.hint
        nxt = pad.next_dealer()
        if not pad.over and nxt is not None and self.step == PAD:
            text += "; next dealer if the round ends now: P%d" % (nxt + 1)
        return text

    def display(self):
        pad = self.pad
        totals = pad.totals()
        seats = " ".join("%sP%d %d" % (">" if p == pad.current and not pad.over else "",
                                       p + 1, totals[p]) for p in range(pad.players))
        entry = self._entry_text(self.selected) if self.step == PAD else self._step_text()
        return "R%d/%d %s; %s%s" % (pad.round + 1, pad.rounds, seats, entry,
                                     " (%s)" % self.hint if self.hint else "")
