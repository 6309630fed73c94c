"""The colour-map pairs game (color-map-pairs-game.txt): place cards on a shared map so that
they pair with cards of their colour in a row; everyone may then give you cards that match the
pairs. Out of cards at the end of your turn: the game ends; the notes left in a hand count
against it.

A card is an index into the deck: (colour, number, notes). The deck is data
(core/games/colour_map_deck.json; see load_deck); its colours are four, one of each starts the
map, one may be the wild ("purple") colour.

Rulebook points that need an interpretation, and the one chosen:
- "Adjacent" is the 8 cells around a card, for connecting and for the base game's ban on a
  card next to its colour. A row (horizontal, vertical or diagonal) is a whole line of the grid
  and may have gaps: "the same row" is a place on the table, and Distance counts "how many
  other cards are in-between", not cells. A Pair is the new card and an older card of its
  colour on one of its 4 rows; its distance is the number of cards between them (so even in
  the base game two cards with only empty cells between them make a distance-0 pair).
- Giving: each other player may give any number of cards that match any pair created: its
  colour with its number inside the range, or its notes equal to the note difference (either
  criterion suffices: Dissonance's "Range and Note Difference are both 0" means nothing is
  throwable, which holds only if the criteria are alternatives).
- "The game ends when a player is out of cards": checked when a turn ends, so a player who
  gave away the last card ends it too; the fewest notes win.
- The text never says when the draw pile is used: a player who cannot place any card draws
  one (the turn ends); with the pile empty, passes. When every player in a row passes the
  game ends (blocked).
- Safesong (expansion): when its player is safe, the rows that hold the Pairs just created
  (and only those: "the affected rows") are "done"; no card may be placed on a done row
  again, at its ends or in its gaps. The map may not outgrow 8 x 8. Silence: each other
  player may also give one card of any kind. Toned Down: the player names one criterion
  (range, notes or distance: a card whose number or notes equals a pair's distance).
  Dissonance: when no pair has a range or a note difference, cards whose number or notes
  equal a distance match.
- Purple wildcard variant: a purple card is placed as the colour its player names (and may
  not go next to that colour in the base game). On the map "it is any color you want", and
  the player placing next to it is the one who wants: it pairs with any colour, and it never
  counts as the new card's colour for the base game's ban on neighbours of one colour. A
  purple card inside a range may be given whatever the pair's colour; a pair with a purple
  card takes any card inside its range.
- Cooperative variant: a card that could be given may instead go on its colour's face-up pile
  if its number is higher than the pile's top. The game ends when all players but one have
  emptied their hands (or play is blocked); all win if every pile holds exactly 10 notes.
- The action-card expansion lists no cards, so it is left out.
"""

import json

from core.games import RuleError
from core.games.rng import Rng

HAND = 8
MAP_LIMIT = 8
SAFE_DISTANCE = 3
COOPERATIVE_NOTES = 10
AXES = ((1, 0), (0, 1), (1, 1), (1, -1))
CRITERIA = ("range", "notes", "distance")
DECK_FORMAT = "chromawheel-colour-map-deck"


class DeckError(ValueError):
    """A deck file that cannot be used, with every problem's place."""


