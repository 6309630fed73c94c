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
- Turning the deck is allowed at any time: "when you run out of moves, draw cards from the
  deck" cannot mean "when no move is legal", since blocks can always be shifted to and fro.
- "The game ends when there are no more moves to make": no more moves that get anywhere. A
  move gets somewhere when it puts a card on a pile, takes a card out of the deck, or turns a
  face-down card up (each can happen only so often). The game is over when no such move can
  be reached through moves that get nowhere: turning the deck (which brings every deck card to
  the top in turn) and up to MAX_SHIFTS shifts of face-up blocks between columns (a search
  with no limit grows with every way of splitting the runs; a way that needs more shifts is
  not one a player sees). Won with the 8 piles full.
"""

from core.games import NOTE_CARDS, NOTE_COPIES, RuleError, note_pc
from core.games.rng import Rng

COLUMNS = 8
ROWS = 10
B = 11
MAX_SHIFTS = 2          # block shifts searched ahead of a move that gets somewhere




def _wanted(column):
    """The note a column takes: a B on an empty column, else the note a step below its bottom
    card's (a B goes on no card); -1 below a C."""
    if not column:
        return B
    return column[-1][0] // NOTE_COPIES - 1           # note_pc, inline: the search's hot path


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
        self.moves = 0
        self._over_at = (-1, False)                    # (moves, over) of the last check

    # ---- legal moves --------------------------------------------------------------------

    def _pile_for(self, card):
        pc = note_pc(card)
        if pc == 0:
            return len(self.piles) if len(self.piles) < COLUMNS else None
        for i, pile in enumerate(self.piles):
            if note_pc(pile[-1]) == pc - 1:
                return i
        return None

    def legal_moves(self):
        return [] if self.over else self._moves()

    def _block_moves(self, columns, froms=None):
        """(col, start, dest) for every face-up block that may move onto another column;
        `froms`: from those columns alone."""
        # The columns that take each note (_wanted), in order: most notes go nowhere.
        takers = [()] * 12
        for dest in range(COLUMNS):
            pc = _wanted(columns[dest])
            if pc >= 0:
                takers[pc] = takers[pc] + (dest,)
        out = []
        for col in range(COLUMNS) if froms is None else froms:
            column = columns[col]
            first_up = len(column)                     # the face-down cards are above it
            while first_up and column[first_up - 1][1]:
                first_up -= 1
            for start in range(first_up, len(column)):
                pc = column[start][0] // NOTE_COPIES
                if start == 0 and pc == B:
                    continue                           # a B already heading a column
                for dest in takers[pc]:
                    if dest != col:
                        out.append((col, start, dest))
        return out

    def _piled(self):
        """The notes a pile takes now (_pile_for), as a mask of pitch classes."""
        piled = 1 if len(self.piles) < COLUMNS else 0   # a C starts a pile
        for pile in self.piles:
            if note_pc(pile[-1]) < B:
                piled |= 2 << note_pc(pile[-1])            # the note above its top one
        return piled

    def _moves(self, blocks=True):
        """The legal moves (the game not over); `blocks`: with the block moves."""
        moves = []
        piled = self._piled()
        for col in range(COLUMNS):
            column = self.columns[col]
            if column and piled >> note_pc(column[-1][0]) & 1:
                moves.append(("pile", col))
        for col, start, dest in self._block_moves(self.columns) if blocks else ():
            moves.append(("move", col, start, dest))
        if self.waste:
            top = self.waste[-1]
            if piled >> note_pc(top) & 1:
                moves.append(("pile", "waste"))
            for dest in range(COLUMNS):
                if _wanted(self.columns[dest]) == top // NOTE_COPIES:
                    moves.append(("waste", dest))
        if self.deck or self.waste:
            moves.append(("turn",))
        return moves

    def _allows(self, move):
        """Whether `move` is among legal_moves(), listing the block moves only for a block
        move, and then only those from its own column (most of a listing's time)."""
        if self.over:
            return False
        if isinstance(move, tuple) and len(move) == 4 and move[0] == "move":
            froms = [col for col in range(COLUMNS) if col == move[1]]
            return move[1:] in self._block_moves(self.columns, froms)
        return move in self._moves(blocks=False)

    def progresses(self, move, columns=None):
        """Whether a move gets somewhere (a card to a pile, out of the deck, or turned up)."""
        if move[0] in ("pile", "waste"):
            return True
        if move[0] == "move":
            column = (columns or self.columns)[move[1]]
            return move[2] > 0 and not column[move[2] - 1][1]
        return False

    def way_forward(self):
        """The first move of a shortest way to a move that gets somewhere, or None if there
        is none: a breadth-first search over the layouts that up to MAX_SHIFTS block shifts
        reach, with every deck card available in turn."""
        # The piles stay as they are through the search (only blocks shift): the notes they
        # take, and the deck's notes, as masks of pitch classes.
        piled = self._piled()
        stock = 0
        for card in self.deck + self.waste:
            stock |= 1 << note_pc(card)
        move, blocks = self._forward_in(self.columns, piled, stock)
        if move is not None or MAX_SHIFTS == 0:
            return move                   # mostly: the layout's as it is, not copied
        start = tuple(tuple((card, up) for card, up in column) for column in self.columns)
        first = {start: None}
        todo = [(start, 0)]
        while todo:
            columns, depth = todo.pop(0)
            how = first[columns]
            if depth:
                move, blocks = self._forward_in(columns, piled, stock)
                if move is not None:
                    return how
                if depth == MAX_SHIFTS:
                    continue
            for col, start_at, dest in blocks:
                key = _shifted(columns, col, start_at, dest)
                if key not in first:
                    first[key] = how or ("move", col, start_at, dest)
                    todo.append((key, depth + 1))
        return None

    def _forward_in(self, columns, piled, stock):
        """(the first move that gets somewhere in layout `columns`, None; or None, the
        layout's block moves); piled, stock: see way_forward."""
        wanted = 0                                     # the notes the columns take
        for col in range(COLUMNS):
            column = columns[col]
            if column and piled >> (column[-1][0] // NOTE_COPIES) & 1:
                return ("pile", col), None
            pc = _wanted(column)
            if pc >= 0:
                wanted |= 1 << pc
        if stock & (piled | wanted):
            return ("turn",), None                     # a deck card to a pile or a column
        blocks = self._block_moves(columns)
        for col, start_at, dest in blocks:
            move = ("move", col, start_at, dest)
            if self.progresses(move, columns):
                return move, None
        return None, blocks

    @property
    def over(self):
        if self._over_at[0] != self.moves:
            self._over_at = (self.moves, self.won or self.way_forward() is None)
        return self._over_at[1]

    @property
    def won(self):
        return len(self.piles) == COLUMNS and all(len(p) == 12 for p in self.piles)

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        if not self._allows(move):
            raise RuleError("%s is not allowed now" % " ".join(str(m) for m in move))
        self.moves += 1
        verb = move[0]
        if verb == "turn":
            if self.deck:
                self.waste.append(self.deck.pop())
            else:
                self.deck = self.waste[::-1]           # the waste, turned over, is the deck
                self.waste = []
            return
        if verb == "pile":
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


def _shifted(columns, col, start, dest):
    """The layout `columns` (a tuple of tuples) with the block at column `col`, row `start`
    moved onto column `dest`: the other columns' tuples shared, not copied."""
    out = []
    for k in range(COLUMNS):
        if k == col:
            out.append(columns[col][:start])
        elif k == dest:
            out.append(columns[dest] + columns[col][start:])
        else:
            out.append(columns[k])
    return tuple(out)


def random_move(game, rng):
    """Mostly a move that gets somewhere, else the first step of a way to one; now and then
    any legal move."""
    moves = game.legal_moves()
    if rng.below(4):
        forward = [m for m in moves if game.progresses(m)]
        if forward:
            return rng.choice(forward)
        way = game.way_forward()
        if way is not None:
            return way
    return rng.choice(moves)
