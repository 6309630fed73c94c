"""Hand search for Carmony, the original: every meld a hand of NOTE cards builds, and the best
turn of each type.

The rules (the rulebook's "Formando juegos", docs/rules.md): a meld's required positions each
take one card of their pitch class from the hand, an optional position takes one when the hand
holds a card for it, one card a position, points from the scoring table (by cards played), and a
meld with C on position 1 makes its player draw as many NOTE cards as it used (C root).

A turn plays melds of ONE type only (intervals, chords or scales), as many as the hand allows,
on disjoint cards, each on its own MELD card. The best turn of a type is the set of such melds
with the most points (then the most cards played). Each MELD card plays at most one meld: the
cards held (`held`, meld indexes, repeats allowed) when given, else the deck's (every interval
3 times, every other meld once).

Pure Python for CPython and MicroPython: masks and small lists, no dataclasses.
"""

from core import degrees
from core.games.carmony_table import (MAJOR_SCALE_POINTS, MAJOR_SCALE_SHAPE, POINTS_BY_CARDS,
                                      POWER_CHORD_POINTS, POWER_CHORD_SHAPE)

KIND_NAMES = ("interval", "chord", "scale")
KIND_PLURALS = ("intervals", "chords", "scales")
MAX_OPTIONAL_VARIANTS = 64   # a custom meld with many optional sectors: its first 64 subsets
DECK_INTERVAL_COPIES = 3     # the MELD deck: each interval card 3 times, every other card once


class Play:
    """One meld built from the hand: meld index, root pc, positions (bytes: the degree codes
    used, in card order), pcs (bytes: the card of each position), points, kind (0 interval,
    1 chord, 2 scale)."""

    def __init__(self, index, root, positions, pcs, points, kind):
        self.index = index
        self.root = root
        self.positions = positions
        self.pcs = pcs
        self.points = points
        self.kind = kind

    @property
    def c_root(self):
        """C on position 1: the player draws as many NOTE cards as the meld used."""
        return self.root == 0

    @property
    def cards(self):
        return len(self.pcs)

    def __repr__(self):
        return "<Play %d@%d %d>" % (self.index, self.root, self.points)


def counts_of(pcs):
    """Twelve card counts, C first, from a list of pitch classes."""
    counts = bytearray(12)
    for pc in pcs:
        counts[pc % 12] += 1
    return counts


def points_for(kind, degree_text, cards):
    """The scoring table (core/games/carmony_table.py) from a meld's kind and degree text."""
    shape = (KIND_NAMES[kind], degree_text)
    if shape == POWER_CHORD_SHAPE and cards == 2:
        return POWER_CHORD_POINTS
    if shape == MAJOR_SCALE_SHAPE and cards == 7:
        return MAJOR_SCALE_POINTS
    best = 0
    for size in POINTS_BY_CARDS:
        if size <= cards and POINTS_BY_CARDS[size] > best:
            best = POINTS_BY_CARDS[size]
    return best


class _MeldShape:
    """What the search needs of one meld, read once from the set: kind, codes (bytes),
    offsets (bytes: each position's semitones above the root, within the octave), optional
    (a bit per position), required_mask, and its points by cards (the table's specials)."""

    def __init__(self, meldset, i):
        codes = meldset.meld_codes(i)
        self.kind = meldset.kind(i)
        self.codes = codes
        self.offsets = bytes([degrees.semitones(c) % 12 for c in codes])
        optional = 0
        for k in range(len(codes)):
            if codes[k] & degrees.OPTIONAL:
                optional |= 1 << k
        self.optional_bits = optional
        self.required_mask = meldset.required_mask(i)
        text = []
        for c in codes:
            t = degrees.to_text(c)
            text.append("(" + t + ")" if c & degrees.OPTIONAL else t)
        # Points by cards played, 0..positions: a few bytes (the table's values / 10).
        self._points = bytes([points_for(self.kind, " ".join(text), n) // 10
                              for n in range(len(codes) + 1)])

    def is_optional(self, k):
        return self.optional_bits >> k & 1

    def points(self, cards):
        return self._points[cards] * 10


