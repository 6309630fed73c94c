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
from core.games.carmony_table import shape_points

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
        # Every position on its own pitch class: the hand's mask alone says what it holds.
        self.simple = len(set(self.offsets)) == len(codes)
        text = []
        for c in codes:
            t = degrees.to_text(c)
            text.append("(" + t + ")" if c & degrees.OPTIONAL else t)
        # Points by cards played, 0..positions: a few bytes (the table's values / 10).
        self._points = bytes([shape_points(KIND_NAMES[self.kind], " ".join(text), n) // 10
                              for n in range(len(codes) + 1)])

    def is_optional(self, k):
        return self.optional_bits >> k & 1

    def points(self, cards):
        return self._points[cards] * 10


_SCALE = 27720   # lcm(1..12): a score per card, times this, is a whole number


# A play found in the hand is packed in one small int (a 32-bit port's hold 30 bits): the
# rank of its points (50 - points / 10: most points first when sorted), the meld, the root and
# the meld's positions used, a bit each (12 at most). A 14-card hand builds about 200 melds
# and 250 ways to play them: ints, not objects, fit a small board's heap. Play objects are
# made for what is shown.
MAX_TENS = 50             # 500 points: the most a meld scores


def _play_code(tens, index, root, used):
    return (MAX_TENS - tens) << 24 | index << 16 | root << 12 | used


def meld_of(code):
    return code >> 16 & 0xFF


def root_of(code):
    return code >> 12 & 15


def points_of(code):
    return (MAX_TENS - (code >> 24)) * 10


_BITS = b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"   # per nibble


def cards_of(code):
    """How many cards a packed play takes: the bits of its 12 positions."""
    return _BITS[code & 15] + _BITS[code >> 4 & 15] + _BITS[code >> 8 & 15]


def _score(code):
    """A play's worth in the search: its points (tens of them: every table entry is) then its
    cards, so that of two turns with equal points the one playing more cards wins."""
    return (MAX_TENS - (code >> 24)) * 64 + cards_of(code)


def _rotate(mask, steps):
    steps %= 12
    return ((mask << steps) | (mask >> (12 - steps))) & 0xFFF


