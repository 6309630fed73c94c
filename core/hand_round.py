"""A hand through a round of Carmony, the original: what the table adds to the hand search's
answers (core/hand.py). The MELD cards the deck may still hold, which table meld each MELD card
held can eat and what the hand then holds, the discard pile's what-if, and the card the hand
misses least (the discard the wheel suggests).

Eating (rulebook "Eating melds"): a MELD card from the hand eats one meld another player has on
the table when it is strictly more powerful (chromatic scale > major scale > other scales >
chords > intervals; the chromatic scale is never eaten); the eater takes the meld's NOTE cards,
both MELD cards go to the bottom of the deck and the eater draws a new MELD card. Eating
replaces playing in that turn, so what the hand builds after an eat is for the next turn: from
the MELD cards held less the one that ate (the one drawn for it is not known yet).

Pure Python for CPython and MicroPython."""

from core.games.carmony_table import set_rank
from core.hand import DECK_INTERVAL_COPIES, meld_of
from core.pcset import rotate


def deck_cards(meldset, on_table):
    """The MELD cards the deck may still hold, as meld indexes (repeats: every interval 3
    times, every other meld once), less the cards on the table (`on_table`: their meld ids):
    what `any` offers, never a card more often than the deck holds it."""
    cards = []
    for i in range(meldset.count):
        copies = DECK_INTERVAL_COPIES if meldset.kind(i) == 0 else 1
        copies -= on_table.count(meldset.meld_id(i))
        for _ in range(copies):
            cards.append(i)
    return cards


def eats(meldset, held, table, seat):
    """The eat answers' pairs: (t, k) for each meld t of `table` ((seat, rank, pcs) a meld, in
    order) of another seat than `seat` that held MELD card k (an index into `held`, meld
    indexes) can eat; by table meld, then by card held."""
    ranks = [set_rank(meldset, i) for i in held]
    pairs = []
    for t in range(len(table)):
        owner, rank = table[t][0], table[t][1]
        if owner == seat:
            continue
        for k in range(len(held)):
            if ranks[k] > rank:
                pairs.append((t, k))
    return pairs


def without(cards, k):
    """`cards` less its k-th."""
    return cards[:k] + cards[k + 1:]


def joined(counts, pcs):
    """Twelve card counts with these pitch classes added."""
    out = bytearray(counts)
    for pc in pcs:
        out[pc] += 1
    return out


def discard_choice(plays, counts, barred=None):
    """The card the hand misses least: the pitch class whose cards the hand's melds (`plays`,
    every meld the hand builds: core/hand.py's Play) use least, by the points of the melds that
    use it; then the one held most often, then the lowest. `barred`: a pitch class that may not
    be discarded (the single card just taken from the pile). None when no card may go."""
    use = [0] * 12
    for play in plays:
        for pc in play.pcs:
            use[pc] += play.points
    best = None
    for pc in range(12):
        if counts[pc] and pc != barred:
            key = (use[pc], -counts[pc], pc)
            if best is None or key < best:
                best = key
    return None if best is None else best[2]


def symmetric_meld(meldset, i):
    """Whether meld i builds the same sectors at another root (Meld.distinct_roots() < 12),
    read from the set's masks: no Meld object, and no core.melds on a device."""
    required = meldset.required_mask(i)
    optional = meldset.optional_mask(i)
    for steps in (1, 2, 3, 4, 6):
        if rotate(required, steps) == required and rotate(optional, steps) == optional:
            return True
    return False


def distinct(search, codes):
    """The listing's plays (packed: core/hand.py), the plays of one meld with the same cards
    once: a symmetric meld (the chromatic and whole-tone scales, dim7, aug, the tritone)
    builds the same cards at several roots; the first in the listing's order stands for
    them."""
    job = Distinct(search, codes)
    job.step(len(codes))
    return job.found


class Distinct:
    """distinct() a few plays a step, so that a device's pass stays short (a 14-card hand's
    400 plays in one held the emulated Pico's hand mode 30 ms while detents waited): step(n)
    looks at up to n more; True once `found` holds them all."""

    def __init__(self, search, codes):
        self.search = search
        self.codes = codes
        self.at = 0
        self.found = []
        self._symmetric = {}          # meld index: builds the same cards at another root
        self._seen = []               # (meld, cards) of the symmetric plays found

    def step(self, n):
        codes = self.codes
        meldset = self.search.meldset
        symmetric = self._symmetric
        stop = min(self.at + n, len(codes))
        while self.at < stop:
            code = codes[self.at]
            self.at += 1
            i = meld_of(code)
            if i not in symmetric:
                # from the set's masks: a Meld object a meld (and core.melds on a device) held
                # a pass of the hand mode 25-87 ms on the emulated Pico
                symmetric[i] = symmetric_meld(meldset, i)
            if symmetric[i]:
                key = (i, bytes(sorted(self.search.play(code).pcs)))
                if key in self._seen:
                    continue
                self._seen.append(key)
            self.found.append(code)
        return self.at == len(codes)
