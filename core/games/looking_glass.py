"""Carmony, Through the Looking Glass: the scoring table (rulebook "SCORING TABLE").

Alices (A NOTE cards) score 4 each, +8 for all 8; a rabbit's run scores 5; INTERVAL cards score
by interval, with +3 for holding all 3 cards of the octave, the tritone, the fifth or the fourth.
"""

from core.games import NOTE_CARDS, RoundsGame, RuleError, ScoreError, note_pc, round_winner
from core.games.looking_glass_table import builds, picks_up
from core.games.rng import Rng

ALICE_POINTS = 4
ALL_ALICES = 8            # there are 8 A cards in the NOTE deck
ALL_ALICES_BONUS = 8
RABBITS_RUN_POINTS = 5
COPIES = 3                # every interval card is in the deck 3 times
ALL_COPIES_BONUS = 3

# Interval (as its semitones above the root) -> (points per card, bonus for all 3 copies).
# 12 is the octave (the Queen), 6 the tritone (the Hatter).
INTERVAL_POINTS = {12: (8, True), 6: (6, True), 7: (5, True), 5: (4, True),
                   3: (3, False), 4: (3, False), 8: (3, False), 9: (3, False),
                   1: (2, False), 2: (2, False), 10: (2, False), 11: (2, False)}


def score(interval_semitones, alices, rabbits_runs):
    """A player's round: (total, breakdown lines as (label, points)).

    interval_semitones: one entry per INTERVAL card won (1..12)."""
    if not 0 <= alices <= ALL_ALICES:
        raise ScoreError("%d Alices: the deck has %d A cards" % (alices, ALL_ALICES))
    if rabbits_runs < 0:
        raise ScoreError("rabbit's runs cannot be negative")
    lines = []
    counts = {}
    for semitones in interval_semitones:
        if semitones not in INTERVAL_POINTS:
            raise ScoreError("%r is not an interval of the deck" % (semitones,))
        counts[semitones] = counts.get(semitones, 0) + 1
    for semitones in sorted(counts):
        count = counts[semitones]
        if count > COPIES:
            raise ScoreError("%d cards of one interval: the deck has %d" % (count, COPIES))
        points, has_bonus = INTERVAL_POINTS[semitones]
        lines.append(("interval %d x %d" % (semitones, count), points * count))
        if has_bonus and count == COPIES:
            lines.append(("all %d of interval %d" % (COPIES, semitones), ALL_COPIES_BONUS))
    if alices:
        lines.append(("Alices x %d" % alices, ALICE_POINTS * alices))
        if alices == ALL_ALICES:
            lines.append(("all 8 Alices", ALL_ALICES_BONUS))
    if rabbits_runs:
        lines.append(("rabbit's runs x %d" % rabbits_runs, RABBITS_RUN_POINTS * rabbits_runs))
    return sum(points for _, points in lines), lines


# ---- the rule engine ----------------------------------------------------------------------
#
# Rulebook points that need an interpretation, and the one chosen:
# - The Wheel holds a stack per sector; only the top card of a sector can be picked up.
# - PICK UP: the hand card and the Wheel's card build the INTERVAL on the Wheel with either one
#   on position 1 (the octave needs two cards of one note). The pair goes on the player's pile
#   with the position-1 card on top; the INTERVAL card is won; a new one is turned over at the
#   start of the next turn.
# - When the last INTERVAL card is picked up, nothing more is dealt: the players play out the
#   cards in hand (steal or place only); the round ends when every hand is empty.
# - The round's end is "when the last INTERVAL is picked up" (then hands are played out). The
#   NOTE deck (96 - 4 on the Wheel) can run short first: when it cannot give everyone 3 cards,
#   what is left is dealt one at a time from the dealer's left, and a player with no cards is
#   passed over; when every hand is empty and the deck too, nothing can be picked up any more
#   and the round ends (the INTERVAL cards left are won by nobody).
# - Alices are the A cards in a player's pile at the end of the round.
# - The second round's dealer is the player to the right of the first round's winner (best
#   round score; ties to the first after the dealer, clockwise). Seats are clockwise.

HAND = 3
WHEEL_START = 4
ROUNDS = 2
A_PC = 9