_SCALE = 27720   # lcm(1..12): a score per card, times this, is a whole number


def _score(play):
    """A play's worth in the search: its points (tens of them: every table entry is) then its
    cards, so that of two turns with equal points the one playing more cards wins."""
    return play.points // 10 * 64 + len(play.pcs)


def _rotate(mask, steps):
    steps %= 12
    return ((mask << steps) | (mask >> (12 - steps))) & 0xFFF


class HandSearch:
    """Searches hands against one meld set (the set's shapes are read once)."""

    def __init__(self, meldset):
        self.meldset = meldset
        self.shapes = [_MeldShape(meldset, i) for i in range(meldset.count)]

    # -- every meld the hand builds ------------------------------------------------------------

    def _fit(self, i, root, counts):
        """The required and holdable optional positions of meld i at root in the hand:
        (required positions, optional positions the hand can also fill), or None when a
        required card is missing. Positions are indexes into the meld's codes."""
        shape = self.shapes[i]
        left = bytearray(counts)
        required = []
        optional = []
        for k in range(len(shape.codes)):
            if shape.is_optional(k):
                continue
            pc = (root + shape.offsets[k]) % 12
            if not left[pc]:
                return None
            left[pc] -= 1
            required.append(k)
        for k in range(len(shape.codes)):
            if shape.is_optional(k):
                pc = (root + shape.offsets[k]) % 12
                if left[pc]:
                    left[pc] -= 1
                    optional.append(k)
        return required, optional

    def _play(self, i, root, positions):
        shape = self.shapes[i]
        positions = sorted(positions)
        codes = bytes([shape.codes[k] for k in positions])
        pcs = bytes([(root + shape.offsets[k]) % 12 for k in positions])
        return Play(i, root, codes, pcs, shape.points(len(pcs)), shape.kind)

    def _candidates(self, counts, held=None, kind=None):
        """(meld index, root, required, optional) for every meld of the set (or of `held`; of
        `kind` when given) whose required cards the hand holds, at every root."""
        mask = 0
        for pc in range(12):
            if counts[pc]:
                mask |= 1 << pc
        found = []
        for i in range(len(self.shapes)):
            if held is not None and i not in held:
                continue
            shape = self.shapes[i]
            if kind is not None and shape.kind != kind:
                continue
            for root in range(12):
                if _rotate(shape.required_mask, root) & ~mask:
                    continue
                fit = self._fit(i, root, counts)
                if fit is not None:
                    found.append((i, root, fit[0], fit[1]))
        return found

    def melds(self, counts, held=None):
        """Every meld the hand builds, each with every optional card the hand holds: a list of
        Play, most points first, then in the set's order, then by root."""
        plays = []
        for i, root, required, optional in self._candidates(counts, held):
            plays.append(self._play(i, root, required + optional))
        plays.sort(key=lambda p: (-p.points, p.index, p.root))
        return plays

    # -- the best turn of each type ------------------------------------------------------------

    def _variants(self, counts, kind, held):
        """Every way to play a meld of `kind` from the hand: each fitting meld and root with
        each subset of its holdable optional cards. Playing fewer optional cards can free a
        card for another meld, so the turn search needs them all."""
        variants = []
        for i, root, required, optional in self._candidates(counts, held, kind):
            subsets = 1 << len(optional)
            if subsets > MAX_OPTIONAL_VARIANTS:
                subsets = MAX_OPTIONAL_VARIANTS
            for subset in range(subsets - 1, -1, -1):
                positions = list(required)
                for b in range(len(optional)):
                    if subset >> b & 1:
                        positions.append(optional[b])
                variants.append(self._play(i, root, positions))
        return variants

    def best(self, counts, kind, held=None):
        """The best turn of one kind (0 interval, 1 chord, 2 scale): (points, [Play, ...]),
        the melds on disjoint cards with the most points, then the most cards. `held`: a list of
        meld indexes (MELD cards held, repeats allowed), each playing at most one meld; None:
        the deck's MELD cards."""
        wanted = None
        if held is not None:
            wanted = []
            for i in held:
                if i not in wanted:
                    wanted.append(i)
        variants = self._deduplicated(self._variants(counts, kind, wanted))
        if not variants:
            return 0, []
        # The search goes meld by meld, richest per card first: for each, how many of its MELD
        # cards to play (0 .. its copies) and on which cards, then the next meld; so no
        # record of the MELD cards used is needed beyond the current meld's count.
        groups = {}
        for v in range(len(variants)):
            groups.setdefault(variants[v].index, []).append(v)
        order = []
        for i in groups:
            rate = 0
            for v in groups[i]:
                r = _score(variants[v]) * _SCALE // len(variants[v].pcs)
                if r > rate:
                    rate = r
            order.append((-rate, i))
        order.sort()
        melds = [i for _, i in order]
        copies = []
        for i in melds:
            if held is not None:
                copies.append(held.count(i))
            else:
                copies.append(DECK_INTERVAL_COPIES if self.shapes[i].kind == 0 else 1)
        need = []
        for play in variants:
            c = counts_of(play.pcs)
            need.append([(pc, c[pc]) for pc in range(12) if c[pc]])
        # rates[m][pc]: the most a card of pc can still earn from melds m.. (score per card,
        # scaled by _SCALE so every ratio is exact): the cards left bound a state's future.
        rates = [None] * (len(melds) + 1)
        rates[len(melds)] = [0] * 12
        for m in range(len(melds) - 1, -1, -1):
            rate = list(rates[m + 1])
            for v in groups[melds[m]]:
                r = _score(variants[v]) * _SCALE // len(variants[v].pcs)
                for pc, _ in need[v]:
                    if r > rate[pc]:
                        rate[pc] = r
            rates[m] = rate
        for i in groups:
            groups[i].sort(key=lambda v: -_score(variants[v]) / len(variants[v].pcs))
        left = bytearray(counts)
        chain = []
        best = [0, []]    # the best turn found so far: score, variants

        def worth(m):
            rate = rates[m]
            total = 0
            for pc in range(12):
                total += left[pc] * rate[pc]
            return total

        def search(m, start, cards_left, score):
            # Depth first over the sets of plays, each taken in the melds' order (meld m's
            # variants from `start` on, at most cards_left more of it, then later melds). A
            # meld whose best rates, on every card left, cannot beat the best turn found so
            # far ends the loop: the melds after it can earn no more.
            if score > best[0]:
                best[0] = score
                best[1] = list(chain)
            for n in range(m, len(melds)):
                if score + worth(n) <= best[0]:
                    return
                if n == m:
                    first, allowed = start, cards_left
                else:
                    first, allowed = 0, copies[n]
                if not allowed:
                    continue
                group = groups[melds[n]]
                for g in range(first, len(group)):
                    v = group[g]
                    fits = True
                    for pc, k in need[v]:
                        if k > left[pc]:
                            fits = False
                            break
                    if not fits:
                        continue
                    for pc, k in need[v]:
                        left[pc] -= k
                    chain.append(v)
                    search(n, g, allowed - 1, score + _score(variants[v]) * _SCALE)
                    chain.pop()
                    for pc, k in need[v]:
                        left[pc] += k

        search(0, 0, copies[0], 0)
        score = best[0]
        chosen = [variants[v] for v in best[1]]
        chosen.sort(key=lambda p: (-p.points, p.index, p.root))
        return score // _SCALE // 64 * 10, chosen

    def _deduplicated(self, variants):
        """One variant for each meld and set of cards (a meld at two roots may take the same
        cards: the tritone, the augmented triad), its first."""
        kept = []
        seen = {}
        for play in variants:
            key = bytes(counts_of(play.pcs)) + bytes((play.index,))
            if key not in seen:
                seen[key] = True
                kept.append(play)
        return kept

    def best_turns(self, counts, held=None):
        """The best turn of each type: a list of three (points, [Play, ...])."""
        return [self.best(counts, kind, held) for kind in range(3)]
