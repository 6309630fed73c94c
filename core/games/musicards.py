"""The Musicards deck, and the climbing game that Half step / Whole step and the Musical
Alphabet share (rulebooks musicards-half-whole-step.txt, musicards-alphabet-and-keys-corners.txt).

The deck: 54 cards. 12 pitches x 4 (a card 0..47, its pitch card // 4, 0 = C); a black-key card
carries both its names (G#/Ab); 4 "?" (48..51) and 2 "Chromatic Scale" (52, 53) are wilds. The
octave, colour and suit do not matter. A card's number is its hour on the Chromatic Scale
clock (C = 12, C#/Db = 1 ... B = 11): same pitch, same number.

The climbing game: 7 cards each, dealt one at a time from the dealer's left; the stock; the top
card turned over starts the discard pile. Players, clockwise from the dealer's left, put down
cards of one pitch (wilds too) on the pile and say what they play; a wrong card or a wrong
word: the cards go back to the hand, two penalty cards, the turn ends. Without a card that
works a player draws, up to 3, and may then pass. Down to one card a player must say
"Musicards!" before anyone else does, or draw 2. The first with no cards wins.

Rulebook points that need an interpretation, and the one chosen:
- A group is cards of one pitch plus any wilds, or wilds alone; the claim names what the group
  is (a wild group's pitch or letter is the claim). Saying a pitch other than the cards' own is
  not a move (the rulebook's mistakes are a card that does not fit, or a wrong word).
- A referee knows the hands: the first draw is allowed only without a right play in hand; a
  card drawn that works may be played, or the player draws on (up to 3); passing needs 3
  cards drawn this turn (or nothing left to draw). "The next player puts down the pitch you
  were supposed to play": the top stays.
- Penalty cards, when the stock is empty, come from the reshuffled discard pile (its top card
  stays); when there is nothing at all, fewer are drawn.
- The "Musicards!" call: after a play leaves one card, the first to say it is a move (the player
  or another seat); another seat first means 2 cards for the player.
"""

from core.games import RuleError
from core.games.rng import Rng
from core.notes import format_note, pc_names

PITCH_CARDS = 48
COPIES = 4
CARDS = 54
WILDS = tuple(range(48, 54))
QUESTION_MARKS = (48, 49, 50, 51)
CHROMATIC_SCALE_CARDS = (52, 53)
HAND = 7
PENALTY = 2
MAX_DRAWS = 3


def is_wild(card):
    return card >= PITCH_CARDS


def pitch(card):
    """The pitch class of a pitch card (None for a wild)."""
    return None if card >= PITCH_CARDS else card // COPIES


def number(card):
    """The Chromatic Scale clock's hour: C = 12, C#/Db = 1 ... B = 11."""
    pc = pitch(card)
    return None if pc is None else (pc or 12)


def names(card):
    """The names printed on a pitch card: one, or two for a black key (sharp first)."""
    return pc_names(pitch(card))


def letters(card):
    return [name[0] for name in names(card)]


def label(card):
    if card in QUESTION_MARKS:
        return "?"
    if is_wild(card):
        return "Chromatic Scale"
    return "/".join(format_note(n) for n in names(card))


def group_pitch(cards):
    """The pitch of a group's pitch cards (None for wilds alone); RuleError for a mixture."""
    pcs = []
    for card in cards:
        if not is_wild(card) and pitch(card) not in pcs:
            pcs.append(pitch(card))
    if len(pcs) > 1:
        raise RuleError("cards put down together must be one pitch: %s" % " ".join(
            label(c) for c in cards))
    return pcs[0] if pcs else None


def deck(chromatic_out=False):
    """The cards in play: all 54, or without the two "Chromatic Scale" cards ("You may also
    take the Chromatic Scale cards out and use them for references")."""
    return [c for c in range(CARDS) if not (chromatic_out and c in CHROMATIC_SCALE_CARDS)]


