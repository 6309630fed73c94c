"""Identification: every (meld, root) reading that a multiset of notes builds exactly, and the
readings that one more note would complete.

Index: for every meld, each "variant" mask (its required sectors plus one subset of its optional
ones) is stored relative to root C, sorted. A reading at root r exists only where the notes,
rotated down by r, equal a variant; r must be one of the notes (degree 1 is always required).
A query is at most 12 dictionary look-ups, whatever the size of the set.
"""

from array import array

from core import degrees

MAX_OPTIONAL_SUBSETS = 64


class Identifier:
    def __init__(self, meldset):
        self.meldset = meldset
        entries = []
        for i in range(meldset.count):
            required = meldset.required_mask(i)
            optional_bits = [1 << pc for pc in range(12) if meldset.optional_mask(i) >> pc & 1]
            for subset in range(min(1 << len(optional_bits), MAX_OPTIONAL_SUBSETS)):
                mask = required
                for b in range(len(optional_bits)):
                    if subset >> b & 1:
                        mask |= optional_bits[b]
                entries.append((mask, i))
        entries.sort()
        self._masks = array("H", [e[0] for e in entries])
        self._melds = array("B", [e[1] for e in entries])
        # Where each stored shape's entries start (small ints only: no objects per entry).
        self._start = {}
        for j in range(len(entries) - 1, -1, -1):
            self._start[entries[j][0]] = j
        # One bit per set of notes that is some shape at some root: most random queries have
        # no reading at all and stop at this one look-up (512 bytes).
        self._readable = bytearray(512)
        for mask, _ in entries:
            doubled = mask | (mask << 12)
            for root in range(12):
                shape = (doubled >> (12 - root)) & 0xFFF
                self._readable[shape >> 3] |= 1 << (shape & 7)
        # Melds with two positions on one pitch class (the octave) need a card count check.
        self._stacked = bytearray(meldset.count)
        for i in range(meldset.count):
            seen = 0
            for code in meldset.meld_codes(i):
                bit = 1 << (degrees.semitones(code) % 12)
                if seen & bit:
                    self._stacked[i] = 1
                seen |= bit

    def exact(self, pcs):
        """Readings built by exactly these cards (pitch classes, repeats allowed):
        a sorted list of (meld index, root pc)."""
        mask = 0
        repeated = False
        for pc in pcs:
            bit = 1 << pc
            if mask & bit:
                repeated = True
            mask |= bit
        found = []
        if not self._readable[mask >> 3] >> (mask & 7) & 1:
            return found
        masks = self._masks
        count = len(masks)
        start = self._start
        doubled = mask | (mask << 12)
        for root in range(12):
            if not mask >> root & 1:
                continue
            j = start.get((doubled >> root) & 0xFFF)      # the notes seen from this root
            if j is None:
                continue
            relative = masks[j]
            while j < count and masks[j] == relative:
                i = self._melds[j]
                if (not repeated and not self._stacked[i]) or self._counts_fit(i, root, pcs):
                    found.append((i, root))
                j += 1
        if len(found) > 1:
            found.sort()
        return found

    def _counts_fit(self, i, root, pcs):
        """Each pitch class has between its required and its total positions in cards."""
        need = bytearray(12)
        room = bytearray(12)
        for code in self.meldset.meld_codes(i):
            pc = (root + degrees.semitones(code)) % 12
            room[pc] += 1
            if not code & degrees.OPTIONAL:
                need[pc] += 1
        have = bytearray(12)
        for pc in pcs:
            have[pc] += 1
        for pc in range(12):
            if have[pc] < need[pc] or have[pc] > room[pc]:
                return False
        return True

    def near(self, pcs):
        """Readings one more card would complete: a sorted list of (meld index, root pc,
        missing pc); readings the cards already build are left out."""
        have = self.exact(pcs)
        found = []
        cards = list(pcs) + [0]
        for extra in range(12):
            cards[-1] = extra
            for i, root in self.exact(cards):
                if (i, root) not in have:
                    found.append((i, root, extra))
        found.sort()
        return found
