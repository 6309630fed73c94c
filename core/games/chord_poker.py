"""Carmony, Chord Poker: the rule engine. The scoring table is core/games/chord_poker_table.py."""

from core.games import NOTE_CARDS, NOTE_COPIES, RoundsGame, RuleError, note_pc
from core.games.chord_poker_table import chord_sectors, going_back, is_complete, score

# ---- the rule engine ----------------------------------------------------------------------
#
# Rulebook points that need an interpretation, and the one chosen:
# - The NOTE card turned over at the start sits on its sector and is the root (position 1).
# - A sector holds one card. A discard goes to the Wheel when its sector is free and the note
#   is required (it must) or optional (the player chooses); otherwise to the pile.
# - Changing the root takes the whole turn: a hand card goes on its free sector and becomes
#   position 1; Wheel cards that are notes of the chord at the new root stay, the others go to
#   the hand of the player who changed it. It completes the chord if it fills the last required
#   sector.
# - The round ends when a player fills the last required sector (5 chord points), or when the
#   turn whose draw emptied the NOTE deck ends (no chord points, unless that turn's discard
#   completes the chord): the drawer still discards, and may place the completing note.
# - A player who may not discard (every card is the note just taken as the pile's only card)
#   keeps it and the turn ends.
# - The dealer rotates clockwise each round; the player on the dealer's left starts. Seats are
#   clockwise.
from core.games.rng import Rng

HAND = 7
ROUNDS = 4




