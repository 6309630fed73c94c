"""The score pad: the table's public state, derived by replaying its log (core/table.py), with
each rulebook's scoring table, rounds and the rules a pad can check.

The state: per round and per seat scores; in The Original also the melds on the table (who
played which, with its NOTE cards), the discard pile, who went out. A Carmony meld's points
count while it is on the table: an eaten meld no longer counts for its player. Seats are
numbered clockwise from 0; the first round's dealer is seat `dealer` (chosen at random at the
table, entered on the pad). The next dealer: The Original and Through the Looking Glass, the
player to the right of the round's winner (a tie goes to who went out, then to the first player
after the dealer, clockwise); Chord Poker, the next player clockwise. Bluff the Scale has no
rounds and no points: the pad counts each player's NOTE cards, and the fewest leads.

The rules kept here, so the wheel, the command line and a linked wheel apply the same ones: a
Carmony meld (and eating, the pile) only in a pad of The Original; "went out" only with the
right to go out (at least 1 scale or 3 chords on the table) and once a round, never by a seat
with cards left; a seat's cards left once a round, a round ended once (two wheels saying it
change nothing); eating only another player's meld on the table, with a strictly stronger MELD
card (chromatic scale > major scale > other scales > chords > intervals). An entry the rules
refuse is never written (ScorePadError says why); one that came over a link and is refused at
its place in the order stays in the log with no effect (`refused`), the same on every wheel.

A discard ends the turn (the turn passes with it). Undo writes an entry that takes back the
last entry in effect; a new game starts a new log."""

from core import table
from core.games import round_winner
from core.games.carmony_table import (
    GOING_OUT_POINTS,
    MAJOR_SCALE_POINTS,
    POINTS_BY_CARDS,
    POWER_CHORD_POINTS,
    UNPLAYED_CARD_POINTS,
    may_go_out,
)
from core.table import (
    DISCARD,
    EAT,
    MELD,
    NEW_GAME,
    NEXT,
    NO_ROOT,
    PILE_START,
    PILE_TAKEN,
    RANK_CHORD,
    RANK_CHROMATIC,
    RANK_INTERVAL,
    RANK_MAJOR,
    RANK_SCALE,
    ROUND,
    SCORE,
    UNDO,
)

GAMES = ("original", "chord-poker", "looking-glass", "bluff")
TITLES = ("The Original", "Chord Poker", "Through the Looking Glass", "Bluff the Scale")
ROUNDS = (3, 4, 2, 1)
MIN_PLAYERS = 2
MAX_PLAYERS = 4
ORIGINAL = 0

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
CARDS_LEFT_ITEM = 10   # The Original's "card left in hand"
# The Original's meld items (the scoring table's rows, items 0-8) are melds played: their
# eating power by the rulebook's table ("2-card meld (INTERVALS)", "3-card meld (CHORDS)" ...);
# CHORD_OR_SCALE: the row is "CHORDS or SCALES", the one entering it says which.
CHORD_OR_SCALE = -1
MELD_ITEM_RANKS = (RANK_INTERVAL, RANK_CHORD, RANK_CHORD, CHORD_OR_SCALE, RANK_CHORD,
                   CHORD_OR_SCALE, CHORD_OR_SCALE, RANK_MAJOR, RANK_CHROMATIC)
RANK_NAMES = ("an interval", "a chord", "a scale", "the major scale", "the chromatic scale")


class ScorePadError(ValueError):
    """A pad that cannot be made (players, game), a stored pad that cannot be read, or an
    entry the rules refuse (the message says why)."""


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


def can_eat(rank, target_rank):
    """A MELD card of `rank` eats a meld of `target_rank`: strictly stronger (the chromatic
    scale, the strongest, is never eaten)."""
    return rank > target_rank


