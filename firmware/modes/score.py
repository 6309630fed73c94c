"""Score: the table's score pad (core/scorepad.py, kept by firmware/scorebook.py).

The knob steps through the game's scoring items, then the pad's actions (next player, undo,
end of round) and the new games. A click adds the item to the player whose turn it is (or does
the action); a double press passes the turn to the next player; a long press opens the menu.
A new game takes two clicks (the second confirms): only that clears the score.
The ring shows the seats as quarters (P1 at the top, clockwise): the player to play bright,
the others dim, the leader's quarter with its middle sector whitened. At the end of a round
the console names the next dealer by the game's rule."""

from core.scorepad import GAMES, MAX_PLAYERS, MIN_PLAYERS, TITLES, ScorePad

from firmware import modes, scorebook
from firmware.modes.table_paint import paint_kind
from firmware.render import DIM_LEVEL, clear

ACTIONS = ("next player", "undo", "end of round")
SEAT_LEVEL = DIM_LEVEL    # a seat not playing: dim, clearly on
LEADER_WHITE = 170


class Mode(modes.Mode):

    def __init__(self, ctx):
        modes.Mode.__init__(self, ctx)
        self.pad = scorebook.load(ctx)
        self.lead = self.pad.leaders()      # kept for render(), which allocates nothing
        self.selected = 0
        self.confirm = None
        self.hint = None
        self.new_games = []
        for game in range(len(GAMES)):
            for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                self.new_games.append((game, players))

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
        self.selected = (self.selected + steps) % self._entries()
        self.confirm = None
        self.hint = None

    def on_click(self):
        what, value = self._entry(self.selected)
        self.hint = None
        if what == "new":
            if self.confirm != self.selected:
                self.confirm = self.selected
                self.hint = "click again to clear the score and start it"
                return
            self.pad = ScorePad(GAMES[value[0]], value[1])
            self.selected = 0
            self.hint = "new game"
        elif self.pad.over and not (what == "action" and value == "undo"):
            self.hint = "game over: undo, or a new game"
            return
        elif what == "item":
            label, points = self.pad.items[value]
            player = self.pad.current
            self.pad.add(value)
            self.hint = "P%d %s %+d" % (player + 1, label, points)
        elif value == "next player":
            self.pad.next_player()
        elif value == "undo":
            self.hint = "took back the last entry" if self.pad.undo() else "nothing to undo"
        else:
            dealer = self.pad.end_round()
            if dealer is None:
                self.hint = "game over, winner %s" % ", ".join(
                    "P%d" % (p + 1) for p in self.pad.leaders())
            else:
                self.hint = "round %d: P%d deals, P%d plays first" % (
                    self.pad.round + 1, dealer + 1, self.pad.current + 1)
        self.confirm = None
        self._saved()

    def _saved(self):
        scorebook.save(self.ctx, self.pad)
        self.lead = self.pad.leaders()

    def on_double(self):
        self.confirm = None
        if self.pad.over:
            self.hint = "game over: undo, or a new game"
            return
        self.pad.next_player()
        self.hint = None
        self._saved()

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

    def describe(self):
        pad = self.pad
        text = "%s; %s" % (scorebook.summary(pad), self._entry_text(self.selected))
        if self.hint:
            text += " (%s)" % self.hint
        nxt = pad.next_dealer()
        if not pad.over and nxt is not None:
            text += "; next dealer if the round ends now: P%d" % (nxt + 1)
        return text

    def display(self):
        pad = self.pad
        totals = pad.totals()
        seats = " ".join("%sP%d %d" % (">" if p == pad.current and not pad.over else "",
                                       p + 1, totals[p]) for p in range(pad.players))
        return "R%d/%d %s; %s%s" % (pad.round + 1, pad.rounds, seats,
                                     self._entry_text(self.selected),
                                     " (%s)" % self.hint if self.hint else "")
