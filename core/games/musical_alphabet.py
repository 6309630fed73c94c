"""Musicards, the Musical Alphabet (musicards-alphabet-and-keys-corners.txt): put down the next
letter up, by the interval chosen for the game (a Second: F to G; a Third: F to A ...,
counting both letters).

A claim is the letter said (0..6 for C..B). Rulebook points that need an interpretation, and
the one chosen (the shared ones are in core/games/musicards.py):
- A natural card carries its one letter (an E is never Fb); a two-name card either letter.
- A two-name card turned over to start the pile: the first player plays up from either letter;
  a wild turned over: any letter goes on it.
- A wild is the letter said; wilds with pitch cards take the letter said for the pitch cards.
"""

from core.games import RuleError
from core.games.musicards import ClimbingGame, is_wild, letters
from core.notes import pc_names

INTERVALS = {2: "Seconds", 3: "Thirds", 4: "Fourths", 5: "Fifths", 6: "Sixths", 7: "Sevenths"}
# The letters each pitch card carries, by pitch class (asked at every move).
CARRIED = tuple(tuple(name[0] for name in pc_names(pc)) for pc in range(12))


def next_letter(letter, interval):
    """The letter `interval` letters up, counting both ends: next_letter(F, 3) = A."""
    return (letter + interval - 1) % 7


class Game(ClimbingGame):
    NAME = "the Musical Alphabet"

    def __init__(self, players, seed, interval=2, chromatic_out=False):
        if interval not in INTERVALS:
            raise RuleError("the interval is a Second to a Seventh (2-7), not %r" % (interval,))
        self.interval = interval
        super().__init__(players, seed, chromatic_out)

    def start_top(self, card):
        return None if is_wild(card) else tuple(letters(card))

    def claims(self, pc):
        return list(range(7))

    def right_claims(self, pc):
        carried = range(7) if pc is None else CARRIED[pc % 12]
        if self.top is None:
            return list(carried)
        wanted = [next_letter(t, self.interval) for t in self.top]
        return [letter for letter in carried if letter in wanted]

    def judge(self, pc, letter):
        carries = pc is None or letter in [name[0] for name in pc_names(pc)]
        fits = self.top is None or [t for t in self.top
                                    if next_letter(t, self.interval) == letter] != []
        return carries and fits, (letter,), False


def random_move(game, rng):
    from core.games.musicards import random_move as climbing
    return climbing(game, rng)
