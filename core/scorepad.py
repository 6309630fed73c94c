"""The score pad: pencil and paper for the table, by each rulebook's scoring table and rounds.

A pad is a log of actions, replayed to get its state, so undo is "drop the last action" and the
store keeps one short text:
    ("add", points, item)   the current player scores an item (item: its index in ITEMS, or
                            -1 for a meld credited with its points)
    ("next",)               the turn passes clockwise
    ("round",)              the round ends: the next dealer deals, the player to the dealer's
                            left plays first
Seats are numbered clockwise from 0; the first round's dealer is seat `dealer` (chosen at random
at the table, entered on the pad). The next dealer: The Original and Through the Looking Glass,
the player to the right of the round's winner (a tie goes to who went out, then to the first
player after the dealer, clockwise); Chord Poker, the next player clockwise. Bluff the Scale has
no rounds and no points: the pad counts each player's NOTE cards, and the fewest leads.
"""

from core.games import round_winner
from core.games.carmony_table import (
    GOING_OUT_POINTS,
    MAJOR_SCALE_POINTS,
    POINTS_BY_CARDS,
    POWER_CHORD_POINTS,
    UNPLAYED_CARD_POINTS,
)

GAMES = ("original", "chord-poker", "looking-glass", "bluff")
TITLES = ("The Original", "Chord Poker", "Through the Looking Glass", "Bluff the Scale")
ROUNDS = (3, 4, 2, 1)
MIN_PLAYERS = 2
MAX_PLAYERS = 4

_ORIGINAL_ITEMS = (
    ("2-card meld", POINTS_BY_CARDS[2]), ("3-card meld", POINTS_BY_CARDS[3]),
    ("4-card meld", POINTS_BY_CARDS[4]), ("5-card meld", POINTS_BY_CARDS[5]),
    ("power chord", POWER_CHORD_POINTS), ("6-card meld", POINTS_BY_CARDS[6]),
    ("7-card meld", POINTS_BY_CARDS[7]), ("major scale", MAJOR_SCALE_POINTS),
    ("12-card meld", POINTS_BY_CARDS[12]), ("went out", GOING_OUT_POINTS),
    ("card left in hand", UNPLAYED_CARD_POINTS))
ITEMS = (
    _ORIGINAL_ITEMS,
    (("chord completed", 5), ("four of a kind", 8), ("three of a kind", 5), ("pair", 2),
     ("unmatched card", -1)),
    (("Alice", 4), ("all 8 Alices", 8), ("rabbit's run", 5), ("octave", 8),
     ("all 3 octaves", 3), ("tritone", 6), ("all 3 tritones", 3), ("fifth", 5),
     ("all 3 fifths", 3), ("fourth", 4), ("all 3 fourths", 3), ("third or sixth", 3),
     ("second or seventh", 2)),
    (("card placed", -1), ("took 1 card", 1), ("took 2 cards", 2), ("took 3 cards", 3),
     ("took 4 cards", 4), ("took 5 cards", 5), ("took 6 cards", 6), ("took 7 cards", 7),
     ("took 8 cards", 8)),
)
WENT_OUT_ITEM = 9      # The Original's "went out": a round's tie goes to who went out


class ScorePadError(ValueError):
    """A pad that cannot be made (players, game) or a stored pad that cannot be read."""


def game_index(name):
    for k in range(len(GAMES)):
        if GAMES[k] == name:
            return k
    raise ScorePadError("no game %r (games: %s)" % (name, ", ".join(GAMES)))