def deal(players, seed, hand, cards=None):
    """The shuffled deck (`cards`, default all 54) dealt `hand` cards each, one at a time from
    the dealer's left: (rng, stock, dealer, hands)."""
    rng = Rng(seed)
    stock = list(range(CARDS)) if cards is None else list(cards)
    rng.shuffle(stock)
    dealer = rng.below(players)
    hands = [[] for _ in range(players)]
    for _ in range(hand):
        for k in range(players):
            hands[(dealer + 1 + k) % players].append(stock.pop())
    return rng, stock, dealer, hands


class ClimbingGame:
    """The shared engine. A game defines start_top(card), and for a group of cards of pitch pc
    (None: wilds alone) claims(pc) and judge(pc, claim) -> (right, new top, the turn may go
    on); moves: ("play", cards, claim), ("draw",), ("pass",),
    ("end",) (a turn that may go on), ("musicards", seat)."""

    NAME = "Musicards"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 5

    def __init__(self, players, seed, chromatic_out=False):
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise RuleError("%s is for %d to %d players, not %d" % (
                self.NAME, self.MIN_PLAYERS, self.MAX_PLAYERS, players))
        self.players = players
        self.cards = deck(chromatic_out)
        self.rng, self.stock, self.dealer, self.hands = deal(players, seed, HAND, self.cards)
        first = self.stock.pop()
        self.discard = [first]
        self.top = self.start_top(first)      # None: a wild, anything may go on it
        self.turn = (self.dealer + 1) % players
        self.phase = "play"
        self.draws = 0
        self.after_call = None                # the phase a "Musicards!" call returns to
        self.over = False
        self.winner = None
        self.penalties = 0
        self.reshuffles = 0

    # ---- legal moves --------------------------------------------------------------------

    def plays(self):
        return self._plays(self.claims)

    def right_plays(self):
        return self._plays(self.right_claims)

    def _plays(self, claims_of):
        """("play", group, claim) for each group of the hand (_groups) and each claim of its
        pitch: the groups of a pitch with no claim are never made (a right play's pitches
        are few)."""
        chain = self.phase == "chain"
        pitches, wilds = _by_pitch(self.hands[self.turn])
        out = []
        for pc, cards in pitches:
            claims = [c for c in claims_of(pc) if not chain or self.chain_play(c)]
            for group in _groups(cards, wilds) if claims else ():
                for claim in claims:
                    out.append(("play", group, claim))
        return out

    def has_right_play(self):
        hand = self.hands[self.turn]
        pcs = set(pitch(card) for card in hand)        # a wild gives None: wilds alone
        return [pc for pc in pcs if self.right_claims(pc)] != []

    def right_claims(self, pc):
        """The claims that make a group of this pitch a right play (None: wilds alone)."""
        return [claim for claim in self.claims(pc) if self.judge(pc, claim)[0]]

    def can_draw(self):
        return bool(self.stock) or len(self.discard) > 1

    def legal_moves(self):
        if self.over:
            return []
        if self.phase == "call":
            return self.other_moves()
        return self.plays() + self.other_moves()

    def other_moves(self):
        """The legal moves but the plays (the game not over): a call, an end, a draw, a
        pass."""
        if self.phase == "call":
            return [("musicards", seat) for seat in range(self.players)]
        if self.phase == "chain":
            return [("end",)]
        moves = []
        drawing = self.draws > 0 or not self.has_right_play()
        if drawing and self.draws < MAX_DRAWS and self.can_draw():
            moves.append(("draw",))
        if self.draws >= MAX_DRAWS or not self.can_draw():
            moves.append(("pass",))
        return moves

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        verb = move[0]
        player = self.turn
        if self.over:
            raise RuleError("the game is over")
        if verb == "play":
            self._play(player, move[1], move[2])
        elif move not in self.other_moves():        # not a play: one of these
            raise RuleError("%s is not allowed now (%s phase, player %d)" % (
                " ".join(str(m) for m in move), self.phase, player))
        elif verb == "draw":
            self._draw(player, 1)
            self.draws += 1
        elif verb in ("pass", "end"):
            self._next_turn()
        else:
            if move[1] != player:
                self._draw(player, PENALTY)        # somebody else said it first
                self.penalties += 1
            self.phase = self.after_call
            if self.phase is None:
                self._next_turn()

    def _play(self, player, cards, claim):
        if self.phase == "call":
            raise RuleError("the \"Musicards!\" call comes first")
        hand = self.hands[player]
        cards = tuple(cards)
        if not cards or len(set(cards)) != len(cards) or [c for c in cards if c not in hand]:
            raise RuleError("player %d does not hold %s" % (player, " ".join(
                label(c) for c in cards)))
        pc = group_pitch(cards)
        if claim not in self.claims(pc):
            raise RuleError("%r is not something to say for %s" % (claim, " ".join(
                label(c) for c in cards)))
        if self.phase == "chain" and not self.chain_play(claim):
            raise RuleError("after a half step only another half step may follow")
        right, top, go_on = self.judge(pc, claim)
        if not right:
            self.penalties += 1
            self._draw(player, PENALTY)            # the cards never left the hand
            self._next_turn()
            return
        for card in cards:
            hand.remove(card)
            self.discard.append(card)
        self.top = top
        if not hand:
            self.over = True
            self.winner = player
            self.phase = "over"
            return
        self.after_call = "chain" if go_on else None
        if len(hand) == 1:
            self.phase = "call"
        elif go_on:
            self.phase = "chain"
        else:
            self._next_turn()

    def chain_play(self, claim):
        """Whether a play may continue a turn (the half-step game overrides this)."""
        return False

    def _draw(self, player, count):
        for _ in range(count):
            if not self.stock:
                self._reshuffle()
            if not self.stock:
                return
            self.hands[player].append(self.stock.pop())

    def _reshuffle(self):
        """The discard pile, but its top card, turned over and shuffled as the stock."""
        if len(self.discard) < 2:
            return
        self.stock = self.discard[:-1]
        self.discard = self.discard[-1:]
        self.rng.shuffle(self.stock)
        self.reshuffles += 1

    def _next_turn(self):
        self.turn = (self.turn + 1) % self.players
        self.phase = "play"
        self.draws = 0
        self.after_call = None

    # ---- checks -------------------------------------------------------------------------

    def check_cards(self):
        cards = list(self.stock) + list(self.discard)
        for hand in self.hands:
            cards += hand
        assert sorted(cards) == self.cards, "cards lost or doubled"
        assert self.discard, "the discard pile lost its top card"