def load_deck(data, source="deck"):
    """(colour names, wild colour index or None, cards as (colour, number, notes)) from the
    JSON form; DeckError naming the file, field and index of each problem."""
    problems = []
    if not isinstance(data, dict) or data.get("format") != DECK_FORMAT:
        raise DeckError("%s: not a colour-map deck (format must be %r)" % (source, DECK_FORMAT))
    colours = data.get("colours")
    if not isinstance(colours, list) or len(colours) != 4:
        raise DeckError("%s: colours: the map starts with one card of each of 4 colours" % source)
    names = []
    wild = None
    cards = []
    for i in range(len(colours)):
        entry = colours[i]
        where = "%s: colours[%d]" % (source, i)
        if not isinstance(entry, dict):
            problems.append("%s: must be an object" % where)
            continue
        name = entry.get("colour")
        if not isinstance(name, str) or not name or name in names:
            problems.append("%s.colour: a new colour name is needed, not %r" % (where, name))
        names.append(name)
        if entry.get("wild", False) is True:
            if wild is not None:
                problems.append("%s.wild: only one colour can be the wildcard" % where)
            wild = i
        elif entry.get("wild", False) is not False:
            problems.append("%s.wild: true or false" % where)
        listed = entry.get("cards")
        if not isinstance(listed, list) or not listed:
            problems.append("%s.cards: a list of [number, notes] pairs is needed" % where)
            continue
        for k in range(len(listed)):
            card = listed[k]
            if (not isinstance(card, list) or len(card) != 2
                    or [v for v in card if not isinstance(v, int) or isinstance(v, bool)]):
                problems.append("%s.cards[%d]: [number, notes] whole numbers, not %r" % (
                    where, k, card))
            elif not 1 <= card[0] <= 99 or not 1 <= card[1] <= 9:
                problems.append("%s.cards[%d]: number 1-99 and notes 1-9, not %r" % (
                    where, k, card))
            else:
                cards.append((i, card[0], card[1]))
    if problems:
        raise DeckError("\n".join(problems))
    return names, wild, cards


def default_deck():
    path = __file__.replace("\\", "/").rsplit("/", 1)[0] + "/colour_map_deck.json"
    with open(path) as f:
        return load_deck(json.load(f), "colour_map_deck.json")


def row_of(cell, axis):
    """The grid line through `cell` along `axis`: (axis, what stays the same along it)."""
    return axis, axis[1] * cell[0] - axis[0] * cell[1]


class Pair:
    def __init__(self, new, old, distance, colour, wild, row):
        self.cards = (new, old)
        self.row = row                # the grid line the two cards share
        self.distance = distance
        self.colour = colour          # the colour the pair was made in
        self.wild = wild              # a wildcard is one of its cards


