"""Carmony, the original: the rule engine. The scoring table is core/games/carmony_table.py."""

# ---- the rule engine ----------------------------------------------------------------------
#
# Rulebook points that need an interpretation, and the one chosen:
# - "If the NOTE deck runs out before anyone goes out, the round ends": the turn in which the
#   deck ran out (a draw, or a C-root refill) is played to its end: the player may still meld,
#   eat and discard. The round ends when that turn ends; going out within it is going out.
# - A player who may not discard (the only card left would go out without 1 scale or 3 chords
#   on the table, or it is the note just taken as the single card of the pile) keeps it: the
#   turn ends without a discard.
# - Going out by playing the last card needs the condition too, counting the meld just played;
#   a meld with C on position 1 first refills the hand, so it never goes out while the deck
#   has a card to refill with.
# - Eating: strictly higher rank (docs/music.md): chromatic > major scale > other scales > chords >
#   intervals. The eaten cards go to the eater's hand; the turn goes on to the discard.
# - The round's winner (whose right-hand neighbour deals next) is the best round score; a tie
#   goes to the player who went out, then to the first after the dealer, clockwise.
# - Seats are numbered clockwise: a player's left is seat + 1, the right seat - 1.
from core import degrees
from core.games import (
    NOTE_CARDS,
    NOTE_COPIES,
    RoundsGame,
    RuleError,
    ScoreError,
    note_pc,
    round_winner,
)
from core.games.carmony_table import can_go_out, meld_points, rank, round_points
from core.games.rng import Rng

NOTES_DEALT = {2: 14, 3: 12, 4: 10}
MELDS_IN_HAND = 5
ROUNDS = 3
INTERVAL_COPIES = 3




def meld_rank(meld):
    """Eating power: 0 interval, 1 chord, 2 scale, 3 major scale, 4 chromatic scale."""
    return rank(meld.kind, meld.degree_text(), len(meld.codes))


def meld_cards(meldset):
    """The MELD deck as meld indexes: every interval 3 times, every chord and scale once."""
    cards = []
    for i in range(meldset.count):
        copies = INTERVAL_COPIES if meldset.kind(i) == 0 else 1
        cards.extend([i] * copies)
    return cards


