"""Musicards, Key's Corners (musicards-alphabet-and-keys-corners.txt): spell the chosen scale
up from its keynote in four corners; build on four foundations; books score.

The board: 4 foundations (N, E, S, W: 0..3) and 4 corners (NW, SW, NE, SE: 4..7). A pile is a
list of (card, pitch) - a wild's pitch is the one named. A corner holds the scale from its
keynote up; a foundation whose bottom card is a scale note holds the scale on from it (a
sequence), one whose bottom is not holds up to 4 of that note (a stack). Completing a corner's
scale takes it as a book (10 points); the 4th card of a stack takes it (5 points).

Moves: ("fill", source, foundation, pitch) - an empty foundation first, from the hand, else
from the discard pile's top (source "discard"); ("move", foundation, pile) - a foundation
(or, onto a corner, its top part) onto a pile it continues; ("play", source, pile, pitch);
("discard", card); ("done",).

Rulebook points that need an interpretation, and the one chosen:
- Cards move from a foundation only. Onto a corner: "cards from a foundation pile ... as long
  as the correct sequence of notes is maintained", so the part of a sequence from the note the
  corner takes up to its top (all of it, or only its top part). Onto another foundation a pile
  moves whole: a sequence onto a pile it continues, a stack onto a stack of its note if they
  make at most 4. Corners only grow and whole moves empty a foundation, so the compulsory
  board moves never go round in a circle.
- "A possible play showing on the board" is a move between piles: it must be made (after the
  empty foundations are filled). Plays from the hand or the discard pile's top are the
  player's choice; a turn needs one card played or discarded ("done" after that; with an empty
  hand "done" passes).
- A discard is the turn's only play, and only of a card no pile takes; a wild is never
  discardable (a wild always fits somewhere).
- Filling takes any card, named as the player likes if wild. Empty foundations left when the
  hand and the discard pile are used up wait for the next player.
- A wild turned over to start a foundation is the keynote.
- The game ends when the stock is empty and every hand is too. The most points win (ties
  share the win).
"""

from core.games import RuleError
from core.games.musicards import CARDS, deal, is_wild, pitch

HAND = 5
FOUNDATIONS = (0, 1, 2, 3)
CORNERS = (4, 5, 6, 7)
SCALE_BOOK = 10
STACK_BOOK = 5
STACK_SIZE = 4


def score(scales, stacks):
    """Points for the books: (total, [(label, points)])."""
    if scales < 0 or stacks < 0:
        raise RuleError("books cannot be negative")
    lines = []
    if scales:
        lines.append(("completed scales x %d" % scales, SCALE_BOOK * scales))
    if stacks:
        lines.append(("stacks of four x %d" % stacks, STACK_BOOK * stacks))
    return sum(points for _, points in lines), lines