class Round:
    def __init__(self, players, dealer, rng, interval_semitones):
        if not 2 <= players <= 4:
            raise RuleError("Through the Looking Glass is for 2 to 4 players, not %d" % players)
        self.players = players
        self.dealer = dealer
        self.rng = rng
        self.note_deck = list(range(NOTE_CARDS))
        rng.shuffle(self.note_deck)
        # INTERVAL cards 0..35: card // 3 is the interval's index in `interval_semitones`.
        self.intervals = list(interval_semitones)
        self.interval_deck = list(range(3 * len(self.intervals)))
        rng.shuffle(self.interval_deck)
        self.hands = [[] for _ in range(players)]
        self.piles = [[] for _ in range(players)]      # last item is the top card
        self.won = [[] for _ in range(players)]        # INTERVAL cards
        self.rabbits = [0] * players
        self.wheel = [[] for _ in range(12)]           # a stack per sector, last on top
        self._deal()
        self.interval = self.interval_deck.pop()       # the INTERVAL card on the Wheel
        for _ in range(WHEEL_START):
            card = self.note_deck.pop()
            self.wheel[note_pc(card)].append(card)
        self.turn = (dealer + 1) % players
        self.over = False
        self.turns = 0

    def _deal(self):
        """3 cards each, one at a time from the dealer's left, as far as the deck goes."""
        for _ in range(HAND):
            for k in range(self.players):
                if self.note_deck:
                    self.hands[(self.dealer + 1 + k) % self.players].append(self.note_deck.pop())

    def semitones(self, interval_card):
        return self.intervals[interval_card // 3]

    def wheel_cards(self):
        return sum(len(stack) for stack in self.wheel)

    # ---- legal moves --------------------------------------------------------------------

    def legal_moves(self):
        if self.over:
            return []
        moves = []
        occupied = self._occupied()
        for card in self.hands[self.turn]:
            self._moves_of(card, occupied, moves)
        return moves

    def _occupied(self):
        """The sectors holding a card, as a mask."""
        occupied = 0
        for sector in range(12):
            if self.wheel[sector]:
                occupied |= 1 << sector
        return occupied

    def _moves_of(self, card, occupied, moves):
        """Append the moves of the hand card `card` (`occupied`: _occupied())."""
        pc = note_pc(card)
        if self.interval is not None:
            picks = picks_up(self.semitones(self.interval), pc, occupied)
            for sector in range(12) if picks else ():
                if picks >> sector & 1:
                    moves.append(("pick", card, sector))
        for owner in range(self.players):
            pile = self.piles[owner]
            if owner != self.turn and pile and note_pc(pile[-1]) == pc:
                moves.append(("steal", card, owner))
        moves.append(("place", card))

    def _allows(self, move):
        """Whether `move` is among legal_moves(), listing its own card's moves alone."""
        hand = self.hands[self.turn]
        if self.over or not isinstance(move, tuple) or len(move) < 2 or move[1] not in hand:
            return False                     # every legal move is a tuple of a hand card
        moves = []
        self._moves_of(hand[hand.index(move[1])], self._occupied(), moves)
        return move in moves

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        if not self._allows(move):
            raise RuleError("%s is not allowed now (player %d's turn)" % (
                " ".join(str(m) for m in move), self.turn))
        player = self.turn
        verb, card = move[0], move[1]
        self.hands[player].remove(card)
        if verb == "pick":
            sector = move[2]
            other = self.wheel[sector].pop()
            interval = self.semitones(self.interval)
            # The card on position 1 goes on top of the pair.
            first, second = (card, other) if builds(interval, note_pc(card), sector) else (
                other, card)
            self.piles[player].extend([second, first])
            self.won[player].append(self.interval)
            self.interval = None
            if self.wheel_cards() == 0:
                self.rabbits[player] += 1              # the rabbit's run
        elif verb == "steal":
            owner = move[2]
            stolen = self.piles[owner] + [card]        # the mirror card goes on top of theirs
            self.piles[owner] = []
            self.piles[player].extend(stolen)
        else:
            self.wheel[note_pc(card)].append(card)
        self._next_turn()

    def _next_turn(self):
        self.turns += 1
        if not any(self.hands):
            if self.interval is None and not self.interval_deck or not self.note_deck:
                self.over = True
                return
            self._deal()
        for _ in range(self.players):
            self.turn = (self.turn + 1) % self.players
            if self.hands[self.turn]:
                break                                  # a player with no cards is passed over
        if self.interval is None and self.interval_deck:
            self.interval = self.interval_deck.pop()   # the next player turns a new one over

    # ---- checks and scores --------------------------------------------------------------

    def check_cards(self):
        notes = list(self.note_deck)
        for p in range(self.players):
            notes += self.hands[p]
            notes += self.piles[p]
        for stack in self.wheel:
            notes += stack
        notes.sort()
        assert notes == list(range(NOTE_CARDS)), "NOTE cards lost or doubled"
        intervals = list(self.interval_deck) + ([] if self.interval is None else [self.interval])
        for p in range(self.players):
            intervals += self.won[p]
        assert sorted(intervals) == list(range(3 * len(self.intervals))), \
            "INTERVAL cards lost or doubled"

    def scores(self):
        out = []
        for p in range(self.players):
            alices = len([c for c in self.piles[p] if note_pc(c) == A_PC])
            total, _ = score([self.semitones(c) for c in self.won[p]], alices, self.rabbits[p])
            out.append(total)
        return out


def interval_semitones(meldset):
    """The 12 intervals of a meld set's INTERVAL cards, as semitones (the octave is 12)."""
    from core import degrees
    return [degrees.semitones(meldset.meld_codes(i)[1]) for i in meldset.of_kind(0)]


def random_move(round_, rng):
    moves = round_.legal_moves()
    active = [m for m in moves if m[0] != "place"]
    if active and rng.below(4):
        return rng.choice(active)
    return rng.choice(moves)


class Game(RoundsGame):
    """Two rounds; the first dealer by the seed, then the right-hand neighbour of the first
    round's winner."""

    ROUNDS = ROUNDS

    def __init__(self, meldset, players, seed):
        self.rng = Rng(seed)
        self.semitones = interval_semitones(meldset)
        self._start(players, self.rng.below(players))

    def new_round(self):
        return Round(self.players, self.dealer, self.rng, self.semitones)

    def next_dealer(self, scores):
        return (round_winner(scores, self.dealer) - 1) % self.players