class Game:
    def __init__(self, players, seed, deck=None, safesong=False, toned_down=False,
                 dissonance=False, purple_wild=False, cooperative=False):
        self.colours, self.wild_colour, self.deck = deck or default_deck()
        if (toned_down or dissonance) and not safesong:
            raise RuleError("Toned Down and Dissonance are rules of the Safesong expansion")
        if purple_wild and self.wild_colour is None:
            raise RuleError("the purple wildcard variant needs a deck with a wild colour")
        if players < 2 or 4 + HAND * players > len(self.deck):
            raise RuleError("this deck of %d cards is for 2 to %d players, not %d" % (
                len(self.deck), (len(self.deck) - 4) // HAND, players))
        self.players = players
        self.safesong = safesong
        self.toned_down = toned_down
        self.dissonance = dissonance
        self.purple_wild = purple_wild
        self.cooperative = cooperative
        self.rng = Rng(seed)
        cards = list(range(len(self.deck)))
        self.rng.shuffle(cards)
        self.map = {}
        self._box = (0, 0, 0, 0, 0)     # (map cards then, its bounding box): _in_a_row_with
        cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
        self.rng.shuffle(cells)
        for colour in range(4):
            card = [c for c in cards if self.deck[c][0] == colour][0]
            cards.remove(card)
            self.map[cells[colour]] = (card, colour)
        self.hands = [[cards.pop() for _ in range(HAND)] for _ in range(players)]
        self.draw_pile = cards
        self.piles = [[] for _ in range(4)]           # cooperative: face up, by colour
        self.done_rows = []                           # Safesong: rows (see row_of)
        self.turn = self.rng.below(players)
        self.phase = "place"
        self.pairs = []
        self.criterion = None
        self.silence_used = []
        self.passes = 0
        self.over = False
        self.ended_by = None
        self.placements = 0
        self.given = 0

    # ---- the map ------------------------------------------------------------------------

    def colour_of(self, card):
        return self.deck[card][0]

    def is_wild(self, card):
        return self.purple_wild and self.colour_of(card) == self.wild_colour

    def _matches(self, cell, colour):
        """Whether the map card at `cell` counts as `colour` (a wildcard counts as any)."""
        card, played_as = self.map[cell]
        return played_as == colour or self.is_wild(card)

    def _reach(self, cell):
        """How many steps from `cell` the farthest map card is (in any direction)."""
        x, y = cell
        far = 0
        for other in self.map:
            steps = max(abs(other[0] - x), abs(other[1] - y))
            if steps > far:
                far = steps
        return far

    def _line(self, cell, axis, reach):
        """The map's cards on each side of `cell` along `axis`, nearest first, gaps and all
        (`reach`: no card is farther)."""
        ahead, behind = [], []
        x, y = cell
        dx, dy = axis
        for steps in range(1, reach + 1):
            other = (x + steps * dx, y + steps * dy)
            if other in self.map:
                ahead.append(other)
            other = (x - steps * dx, y - steps * dy)
            if other in self.map:
                behind.append(other)
        return ahead, behind

    def pairs_at(self, card, cell, colour):
        pairs = []
        reach = self._reach(cell)
        for axis in AXES:
            for side in self._line(cell, axis, reach):
                for between in range(len(side)):
                    if self._matches(side[between], colour):
                        old = self.map[side[between]][0]
                        pairs.append(Pair(card, old, between, colour,
                                          self.is_wild(card) or self.is_wild(old),
                                          row_of(cell, axis)))
        return pairs

    def _neighbours(self, cell):
        x, y = cell
        return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and (x + dx, y + dy) in self.map]

    def placement_problem(self, card, cell, colour):
        """Why `card` may not go on `cell` as `colour` (None: it may)."""
        if cell in self.map:
            return "that cell is taken"
        near = self._neighbours(cell)
        if not near:
            return "the card must connect to the map"
        if not self.safesong:
            for other in near:
                held, played_as = self.map[other]
                if played_as == colour and not self.is_wild(held):
                    return "a card may not be next to a card of its colour"
        if self.safesong:
            low_x, high_x, low_y, high_y = self._bounds()
            x, y = cell
            if max(high_x, x) - min(low_x, x) >= MAP_LIMIT or \
                    max(high_y, y) - min(low_y, y) >= MAP_LIMIT:
                return "the map is at most 8 by 8"
            for axis in AXES:
                if row_of(cell, axis) in self.done_rows:
                    return "that row is done (a Safesong)"
        if not self._in_a_row_with(cell, colour):
            return "the card must be in a row with a card of its colour"
        return None

    def _bounds(self):
        """The map's bounding box: (lowest x, highest x, lowest y, highest y)."""
        if self._box[0] != len(self.map):          # the map only grows: a card more
            xs = [c[0] for c in self.map]
            ys = [c[1] for c in self.map]
            self._box = (len(self.map), min(xs), max(xs), min(ys), max(ys))
        return self._box[1:]

    def _in_a_row_with(self, cell, colour):
        """Whether pairs_at() finds a pair for a card on `cell` as `colour` (whichever card):
        a map card counting as `colour` in a line with `cell`. Asked for every empty cell at
        every listing of the moves: it stops at the first, makes no Pair, and bounds the walk
        by the map's bounding box (no card lies beyond it) instead of its farthest card."""
        x, y = cell
        low_x, high_x, low_y, high_y = self._bounds()
        reach = max(x - low_x, high_x - x, y - low_y, high_y - y)
        for dx, dy in AXES:
            for steps in range(1, reach + 1):
                other = (x + steps * dx, y + steps * dy)
                if other in self.map and self._matches(other, colour):
                    return True
                other = (x - steps * dx, y - steps * dy)
                if other in self.map and self._matches(other, colour):
                    return True
        return False

    def _cells(self):
        """Empty cells next to the map."""
        out = []
        for cell in self.map:
            x, y = cell
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    near = (x + dx, y + dy)
                    if near not in self.map and near not in out:
                        out.append(near)
        out.sort()
        return out

    def placements_for(self, player):
        moves = []
        cells = self._cells()
        open_cells = {}              # colour -> the cells it may go on (the same for any card)
        for card in sorted(self.hands[player]):
            for colour in self._colours_for(card):
                if colour not in open_cells:
                    open_cells[colour] = [cell for cell in cells if self.placement_problem(
                        card, cell, colour) is None]
                for cell in open_cells[colour]:
                    moves.append(("place", card, cell, colour))
        return moves

    def _colours_for(self, card):
        """The colours a card may be placed as: its own, or any for a wildcard."""
        return range(4) if self.is_wild(card) else (self.colour_of(card),)

    def _allows_placement(self, move):
        """Whether the placement `move` is among legal_moves(), checked on its own card,
        cell and colour, not found in a listing of every card's placements."""
        hand = self.hands[self.turn]
        if len(move) != 4 or move[0] != "place" or move[1] not in hand:
            return False
        card = hand[hand.index(move[1])]
        cells = self._cells()
        colours = list(self._colours_for(card))
        if move[2] not in cells or move[3] not in colours:
            return False
        cell = cells[cells.index(move[2])]
        return self.placement_problem(card, cell, colours[colours.index(move[3])]) is None

    # ---- what may be given --------------------------------------------------------------

    def safe(self):
        """Safesong: every pair created has distance 3 or more."""
        return self.safesong and all(p.distance >= SAFE_DISTANCE for p in self.pairs)

    def silence(self):
        return self.safesong and [p for p in self.pairs if p.distance == 0] != []

    def may_tone_down(self):
        return (self.toned_down and not self.safe()
                and [p for p in self.pairs if p.distance >= SAFE_DISTANCE] != [])

    def _in_range(self, card, pair):
        low, high = sorted(self.deck[c][1] for c in pair.cards)
        return low < self.deck[card][1] < high

    def _note_difference(self, pair):
        a, b = [self.deck[c][2] for c in pair.cards]
        return abs(a - b)

    def matches(self, card):
        """Whether `card` may be given for the pairs just created (Silence aside)."""
        if self.safe():
            return False
        criteria = (self.criterion,) if self.criterion else ("range", "notes")
        colour = self.colour_of(card)
        number, notes = self.deck[card][1], self.deck[card][2]
        for pair in self.pairs:
            if "range" in criteria and self._in_range(card, pair) and (
                    colour == pair.colour or pair.wild or self.is_wild(card)):
                return True
            if "notes" in criteria and notes == self._note_difference(pair):
                return True
            if "distance" in criteria and pair.distance in (number, notes):
                return True
        if self.dissonance and not self.criterion and self._nothing_throwable():
            return [p for p in self.pairs if p.distance in (number, notes)] != []
        return False

    def _nothing_throwable(self):
        """Dissonance's condition: every pair's range is empty and its note difference 0."""
        for pair in self.pairs:
            low, high = sorted(self.deck[c][1] for c in pair.cards)
            if high - low > 1 or self._note_difference(pair):
                return False
        return True

    # ---- legal moves --------------------------------------------------------------------

    def legal_moves(self):
        if self.over:
            return []
        if self.phase == "place":
            moves = self.placements_for(self.turn)
            if moves:
                return moves
            return [("draw",)] if self.draw_pile else [("pass",)]
        if self.phase == "tone":
            return [("choose", c) for c in CRITERIA]
        moves = [("stop",)]
        silence = self.silence()
        for k in range(1, self.players):
            giver = (self.turn + k) % self.players
            for card in sorted(self.hands[giver]):
                for verb in self._gifts(giver, card, silence):
                    moves.append((verb, giver, card))
        return moves

    def _gifts(self, giver, card, silence):
        """How `giver` may hand over `card` ("give", "pile"); `silence`: self.silence()."""
        matching = self.matches(card)
        verbs = []
        if matching or (silence and giver not in self.silence_used):
            verbs.append("give")
        if matching and self.cooperative and self._pile_takes(card):
            verbs.append("pile")
        return verbs

    def _pile_takes(self, card):
        pile = self.piles[self.colour_of(card)]
        return not pile or self.deck[card][1] > self.deck[pile[-1]][1]

    # ---- moves --------------------------------------------------------------------------

    def _allows(self, move):
        """Whether `move` is among legal_moves(); a placement or a gift checked alone, not
        found in a listing of every card's (most of a move's time)."""
        if self.over or not isinstance(move, tuple):
            return move in self.legal_moves()
        if self.phase == "place" and len(move) > 1:
            return self._allows_placement(move)
        if self.phase == "give" and move == ("stop",):
            return True
        if self.phase == "give" and len(move) == 3 and move[0] in ("give", "pile"):
            return self._allows_gift(move)
        return move in self.legal_moves()

    def _allows_gift(self, move):
        """Whether ("give" or "pile", giver, card) is among legal_moves() (the give phase)."""
        givers = [g for g in range(self.players) if g == move[1] and g != self.turn]
        if not givers or move[2] not in self.hands[givers[0]]:
            return False
        hand = self.hands[givers[0]]
        card = hand[hand.index(move[2])]
        return move[0] in self._gifts(givers[0], card, self.silence())

    def apply(self, move):
        if not self._allows(move):
            raise RuleError("%s is not allowed now (%s phase, player %d)" % (
                " ".join(str(m) for m in move), self.phase, self.turn))
        verb = move[0]
        if verb == "place":
            _, card, cell, colour = move
            self.pairs = self.pairs_at(card, cell, colour)
            self.hands[self.turn].remove(card)
            self.map[cell] = (card, colour)
            self.placements += 1
            self.passes = 0
            self.criterion = None
            self.silence_used = []
            if self.safe():
                for pair in self.pairs:           # the affected rows: the pairs' own
                    if pair.row not in self.done_rows:
                        self.done_rows.append(pair.row)
            self.phase = "tone" if self.may_tone_down() else "give"
        elif verb == "choose":
            self.criterion = move[1]
            self.phase = "give"
        elif verb in ("give", "pile"):
            _, giver, card = move
            if not self.matches(card):
                self.silence_used.append(giver)
            self.hands[giver].remove(card)
            if verb == "give":
                self.hands[self.turn].append(card)
            else:
                self.piles[self.colour_of(card)].append(card)
            self.given += 1
        elif verb == "stop":
            self._turn_over()
        elif verb == "draw":
            self.hands[self.turn].append(self.draw_pile.pop())
            self.passes = 0
            self._next()
        else:
            self.passes += 1
            if self.passes >= self.players:
                self._end("blocked")
            else:
                self._next()

    def _turn_over(self):
        """The turn ends: a player out of cards (by placing, or by giving) ends the game."""
        if self.cooperative:
            if len([h for h in self.hands if h]) <= 1:
                self._end("hands")
                return
        elif [h for h in self.hands if not h]:
            self._end("out")
            return
        self._next()

    def _next(self):
        for _ in range(self.players):
            self.turn = (self.turn + 1) % self.players
            if self.hands[self.turn] or not self.cooperative:
                break
        self.phase = "place"
        self.pairs = []

    def _end(self, reason):
        self.over = True
        self.ended_by = reason
        self.phase = "over"

    # ---- scores and checks --------------------------------------------------------------

    def scores(self):
        """Negative points: the notes left in each hand."""
        return [-sum(self.deck[c][2] for c in hand) for hand in self.hands]

    def winners(self):
        points = self.scores()
        return [p for p in range(self.players) if points[p] == max(points)]

    def cooperative_won(self):
        return all(sum(self.deck[c][2] for c in pile) == COOPERATIVE_NOTES
                   for pile in self.piles)

    def check_cards(self):
        cards = list(self.draw_pile) + [card for card, _ in self.map.values()]
        for hand in self.hands:
            cards += hand
        for pile in self.piles:
            cards += pile
        assert sorted(cards) == list(range(len(self.deck))), "cards lost or doubled"
        for pile in self.piles:
            numbers = [self.deck[c][1] for c in pile]
            assert numbers == sorted(set(numbers)), "a colour pile not rising"


def random_move(game, rng):
    moves = game.legal_moves()
    if game.phase == "give":
        gifts = [m for m in moves if m[0] != "stop"]
        if gifts and rng.below(3):
            return rng.choice(gifts)
        return ("stop",)
    return rng.choice(moves)