def table_problems(meldset, melds, unplayed=0):
    """What the decks make impossible in one player's round: `melds` as (meld index, NOTE
    pitch classes). The MELD deck has one card of each chord and scale and 3 of each interval;
    the NOTE deck 8 cards of each note, 96 in all. A list of problems (empty: possible)."""
    from core.notes import pc_label
    problems = []
    copies = meld_cards(meldset)
    seen = []
    for index, _ in melds:
        if index in seen:
            continue
        seen.append(index)
        used = len([1 for other, _ in melds if other == index])
        if used > copies.count(index):
            problems.append("%d %s melds, but the MELD deck has %d such card%s" % (
                used, meldset.meld(index).name, copies.count(index),
                "" if copies.count(index) == 1 else "s"))
    counts = [0] * 12
    for _, pcs in melds:
        for pc in pcs:
            counts[pc] += 1
    for pc in range(12):
        if counts[pc] > NOTE_CARDS // 12:
            problems.append("%d %s cards in the melds, but the NOTE deck has %d" % (
                counts[pc], pc_label(pc), NOTE_CARDS // 12))
    if sum(counts) + unplayed > NOTE_CARDS:
        problems.append("%d NOTE cards in all, but the deck has %d" % (
            sum(counts) + unplayed, NOTE_CARDS))
    return problems


class Round:
    """One round: the state, the legal moves in it, and moves applied with a clear error."""

    def __init__(self, meldset, players, dealer, rng):
        if players not in NOTES_DEALT:
            raise RuleError("Carmony is for 2 to 4 players, not %d" % players)
        self.meldset = meldset
        self.melds, self._ranks, self._choices = _worked_out(meldset)
        self.players = players
        self.dealer = dealer
        self.rng = rng
        self.meld_of = meld_cards(meldset)          # MELD card id -> meld index
        self.note_deck = list(range(NOTE_CARDS))
        self.meld_deck = list(range(len(self.meld_of)))
        rng.shuffle(self.note_deck)
        rng.shuffle(self.meld_deck)
        self.hands = [[] for _ in range(players)]
        self.meld_hands = [[] for _ in range(players)]
        self.table = [[] for _ in range(players)]   # per player: [meld card, root pc, [notes]]
        order = [(dealer + 1 + k) % players for k in range(players)]
        for _ in range(MELDS_IN_HAND):
            for p in order:
                self.meld_hands[p].append(self.meld_deck.pop())
        for _ in range(NOTES_DEALT[players]):
            for p in order:
                self.hands[p].append(self.note_deck.pop())
        self.discard = [self.note_deck.pop()]
        self.turn = order[0]
        self.phase = "start"          # start -> main -> discard, then the next player
        self.played_kind = None       # the kind of meld played this turn
        self.ate = False
        self.single_taken = None      # pc of the single card taken from the pile, if so
        self.over = False
        self.deck_out = False         # the NOTE deck ran out: the round ends with this turn
        self.went_out = None
        self.turns = 0

    # ---- helpers ------------------------------------------------------------------------

    def _draw_notes(self, player, count):
        for _ in range(count):
            if not self.note_deck:
                break
            self.hands[player].append(self.note_deck.pop())
        if not self.note_deck:
            self.deck_out = True       # the round ends when this turn does

    def _draw_meld(self, player):
        if self.meld_deck and len(self.meld_hands[player]) < MELDS_IN_HAND:
            self.meld_hands[player].append(self.meld_deck.pop())

    def _table_kinds(self, player):
        return [self.melds[self.meld_of[card]].kind for card, _, _ in self.table[player]]

    def _next_turn(self):
        if self.deck_out:
            self.over = True           # the turn that emptied the deck is over: so is the round
            return
        self.turn = (self.turn + 1) % self.players
        self.phase = "start"
        self.played_kind = None
        self.ate = False
        self.single_taken = None
        self.turns += 1

    def _take_cards(self, player, notes):
        hand = self.hands[player]
        for card in notes:
            if card not in hand:
                raise RuleError("NOTE card %d is not in player %d's hand" % (card, player))
        for card in notes:
            hand.remove(card)

    # ---- legal moves --------------------------------------------------------------------

    def legal_moves(self):
        if self.over:
            return []
        player = self.turn
        if self.phase == "start":
            moves = [("draw",)]
            if self.discard:
                moves.append(("take",))
            return moves
        if self.phase == "main":
            moves = [("end",)]
            if not self.ate:
                moves.extend(self._plays(player))
            if not self.ate and self.played_kind is None:
                moves.extend(self._eats(player))
            return moves
        return [("discard", card) for card in self._discardable(player)]

    def _allows(self, move):
        """Whether `move` is among legal_moves(), listing in the main phase only the moves of
        its kind (a play: its own MELD card's): listing every play is most of a move's time."""
        if self.phase != "main" or self.over or not move:
            return move in self.legal_moves()
        verb = move[0]
        if verb == "end":
            return move == ("end",)
        if verb == "play" and len(move) == 4:
            roots = [root for root in range(12) if root == move[2]]
            return not self.ate and move in self._plays(self.turn, move[1], roots)
        if verb == "eat":
            return not self.ate and self.played_kind is None and move in self._eats(self.turn)
        return False

    def _plays(self, player, only=None, roots=None):
        """The legal plays, each ("play", MELD card, root, NOTE cards); `only`: the plays
        of that MELD card alone (none when it is another copy of a meld listed already);
        `roots`: at those roots alone."""
        held = _held(sorted(self.hands[player]))
        moves = []
        seen = []
        for card in self.meld_hands[player]:
            index = self.meld_of[card]
            if self.played_kind is not None and self.melds[index].kind != self.played_kind:
                continue
            if index in seen:
                continue                 # another copy of the same meld: the same plays
            seen.append(index)
            if only is None or card == only:
                self._plays_of(player, card, index, held, roots, moves)
        return moves

    def _plays_of(self, player, card, index, held, roots, moves):
        """Append the plays of MELD `card` (meld `index`) from the hand `held` (_held)."""
        hand, start, counts, have = held
        size = len(hand)
        meld = self.melds[index]
        at_root = self._choices_at(index)
        for root in range(12) if roots is None else roots:
            required, choices = at_root[root]
            if required & ~have:
                continue
            for pcs, mask, distinct in choices:
                if mask & ~have:
                    continue                 # a pitch class the hand has none of
                if distinct:                 # the lowest card of each
                    notes = tuple([hand[start[pc]] for pc in pcs])
                else:
                    notes = _pick(hand, start, counts, pcs)
                if notes is not None and (len(notes) < size or self._may_empty_hand(
                        player, meld, len(notes), root)):
                    moves.append(("play", card, root, notes))

    def _choices_at(self, index):
        """Per root: (the meld's required sectors there, [(pitch classes ascending, their
        mask, whether they are all different)] of its _card_choices) for meld `index`."""
        found = self._choices.get(index)
        if found is None:
            meld = self.melds[index]
            required, optional = _offsets(meld)
            found = []
            for root in range(12):
                choices = []
                for pcs in _card_choices(required, optional, root):
                    mask = 0
                    for pc in pcs:
                        mask |= 1 << pc
                    choices.append((tuple(sorted(pcs)), mask, bin(mask).count("1") == len(pcs)))
                found.append((_rotate(meld.required_mask, root), choices))
            self._choices[index] = found
        return found

    def _may_empty_hand(self, player, meld, used, root):
        if used < len(self.hands[player]) or (root == 0 and self.note_deck):
            return True                  # cards stay, or a C root refills the hand
        return can_go_out(self._table_kinds(player) + [meld.kind])

    def _eats(self, player):
        ranks = self._ranks
        targets = []                     # (rank, owner, at) of each meld on the others' tables
        for owner in range(self.players):
            if owner != player:
                for at, (target, _, _) in enumerate(self.table[owner]):
                    targets.append((ranks[self.meld_of[target]], owner, at))
        moves = []
        for card in self.meld_hands[player] if targets else ():
            rank = ranks[self.meld_of[card]]
            for target_rank, owner, at in targets:
                if rank > target_rank:
                    moves.append(("eat", card, owner, at))
        return moves

    def _discardable(self, player):
        hand = self.hands[player]
        if len(hand) == 1 and not can_go_out(self._table_kinds(player)):
            return []
        return [c for c in hand if self.single_taken is None or note_pc(c) != self.single_taken]

    # ---- moves --------------------------------------------------------------------------

    def apply(self, move):
        """Apply a move; RuleError (and no change) when the rules do not allow it."""
        if self.over:
            raise RuleError("the round is over")
        if not self._allows(move):
            raise RuleError("%s is not allowed now (%s phase of player %d)" % (
                _describe(move), self.phase, self.turn))
        player = self.turn
        verb = move[0]
        if verb == "draw":
            self._draw_notes(player, 2)
            self.phase = "main"
        elif verb == "take":
            if len(self.discard) == 1:
                self.single_taken = note_pc(self.discard[0])
            self.hands[player].extend(self.discard)
            self.discard = []
            self.phase = "main"
        elif verb == "play":
            _, card, root, notes = move
            meld = self.melds[self.meld_of[card]]
            self._take_cards(player, notes)
            self.meld_hands[player].remove(card)
            self.table[player].append([card, root, list(notes)])
            self.played_kind = meld.kind
            self._draw_meld(player)
            if root == 0:
                self._draw_notes(player, len(notes))     # the C root: replenish
            if not self.hands[player] and not self.over:
                self.over = True
                self.went_out = player
        elif verb == "eat":
            _, card, owner, at = move
            target, _, notes = self.table[owner].pop(at)
            self.hands[player].extend(notes)
            self.meld_hands[player].remove(card)
            self.meld_deck.insert(0, card)               # both MELD cards to the bottom
            self.meld_deck.insert(0, target)
            self.ate = True
            self._draw_meld(player)
        elif verb == "end":
            self.phase = "discard"
            if not self._discardable(player):
                self._next_turn()                        # nothing may be discarded: keep it
        elif verb == "discard":
            card = move[1]
            self.hands[player].remove(card)
            self.discard.append(card)
            if not self.hands[player]:
                self.over = True
                self.went_out = player
            else:
                self._next_turn()

    # ---- checks and scores --------------------------------------------------------------

    def check_cards(self):
        """Every NOTE and MELD card is in exactly one place; raises AssertionError if not."""
        from core.check import check  # here: core.check scores with this module's table
        notes = list(self.note_deck) + list(self.discard)
        for p in range(self.players):
            notes += self.hands[p]
            for _, _, played in self.table[p]:
                notes += played
        assert sorted(notes) == list(range(NOTE_CARDS)), "NOTE cards lost or doubled"
        melds = list(self.meld_deck)
        for p in range(self.players):
            melds += self.meld_hands[p]
            melds += [card for card, _, _ in self.table[p]]
        assert sorted(melds) == list(range(len(self.meld_of))), "MELD cards lost or doubled"
        for p in range(self.players):
            for card, root, played in self.table[p]:
                meld = self.melds[self.meld_of[card]]
                result = check(meld, [note_pc(c) for c in played], _root_note(meld, root))
                assert result.valid, "an invalid meld on the table"

    def scores(self):
        """Each player's round points (the rulebook's scoring table)."""
        out = []
        for p in range(self.players):
            points = [meld_points(self.melds[self.meld_of[card]], len(played))
                      for card, _, played in self.table[p]]
            out.append(round_points(points, len(self.hands[p]), self.went_out == p))
        return out


_WORKED_OUT = [None, None, None, None]   # the last set's: [set, Melds, ranks, choices]


def _worked_out(meldset):
    """(the set's Meld objects, each meld's rank, {meld index: its card choices at each
    root}) for this meld set, kept for the next round and game with the same set (the soaks
    deal thousands of rounds and list the legal moves hundreds of thousands of times; only
    the last set's are kept)."""
    if _WORKED_OUT[0] is not meldset:
        melds = [meldset.meld(i) for i in range(meldset.count)]
        _WORKED_OUT[:] = [meldset, melds, [meld_rank(meld) for meld in melds], {}]
    return _WORKED_OUT[1], _WORKED_OUT[2], _WORKED_OUT[3]


def _rotate(mask, root):
    return ((mask << root) | (mask >> (12 - root))) & 0xFFF


def _held(hand):
    """(hand, start, counts, mask) of a sorted hand: a card's id is its pitch class * 8 +
    copy, so each pitch class's cards are together, lowest first, from hand[start[pc]]."""
    counts = [0] * 12
    for card in hand:
        counts[card // NOTE_COPIES] += 1
    start = [0] * 12
    have = 0
    at = 0
    for pc in range(12):
        start[pc] = at
        at += counts[pc]
        if counts[pc]:
            have |= 1 << pc
    return hand, start, counts, have


def _offsets(meld):
    """A meld's positions as semitones above its root: (required ones, optional ones)."""
    required = []
    optional = []
    for code in meld.codes:
        (optional if degrees.is_optional(code) else required).append(degrees.semitones(code))
    return required, optional


def _card_choices(required_offsets, optional_offsets, root):
    """The pitch-class lists a meld takes at a root: required positions plus each subset of
    the optional ones."""
    required = [(root + s) % 12 for s in required_offsets]
    optional = [(root + s) % 12 for s in optional_offsets]
    choices = []
    for subset in range(1 << len(optional)):
        chosen = list(required)
        for k in range(len(optional)):
            if subset >> k & 1:
                chosen.append(optional[k])
        choices.append(chosen)
    return choices


def _pick(hand, start, counts, pcs):
    """The NOTE cards of `hand` (see _held) for these pitch classes (ascending, some twice),
    lowest ids first, or None."""
    picked = []
    previous = -1
    k = 0                                # how many of this pitch class so far, less one
    for pc in pcs:
        k = k + 1 if pc == previous else 0
        if k >= counts[pc]:
            return None
        picked.append(hand[start[pc] + k])
        previous = pc
    return tuple(picked)


def _root_note(meld, root):
    return meld.root_name(root)


def _describe(move):
    return " ".join(str(part) for part in move)


def random_move(round_, rng):
    """A random legal move: drawing more often than taking the pile (swapping the pile back
    and forth is legal but never ends), and playing or eating two times in three."""
    moves = round_.legal_moves()
    if round_.phase == "start":
        return moves[0] if len(moves) == 1 or rng.below(10) < 7 else moves[1]
    active = moves[1:] if round_.phase == "main" else []    # all but ("end",)
    if active and rng.below(3):
        return rng.choice(active)
    return rng.choice(moves)


class Game(RoundsGame):
    """Three rounds; the first dealer by the seed, then the right-hand neighbour of the
    previous round's winner."""

    ROUNDS = ROUNDS

    def __init__(self, meldset, players, seed):
        self.rng = Rng(seed)
        self.meldset = meldset
        self._start(players, self.rng.below(players))

    def new_round(self):
        return Round(self.meldset, self.players, self.dealer, self.rng)

    def next_dealer(self, scores):
        return (round_winner(scores, self.dealer, self.round.went_out) - 1) % self.players


__all__ = ["Game", "Round", "RuleError", "ScoreError", "meld_rank", "random_move"]
