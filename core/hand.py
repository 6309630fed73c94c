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

The inner loops are core/hand_loops.py (machine code where the port compiles viper); this
module holds the rules' data and the jobs a device steps through. Pure Python for CPython and
MicroPython: arrays and small lists, no dataclasses.
"""

from array import array

from core import degrees
from core import hand_loops as loops
from core.games.carmony_table import shape_points

KIND_NAMES = ("interval", "chord", "scale")
KIND_PLURALS = ("intervals", "chords", "scales")
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


# A play found in the hand is packed in one small int (a 32-bit port's hold 30 bits): the
# rank of its points (50 - points / 10: most points first when sorted), the meld, the root and
# the meld's positions used, a bit each (12 at most). A 14-card hand builds about 200 melds
# and 350 ways to play them: ints in arrays, not objects, fit a small board's heap. Play
# objects are made for what is shown.
MAX_TENS = 50             # 500 points: the most a meld scores


def meld_of(code):
    return code >> 16 & 0xFF


def root_of(code):
    return code >> 12 & 15


def points_of(code):
    return (MAX_TENS - (code >> 24)) * 10


# An array not made yet, or being made again: the smaller one let go first, and when a small
# board's heap has no room for the larger (MemoryError: the search cut short) the next hand
# finds an array too short to use, and makes it again (None there: a TypeError).
_NONE = array("i")


def _zeros(n):
    """An array('i') of n ints, made in one block: from a range, whose length the array takes
    first (from bytes(4 * n) a board's heap would need a second block that size, for a
    moment). Its values are not zeros: every caller writes one before reading it."""
    return array("i", range(n))


def _grown(old, n):
    """`old` (array('i')) with room for n, its values kept."""
    new = array("i", old)
    new.extend(_zeros(n - len(old)))
    return new


def _state_size(cards):
    """A turn search's state array for a hand of `cards`: its header, a level for each play
    (a play takes a card at least) and the first, the best chain, and the cards a turn can use
    by cards held (hand_loops' layout)."""
    return loops.S_HEADER + (cards + 2) * (loops.L_SIZE + 2)


def _meld_text(codes):
    text = []
    for c in codes:
        t = degrees.to_text(c)
        text.append("(" + t + ")" if c & degrees.OPTIONAL else t)
    return " ".join(text)


class HandSearch:
    """Searches hands against one meld set. Its table of the set (each meld's positions and
    points) is read once, a meld a step of the first listing: a device spreads the reading
    over the passes of its first search.

    melds() and best() answer at once. A device that must keep its knob live asks for the
    same answers a step at a time: listing() and turn() give jobs (Listing, TurnJob) whose
    step() does a small bounded piece of the work."""

    def __init__(self, meldset, read=False):
        """`read`: the set's table read now (its array, some 4 KB, made first: a small
        board's heap has room for it while it is least cut up)."""
        self.meldset = meldset
        self._records = []        # the table as it is read, a tuple a meld (see _pack)
        self.table = None         # then packed (hand_loops' layout)
        self._room = _zeros(self._table_size()) if read else None    # the table's, made early
        self._hand = None         # the hand array, its last hand's expansion and key
        self._key = None
        # The listing's arrays (the plays; the ways to play: code, lo, hi) and a turn search's,
        # made at the first hand with room for it and a quarter more, grown once a hand needs
        # more, and kept for the next one (a device's heap is not churned at every hand, nor a
        # piece of its work slowed by making them). None made before: the QT Py's heap had
        # no room for the 23 KB of them made at the start, once another mode had run.
        self._listed = _NONE
        self._ways = [_NONE] * 3
        self._work = [_NONE] * (loops.A_COPIES + 1)
        self._worker = None       # the TurnJob using them
        while read and not self.read_step():
            pass

    # -- the set's table ---------------------------------------------------------------------

    def read_step(self):
        """Read the next meld into the table; True once the table is complete."""
        if self.table is not None:
            return True
        ms = self.meldset
        i = len(self._records)
        if i < ms.count:
            codes = ms.meld_codes(i)
            kind = ms.kind(i)
            text = _meld_text(codes)
            optional = 0
            for k in range(len(codes)):
                if codes[k] & degrees.OPTIONAL:
                    optional |= 1 << k
            offsets = bytes([degrees.semitones(c) % 12 for c in codes])
            required = 0
            for k in range(len(codes)):
                if not optional >> k & 1:
                    required |= 1 << offsets[k]
            self._records.append((
                kind, optional, offsets,
                bytes([shape_points(KIND_NAMES[kind], text, n) // 10
                       for n in range(len(codes) + 1)]), required))
            return False
        self._pack()
        return True

    def _table_size(self):
        """The packed table's length: its header and records, and each meld's offsets and
        points (a row for each number of its cards, none included)."""
        ms = self.meldset
        size = loops.T_MELDS + loops.T_RECORD * ms.count + 13 + 16
        for i in range(ms.count):
            size += 2 * len(ms.meld_codes(i)) + 1
        return size

    def _pack(self):
        count = len(self._records)
        table = self._room
        self._room = None
        if table is None:
            table = _zeros(self._table_size())
        table[loops.T_COUNT] = count
        at = loops.T_MELDS + loops.T_RECORD * count
        table[loops.T_INV] = at
        table[at] = 0             # a way to play of no cards (every position optional)
        for n in range(1, 13):
            table[at + n] = loops.SCALE // n
        at += 13
        table[loops.T_BITS] = at
        for n in range(16):
            table[at + n] = (n & 1) + (n >> 1 & 1) + (n >> 2 & 1) + (n >> 3)
        at += 16
        deck = bytearray(count)   # the deck's MELD cards of each meld
        for i in range(count):
            kind, optional, offsets, tens, required = self._records[i]
            deck[i] = DECK_INTERVAL_COPIES if kind == 0 else 1
            rec = loops.T_MELDS + loops.T_RECORD * i
            table[rec + loops.T_KIND] = kind
            table[rec + loops.T_POSITIONS] = len(offsets)
            table[rec + loops.T_OPTIONAL] = optional
            table[rec + loops.T_REQUIRED] = required
            table[rec + loops.T_OFFSETS] = at
            for k in range(len(offsets)):
                table[at + k] = offsets[k]
            at += len(offsets)
            table[rec + loops.T_TENS] = at
            for k in range(len(tens)):
                table[at + k] = tens[k]
            at += len(tens)
        self.table = table
        self._deck = deck
        self._records = None

    # -- a hand's melds and ways to play ------------------------------------------------------

    def expand(self, counts, held):
        """The hand array (hand_loops' layout) with every meld and way to play it listed in
        the search's arrays, for these counts and MELD cards held (None: the deck's)."""
        while not self.read_step():
            pass
        key = (bytes(counts), None if held is None else tuple(held))
        if key == self._key:
            return self._hand
        melds = self.meldset.count
        hand = self._hand
        if hand is None:
            hand = self._hand = _zeros(loops.H_COPIES + melds)
        self._key = None          # until the hand below is expanded whole
        lo = hi = 0
        for pc in range(6):
            lo |= counts[pc] << 5 * pc
            hi |= counts[pc + 6] << 5 * pc
        hand[loops.H_LO] = lo
        hand[loops.H_HI] = hi
        if held is None:
            deck = self._deck
            for i in range(melds):
                hand[loops.H_COPIES + i] = deck[i]
        else:
            for i in range(melds):
                hand[loops.H_COPIES + i] = 0
            for i in held:
                hand[loops.H_COPIES + i] += 1
        while True:
            hand[loops.H_LISTED_CAP] = len(self._listed)
            hand[loops.H_WAYS_CAP] = len(self._ways[0])
            ways = self._ways
            if loops.expand(self.table, hand, self._listed, ways[0], ways[1], ways[2]):
                break
            # Counted but not all written: room for them and a quarter more, made once.
            listed = (2 * hand[loops.H_LISTED] + 2) * 5 // 4
            if listed > len(self._listed):
                self._listed = _NONE
                self._listed = _zeros(listed)
            size = hand[loops.H_WAYS] * 5 // 4
            if size > len(ways[0]):
                self._ways = ways = [_NONE] * 3
                self._ways = [_zeros(size) for _ in range(3)]
        self._key = key
        return hand

    def listed(self, hand):
        """The plays listed for `hand` (packed, sorted: most points first, then in the set's
        order, then by root)."""
        return list(memoryview(self._listed)[:hand[loops.H_LISTED]])

    def play(self, code):
        """The Play a packed play stands for (positions in card order)."""
        while not self.read_step():
            pass
        i = meld_of(code)
        root = root_of(code)
        table = self.table
        record = loops.T_MELDS + loops.T_RECORD * i
        offsets = table[record + loops.T_OFFSETS]
        all_codes = self.meldset.meld_codes(i)
        codes = bytearray()
        pcs = bytearray()
        for k in range(len(all_codes)):
            if code >> k & 1:
                codes.append(all_codes[k])
                pcs.append((root + table[offsets + k]) % 12)
        return Play(i, root, bytes(codes), bytes(pcs), points_of(code),
                    table[record + loops.T_KIND])

    def melds(self, counts, held=None):
        """Every meld the hand builds, each with every optional card the hand holds: a list of
        Play, most points first, then in the set's order, then by root."""
        job = self.listing(counts, held)
        while not job.step():
            pass
        return [self.play(code) for code in job.found]

    def listing(self, counts, held=None):
        """melds() as a job (Listing)."""
        return Listing(self, counts, held)

    # -- the best turn of each type ------------------------------------------------------------

    def workspace(self, job, ways, cards):
        """The arrays of a turn search (hand_loops' layout) for `job`, with room for `ways` ways
        to play and `cards` cards: the last search's, made larger if they are short. The job
        using them before loses them (TurnJob.step starts it again)."""
        work = self._work
        if len(work[loops.A_STATE]) < _state_size(cards) or len(work[loops.A_GAIN]) < ways:
            self._work = work = [_NONE] * (loops.A_COPIES + 1)    # freed first
            self._work = work = self._made_work(ways * 5 // 4, cards)
        state = work[loops.A_STATE]
        levels = (len(state) - loops.S_HEADER) // (loops.L_SIZE + 2)     # cards + 2
        state[loops.S_LEVELS] = loops.S_HEADER
        state[loops.S_CHAIN] = loops.S_HEADER + levels * loops.L_SIZE
        state[loops.S_USABLE] = loops.S_HEADER + levels * (loops.L_SIZE + 1)
        state[loops.S_STACK_CAP] = len(work[loops.A_CANDS])
        self._worker = job
        return work

    def _made_work(self, ways, cards):
        """A turn search's arrays with room for `ways` ways to play and a hand of `cards`, and
        more: a hand grows a card at a time."""
        melds = self.meldset.count
        cards = max(cards, 24)
        ways = max(ways, 64)
        stack = max(2 * ways, 3 * melds)
        work = [_zeros(_state_size(cards)), _zeros(stack), _zeros(stack), _zeros(stack)]
        work += [_zeros(ways) for _ in range(loops.A_COPIES - loops.A_GAIN)]
        work.append(_zeros(2 * melds))
        return work

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
        """best() as a job (TurnJob): a first step lists the ways to play, the next ones
        take a few steps of the search."""
        return TurnJob(self, counts, kind, held)

    def best_turns(self, counts, held=None):
        """The best turn of each type: a list of three (points, [Play, ...])."""
        return [self.best(counts, kind, held) for kind in range(3)]


class Listing:
    """HandSearch.melds() step by step: while the set's table is read, a meld a step; then one
    step lists the hand's melds. step() says True once `found` (packed plays: HandSearch.play()
    makes a Play of one) is complete, sorted: most points first, then in the set's order, then
    by root."""

    def __init__(self, search, counts, held):
        self.search = search
        self.counts = bytes(counts)
        self.held = held
        self.found = []
        self.done = False

    def step(self):
        if self.done:
            return True
        if not self.search.read_step():
            return False
        self.found = self.search.listed(self.search.expand(self.counts, self.held))
        self.done = True
        return True


class TurnJob:
    """The best turn of one kind, worked a few steps at a time: step(n) lists the ways to play
    (the first step), or takes up to n steps of the search (hand_loops.search), and says True
    once the search is over;
    result() is the best turn found so far, (points, [Play, ...]), and the best of all once
    done. The search finds a good turn early (the richest plays per card first) and spends
    most of its steps proving that nothing beats it."""

    def __init__(self, search, counts, kind, held):
        self.search = search
        self.counts = bytes(counts)
        self.kind = kind
        self.held = held
        self.arrays = None
        self.done = False
        self.proven = True        # False: done, but the heap ran short before the proof
        self._result = (0, (0, []))

    def step(self, n=1):
        if self.done:
            return True
        if self.search._worker is not self:
            return self._prepare()
        state = self.arrays[loops.A_STATE]
        state[loops.S_BUDGET] = n
        while not loops.search(self.arrays):
            if not state[loops.S_GROW]:
                return False
            try:
                self._grow_stack()
            except MemoryError:
                # A hand far past a deal's size on a small board: the best turn found stands,
                # not proven best (a board's heap has no room for the rest of the search).
                self.proven = False
                break
        self.result()
        self.done = True
        self.search._worker = None
        self.arrays = None
        return True

    def _prepare(self):
        search = self.search
        if not search.read_step():
            return False
        hand = search.expand(self.counts, self.held)
        ways = hand[loops.H_KINDS + self.kind]
        if not ways:
            self.done = True
            return True
        cards = 0
        for c in self.counts:
            cards += c
        self.arrays = search.workspace(self, ways, cards)     # a search lost: started again
        self.arrays[loops.A_STATE][loops.S_KIND] = self.kind
        w = search._ways
        loops.prepare(search.table, hand, w[0], w[1], w[2], self.arrays)
        return False

    def _grow_stack(self):
        arrays = self.arrays
        state = arrays[loops.A_STATE]
        size = state[loops.S_STACK_CAP] * 3 // 2
        for a in (loops.A_CANDS, loops.A_RATES, loops.A_SUMS):
            arrays[a] = _grown(arrays[a], size)
        state[loops.S_STACK_CAP] = size

    def result(self):
        if self.done or self.search._worker is not self:
            return self._result[1]
        state = self.arrays[loops.A_STATE]
        best = state[loops.S_BEST]
        if best > self._result[0]:
            codes = self.arrays[loops.A_CODE]
            chain = state[loops.S_CHAIN]
            chosen = [self.search.play(codes[state[chain + k]])
                      for k in range(state[loops.S_BEST_LEN])]
            chosen.sort(key=lambda p: (-p.points, p.index, p.root))
            self._result = (best, (best // 64 * 10, chosen))
        return self._result[1]
