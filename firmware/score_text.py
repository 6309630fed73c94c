"""The score pad a firmware before the table log kept (score.txt: `original 2 0 0,0 a40:-1 n
r ...`), converted once into a table log by firmware/scorebook.py, then dropped from memory.

Its actions become entries: an item by its index (the items kept their order), a meld credited
by points alone as a meld of the rank its points read (20 an interval, 350 the major scale, 500
the chromatic scale, any other a chord), a turn passed, a round ended. An action the rules now
refuse ("went out" without the right) is left out: the rest of the score stands. The cards
left in hand, a click a card then, are one entry a seat and round."""

import sys

from core.scorepad import (
    CARDS_LEFT_ITEM,
    CHORD_OR_SCALE,
    MELD_ITEM_RANKS,
    ORIGINAL,
    RANK_CHORD,
    RANK_CHROMATIC,
    RANK_INTERVAL,
    RANK_MAJOR,
    ScorePad,
    ScorePadError,
)
from core.table import NO_ROOT

_RANK_BY_POINTS = {20: RANK_INTERVAL, 350: RANK_MAJOR, 500: RANK_CHROMATIC}


def converted(raw, seat):
    """A ScorePad from the old text, or None when it cannot be read."""
    try:
        return _converted(str(raw, "utf-8").split(), seat)
    except (ScorePadError, ValueError, IndexError):
        return None
    finally:
        sys.modules.pop("firmware.score_text", None)


def _converted(parts, seat):
    pad = ScorePad(parts[0], int(parts[1]), int(parts[2]), seat)
    left = [0] * pad.players            # cards left in hand this round: one entry a seat now
    for word in parts[4:]:
        if word == "r":
            _flush(pad, left)
        try:
            _action(pad, word, left)
        except ScorePadError:
            pass                                  # refused by today's rules: left out
    _flush(pad, left)
    return pad


def _flush(pad, left):
    for who in range(pad.players):
        if left[who]:
            count, left[who] = left[who], 0
            try:
                pad.add(CARDS_LEFT_ITEM, count, who=who)
            except ScorePadError:
                pass


def _action(pad, word, left):
    who = pad.current
    if word == "n":
        pad.next_player()
    elif word == "r":
        pad.end_round()
    elif word[:1] == "a":
        points, item = word[1:].split(":")
        points, item = int(points), int(item)
        if pad.game == ORIGINAL and item == CARDS_LEFT_ITEM:
            left[who] += 1
        elif item < 0:
            pad.meld("", NO_ROOT, _RANK_BY_POINTS.get(points, RANK_CHORD), b"", points, who)
        elif pad.game == ORIGINAL and item < len(MELD_ITEM_RANKS) and \
                MELD_ITEM_RANKS[item] == CHORD_OR_SCALE:
            pad.add(item, rank=RANK_CHORD, who=who)
        else:
            pad.add(item, who=who)
    else:
        raise ValueError(word)