class ScorePad:
    """The table's state from its log. `seat`: the wheel's seat (0-3) or None (a wheel shared
    by the table): what the wheel writes is about its seat's player, or about the player to
    play when it has none (`actor`)."""

    def __init__(self, game="original", players=2, dealer=0, seat=None):
        self.log = table.Log()
        self.new_game(game, players, dealer, seat)

    def new_game(self, game, players, dealer=0, seat=None):
        """A new game on this pad's log: the entries before it are left behind, its seqs and
        clock go on from theirs (a linked wheel takes it as any other entry, core/link.py)."""
        game = game_index(game) if isinstance(game, str) else game
        if not 0 <= game < len(GAMES):
            raise ScorePadError("no game %d" % game)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ScorePadError("%d players: the pad keeps %d to %d" % (
                players, MIN_PLAYERS, MAX_PLAYERS))
        if not 0 <= dealer < players:
            raise ScorePadError("dealer %d: seats are 0 to %d" % (dealer, players - 1))
        self.seat = seat if seat is not None and seat < players else None
        first = (dealer + 1) % players
        origin = first if self.seat is None else self.seat
        self.log.add(self.log.made(origin, origin, NEW_GAME, (game, players, dealer)))
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

    def actor(self):
        """The seat this wheel writes about: its own, or the player to play's."""
        return self.current if self.seat is None else self.seat

    # ---- what a wheel writes --------------------------------------------------------------

    def add(self, item, count=1, rank=None, who=None):
        """Item `item` of the game's scoring table, `count` times. In The Original a meld item
        (0-8) is a meld played: its rank as the table says, or `rank` (RANK_CHORD or
        RANK_SCALE) for a row of chords or scales."""
        if not 0 <= item < len(self.items):
            raise ScorePadError("no item %d (0 to %d)" % (item, len(self.items) - 1))
        if self.game == ORIGINAL and item < len(MELD_ITEM_RANKS):
            if MELD_ITEM_RANKS[item] != CHORD_OR_SCALE:
                rank = MELD_ITEM_RANKS[item]
            elif rank not in (RANK_CHORD, RANK_SCALE):
                raise ScorePadError("%s: a chord or a scale?" % self.items[item][0])
            return self.meld("", NO_ROOT, rank, b"", self.items[item][1], who)
        if not 1 <= count <= 255:
            raise ScorePadError("count %d: 1 to 255" % count)
        return self._write(SCORE, (item, count), who)

    def meld(self, card, root, rank, pcs, points, who=None):
        """A meld played on the table (The Original): MELD card id, root pc, rank, the NOTE
        cards' pitch classes, its points."""
        return self._write(MELD, (card, root, rank, bytes(pcs), points // 10), who)

    def eat(self, meld_id, card, rank, who=None):
        """The meld entry `meld_id` ((origin, seq), one of `melds`) eaten with MELD card `card`
        of `rank`."""
        return self._write(EAT, (meld_id[0], meld_id[1], card, rank), who)

    def goes_out(self, who=None):
        return self.add(WENT_OUT_ITEM, 1, None, who)

    def cards_left(self, count, who=None):
        return self.add(CARDS_LEFT_ITEM, count, None, who)

    def discard(self, pc, who=None):
        """A NOTE card onto the pile: the turn passes."""
        return self._write(DISCARD, (pc,), who)

    def start_pile(self, pc):
        return self._write(PILE_START, (pc,))

    def take_pile(self, who=None):
        return self._write(PILE_TAKEN, (), who)

    def next_player(self):
        return self._write(NEXT, (), self.current)

    def end_round(self):
        """The round ends: returns the next dealer's seat (None after the last round)."""
        self._write(ROUND, (self.round,), self.current)
        return None if self.over else self.dealer

    def undo(self, target=None):
        """Takes back the last entry in effect (a meld, an item, a turn passed, a round ended
        ...), or entry `target` (its id); False when there is none."""
        target = target or self.last_in_effect()
        if target is None:
            return False
        self._write(UNDO, target, check=False)
        return True

    def last_in_effect(self):
        """The id of the last entry an undo would take back, or None."""
        skip = self._undone()
        for k in range(len(self.log) - 1, 0, -1):
            entry = self.log.entry(k)
            ident = (entry[1], entry[2])
            if entry[4] != UNDO and ident not in skip and ident not in self.refused:
                return ident
        return None

    def _write(self, what, data, who=None, check=True):
        who = self.actor() if who is None else who
        origin = who if self.seat is None else self.seat
        entry = self.log.made(origin, who, what, data)
        if check:
            self._apply(entry)          # raises, nothing changed, when the rules refuse it
            self.log.add(entry)
        else:
            self.log.add(entry)
            self._replay()
        return entry

    def take(self, entry):
        """An entry from another wheel: put at its place in the order and the state replayed
        (refused there: kept, with no effect). Its index, or -1 for one the log holds."""
        at = self.log.add(entry)
        if at < 0:
            return at
        if at == len(self.log) - 1 and entry[4] not in (UNDO, NEW_GAME):
            try:
                self._apply(entry)
            except ScorePadError:
                self.refused.append((entry[1], entry[2]))
        else:
            self._replay()
        return at

    # ---- the state, from the log ----------------------------------------------------------

    def _undone(self):
        """The ids the log's undo entries take back (an undo names an earlier entry that is
        neither an undo nor the new game)."""
        undone = []
        log = self.log
        for k in range(1, len(log)):
            entry = log.entry(k)
            if entry[4] != UNDO:
                continue
            at = log.find(entry[5][0], entry[5][1])
            if 0 < at < k and log.entry(at)[4] != UNDO and entry[5] not in undone:
                undone.append(entry[5])
        return undone

    def _replay(self):
        log = self.log
        game, players, dealer = log.entry(0)[5]
        self.game = game
        self.players = players
        self.first_dealer = dealer
        self.start = bluff_start(players) if GAMES[game] == "bluff" else [0] * players
        self.round = 0
        self.dealer = dealer
        self.by_round = [[0] * players]
        self.over = False
        self.last_winner = None
        self._round_starts()
        self.refused = []
        undone = self._undone()
        for k in range(1, len(log)):
            entry = log.entry(k)
            ident = (entry[1], entry[2])
            if entry[4] == UNDO or ident in undone:
                continue
            try:
                self._apply(entry)
            except ScorePadError:
                self.refused.append(ident)

    def _round_starts(self):
        self.current = (self.dealer + 1) % self.players
        self.went_out = None
        self.melds = []         # on the table: [origin, seq, who, card, root, rank, pcs, points]
        self.pile = bytearray()
        self.left = [0] * self.players          # cards left in hand entered, by seat
        self.turns = 0                          # turns passed this round

    def _apply(self, entry):
        """Check an entry against the state, then apply it (ScorePadError: refused, nothing
        changed)."""
        what, who, data = entry[4], entry[3], entry[5]
        if self.over:
            raise ScorePadError("the game is over (%d rounds): start a new game" % self.rounds)
        if who >= self.players:
            raise ScorePadError("no P%d in a %d-player game" % (who + 1, self.players))
        if what in (MELD, EAT, DISCARD, PILE_START, PILE_TAKEN) and self.game != ORIGINAL:
            raise ScorePadError("the score pad is on %s: melds, eating and the pile are The "
                                "Original's (a new game of The Original in the score mode)"
                                % self.title)
        if what == MELD:
            self.melds.append([entry[1], entry[2], who, data[0], data[1], data[2], data[3],
                               data[4] * 10])
            self.by_round[self.round][who] += data[4] * 10
        elif what == EAT:
            self._eat(who, data)
        elif what == SCORE:
            self._score(who, data[0], data[1])
        elif what in (NEXT, DISCARD):
            if what == DISCARD:
                self.pile.append(data[0])
            self.current = (self.current + 1) % self.players
            self.turns += 1
        elif what == PILE_START:
            self.pile = bytearray(data)
        elif what == PILE_TAKEN:
            if not self.pile:
                raise ScorePadError("the discard pile is empty")
            self.pile = bytearray()
        elif what == ROUND:
            if data[0] != self.round and data[0] != table.ANY_ROUND:
                raise ScorePadError("round %d ended already" % (data[0] + 1))
            self._end_round()
        else:
            raise ScorePadError("a %s entry here" % table.WHAT_NAMES[what])

    def _eat(self, who, data):
        at = self.meld_at(data[0], data[1])
        if at < 0:
            raise ScorePadError("that meld is not on the table")
        meld = self.melds[at]
        if meld[2] == who:
            raise ScorePadError("P%d's own meld: eating takes another player's" % (who + 1))
        if not can_eat(data[3], meld[5]):
            raise ScorePadError("%s cannot eat %s: it takes a stronger MELD card "
                                "(chromatic > major scale > scales > chords > intervals)"
                                % (RANK_NAMES[data[3]], RANK_NAMES[meld[5]]))
        self.melds.pop(at)
        self.by_round[self.round][meld[2]] -= meld[7]

    def _score(self, who, item, count):
        if not 0 <= item < len(self.items) or count < 1:
            raise ScorePadError("no item %d" % item)
        if self.game == ORIGINAL:
            if item < len(MELD_ITEM_RANKS):
                raise ScorePadError("a meld is entered as a meld played")
            if item == WENT_OUT_ITEM:
                self._check_going_out(who, count)
                self.went_out = who
            elif item == CARDS_LEFT_ITEM:
                if self.went_out == who:
                    raise ScorePadError("P%d went out: no cards left in hand" % (who + 1))
                if self.left[who]:
                    raise ScorePadError("P%d's cards left are in already this round (undo them "
                                        "to change them)" % (who + 1))
                self.left[who] = count
        self.by_round[self.round][who] += self.items[item][1] * count

    def _check_going_out(self, who, count):
        if self.went_out is not None or count != 1:
            raise ScorePadError("P%d went out already this round: once a round" % (
                (self.went_out if self.went_out is not None else who) + 1))
        if self.left[who]:
            raise ScorePadError("P%d has cards left in hand: going out means none" % (who + 1))
        if not may_go_out([m[5] for m in self.melds if m[2] == who]):
            raise ScorePadError("P%d cannot go out: going out needs at least 1 scale or 3 "
                                "chords played" % (who + 1))

    def _end_round(self):
        scores = self.by_round[self.round]
        self.last_winner = self._leader(scores)
        if self.round + 1 >= self.rounds:
            self.over = True
            return
        self.dealer = self._next_dealer(scores)
        self.round += 1
        self.by_round.append([0] * self.players)
        self._round_starts()

    def meld_at(self, origin, seq):
        """The index in `melds` of the meld entry (origin, seq), or -1."""
        for k in range(len(self.melds)):
            if self.melds[k][0] == origin and self.melds[k][1] == seq:
                return k
        return -1

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

    # ---- storage --------------------------------------------------------------------------

    def to_bytes(self):
        return self.log.to_bytes()


def from_bytes(data, seat=None):
    """A pad from its log's bytes (ScorePad.to_bytes()); ScorePadError names what cannot be
    read."""
    log = problem = None
    try:
        log = table.from_bytes(data)
    except table.TableError as err:     # (said outside: MicroPython warns of chaining)
        problem = str(err)
    if problem:
        raise ScorePadError("stored table log: %s" % problem)
    if not len(log) or log.entry(0)[4] != NEW_GAME:
        raise ScorePadError("stored table log: no new game first")
    game, players, dealer = log.entry(0)[5]
    if game >= len(GAMES) or not MIN_PLAYERS <= players <= MAX_PLAYERS or dealer >= players:
        raise ScorePadError("stored table log: game %d, %d players, dealer %d" % (
            game, players, dealer))
    pad = ScorePad(game, players, dealer, seat)
    pad.log = log
    pad._replay()
    return pad
