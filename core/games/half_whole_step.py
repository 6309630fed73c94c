"""Musicards, Half step / Whole step (musicards-half-whole-step.txt): play a half step or a whole
step above the top card; a whole step ends the turn, half steps may go on one after another.

A claim is (pitch, step): the pitch the cards are (a wild group names it) and the step said,
1 (half) or 2 (whole). Rulebook points that need an interpretation, and the one chosen (the
shared ones are in core/games/musicards.py):
- A wild turned over to start the pile: the first player puts down any pitch and says no step
  (step 0); that play ends the turn.
- After half steps the turn goes on only with another half step; the player may stop at any
  time ("end"). A wrong card in the middle takes back only that play.
"""

from core.games.musicards import ClimbingGame, pitch

HALF = 1
WHOLE = 2
ANY = 0          # on a wild that started the pile
STEP_NAMES = {HALF: "half step", WHOLE: "whole step", ANY: "any card"}


class Game(ClimbingGame):
    NAME = "Half step / Whole step"

    def start_top(self, card):
        return pitch(card)

    def claims(self, pc):
        pcs = range(12) if pc is None else (pc,)
        steps = (ANY,) if self.top is None else (HALF, WHOLE)
        return [(p, step) for p in pcs for step in steps]

    def right_claims(self, pc):
        """ClimbingGame's, without judging every claim: a pitch is a half or a whole step
        above the top card, or neither."""
        if self.top is None or pc is None:
            return ClimbingGame.right_claims(self, pc)
        step = (pc - self.top) % 12
        return [(pc, step)] if step in (HALF, WHOLE) else []

    def judge(self, group_pc, claim):
        pc, step = claim
        right = step == ANY or (pc - self.top) % 12 == step
        return right, pc, step == HALF

    def chain_play(self, claim):
        return claim[1] == HALF


def random_move(game, rng):
    from core.games.musicards import random_move as climbing
    return climbing(game, rng)