class HandSearch:
    """Searches hands against one meld set (each meld's shape is read once, when first
    needed: a device spreads the reading over the steps of its first search).

    melds() and best() answer at once. A device that must keep its knob live asks for the
    same answers a step at a time: listing() and turn() give jobs (Listing, TurnJob) whose
    step() does a small bounded piece of the work."""

    def __init__(self, meldset):
        self.meldset = meldset
        self._shapes = [None] * meldset.count

    def shape(self, i):
        shape = self._shapes[i]
        if shape is None:
            shape = self._shapes[i] = _MeldShape(self.meldset, i)
        return shape

    # -- every meld the hand builds ------------------------------------------------------------

    def _fit(self, i, root, counts, held_mask):
        """The required and holdable optional positions of meld i at root in the hand:
        (required positions, optional positions the hand can also fill), or None when a
        required card is missing. Positions are indexes into the meld's codes. held_mask: the
        hand's pitch classes seen from the root (the required ones are known held)."""
        shape = self.shape(i)
        if shape.simple:
            required = []
            optional = []
            for k in range(len(shape.codes)):
                if not shape.optional_bits >> k & 1:
                    required.append(k)
                elif held_mask >> shape.offsets[k] & 1:
                    optional.append(k)
            return required, optional
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

    def _code(self, i, root, positions):
        """A play packed in an int (see _play_code): meld i at root on `positions`."""
        used = 0
        for k in positions:
            used |= 1 << k
        return _play_code(self.shape(i).points(len(positions)) // 10, i, root, used)

    def play(self, code):
        """The Play a packed play stands for (positions in card order)."""
        i = meld_of(code)
        root = root_of(code)
        shape = self.shape(i)
        codes = bytearray()
        pcs = bytearray()
        for k in range(len(shape.codes)):
            if code >> k & 1:
                codes.append(shape.codes[k])
                pcs.append((root + shape.offsets[k]) % 12)
        return Play(i, root, bytes(codes), bytes(pcs), points_of(code), shape.kind)

    def _meld_candidates(self, i, counts, seen, held, kind, found):
        """Meld i's candidates appended to `found`, if it is among `held` (meld indexes; None:
        any) and of `kind` (None: any): (i, root, required, optional) for every root where
        the hand holds its required cards (see _fit)."""
        if held is not None and i not in held:
            return
        if kind is not None and self.meldset.kind(i) != kind:
            return
        shape = self.shape(i)
        for root in range(12):
            if shape.required_mask & ~seen[root]:
                continue
            fit = self._fit(i, root, counts, seen[root])
            if fit is not None:
                found.append((i, root, fit[0], fit[1]))

    def melds(self, counts, held=None):
        """Every meld the hand builds, each with every optional card the hand holds: a list of
        Play, most points first, then in the set's order, then by root."""
        job = self.listing(counts, held)
        while not job.step():
            pass
        return [self.play(code) for code in job.found]

    def listing(self, counts, held=None):
        """melds() as a job (Listing): each step() lists one meld's plays, packed."""
        return Listing(self, counts, held)

    # -- the best turn of each type ------------------------------------------------------------

    def _meld_variants(self, i, counts, seen, held, kind, variants, cards_of_each):
        """Meld i's ways to play (packed) appended to `variants`: each root it fits with each
        subset of its holdable optional cards (playing fewer optional cards can free a card
        for another meld, so the turn search needs them all), once for each set of cards (a
        meld at two roots may take the same cards: the tritone, the augmented triad), its
        first. A meld at a time: a small board's heap holds one meld's candidates at once.
        `cards_of_each` gets each variant's cards, (lo, hi) as _packed() gives them."""
        fits = []
        self._meld_candidates(i, counts, seen, held, kind, fits)
        if not fits:
            return
        shape = self.shape(i)
        offsets = shape.offsets
        tens = shape._points          # points / 10 by cards played
        taken = []                # the cards (lo, hi) of meld i's variants so far
        for _, root, required, optional in fits:
            # Each position's bit and card, packed as _packed() packs a hand: a subset's are sums.
            used = lo = hi = 0
            for k in required:
                used |= 1 << k
                pc = (root + offsets[k]) % 12
                if pc < 6:
                    lo += 1 << 5 * pc
                else:
                    hi += 1 << 5 * (pc - 6)
            bits = []
            los = []
            his = []
            for k in optional:
                bits.append(1 << k)
                pc = (root + offsets[k]) % 12
                los.append(1 << 5 * pc if pc < 6 else 0)
                his.append(1 << 5 * (pc - 6) if pc >= 6 else 0)
            subsets = 1 << len(optional)
            if subsets > MAX_OPTIONAL_VARIANTS:
                subsets = MAX_OPTIONAL_VARIANTS
            for subset in range(subsets - 1, -1, -1):
                u, a, b, n = used, lo, hi, len(required)
                for k in range(len(optional)):
                    if subset >> k & 1:
                        u |= bits[k]
                        a += los[k]
                        b += his[k]
                        n += 1
                cards = (a, b)
                if cards not in taken:
                    taken.append(cards)
                    variants.append(_play_code(tens[n], i, root, u))
                    cards_of_each.append(cards)

    def best(self, counts, kind, held=None):
        """The best turn of one kind (0 interval, 1 chord, 2 scale): (points, [Play, ...]),
        the melds on disjoint cards with the most points, then the most cards. `held`: a list of
        meld indexes (MELD cards held, repeats allowed), each playing at most one meld; None:
        the deck's MELD cards."""
        job = self.turn(counts, kind, held)
        while not job.step(1000):
            pass
        return job.result()

    def turn(self, counts, kind, held=None):
        """best() as a job (TurnJob): its first steps list one meld's ways to play each, the
        next ones search a few sets of them."""
        return TurnJob(self, counts, kind, held)

    def _copies(self, variants, held):
        """MELD cards of each meld in the variants: {meld index: copies}."""
        copies = {}
        for code in variants:
            i = meld_of(code)
            if i not in copies:
                if held is not None:
                    copies[i] = held.count(i)
                else:
                    copies[i] = DECK_INTERVAL_COPIES if self.shape(i).kind == 0 else 1
        return copies

    def best_turns(self, counts, held=None):
        """The best turn of each type: a list of three (points, [Play, ...])."""
        return [self.best(counts, kind, held) for kind in range(3)]


def _seen_from_each_root(counts):
    """The hand's pitch classes (a 12-bit mask) seen from each root."""
    mask = 0
    for pc in range(12):
        if counts[pc]:
            mask |= 1 << pc
    return [_rotate(mask, -root) for root in range(12)]


class Listing:
    """HandSearch.melds() a meld at a time: step() lists the next meld's plays and says True
    once every meld is listed and `found` (packed plays: HandSearch.play() makes a Play of
    one) sorted: most points first, then in the set's order, then by root."""

    def __init__(self, search, counts, held):
        self.search = search
        self.counts = bytes(counts)
        self.held = held
        self.seen = _seen_from_each_root(counts)
        self.next = 0
        self.found = []
        self.done = False

    def step(self):
        if self.done:
            return True
        search = self.search
        if self.next < search.meldset.count:
            fits = []
            search._meld_candidates(self.next, self.counts, self.seen, self.held, None, fits)
            for i, root, required, optional in fits:
                self.found.append(search._code(i, root, required + optional))
            self.next += 1
            return False
        self.found.sort()         # the packing's order is the listing's
        self.done = True
        return True


class TurnJob:
    """The best turn of one kind, worked a few steps at a time: step(n) lists the next meld's
    ways to play, or, once they are all listed, searches up to n sets of them, and says True
    once the search is over; result() is the best turn found so far, (points, [Play, ...]),
    and the best of all once done. The search finds a good turn early (the richest plays per
    card first) and spends most of its steps proving that nothing beats it."""

    def __init__(self, search, counts, kind, held):
        self.search = search
        self.counts = bytes(counts)
        self.kind = kind
        self.held = held
        self.wanted = None        # the melds of the MELD cards held, each once
        if held is not None:
            self.wanted = []
            for i in held:
                if i not in self.wanted:
                    self.wanted.append(i)
        self.seen = _seen_from_each_root(counts)
        self.next = 0             # the meld whose ways to play are listed next
        self.variants = []
        self.cards = []           # each variant's cards, (lo, hi)
        self.turn = None
        self.done = False
        self._result = (0, (0, []))

    def step(self, n=1):
        if self.done:
            return True
        if self.turn is None:
            return self._list_step()
        for _ in self.steps:
            n -= 1
            if n <= 0:
                return False
        self.result()
        self.done = True
        self.variants = self.turn = self.steps = None     # the plays not chosen: freed
        return True

    def _list_step(self):
        search = self.search
        if self.next < search.meldset.count:
            search._meld_variants(self.next, self.counts, self.seen, self.wanted, self.kind,
                                  self.variants, self.cards)
            self.next += 1
            return False
        if not self.variants:
            self.done = True
            return True
        self.turn = _TurnSearch(self.variants, self.cards,
                                search._copies(self.variants, self.held))
        self.cards = None
        self.steps = self.turn.steps(self.counts)
        return False

    def result(self):
        if self.done or self.turn is None:
            return self._result[1]
        turn = self.turn
        if self._result[0] != turn.best:
            chosen = [self.search.play(self.variants[turn.order[j]]) for j in turn.best_chain]
            chosen.sort(key=lambda p: (-p.points, p.index, p.root))
            self._result = (turn.best, (turn.best // 64 * 10, chosen))
        return self._result[1]


_GUARD = 0x21084210   # bit 4 of each of six 5-bit fields: a borrow out of a field clears it
_FIELDS = 0x1EF7BDEF  # the four count bits of each field


def _packed(counts):
    """Twelve card counts as two small ints (C..F, F#..B), a 5-bit field each: a hand minus a
    meld's cards is one subtraction, and a missing card shows as a cleared guard bit."""
    lo = hi = 0
    for pc in range(6):
        lo |= counts[pc] << 5 * pc
        hi |= counts[pc + 6] << 5 * pc
    return lo, hi


class _TurnSearch:
    """The best turn of one type from its variants (packed plays), their cards ((lo, hi) each)
    and the MELD cards ({meld: copies}).

    A branch and bound over the sets of plays. Every set is searched as one sequence in a fixed
    order (meld by meld, richest per card first; each meld's variants richest per card first;
    a variant may repeat while its meld has MELD cards), so of equal turns the first in that
    order is kept: a bound (any bound that holds) changes the time, never the answer. Each
    step carries the plays that still fit the cards left (the candidates), so a deeper step
    scans fewer, and bounds the rest of its candidates by their best rate per card and by
    their melds' best plays."""

    def __init__(self, variants, cards, copies):
        # Scores stay small ints (a 32-bit port's are 31 bits: a sum of scaled scores would
        # be a long int, allocated at every step); only a rate per card is scaled, to be exact.
        scores = [_score(code) for code in variants]
        per_card = [scores[v] * _SCALE // cards_of(variants[v]) for v in range(len(variants))]
        groups = {}
        for v in range(len(variants)):
            groups.setdefault(meld_of(variants[v]), []).append(v)
        order = []
        for i in groups:
            rate = 0
            for v in groups[i]:
                if per_card[v] > rate:
                    rate = per_card[v]
            order.append((-rate, i))
        order.sort()
        self.copies = [copies[i] for _, i in order]
        # The search order: melds by falling best rate, each meld's variants richest per card
        # first (a stable sort: the set's order on ties).
        self.order = []
        self.meld_of = []
        for m in range(len(order)):
            group = groups[order[m][1]]
            group.sort(key=lambda v: -per_card[v])
            self.order += group
            self.meld_of += [m] * len(group)
        self.best = 0
        self.best_chain = []
        self.gain = [scores[v] for v in self.order]
        self.rate = [per_card[v] for v in self.order]
        self.need_lo = []
        self.need_hi = []
        self.need_cards = []
        for v in self.order:
            lo, hi = cards[v]
            self.need_lo.append(lo)
            self.need_hi.append(hi)
            self.need_cards.append(cards_of(variants[v]))

    def steps(self, counts):
        """The search from the hand's counts, a step (a set of plays) at each yield; `best`
        and `best_chain` (positions in `order`) say the best turn found so far."""
        cards = 0
        for pc in range(12):
            cards += counts[pc]
        self.best = 0
        self.best_chain = []
        self.chain = []
        self.taken = bytearray(len(self.copies))
        lo, hi = _packed(counts)
        everything = [j for j in range(len(self.order)) if self.copies[self.meld_of[j]]]
        yield from self._search(self._fitting(everything, 0, lo, hi, -1), 0, lo, hi, cards)

    def _fitting(self, cands, first, lo, hi, full):
        """The candidates from position `first` on whose cards (lo, hi) holds, but for meld
        `full`'s (its MELD cards all played)."""
        fit = []
        need_lo = self.need_lo
        need_hi = self.need_hi
        meld_of = self.meld_of
        guard = _GUARD            # locals: an attribute or a global is a dict lookup on
        lo |= guard               # MicroPython
        hi |= guard
        for j in cands[first:]:
            if (lo - need_lo[j]) & guard != guard or (hi - need_hi[j]) & guard != guard:
                continue
            if meld_of[j] != full:
                fit.append(j)
        return fit

    def _suffix_bounds(self, cands):
        """For each position q of the candidates, the most a card can earn from candidates q..
        (rates) and the most their melds can earn, each meld's best play times its MELD
        cards (sums)."""
        count = len(cands)
        rates = [0] * count
        sums = [0] * count
        meld_of = self.meld_of
        copies = self.copies
        gains = self.gain
        rate_of = self.rate
        top = 0
        total = 0         # melds after the current one
        meld = -1
        richest = 0       # the current meld's best play
        for q in range(count - 1, -1, -1):
            j = cands[q]
            if meld_of[j] != meld:
                if meld >= 0:
                    total += richest * copies[meld]
                meld = meld_of[j]
                richest = 0
            gain = gains[j]
            if gain > richest:
                richest = gain
            rate = rate_of[j]
            if rate > top:
                top = rate
            rates[q] = top
            sums[q] = total + richest * copies[meld]
        return rates, sums

    def _search(self, cands, score, lo, hi, cards):
        # Depth first: each candidate in turn, then the candidates from it on that still fit.
        # Once the bound from position q on cannot beat the best turn found so far, no later
        # candidate can either (the bounds fall along the list).
        if score > self.best:
            self.best = score
            self.best_chain = list(self.chain)
        yield
        rates, sums = self._suffix_bounds(cands)
        gains = self.gain         # locals: an attribute or a global is a dict lookup on
        need_cards = self.need_cards      # MicroPython
        need_lo = self.need_lo
        need_hi = self.need_hi
        meld_of = self.meld_of
        taken = self.taken
        copies = self.copies
        chain = self.chain
        scale = _SCALE
        fields = _FIELDS
        lo |= _GUARD
        hi |= _GUARD
        for q in range(len(cands)):
            # The plays left earn a whole number: at most their melds' sum, and at most the
            # rate's share of the cards left, rate * cards // scale (compared as a product:
            # no division). room: what they must beat.
            rate = rates[q]
            most = sums[q]
            room = self.best - score          # a deeper step may have raised the best
            if most <= room or rate * cards < (room + 1) * scale:
                return
            j = cands[q]
            gain = score + gains[j]
            left = cards - need_cards[j]
            room = self.best - gain
            if room >= 0 and (most <= room or rate * left < (room + 1) * scale):
                continue
            meld = meld_of[j]
            taken[meld] += 1
            left_lo = (lo - need_lo[j]) & fields
            left_hi = (hi - need_hi[j]) & fields
            full = meld if taken[meld] >= copies[meld] else -1
            chain.append(j)
            yield from self._search(self._fitting(cands, q, left_lo, left_hi, full), gain,
                                    left_lo, left_hi, left)
            chain.pop()
            taken[meld] -= 1
