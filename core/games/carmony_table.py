"""Carmony, the original: the scoring table (rulebook "SCORING TABLE", as docs/music.md reads it)
and the going-out condition. Apart from the rule engine (core/games/carmony.py) so that the
device's Meld Check can score without loading the engine."""

# Points for a meld by the NOTE cards it holds.
POINTS_BY_CARDS = {2: 20, 3: 40, 4: 70, 5: 100, 6: 150, 7: 200, 12: 500}
POWER_CHORD_POINTS = 100     # special meld: power chord, 2 cards
MAJOR_SCALE_POINTS = 350     # special meld: major scale, 7 cards
GOING_OUT_POINTS = 200
UNPLAYED_CARD_POINTS = -10

# The special melds are recognised by shape, so a renamed or re-ordered set keeps them.
POWER_CHORD_SHAPE = ("chord", "1 5")
MAJOR_SCALE_SHAPE = ("scale", "1 2 3 4 5 6 7")
# cards -> (the special meld's shape, its points)
SPECIAL = {2: (POWER_CHORD_SHAPE, POWER_CHORD_POINTS), 7: (MAJOR_SCALE_SHAPE, MAJOR_SCALE_POINTS)}


def meld_points(meld, cards):
    """Points of `meld` built with `cards` NOTE cards.

    The table stops at 7 cards and jumps to 12 (the chromatic scale); a custom set's 8..11-card
    scale scores as the nearest smaller row (200)."""
    # The degree text (the costly part) only at a size a special meld has.
    return shape_points(meld.kind, meld.degree_text() if cards in SPECIAL else "", cards)


def shape_points(kind, degree_text, cards):
    """meld_points from a meld's kind ("interval", "chord", "scale") and degree text alone."""
    special = SPECIAL.get(cards)
    if special is not None and special[0] == (kind, degree_text):
        return special[1]
    best = 0
    for size in POINTS_BY_CARDS:
        if size <= cards and POINTS_BY_CARDS[size] > best:
            best = POINTS_BY_CARDS[size]
    return best


def round_points(meld_points_list, unplayed_cards, went_out):
    """A player's round: the melds' points, -10 a card left in hand, +200 for going out."""
    total = 0
    for points in meld_points_list:
        total += points
    total += UNPLAYED_CARD_POINTS * unplayed_cards
    if went_out:
        total += GOING_OUT_POINTS
    return total


def rank(kind, degree_text, positions):
    """Eating power (rulebook "Eating melds"): 0 interval, 1 chord, 2 scale, 3 major scale,
    4 chromatic scale (12 positions); `kind` a name ("interval", "chord", "scale")."""
    if kind == "interval":
        return 0
    if kind == "chord":
        return 1
    if positions == 12:
        return 4
    return 3 if degree_text == MAJOR_SCALE_SHAPE[1] else 2


def set_rank(meldset, i):
    """rank() of meld `i` of a compiled meld set."""
    kind = meldset.kind(i)
    if kind < 2:
        return kind
    meld = meldset.meld(i)
    return rank(meld.kind, meld.degree_text(), len(meld.codes))


def may_go_out(ranks):
    """Going out's right from the melds on the table's ranks (rank(): 1 a chord, 2 and up a
    scale): at least 1 scale or 3 chords."""
    chords = 0
    for meld_rank in ranks:
        if meld_rank >= 2:
            return True
        if meld_rank == 1:
            chords += 1
    return chords >= 3


def can_go_out(played_kinds):
    """Going out needs at least 1 scale or 3 chords on the table (kinds of the melds played)."""
    return "scale" in played_kinds or played_kinds.count("chord") >= 3