def _by_pitch(hand):
    """([(pitch, its cards)] in ascending pitch, then (None, ()) if there are wilds; the
    wilds): the hand's cards sorted."""
    wilds = []
    pitches = []
    for card in sorted(hand):            # the wilds last; a pitch's cards one after another
        if is_wild(card):
            wilds.append(card)
        elif pitches and pitches[-1][0] == card // COPIES:
            pitches[-1][1].append(card)
        else:
            pitches.append((card // COPIES, [card]))
    if wilds:
        pitches.append((None, ()))
    return pitches, wilds


def _groups(cards, wilds):
    """The groups of one shape each: n >= 1 of `cards` (one pitch) plus m wilds, or, without
    cards, m >= 1 wilds alone; lowest cards first."""
    if not cards:
        return [tuple(wilds[:m]) for m in range(1, len(wilds) + 1)]
    out = []
    for n in range(1, len(cards) + 1):
        for m in range(len(wilds) + 1):
            out.append(tuple(cards[:n] + wilds[:m]))
    return out


def random_move(game, rng):
    """Mostly right plays; now and then a wrong card or word; the call said first mostly."""
    if game.phase == "call":
        if rng.below(5):
            return ("musicards", game.turn)
        return ("musicards", rng.below(game.players))
    right = game.right_plays()
    if game.phase == "chain":
        if right and rng.below(10) < 7:
            return rng.choice(right)
        return ("end",) if rng.below(10) else rng.choice(game.legal_moves())
    if right and rng.below(8):
        return rng.choice(right)
    others = game.other_moves()          # listed first: most often no play is listed at all
    if others and rng.below(8):
        return rng.choice(others)
    return rng.choice(game.legal_moves())
