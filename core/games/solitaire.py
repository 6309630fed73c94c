"""Carmony, Chromatic Solitaire: the rule engine (one player).

Rulebook points that need an interpretation, and the one chosen:
- The layout is 8 columns of 10 cards (the rulebook's 10 rows of 8), the 9 upper cards of each
  face down; the 16 cards left are the deck.
- A block is a face-up card and every card below it in its column. It moves onto a column whose
  last card is one semitone higher than the block's first (E onto F, D onto D#); a B, the
  highest, goes on no card: only a block that starts with a B goes to an empty column.
- The deck is turned one card at a time onto a waste pile whose top card can be played; an
  empty deck takes the waste back, as often as wanted.
- A chromatic pile starts with any C while there are fewer than 8, and rises a semitone at a
  time up to B. The last card of a column or the waste's top card can go onto a pile; nothing
  comes back from a pile.
- "The game ends when there are no more moves to make": moves that get nowhere (turning the
  deck, shifting blocks between columns) are possible forever, so the game ends when a whole
  pass through the deck, plus SHUFFLES such moves, has passed without progress (a card reaching
  a pile, or a face-down card turned up). Won with the 8 piles complete.
"""

from core.games import NOTE_CARDS, RuleError, note_pc
from core.games.rng import Rng

COLUMNS = 8
ROWS = 10
B = 11
SHUFFLES = 30          # block moves without progress allowed on top of a pass through the deck




class Solitaire:
    def __init__(self, seed):
        deck = list(range(NOTE_CARDS))
        Rng(seed).shuffle(deck)
        self.columns = [[] for _ in range(COLUMNS)]   # (card, face up), last is the bottom
        for row in range(ROWS):
            for col in range(COLUMNS):
                self.columns[col].append([deck.pop(), row == ROWS - 1])
        self.deck = deck                               # 16 cards, last is the top
        self.waste = []
        self.piles = []                                # ascending from C, at most 8
        self.idle = 0                                  # moves since the last progress
        self.moves = 0

    # ---- legal moves --------------------------------------------------------------------

    def _pile_for(self, card):
        pc = note_pc(card)
        if pc == 0:
            return len(self.piles) if len(self.piles) < COLUMNS else None
        for i, pile in enumerate(self.piles):
            if note_pc(pile[-1]) == pc - 1:
                return i
        return None

    def _fits(self, card, col):
        column = self.columns[col]
        if not column:
            return note_pc(card) == B
        return note_pc(card) != B and note_pc(column[-1][0]) == note_pc(card) + 1

    def legal_moves(self):
        return [] if self.over else self._moves()

    def _moves(self):
        moves = []
        for col in range(COLUMNS):
            column = self.columns[col]
            if column and self._pile_for(column[-1][0]) is not None:
                moves.append(("pile", col))
            for start in range(len(column)):
                if not column[start][1]:
                    continue
                if start == 0 and note_pc(column[0][0]) == B:
                    continue                           # a B already heading a column
                for dest in range(COLUMNS):
                    if dest != col and self._fits(column[start][0], dest):
                        moves.append(("move", col, start, dest))
        if self.waste:
            top = self.waste[-1]
            if self._pile_for(top) is not None:
                moves.append(("pile", "waste"))
            for dest in range(COLUMNS):
                if self._fits(top, dest):
                    moves.append(("waste", dest))
        if self.deck or self.waste:
            moves.append(("turn",))
        return moves

    @property
    def over(self):
        if self.won or self.idle > len(self.deck) + len(self.waste) + 1 + SHUFFLES:
            return True
        return not self._moves()

    @property
    def won(self):
        return len(self.piles) == COLUMNS and all(len(p) == 12 for p in self.piles)

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        if move not in self.legal_moves():
            raise RuleError("%s is not allowed now" % " ".join(str(m) for m in move))
        self.moves += 1
        verb = move[0]
        if verb == "turn":
            if self.deck:
                self.waste.append(self.deck.pop())
            else:
                self.deck = self.waste[::-1]           # the waste, turned over, is the deck
                self.waste = []
            self.idle += 1
            return
        self.idle += 1
        if verb == "pile":
            self.idle = 0
            card = self.waste.pop() if move[1] == "waste" else self.columns[move[1]].pop()[0]
            at = self._pile_for(card)
            if at == len(self.piles):
                self.piles.append([card])
            else:
                self.piles[at].append(card)
            if move[1] != "waste":
                self._uncover(move[1])
        elif verb == "move":
            _, col, start, dest = move
            block = self.columns[col][start:]
            del self.columns[col][start:]
            self.columns[dest].extend(block)
            self._uncover(col)
        else:
            self.columns[move[1]].append([self.waste.pop(), True])

    def _uncover(self, col):
        if self.columns[col] and not self.columns[col][-1][1]:
            self.columns[col][-1][1] = True            # a card uncovered is turned face up
            self.idle = 0

    # ---- checks -------------------------------------------------------------------------

    def check_cards(self):
        cards = list(self.deck) + list(self.waste)
        for column in self.columns:
            cards += [card for card, _ in column]
        for pile in self.piles:
            cards += pile
            assert [note_pc(c) for c in pile] == list(range(len(pile))), "a pile out of order"
        assert sorted(cards) == list(range(NOTE_CARDS)), "NOTE cards lost or doubled"
        for column in self.columns:
            up = [note_pc(card) for card, face_up in column if face_up]
            for a, b in zip(up, up[1:]):
                assert a == b + 1, "a column out of descending order"
            if column:
                assert column[-1][1], "the last card of a column is face down"


def random_move(game, rng):
    """Piles first, then moves between columns (a turn of the deck otherwise), at random."""
    moves = game.legal_moves()
    for kind in (("pile",), ("move", "waste")):
        chosen = [m for m in moves if m[0] in kind]
        if chosen and rng.below(4):
            return rng.choice(chosen)
    return rng.choice(moves)
