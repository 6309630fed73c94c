"""Carmony, Through the Looking Glass: the scoring table (rulebook "SCORING TABLE").

Alices (A NOTE cards) score 4 each, +8 for all 8; a rabbit's run scores 5; INTERVAL cards score
by interval, with +3 for holding all 3 cards of the octave, the tritone, the fifth or the fourth.
"""

from core.games import ScoreError

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
