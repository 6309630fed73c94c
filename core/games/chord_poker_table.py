"""Carmony, Chord Poker: the chord on the Wheel (its sectors, when it is complete, what a root
change sends back) and the scoring table (rulebook "SCORING TABLE"), apart from the rule engine
(core/games/chord_poker.py) so that the device's table mode plays by the same rules without the
engine. Sectors and cards on the Wheel are pitch-class masks (bit pc).

A hand's matching NOTE cards (the same note) are grouped into pairs (2 points), threes of a
kind (5) and fours of a kind (8); every card left unmatched costs 1. There is no limit to the
melds, so each note's cards take the grouping that scores best. Completing the chord: 5.
"""

from core import degrees
from core.games import ScoreError

CHORD_POINTS = 5
GROUP_POINTS = {2: 2, 3: 5, 4: 8}
UNMATCHED = -1
MAX_OF_A_NOTE = 8         # 8 NOTE cards of every note


def chord_sectors(codes, root):
    """(required, optional) sector masks of a chord (its degree codes) at `root`."""
    required = optional = 0
    for code in codes:
        bit = 1 << ((root + degrees.semitones(code)) % 12)
        if degrees.is_optional(code):
            optional |= bit
        else:
            required |= bit
    return required, optional & ~required


def is_complete(required, placed):
    """Every required sector holds a card."""
    return required & ~placed == 0


def going_back(placed, required, optional):
    """After a root change: the cards on the Wheel that are no note of the chord at the new
    root, which go to the hand of the player who changed it."""
    return placed & ~(required | optional)


def best_grouping(count):
    """(points, [group sizes]) for `count` cards of one note, the best the table allows."""
    best = [(0, [])] + [None] * count
    for n in range(1, count + 1):
        options = [(best[n - 1][0] + UNMATCHED, best[n - 1][1] + [1])]
        for size in GROUP_POINTS:
            if size <= n:
                points, groups = best[n - size]
                options.append((points + GROUP_POINTS[size], groups + [size]))
        best[n] = max(options, key=lambda o: (o[0], -len(o[1])))
    points, groups = best[count]
    return points, sorted(groups, reverse=True)


def score(hand_pcs, completed_chord):
    """A player's round: (total, breakdown as (label, points)). hand_pcs: pitch classes."""
    counts = {}
    for pc in hand_pcs:
        counts[pc] = counts.get(pc, 0) + 1
    lines = []
    names = {1: "unmatched card", 2: "pair", 3: "three of a kind", 4: "four of a kind"}
    for pc in sorted(counts):
        if counts[pc] > MAX_OF_A_NOTE:
            raise ScoreError("%d cards of one note: the deck has %d" % (counts[pc], MAX_OF_A_NOTE))
        for size in best_grouping(counts[pc])[1]:
            lines.append((pc, names[size], GROUP_POINTS.get(size, UNMATCHED)))
    if completed_chord:
        lines.append((None, "chord points", CHORD_POINTS))
    return sum(points for _, _, points in lines), lines
