"""Carmony, Bluff the Scale: the rule engine.

Every NOTE card is dealt. A SCALE card lies on the Wheel; a player chooses degree 1, and the
players, clockwise, place one card face down on each next degree, naming it. Before the next
card is placed anyone may shout BLUFF (the card is turned over and the loser takes the Wheel)
or, in the advanced variant, correct a badly spelled name. A scale completed without a call is
discarded and the next SCALE card comes out. The first player out of cards wins; when the SCALE
cards are all used, the fewest cards win.

Rulebook points that need an interpretation, and the one chosen:
- Names are notes (letter, alter). A placed card must be named as a note of its sector (a name
  of another pitch is not a move of the game); basic variant: any such name is right.
- Advanced variant: degree 1 may take either name of its pitch; it fixes the letters of the
  other degrees (docs/music.md: the letter follows the degree number, so the chromatic scale's
  degrees share letters). A wrong spelling is a legal (mistaken) move that others may correct;
  only a wrong spelling can be corrected. The corrected player places ANOTHER card (any other
  card of the hand; the same one only if it is the hand's only card), and must name it right.
- "Before the next player places a card" is a call window after every placement, degree 1
  included. Calls shouted together go first to BLUFF over a correction, then to the caller
  nearest the placer's left (clockwise). first_call() picks the call that counts.
- After a BLUFF call the same SCALE card restarts from degree 1: the chooser places degree 1
  and play goes on clockwise from them.
- A player is out when a call window closes with their hand empty (a caught bluffer takes the
  Wheel back first). Running out wins even on the scale's last degree.
- Half the deck (fewer than 4 players, as recommended; can be changed): 4 cards of each note;
  the other 48 stay in the box. All cards are dealt, so hands may differ by one.
- The first player is chosen by the seed; there is no score, only winners.
"""

from core import degrees
from core.games import NOTE_CARDS, NOTE_COPIES, RuleError, note_pc
from core.games.rng import Rng
from core.notes import note_pc as name_pc
from core.notes import pc_names
from core.spelling import spell

MIN_PLAYERS = 2
MAX_PLAYERS = 8
HALF_DECK_BELOW = 4       # players


def first_call(players, placer, bluffers, correctors):
    """The call that counts when several players shout at once: BLUFF beats a correction, then
    the caller nearest the placer's left wins. ("pass",) when nobody shouts."""
    for verb, callers in (("bluff", bluffers), ("correct", correctors)):
        for k in range(1, players):
            seat = (placer + k) % players
            if seat in callers:
                return (verb, seat)
    return ("pass",)


def names_of(pc, spelled):
    """The names a card on this sector may be given: its plain names and the letter rule's."""
    names = list(pc_names(pc))
    if spelled is not None and spelled not in names:
        names.append(spelled)
    return names