def bluff_start(players, half_deck=False):
    """Bluff the Scale deals all the NOTE cards (half the deck is recommended with fewer than 4
    players): each player's cards, the first players clockwise taking the odd ones."""
    cards = 48 if half_deck else 96
    return [cards // players + (1 if seat < cards % players else 0) for seat in range(players)]


class ScorePad:
    def __init__(self, game="original", players=2, dealer=0, start=None):
        self.game = game_index(game) if isinstance(game, str) else game
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ScorePadError("%d players: the pad keeps %d to %d" % (
                players, MIN_PLAYERS, MAX_PLAYERS))
        if not 0 <= dealer < players:
            raise ScorePadError("dealer %d: seats are 0 to %d" % (dealer, players - 1))
        self.players = players
        self.first_dealer = dealer
        if start is None:
            start = bluff_start(players) if GAMES[self.game] == "bluff" else [0] * players
        self.start = list(start)
        self.log = []
        self._replay()

    @property
    def name(self):
        return GAMES[self.game]

    @property
    def title(self):
        return TITLES[self.game]

    @property
    def items(self):
        return ITEMS[self.game]

    @property
    def rounds(self):
        return ROUNDS[self.game]

    # -- actions -------------------------------------------------------------------------------

    def add(self, item):
        """The current player scores item `item` (an index into `items`)."""
        if not 0 <= item < len(self.items):
            raise ScorePadError("no item %d (0 to %d)" % (item, len(self.items) - 1))
        self._act(("add", self.items[item][1], item))

    def credit(self, points):
        """The current player scores a meld worth `points` (from meld check or the hand)."""
        self._act(("add", points, -1))

    def next_player(self):
        self._act(("next",))

    def end_round(self):
        """The round ends: returns the next dealer's seat (None after the last round)."""
        self._act(("round",))
        return None if self.over else self.dealer

    def undo(self):
        """Takes back the last action (an entry, a turn passed or a round ended); False when
        there is nothing to take back."""
        if not self.log:
            return False
        self.log.pop()
        self._replay()
        return True

    def _act(self, action):
        if self.over:
            raise ScorePadError("the game is over (%d rounds): start a new game" % self.rounds)
        self.log.append(action)
        self._replay()

    # -- state, from the log -------------------------------------------------------------------

    def _replay(self):
        n = self.players
        self.round = 0
        self.dealer = self.first_dealer
        self.current = (self.dealer + 1) % n
        self.by_round = [[0] * n]
        self.went_out = None
        self.over = False
        self.last_winner = None
        for action in self.log:
            if action[0] == "add":
                self.by_round[self.round][self.current] += action[1]
                if action[2] == WENT_OUT_ITEM and self.game == 0:
                    self.went_out = self.current
            elif action[0] == "next":
                self.current = (self.current + 1) % n
            else:
                scores = self.by_round[self.round]
                self.last_winner = self._leader(scores)
                if self.round + 1 >= self.rounds:
                    self.over = True
                    continue
                self.dealer = self._next_dealer(scores)
                self.round += 1
                self.by_round.append([0] * n)
                self.current = (self.dealer + 1) % n
                self.went_out = None

    def _leader(self, scores):
        if self.name == "bluff":
            totals = [self.start[p] + scores[p] for p in range(self.players)]
            fewest = min(totals)
            return totals.index(fewest)
        return round_winner(scores, self.dealer, self.went_out)

    def _next_dealer(self, scores):
        if self.name == "chord-poker":
            return (self.dealer + 1) % self.players
        # The Original, Through the Looking Glass: the player to the right of the winner
        # (seats go clockwise, so the right is the seat before).
        return (round_winner(scores, self.dealer, self.went_out) - 1) % self.players

    def next_dealer(self):
        """Who deals the next round if the current one ended now (None after the last)."""
        if self.round + 1 >= self.rounds:
            return None
        return self._next_dealer(self.by_round[self.round])

    def totals(self):
        out = list(self.start)
        for scores in self.by_round:
            for p in range(self.players):
                out[p] += scores[p]
        return out

    def leaders(self):
        """The seats in the lead overall (the fewest cards in Bluff the Scale)."""
        totals = self.totals()
        best = min(totals) if self.name == "bluff" else max(totals)
        return [p for p in range(self.players) if totals[p] == best]

    def frame(self):
        """The frames' "score": game, players, round (1-based), totals, current (seat)."""
        return {"game": self.name, "players": self.players, "round": self.round + 1,
                "totals": self.totals(), "current": self.current}

    def lines(self):
        """Totals by round and overall, the turn and the dealer, for the display/console."""
        out = ["%s, round %d of %d%s" % (self.title, self.round + 1, self.rounds,
                                         ", game over" if self.over else "")]
        totals = self.totals()
        lead = self.leaders()
        for p in range(self.players):
            rounds = " ".join("%d" % self.by_round[r][p] for r in range(len(self.by_round)))
            out.append("P%d %s%5d  (%s)%s%s" % (
                p + 1, ">" if p == self.current and not self.over else " ", totals[p], rounds,
                " dealer" if p == self.dealer else "", " leads" if p in lead else ""))
        if self.over:
            out.append("winner: " + ", ".join("P%d" % (p + 1) for p in lead))
        else:
            nxt = self.next_dealer()
            if nxt is not None:
                out.append("next dealer if the round ends now: P%d" % (nxt + 1))
        return out

    # -- storage -------------------------------------------------------------------------------

    def to_text(self):
        """One line: game, players, first dealer, start, then the log."""
        parts = [self.name, str(self.players), str(self.first_dealer),
                 ",".join(str(s) for s in self.start)]
        for action in self.log:
            if action[0] == "add":
                parts.append("a%d:%d" % (action[1], action[2]))
            elif action[0] == "next":
                parts.append("n")
            else:
                parts.append("r")
        return " ".join(parts)


def from_text(text):
    """A pad from to_text(); ScorePadError names what cannot be read."""
    parts = text.split()
    if len(parts) < 4:
        raise ScorePadError("stored score pad: too short")
    try:
        players = int(parts[1])
        pad = ScorePad(parts[0], players, int(parts[2]),
                       [int(s) for s in parts[3].split(",")])
    except ValueError as err:
        raise ScorePadError("stored score pad: %s" % err)
    if len(pad.start) != players:
        raise ScorePadError("stored score pad: %d start values for %d players" % (
            len(pad.start), players))
    log = []
    for k in range(4, len(parts)):
        word = parts[k]
        if word == "n":
            log.append(("next",))
        elif word == "r":
            log.append(("round",))
        elif word[:1] == "a" and ":" in word:
            points, item = word[1:].split(":")
            try:
                log.append(("add", int(points), int(item)))
            except ValueError:
                raise ScorePadError("stored score pad: entry %d %r" % (k - 3, word))
        else:
            raise ScorePadError("stored score pad: entry %d %r" % (k - 3, word))
    pad.log = log
    pad._replay()
    return pad