class Round:
    def __init__(self, meldset, chord, players, dealer, rng):
        if not 2 <= players <= 4:
            raise RuleError("Chord Poker is for 2 to 4 players, not %d" % players)
        self.meld = meldset.meld(chord)
        self._masks_at = {}           # root -> the chord's sector masks there (_masks)
        self.chord = chord
        self.players = players
        self.dealer = dealer
        self.note_deck = list(range(NOTE_CARDS))
        rng.shuffle(self.note_deck)
        self.hands = [[] for _ in range(players)]
        for _ in range(HAND):
            for k in range(players):
                self.hands[(dealer + 1 + k) % players].append(self.note_deck.pop())
        self.wheel = [None] * 12
        first = self.note_deck.pop()
        self.root = note_pc(first)
        self.wheel[self.root] = first
        self.discard = [self.note_deck.pop()]
        self.turn = (dealer + 1) % players
        self.phase = "start"
        self.single_taken = None
        self.over = False
        self.completed_by = None
        self.turns = 0

    def sectors(self, root=None):
        """(required pcs, optional pcs) of the chord at a root (default: the current one)."""
        required, optional = self._masks(self.root if root is None else root)
        return _pcs(required), _pcs(optional)

    def _masks(self, root):
        """chord_sectors() of the chord at `root`, worked out once a round for each root
        (the moves and the card checks ask at every step)."""
        found = self._masks_at.get(root)
        if found is None:
            found = self._masks_at[root] = chord_sectors(self.meld.codes, root)
        return found

    def placed(self):
        """The sectors holding a card, as a mask."""
        mask = 0
        for pc in range(12):
            if self.wheel[pc] is not None:
                mask |= 1 << pc
        return mask

    def complete(self):
        return is_complete(self._masks(self.root)[0], self.placed())

    # ---- legal moves --------------------------------------------------------------------

    def legal_moves(self):
        if self.over:
            return []
        player = self.turn
        hand = self.hands[player]
        if self.phase == "start":
            moves = [("draw",)]
            if self.discard:
                moves.append(("take",))
            seen = []
            for card in sorted(hand):
                pc = card // NOTE_COPIES
                if self.wheel[pc] is None and pc not in seen:
                    seen.append(pc)
                    moves.append(("root", card))
            return moves
        return self._discards(player)

    def _discards(self, player):
        moves = []
        for card in sorted(self.hands[player]):
            for to in self._discard_to(card):
                moves.append(("discard", card, to))
        return moves

    def _discard_to(self, card):
        """Where a card of the hand may be discarded: nowhere (the note of the single card
        taken), the wheel (a free required sector), either (a free optional one), the pile."""
        pc = card // NOTE_COPIES
        if pc == self.single_taken:
            return ()
        if self.wheel[pc] is None:
            required, optional = self._masks(self.root)
            if required >> pc & 1:
                return ("wheel",)
            if optional >> pc & 1:
                return ("wheel", "pile")
        return ("pile",)

    def _allows(self, move):
        """Whether `move` is among legal_moves(); a root or a discard checked on its own
        card, not found in a listing of every card's."""
        if self.phase == "start" and not self.over and move in (("draw",), ("take",)):
            return move == ("draw",) or bool(self.discard)
        hand = self.hands[self.turn]
        if self.over or not isinstance(move, tuple) or len(move) < 2 or move[1] not in hand:
            return move in self.legal_moves()
        card = hand[hand.index(move[1])]
        pc = card // NOTE_COPIES
        if self.phase == "start":                      # the lowest card of a free sector's note
            return (move == ("root", card) and self.wheel[pc] is None
                    and card == min([c for c in hand if c // NOTE_COPIES == pc]))
        return len(move) == 3 and move[0] == "discard" and move[2] in self._discard_to(card)

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        if not self._allows(move):
            raise RuleError("%s is not allowed now (%s phase of player %d)" % (
                " ".join(str(m) for m in move), self.phase, self.turn))
        player = self.turn
        verb = move[0]
        if verb == "draw":
            self.hands[player].append(self.note_deck.pop())
            self.phase = "discard"
        elif verb == "take":
            if len(self.discard) == 1:
                self.single_taken = note_pc(self.discard[0])
            self.hands[player].extend(self.discard)
            self.discard = []
            self.phase = "discard"
        elif verb == "root":
            card = move[1]
            self.hands[player].remove(card)
            self.root = note_pc(card)
            self.wheel[self.root] = card
            going = going_back(self.placed(), *self._masks(self.root))
            for pc in range(12):
                if going >> pc & 1:
                    self.hands[player].append(self.wheel[pc])
                    self.wheel[pc] = None
            self._after(player)
            return
        else:
            _, card, where = move
            self.hands[player].remove(card)
            if where == "wheel":
                self.wheel[note_pc(card)] = card
            else:
                self.discard.append(card)
            self._after(player)
            return
        if not [c for c in self.hands[player] if c // NOTE_COPIES != self.single_taken]:
            self._after(player)                    # nothing may be discarded: keep it

    def _after(self, player):
        if self.complete():
            self.over = True
            self.completed_by = player
        elif not self.note_deck:
            self.over = True
        else:
            self._next_turn()

    def _next_turn(self):
        self.turn = (self.turn + 1) % self.players
        self.phase = "start"
        self.single_taken = None
        self.turns += 1

    # ---- checks and scores --------------------------------------------------------------

    def check_cards(self):
        notes = self.note_deck + self.discard                  # a new list
        notes += [c for c in self.wheel if c is not None]
        for hand in self.hands:
            notes += hand
        notes.sort()
        assert notes == list(range(NOTE_CARDS)), "NOTE cards lost or doubled"
        for pc in range(12):
            card = self.wheel[pc]
            assert card is None or card // NOTE_COPIES == pc, "a card on another note's sector"
        required, optional = self._masks(self.root)
        for pc in range(12):
            assert self.wheel[pc] is None or (required | optional) >> pc & 1, \
                "a card on the Wheel that is not a note of the chord"

    def scores(self):
        return [score([note_pc(c) for c in self.hands[p]], self.completed_by == p)[0]
                for p in range(self.players)]


def _pcs(mask):
    return [pc for pc in range(12) if mask >> pc & 1]


def random_move(round_, rng):
    moves = round_.legal_moves()
    roots = [m for m in moves if m[0] == "root"]
    if roots and rng.below(8) == 0:
        return rng.choice(roots)
    others = [m for m in moves if m[0] != "root"] or moves
    return rng.choice(others)


class Game(RoundsGame):
    """Four rounds, a different CHORD card each; the dealer rotates clockwise."""

    ROUNDS = ROUNDS

    def __init__(self, meldset, players, seed):
        self.rng = Rng(seed)
        self.meldset = meldset
        self.chords = meldset.of_kind(1)
        self.rng.shuffle(self.chords)
        self._start(players, self.rng.below(players))

    def new_round(self):
        return Round(self.meldset, self.chords.pop(), self.players, self.dealer, self.rng)

    def next_dealer(self, scores):
        return (self.dealer + 1) % self.players