class Game:
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5

    def __init__(self, players, seed, scale):
        """scale: the pitch classes of the chosen scale, keynote first, as they go up."""
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise RuleError("Key's Corners is for 2 to 5 players, not %d" % players)
        if len(scale) < 2 or len(set(scale)) != len(scale):
            raise RuleError("a scale needs 2 or more different notes")
        self.players = players
        self.scale = tuple(scale)
        self.rng, self.stock, self.dealer, self.hands = deal(players, seed, HAND)
        self.piles = [[] for _ in range(8)]
        for f in FOUNDATIONS:
            card = self.stock.pop()
            self.piles[f].append((card, self.scale[0] if is_wild(card) else pitch(card)))
        self.discard = []
        self.books = [[] for _ in range(players)]      # ("scale" | "stack", cards)
        self.turn = (self.dealer + 1) % players
        self.played = 0
        self.over = False
        self._draw_up()

    # ---- what a pile takes --------------------------------------------------------------

    def _index(self, pc):
        return self.scale.index(pc) if pc in self.scale else None

    def takes(self, pile):
        """The pitch the pile takes next (None: nothing)."""
        cards = self.piles[pile]
        if pile in CORNERS:
            return self.scale[len(cards)] if len(cards) < len(self.scale) else None
        if not cards:
            return None
        bottom = cards[0][1]
        top = cards[-1][1]
        if self._index(bottom) is None:
            return bottom if len(cards) < STACK_SIZE else None
        after = self._index(top) + 1
        return self.scale[after] if after < len(self.scale) else None

    def _moving_from(self, source, dest, taking=None):
        """Where the cards that foundation `source` may move onto pile `dest` start (an index
        into the foundation), or None. taking: what each pile takes (_taking()), if known."""
        cards = self.piles[source]
        if not cards or source == dest:
            return None
        bottom = cards[0][1]
        if dest in CORNERS:
            if self._index(bottom) is None:
                return None                 # a stack never goes to a corner
            wanted = self.takes(dest) if taking is None else taking[dest]
            for at in range(len(cards)):
                if cards[at][1] == wanted:
                    return at
            return None
        if not self.piles[dest]:
            return None                     # an empty foundation is filled from a hand
        if self._index(bottom) is None:     # a stack onto a stack of its note
            into = self.piles[dest]
            fits = into[0][1] == bottom and len(into) + len(cards) <= STACK_SIZE
        else:
            fits = (self.takes(dest) if taking is None else taking[dest]) == bottom
        return 0 if fits else None

    # ---- legal moves --------------------------------------------------------------------

    def _empty_foundations(self):
        return [f for f in FOUNDATIONS if not self.piles[f]]

    def _fills(self):
        empty = self._empty_foundations()
        if not empty:
            return []
        hand = self.hands[self.turn]
        if hand:
            sources = sorted(hand)
        elif self.discard:
            sources = ["discard"]
        else:
            return []
        moves = []
        for source in sources:
            card = self.discard[-1] if source == "discard" else source
            pcs = range(12) if is_wild(card) else (pitch(card),)
            for f in empty:
                for pc in pcs:
                    moves.append(("fill", source, f, pc))
        return moves

    def _taking(self):
        """What each pile takes next (takes()), asked once a listing, not once a card."""
        return [self.takes(pile) for pile in range(8)]

    def board_moves(self, taking=None):
        taking = self._taking() if taking is None else taking
        return [("move", f, dest) for f in FOUNDATIONS if self.piles[f] for dest in range(8)
                if self._moving_from(f, dest, taking) is not None]     # an empty one: none

    def _plays_of(self, source, card, taking):
        out = []
        for pile in range(8):
            pc = taking[pile]
            if pc is not None and (is_wild(card) or pitch(card) == pc):
                out.append(("play", source, pile, pc))
        return out

    def legal_moves(self):
        if self.over:
            return []
        fills = self._fills()
        if fills:
            return fills
        taking = self._taking()
        board = self.board_moves(taking)
        if board:
            return board
        hand = self.hands[self.turn]
        moves = []
        unplayable = []
        for card in sorted(hand):
            plays = self._plays_of(card, card, taking)
            moves.extend(plays)
            if not plays:
                unplayable.append(card)
        if self.discard:
            moves.extend(self._plays_of("discard", self.discard[-1], taking))
        if self.played == 0:
            moves.extend(("discard", card) for card in unplayable)
        if self.played or not hand:
            moves.append(("done",))
        return moves

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        if move not in self.legal_moves():
            raise RuleError("%s is not allowed now (player %d)" % (
                " ".join(str(m) for m in move), self.turn))
        verb = move[0]
        player = self.turn
        if verb in ("fill", "play"):
            _, source, pile, pc = move
            if source == "discard":
                card = self.discard.pop()
            else:
                card = source
                self.hands[player].remove(card)
            self.piles[pile].append((card, pc))
            self.played += 1
            self._book(player, pile)
        elif verb == "move":
            _, source, dest = move
            at = self._moving_from(source, dest)
            self.piles[dest].extend(self.piles[source][at:])
            del self.piles[source][at:]
            self._book(player, dest)
        elif verb == "discard":
            self.hands[player].remove(move[1])
            self.discard.append(move[1])
            self._end_turn()
        else:
            self._end_turn()

    def _book(self, player, pile):
        """A corner's scale complete or a stack of four: the player takes it."""
        cards = self.piles[pile]
        if pile in CORNERS and len(cards) == len(self.scale):
            kind = "scale"
        elif pile in FOUNDATIONS and self._index(cards[0][1]) is None and \
                len(cards) == STACK_SIZE:
            kind = "stack"
        else:
            return
        self.books[player].append((kind, [card for card, _ in cards]))
        self.piles[pile] = []

    def _end_turn(self):
        if not self.stock and not [h for h in self.hands if h]:
            self.over = True
            return
        self.turn = (self.turn + 1) % self.players
        self.played = 0
        self._draw_up()

    def _draw_up(self):
        """"Always first, draw until you have 5 cards." """
        hand = self.hands[self.turn]
        while len(hand) < HAND and self.stock:
            hand.append(self.stock.pop())

    # ---- scores and checks --------------------------------------------------------------

    def scores(self):
        return [score(sum(1 for kind, _ in books if kind == "scale"),
                      sum(1 for kind, _ in books if kind == "stack"))[0]
                for books in self.books]

    def winners(self):
        points = self.scores()
        return [p for p in range(self.players) if points[p] == max(points)]

    def check_cards(self):
        cards = list(self.stock) + list(self.discard)
        for hand in self.hands:
            cards += hand
        for pile in self.piles:
            cards += [card for card, _ in pile]
        for books in self.books:
            for _, book in books:
                cards += book
        assert sorted(cards) == list(range(CARDS)), "cards lost or doubled"
        for pile in range(8):
            cards = self.piles[pile]
            for k in range(len(cards)):
                card, pc = cards[k]
                assert is_wild(card) or pitch(card) == pc, "a card named another pitch"
            if pile in CORNERS and cards:
                assert [pc for _, pc in cards] == list(self.scale[:len(cards)]), \
                    "a corner out of the scale's order"


def random_move(game, rng):
    moves = game.legal_moves()
    plays = [m for m in moves if m[0] == "play"]
    if plays and rng.below(4):
        return rng.choice(plays)
    done = [m for m in moves if m[0] == "done"]
    if done:
        return done[0]
    return rng.choice(moves)
