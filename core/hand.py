"""Hand search for Carmony, the original: every meld a hand of NOTE cards builds, and the best
turn of each type.

The rules (the rulebook's "Formando juegos", docs/rules.md): a meld's required positions each
take one card of their pitch class from the hand, an optional position takes one when the hand
holds a card for it, one card a position, points from the scoring table (by cards played), and a
meld with C on position 1 makes its player draw as many NOTE cards as it used (C root).

A turn plays melds of ONE type only (intervals, chords or scales), as many as the hand allows,
on disjoint cards. The best turn of a type is the set of such melds with the most points (then
the most cards played). With the MELD cards held (`held`, meld indexes, repeats allowed) each
card plays at most one meld, as at the table.

Pure Python for CPython and MicroPython: masks and small lists, no dataclasses.
"""

from core import degrees
from core.games.carmony_table import (MAJOR_SCALE_POINTS, MAJOR_SCALE_SHAPE, POINTS_BY_CARDS,
                                      POWER_CHORD_POINTS, POWER_CHORD_SHAPE)

KIND_NAMES = ("interval", "chord", "scale")
KIND_PLURALS = ("intervals", "chords", "scales")
MAX_OPTIONAL_VARIANTS = 64   # a custom meld with many optional sectors: its first 64 subsets


class Play:
    """One meld built from the hand: meld index, root pc, positions (degree codes used, in card
    order), pcs (the card of each position), points, kind (0 interval, 1 chord, 2 scale)."""

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
    """What the search needs of one meld, read once from the set."""

    def __init__(self, meldset, i):
        codes = meldset.meld_codes(i)
        self.kind = meldset.kind(i)
        self.codes = list(codes)
        self.offsets = [degrees.semitones(c) % 12 for c in codes]
        self.optional = [bool(c & degrees.OPTIONAL) for c in codes]
        self.required_mask = meldset.required_mask(i)
        text = []
        for c in codes:
            t = degrees.to_text(c)
            text.append("(" + t + ")" if c & degrees.OPTIONAL else t)
        self.degree_text = " ".join(text)
        seen = 0
        self.stacked = False
        for k in range(len(codes)):
            bit = 1 << self.offsets[k]
            if seen & bit:
                self.stacked = True
            seen |= bit
        self._points = {}

    def points(self, cards):
        p = self._points.get(cards)
        if p is None:
            p = points_for(self.kind, self.degree_text, cards)
            self._points[cards] = p
        return p


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
            if shape.optional[k]:
                continue
            pc = (root + shape.offsets[k]) % 12
            if not left[pc]:
                return None
            left[pc] -= 1
            required.append(k)
        for k in range(len(shape.codes)):
            if shape.optional[k]:
                pc = (root + shape.offsets[k]) % 12
                if left[pc]:
                    left[pc] -= 1
                    optional.append(k)
        return required, optional

    def _play(self, i, root, positions):
        shape = self.shapes[i]
        positions = sorted(positions)
        codes = [shape.codes[k] for k in positions]
        pcs = [(root + shape.offsets[k]) % 12 for k in positions]
        return Play(i, root, codes, pcs, shape.points(len(pcs)), shape.kind)

    def _candidates(self, counts, held=None):
        """(meld index, root, required, optional) for every meld of the set (or of `held`)
        whose required cards the hand holds, at every root."""
        mask = 0
        for pc in range(12):
            if counts[pc]:
                mask |= 1 << pc
        found = []
        for i in range(len(self.shapes)):
            if held is not None and i not in held:
                continue
            shape = self.shapes[i]
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
        for i, root, required, optional in self._candidates(counts, held):
            if self.shapes[i].kind != kind:
                continue
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
        meld indexes (MELD cards held, repeats allowed), each playing at most one meld."""
        held_kinds = None
        if held is not None:
            held_kinds = []
            for i in held:
                if i not in held_kinds:
                    held_kinds.append(i)
        variants = self._deduplicated(self._variants(counts, kind, held_kinds), held)
        if not variants:
            return 0, []
        # Each variant as its (pitch class, cards) pairs, filed by its lowest pitch class: the
        # search settles the lowest card still in hand first. Within a pitch class, the most
        # points per card first, so a good turn is found early and bounds the rest.
        need = []
        by_low = [[] for _ in range(12)]
        # rate[pc]: the most a card of pc can earn (the best points per card of the variants
        # using it), so the cards left bound what a state can still score.
        rate = [0] * 12
        for v in range(len(variants)):
            play = variants[v]
            c = counts_of(play.pcs)
            pairs = []
            for pc in range(12):
                if c[pc]:
                    pairs.append((pc, c[pc]))
            need.append(pairs)
            by_low[pairs[0][0]].append(v)
            per_card = (play.points * 64 + len(play.pcs)) // len(play.pcs) + 1
            for pc, _ in pairs:
                if per_card > rate[pc]:
                    rate[pc] = per_card
        cost = []
        for pairs in need:
            worth = 0
            for pc, k in pairs:
                worth += rate[pc] * k
            cost.append(worth)
        for low in range(12):
            by_low[low].sort(key=lambda v: -(variants[v].points * 64 + len(variants[v].pcs))
                             / len(variants[v].pcs))
        slots = None
        uses = None
        if held is not None:
            slots = bytearray(len(held_kinds))
            for i in held:
                slots[held_kinds.index(i)] += 1
            uses = [held_kinds.index(p.index) for p in variants]
        memo = {}
        left = bytearray(counts)

        def search(low):
            # Best (score, chosen variants) from the cards in `left` (all of pitch class >=
            # low), score = points * 64 + cards. The lowest pitch class still held is either
            # used by one more meld or left in hand. A branch that cannot beat the best found
            # at this state is skipped, so the memo stays exact.
            while low < 12 and not left[low]:
                low += 1
            if low == 12:
                return 0, None
            key = bytes(left) + (bytes(slots) if slots is not None else b"")
            hit = memo.get(key)
            if hit is not None:
                return hit
            best_score = 0
            best_chain = None
            worth = 0
            for pc in range(low, 12):
                worth += left[pc] * rate[pc]
            for v in by_low[low]:
                play = variants[v]
                cards = len(play.pcs)
                gain = play.points * 64 + cards
                if gain + worth - cost[v] <= best_score:
                    continue
                if slots is not None and not slots[uses[v]]:
                    continue
                fits = True
                for pc, k in need[v]:
                    if k > left[pc]:
                        fits = False
                        break
                if not fits:
                    continue
                for pc, k in need[v]:
                    left[pc] -= k
                if slots is not None:
                    slots[uses[v]] -= 1
                score, chain = search(low)
                for pc, k in need[v]:
                    left[pc] += k
                if slots is not None:
                    slots[uses[v]] += 1
                score += gain
                if score > best_score:
                    best_score = score
                    best_chain = (v, chain)
            keep = left[low]
            if worth - keep * rate[low] > best_score:
                left[low] = 0
                score, chain = search(low + 1)
                left[low] = keep
                if score > best_score:
                    best_score = score
                    best_chain = chain
            memo[key] = (best_score, best_chain)
            return best_score, best_chain

        score, chain = search(0)
        chosen = []
        while chain is not None:
            chosen.append(variants[chain[0]])
            chain = chain[1]
        chosen.sort(key=lambda p: (-p.points, p.index, p.root))
        return score // 64, chosen

    def _deduplicated(self, variants, held):
        """One variant for each set of cards (C6 and Am7 take the same cards): the one with
        the most points, else the first in the set's order. With MELD cards held, the meld
        matters too (each card plays once)."""
        kept = []
        where = {}
        for play in variants:
            key = bytes(counts_of(play.pcs))
            if held is not None:
                key += bytes((play.index,))
            at = where.get(key)
            if at is None:
                where[key] = len(kept)
                kept.append(play)
            elif play.points > kept[at].points:
                kept[at] = play
        return kept

    def best_turns(self, counts, held=None):
        """The best turn of each type: a list of three (points, [Play, ...])."""
        return [self.best(counts, kind, held) for kind in range(3)]