class Game:
    def __init__(self, meldset, players, seed, advanced=False, half_deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise RuleError("Bluff the Scale is for %d to %d players, not %d" % (
                MIN_PLAYERS, MAX_PLAYERS, players))
        self.meldset = meldset
        self.players = players
        self.advanced = advanced
        self.half_deck = players < HALF_DECK_BELOW if half_deck is None else half_deck
        rng = Rng(seed)
        self.scales = meldset.of_kind(2)
        self.scale_cards = len(self.scales)     # the set's SCALE cards (check_cards)
        rng.shuffle(self.scales)
        deck = list(range(NOTE_CARDS))
        self.box = []
        if self.half_deck:
            self.box = [c for c in deck if c % NOTE_COPIES >= NOTE_COPIES // 2]
            deck = [c for c in deck if c % NOTE_COPIES < NOTE_COPIES // 2]
        rng.shuffle(deck)
        self.turn = rng.below(players)          # the first player, chosen at random
        self.hands = [[] for _ in range(players)]
        seat = self.turn
        while deck:
            self.hands[seat].append(deck.pop())
            seat = (seat + 1) % players
        self.discard = []
        self.scales_done = 0
        self.over = False
        self.winners = []
        self.ended_by = None
        self.calls = 0
        self._new_scale()

    # ---- the scale on the Wheel ---------------------------------------------------------

    def _new_scale(self):
        self.scale = self.scales.pop()
        self.codes = self.meldset.meld_codes(self.scale)
        self._restart()

    def _restart(self):
        self.root = None
        self.root_name = None
        self.placed = []          # (card, name) per degree, in the scale's order
        self.phase = "root"
        self.placer = None
        self.taken_back = None    # the card a correction returned to the hand

    def sector(self, degree):
        return (self.root + degrees.semitones(self.codes[degree])) % 12

    def spelled(self, degree):
        """The name the letter rule gives this degree (None before degree 1 is named)."""
        if self.root_name is None:
            return None
        return spell(self.root_name, self.codes[degree])

    @property
    def degree(self):
        """The degree the next card goes on (an index into the scale's degrees)."""
        return len(self.placed)

    # ---- legal moves --------------------------------------------------------------------

    def legal_moves(self):
        if self.over:
            return []
        if self.phase == "root":
            return [("root", pc) for pc in range(12)]
        if self.phase == "place":
            return self._placements()
        moves = [("pass",)]
        for k in range(1, self.players):
            moves.append(("bluff", (self.placer + k) % self.players))
        if self._misspelled():
            for k in range(1, self.players):
                moves.append(("correct", (self.placer + k) % self.players))
        return moves

    def _placements(self):
        cards, names = self._placement_choices()
        return [("place", card, name) for card in sorted(cards) for name in names]

    def _placement_choices(self):
        """(the cards the player may place, the names they may be given)."""
        hand = self.hands[self.turn]
        cards = [c for c in hand if c != self.taken_back] or hand
        degree = self.degree
        pc = self.sector(degree)
        if degree == 0:
            names = list(pc_names(pc))
        elif self.taken_back is not None and self.advanced:
            names = [self.spelled(degree)]            # after a correction: named right
        else:
            names = names_of(pc, self.spelled(degree))
        return cards, names

    def _misspelled(self):
        if not self.advanced or self.degree <= 1:
            return False
        degree = self.degree - 1
        return self.placed[degree][1] != self.spelled(degree)

    # ---- moves --------------------------------------------------------------------------

    def _allows(self, move):
        """Whether `move` is among legal_moves(); a placement checked on its card and its
        name, a call on its caller, not found in a listing of every card's or caller's."""
        if self.over or not isinstance(move, tuple):
            return move in self.legal_moves()
        if self.phase == "place" and len(move) == 3 and move[0] == "place":
            cards, names = self._placement_choices()
            return move[1] in cards and move[2] in names
        if self.phase == "calls" and move == ("pass",):
            return True
        if self.phase == "calls" and len(move) == 2 and move[0] in ("bluff", "correct"):
            callers = [p for p in range(self.players) if p == move[1] and p != self.placer]
            return callers != [] and (move[0] == "bluff" or self._misspelled())
        return move in self.legal_moves()

    def apply(self, move):
        if not self._allows(move):
            raise RuleError("%s is not allowed now (%s phase, player %d)" % (
                " ".join(str(m) for m in move), self.phase, self.turn))
        verb = move[0]
        if verb == "root":
            self.root = move[1]
            self.phase = "place"
        elif verb == "place":
            _, card, name = move
            self.hands[self.turn].remove(card)
            if self.degree == 0:
                self.root_name = name
            self.placed.append((card, name))
            self.placer = self.turn
            self.taken_back = None
            self.phase = "calls"
        elif verb == "pass":
            self._window_closed()
        elif verb == "bluff":
            self._bluff(move[1])
        else:
            self.calls += 1
            card = self.placed.pop()[0]
            self.hands[self.placer].append(card)
            self.taken_back = card
            self.turn = self.placer
            self.phase = "place"

    def was_bluff(self):
        """Whether the card just placed is not the note it was named."""
        card, name = self.placed[-1]
        return note_pc(card) != name_pc(name)

    def _bluff(self, caller):
        self.calls += 1
        bluffed = self.was_bluff()
        loser, chooser = (self.placer, caller) if bluffed else (caller, self.placer)
        self.hands[loser].extend(card for card, _ in self.placed)
        out = self._someone_out()
        self._restart()
        if not out:
            self.turn = chooser

    def _window_closed(self):
        if self._someone_out():
            return
        self.turn = (self.placer + 1) % self.players
        if self.degree < len(self.codes):
            self.phase = "place"
            return
        self.discard.extend(card for card, _ in self.placed)    # a completed scale
        self.placed = []
        self.scales_done += 1
        if not self.scales:
            self.scale = None                  # the last SCALE card is done too
            self._end("scales", self._fewest())
            return
        self._new_scale()

    def _someone_out(self):
        if self.placer is not None and not self.hands[self.placer]:
            self._end("out", [self.placer])
            return True
        return False

    def _fewest(self):
        fewest = min(len(h) for h in self.hands)
        return [p for p in range(self.players) if len(self.hands[p]) == fewest]

    def _end(self, reason, winners):
        self.over = True
        self.ended_by = reason
        self.winners = winners
        self.phase = "over"

    # ---- checks -------------------------------------------------------------------------

    def check_cards(self):
        cards = self.box + self.discard + [card for card, _ in self.placed]     # a new list
        for hand in self.hands:
            cards += hand
        cards.sort()
        assert cards == list(range(NOTE_CARDS)), "NOTE cards lost or doubled"
        assert len(self.placed) <= len(self.codes), "more cards than the scale has degrees"
        on_wheel = 0 if self.scale is None else 1
        assert self.scales_done + len(self.scales) + on_wheel == self.scale_cards, \
            "SCALE cards lost"


def random_move(game, rng):
    """Mostly honest play, some bluffs and misspellings, and calls shouted together."""
    phase = game.phase
    hand = game.hands[game.turn]
    if phase == "root":
        return ("root", note_pc(rng.choice(hand)))
    if phase == "place":
        moves = game.legal_moves()
        pc = game.sector(game.degree)
        honest = [m for m in moves if m[1] // NOTE_COPIES == pc]         # note_pc, inline
        pool = honest if honest and rng.below(10) else moves
        if game.advanced and game.degree > 0 and rng.below(6):
            spelled = game.spelled(game.degree)
            right = [m for m in pool if m[2] == spelled]
            pool = right or pool
        return rng.choice(pool)
    bluffers = [p for p in range(game.players) if p != game.placer and rng.below(12) == 0]
    correctors = []
    if not game.over and game._misspelled():          # the corrections are legal moves
        correctors = [p for p in range(game.players) if p != game.placer and rng.below(3) == 0]
    return first_call(game.players, game.placer, bluffers, correctors)
