"""The hand search's inner loops (core/hand.py holds the rules and the jobs around them).

expand() finds every way each meld plays from a hand; prepare() orders one type's ways to play
for the branch and bound; search() runs it, a budget of steps a call. Where the port compiles
viper (MicroPython on an RP2040 or an ESP32, and the unix port) these are machine code: a
14-card hand's best chord turn in tens of ms on a Pico, where bytecode took a second. Elsewhere
they run as plain Python, the same lines: on CPython `micropython` below is a stand-in whose
viper() changes nothing, and a deploy to a port without native code (CircuitPython, the page)
drops the decorator lines (host_tools/device/native.py).

Viper's rules, kept by every line here: module constants are const(); locals are machine ints;
arrays are array('i') read through ptr32, and a 64-bit port's ptr32 loads do not sign-extend,
so nothing stored is negative; no division (a Cortex-M0+ has no divide instruction); a number
never passes 2**30 (a small int on every port, so the plain Python allocates nothing).

The arrays (all array('i')):
- table: the meld set, read once: [meld count, INV at, BITS at, then per meld kind,
  positions, offsets at, optional bits, tens at, required pitch classes (12 bits, from the
  root)] and those offsets, tens by cards (points / 10 for 0..positions cards), INV
  (27720 // n for n cards: a rate per card without division) and BITS (the bits set in each
  nibble: a play's cards are the bits of its positions).
- hand: [lo, hi, listing capacity, ways capacity, listed, ways, ways of each kind (3),
  scratch (3 x 12), buckets (51), MELD cards of each meld (0: not held)]. lo/hi: the card
  counts packed six 5-bit fields each (C..F, F#..B), so that a hand minus a meld is one
  subtraction and a missing card shows as a cleared guard bit.
- listed: each (meld, root) the hand builds with every optional card it holds, packed as
  core/hand.py's plays, sorted (with as much room again: the sort's); ways (code, lo, hi):
  each distinct set of cards a meld can be played on (each subset of its holdable optional
  cards), meld by meld.
- a search's arrays: see prepare().
"""

try:
    import micropython
    from micropython import const
except ImportError:               # CPython: the same functions as plain Python
    class micropython:            # stands in for the module
        @staticmethod
        def viper(function):
            return function

    def const(value):
        return value


def ptr32(array):
    """viper's cast, where the decorator is dropped: plain Python indexes the array itself."""
    return array


GUARD = const(0x21084210)         # bit 4 of each of six 5-bit fields
FIELDS = const(0x1EF7BDEF)        # the four count bits of each field
SCALE = const(27720)              # lcm(1..12): a score per card, times this, is whole
MAX_TENS = const(50)              # 500 points: the most a meld scores
MAX_SUBSETS = const(64)           # a custom meld with many optional sectors: its first 64

# table
T_COUNT = const(0)
T_INV = const(1)
T_BITS = const(2)
T_MELDS = const(3)
T_KIND = const(0)
T_POSITIONS = const(1)
T_OFFSETS = const(2)
T_OPTIONAL = const(3)
T_TENS = const(4)
T_REQUIRED = const(5)             # the required positions' pitch classes above the root
T_RECORD = const(6)

# hand
H_LO = const(0)
H_HI = const(1)
H_LISTED_CAP = const(2)
H_WAYS_CAP = const(3)
H_LISTED = const(4)
H_WAYS = const(5)
H_KINDS = const(6)                # 3 counts
H_SCRATCH = const(9)              # 36: a fit's holdable optional cards (bit, lo, hi)
H_BUCKETS = const(45)             # 51: the listing's plays by points (a counting sort)
H_COPIES = const(96)              # one a meld

# a search's state (array `state`)
S_WAYS = const(0)
S_BEST = const(1)
S_DEPTH = const(2)
S_DONE = const(3)
S_BEST_LEN = const(4)
S_BUDGET = const(5)
S_KIND = const(6)
S_STACK_CAP = const(7)
S_GROW = const(8)                 # 1: the candidate stack is full, grow it and call again
S_LEVELS = const(9)               # where the levels start
S_CHAIN = const(10)               # where the best chain starts
S_USABLE = const(11)              # where the cards a turn can use, by cards held, start
S_ROOM = const(12)                # what a level's plays must beat (_by_sizes)
S_HEADER = const(13)
L_NEXT = const(0)                 # per level: next candidate, score, cards left (lo, hi,
L_SCORE = const(1)                # count), where its candidates start, how many, the
L_LO = const(2)                   # candidate taken to the level below
L_HI = const(3)
L_CARDS = const(4)
L_START = const(5)
L_COUNT = const(6)
L_TAKEN = const(7)
L_SIZE = const(8)

# the arrays of a search, in the tuple `arrays`
A_STATE = const(0)
A_CANDS = const(1)                # the candidate stack, and a level's bounds beside it:
A_RATES = const(2)                # the best rate per card and the melds' sums from each
A_SUMS = const(3)                 # candidate on
A_GAIN = const(4)                 # per way to play, in the search's order
A_LO = const(5)
A_HI = const(6)
A_CARDS = const(7)
A_MELD = const(8)                 # the search's meld index (its MELD cards: A_COPIES)
A_RATE = const(9)
A_CODE = const(10)
A_COPIES = const(11)              # per search meld: MELD cards, then taken


@micropython.viper
def expand(table, hand, listed, codes, los, his) -> int:  # noqa: C901 (29: split, 3 ms a hand)
    """Every meld with MELD cards in `hand` at every root its required cards are in the hand:
    its listing (every holdable optional card played) in `listed`, and each subset of its
    holdable optional cards, once for each distinct set of cards, in the ways arrays. 1, or 0
    when an array was too short: then hand[H_LISTED] and hand[H_WAYS] say at most how many
    there are (grow the arrays to 2 * listed + 2 and ways, and call again).

    One function, not one a meld and root: on the emulated Pico a viper call costs 4.3 us and
    each array it reads about 1.5 us more, some 3 ms a 14-card hand (bound: 100 ms). Measured
    again (issue 50): a call from viper with one array 5.1 us, with six 12.4 us, the same
    read inline 0.3 us; make bench's 14-card hand lists its 191 melds in 5.4 ms."""
    t = ptr32(table)
    h = ptr32(hand)
    out = ptr32(listed)
    wc = ptr32(codes)
    wlo = ptr32(los)
    whi = ptr32(his)
    hand_lo = h[H_LO] | GUARD
    hand_hi = h[H_HI] | GUARD
    listed_cap = h[H_LISTED_CAP]
    ways_cap = h[H_WAYS_CAP]
    scratch = H_SCRATCH
    n_listed = 0
    n_ways = 0
    h[H_KINDS] = 0
    h[H_KINDS + 1] = 0
    h[H_KINDS + 2] = 0
    held_pcs = 0                  # the hand's pitch classes, a bit each
    pc = 0
    while pc < 6:
        if (hand_lo >> (5 * pc)) & 15:
            held_pcs |= 1 << pc
        if (hand_hi >> (5 * pc)) & 15:
            held_pcs |= 1 << (pc + 6)
        pc += 1
    melds = t[T_COUNT]
    i = 0
    while i < melds:
        if h[H_COPIES + i] == 0:
            i += 1
            continue
        rec = T_MELDS + i * T_RECORD
        kind = t[rec + T_KIND]
        positions = t[rec + T_POSITIONS]
        offsets = t[rec + T_OFFSETS]
        optional = t[rec + T_OPTIONAL]
        tens = t[rec + T_TENS]
        wanted = t[rec + T_REQUIRED]
        first_way = n_ways
        root = 0
        while root < 12:
            # a quick no: a required pitch class the hand lacks (the mask turned to the root)
            if root > 0:
                wanted = ((wanted << 1) | (wanted >> 11)) & 0xFFF
            if (wanted | held_pcs) != held_pcs:
                root += 1
                continue
            need_lo = 0
            need_hi = 0
            used = 0
            required = 0
            k = 0
            while k < positions:
                if not (optional >> k) & 1:
                    pc = root + t[offsets + k]
                    if pc >= 12:
                        pc -= 12
                    if pc < 6:
                        need_lo += 1 << (5 * pc)
                    else:
                        need_hi += 1 << (5 * (pc - 6))
                    used |= 1 << k
                    required += 1
                k += 1
            left_lo = hand_lo - need_lo
            left_hi = hand_hi - need_hi
            if (left_lo & GUARD) != GUARD or (left_hi & GUARD) != GUARD:
                root += 1
                continue
            # The optional cards the hand also holds, one a position, in card order.
            held = 0
            all_used = used
            k = 0
            while k < positions:
                if (optional >> k) & 1:
                    pc = root + t[offsets + k]
                    if pc >= 12:
                        pc -= 12
                    one_lo = 0
                    one_hi = 0
                    if pc < 6:
                        one_lo = 1 << (5 * pc)
                    else:
                        one_hi = 1 << (5 * (pc - 6))
                    if ((left_lo - one_lo) & GUARD) == GUARD and \
                            ((left_hi - one_hi) & GUARD) == GUARD:
                        left_lo -= one_lo
                        left_hi -= one_hi
                        h[scratch + 3 * held] = 1 << k
                        h[scratch + 3 * held + 1] = one_lo
                        h[scratch + 3 * held + 2] = one_hi
                        all_used |= 1 << k
                        held += 1
                k += 1
            if 2 * n_listed + 2 <= listed_cap:
                out[n_listed] = ((MAX_TENS - t[tens + required + held]) << 24) | \
                    (i << 16) | (root << 12) | all_used
            n_listed += 1
            subsets = 1 << held
            if subsets > MAX_SUBSETS:
                subsets = MAX_SUBSETS
            subset = subsets - 1
            while subset >= 0:
                u = used
                a = need_lo
                b = need_hi
                n = required
                k = 0
                while k < held:
                    if (subset >> k) & 1:
                        u |= h[scratch + 3 * k]
                        a += h[scratch + 3 * k + 1]
                        b += h[scratch + 3 * k + 2]
                        n += 1
                    k += 1
                # a meld at two roots may take the same cards (the tritone, the augmented
                # triad): its first way only
                seen = first_way
                while seen < n_ways and n_ways <= ways_cap:
                    if wlo[seen] == a and whi[seen] == b:
                        break
                    seen += 1
                if seen == n_ways:
                    if n_ways < ways_cap:
                        wc[n_ways] = ((MAX_TENS - t[tens + n]) << 24) | (i << 16) | \
                            (root << 12) | u
                        wlo[n_ways] = a
                        whi[n_ways] = b
                    n_ways += 1
                    h[H_KINDS + kind] = h[H_KINDS + kind] + 1
                subset -= 1
            root += 1
        i += 1
    h[H_LISTED] = n_listed
    h[H_WAYS] = n_ways
    if 2 * n_listed + 2 > listed_cap or n_ways > ways_cap:
        return 0                  # counted, not all written: grow the arrays to fit
    _sort_listing(hand, listed, n_listed)
    return 1


@micropython.viper
def _sort_listing(hand, listed, n_listed: int):
    """The listing sorted as its packing sorts: by points (the top byte), then meld and root,
    which is already their order: a stable counting sort by points, through out[n:2n]."""
    h = ptr32(hand)
    out = ptr32(listed)
    b = 0
    while b <= MAX_TENS:
        h[H_BUCKETS + b] = 0
        b += 1
    k = 0
    while k < n_listed:
        b = out[k] >> 24
        h[H_BUCKETS + b] = h[H_BUCKETS + b] + 1
        k += 1
    at = n_listed
    b = 0
    while b <= MAX_TENS:
        count = h[H_BUCKETS + b]
        h[H_BUCKETS + b] = at
        at += count
        b += 1
    k = 0
    while k < n_listed:
        b = out[k] >> 24
        out[h[H_BUCKETS + b]] = out[k]
        h[H_BUCKETS + b] = h[H_BUCKETS + b] + 1
        k += 1
    k = 0
    while k < n_listed:
        out[k] = out[n_listed + k]
        k += 1


@micropython.viper
def _bounds(arrays, start: int, count: int):
    """For the candidates cands[start:start + count], from each one on: the best rate per card,
    and the most their melds can earn (each meld's best play times its MELD cards)."""
    cands = ptr32(arrays[A_CANDS])
    rates = ptr32(arrays[A_RATES])
    sums = ptr32(arrays[A_SUMS])
    gains = ptr32(arrays[A_GAIN])
    rate_of = ptr32(arrays[A_RATE])
    meld_of = ptr32(arrays[A_MELD])
    copies = ptr32(arrays[A_COPIES])
    top = 0
    total = 0                     # the melds after the current one
    meld = -1
    richest = 0                   # the current meld's best play
    q = start + count - 1
    while q >= start:
        j = cands[q]
        this = meld_of[j]
        if this != meld:
            if meld >= 0:
                total += richest * copies[2 * meld]
            meld = this
            richest = 0
        gain = gains[j]
        if gain > richest:
            richest = gain
        rate = rate_of[j]
        if rate > top:
            top = rate
        rates[q] = top
        sums[q] = total + richest * copies[2 * meld]
        q -= 1


@micropython.viper
def prepare(table, hand, codes, los, his, arrays):
    """One type's ways to play (state[S_KIND]) from the ways arrays into the search's arrays,
    in the search's order: melds by their best rate per card (then the set's order), each
    meld's ways richest per card first (then as found), and the first level: every way."""
    t = ptr32(table)
    h = ptr32(hand)
    wc = ptr32(codes)
    wlo = ptr32(los)
    whi = ptr32(his)
    state = ptr32(arrays[A_STATE])
    cands = ptr32(arrays[A_CANDS])      # scratch until the first level is written
    rates = ptr32(arrays[A_RATES])
    gains = ptr32(arrays[A_GAIN])
    out_lo = ptr32(arrays[A_LO])
    out_hi = ptr32(arrays[A_HI])
    out_cards = ptr32(arrays[A_CARDS])
    meld_of = ptr32(arrays[A_MELD])
    rate_of = ptr32(arrays[A_RATE])
    out_code = ptr32(arrays[A_CODE])
    copies = ptr32(arrays[A_COPIES])
    sums = ptr32(arrays[A_SUMS])        # scratch too
    kind = state[S_KIND]
    inv = t[T_INV]
    bits = t[T_BITS]
    n_ways = h[H_WAYS]
    # The melds of this kind with ways, three numbers a meld in rates[] (first way, ways,
    # best rate per card), by falling rate (insertion: a stable sort keeps the set's order).
    melds = 0
    p = 0
    while p < n_ways:
        i = (wc[p] >> 16) & 0xFF
        end = p + 1
        while end < n_ways and ((wc[end] >> 16) & 0xFF) == i:
            end += 1
        if t[T_MELDS + i * T_RECORD + T_KIND] == kind:
            best = 0
            way = p
            while way < end:
                code = wc[way]
                n = t[bits + (code & 15)] + t[bits + ((code >> 4) & 15)] + \
                    t[bits + ((code >> 8) & 15)]
                rate = ((MAX_TENS - (code >> 24)) * 64 + n) * t[inv + n]
                if rate > best:
                    best = rate
                way += 1
            at = melds
            while at > 0 and rates[3 * (at - 1) + 2] < best:
                rates[3 * at] = rates[3 * (at - 1)]
                rates[3 * at + 1] = rates[3 * (at - 1) + 1]
                rates[3 * at + 2] = rates[3 * (at - 1) + 2]
                at -= 1
            rates[3 * at] = p
            rates[3 * at + 1] = end - p
            rates[3 * at + 2] = best
            melds += 1
        p = end
    # Each meld's ways, richest per card first: their rates in sums[], their order in cands[].
    j = 0
    m = 0
    while m < melds:
        first = rates[3 * m]
        count = rates[3 * m + 1]
        c = 0
        while c < count:
            code = wc[first + c]
            n = t[bits + (code & 15)] + t[bits + ((code >> 4) & 15)] + \
                t[bits + ((code >> 8) & 15)]
            rate = ((MAX_TENS - (code >> 24)) * 64 + n) * t[inv + n]
            sums[c] = rate
            at = c
            while at > 0 and sums[cands[at - 1]] < rate:
                cands[at] = cands[at - 1]
                at -= 1
            cands[at] = c
            c += 1
        c = 0
        while c < count:
            way = first + cands[c]
            code = wc[way]
            n = t[bits + (code & 15)] + t[bits + ((code >> 4) & 15)] + \
                t[bits + ((code >> 8) & 15)]
            gains[j] = (MAX_TENS - (code >> 24)) * 64 + n
            rate_of[j] = sums[cands[c]]
            out_lo[j] = wlo[way]
            out_hi[j] = whi[way]
            out_cards[j] = n
            meld_of[j] = m
            out_code[j] = wc[way]
            j += 1
            c += 1
        copies[2 * m] = h[H_COPIES + ((wc[first] >> 16) & 0xFF)]
        copies[2 * m + 1] = 0
        m += 1
    state[S_WAYS] = j
    state[S_BEST] = 0
    state[S_BEST_LEN] = 0
    state[S_DONE] = 0
    state[S_GROW] = 0
    state[S_DEPTH] = 0
    held = 0
    pc = 0
    while pc < 6:
        held += ((h[H_LO] >> (5 * pc)) & 15) + ((h[H_HI] >> (5 * pc)) & 15)
        pc += 1
    level = state[S_LEVELS]
    state[level + L_NEXT] = 0
    state[level + L_SCORE] = 0
    state[level + L_LO] = h[H_LO]
    state[level + L_HI] = h[H_HI]
    state[level + L_CARDS] = held
    state[level + L_START] = 0
    state[level + L_COUNT] = j
    state[level + L_TAKEN] = 0
    q = 0
    while q < j:
        cands[q] = q
        q += 1
    if j > 0:
        _bounds(arrays, 0, j)
    _usable(arrays, held)


@micropython.viper
def _usable(arrays, held: int):
    """state[S_USABLE + n]: the most cards a turn can play from n: every way to play takes a
    multiple of their sizes' greatest common divisor (2 for intervals: from 13 cards at most
    12, which is what proves six intervals the best turn without trying every set)."""
    state = ptr32(arrays[A_STATE])
    sizes = ptr32(arrays[A_CARDS])
    divisor = 0
    j = 0
    ways = state[S_WAYS]
    while j < ways:
        a = divisor
        b = sizes[j]
        while a != 0 and a != b:      # Euclid by subtraction: no division on a Cortex-M0+
            if a > b:
                a -= b
            else:
                b -= a
        divisor = b
        j += 1
    usable = state[S_USABLE]
    n = 0
    left = 0                          # n's remainder by the divisor
    while n <= held:
        state[usable + n] = n - left
        n += 1
        left += 1
        if left == divisor:
            left = 0


@micropython.viper
def search(arrays) -> int:  # noqa: C901 (23: split per set, 11 ms a 14-card hand)
    """The branch and bound, from where it stopped, for up to state[S_BUDGET] steps (a step
    looks at one candidate: takes it a level down, passes it by, or goes back up). 1 once the
    search is over, else 0 (state[S_GROW]: the candidate stack is full: grow it and call
    again).

    Every set of plays is searched as one sequence in the search's order (a way may repeat
    while its meld has MELD cards), so of equal turns the first in that order is kept: a bound
    changes the time, never the answer. Each level keeps the candidates that still fit the
    cards left and could take part in a better turn (_by_sizes), and bounds them by their
    best rate per card and by their melds' best plays; once that bound from candidate q on
    cannot beat the best turn, no later one can either.
    One function: a call a set (about 10 us on the emulated Pico, with the arrays it reads)
    would add some 11 ms to a 14-card hand's 1150 sets. Measured again (issue 50): a call
    from viper with six arrays 12.4 us. make bench's 100 deals (issue 46): every best turn
    proven at most 158 ms after the last card, 42 the median."""
    state = ptr32(arrays[A_STATE])
    cands = ptr32(arrays[A_CANDS])
    rates = ptr32(arrays[A_RATES])
    sums = ptr32(arrays[A_SUMS])
    gains = ptr32(arrays[A_GAIN])
    rate_of = ptr32(arrays[A_RATE])
    need_lo = ptr32(arrays[A_LO])
    need_hi = ptr32(arrays[A_HI])
    need_cards = ptr32(arrays[A_CARDS])
    meld_of = ptr32(arrays[A_MELD])
    copies = ptr32(arrays[A_COPIES])
    budget = state[S_BUDGET]
    stack_cap = state[S_STACK_CAP]
    levels = state[S_LEVELS]
    usable = state[S_USABLE]
    best = state[S_BEST]
    d = state[S_DEPTH]
    state[S_GROW] = 0
    while budget > 0:
        budget -= 1               # every candidate looked at: a step's time stays short
        level = levels + d * L_SIZE
        q = state[level + L_NEXT]
        count = state[level + L_COUNT]
        if q >= count:           # this level is searched: back to the one above
            if d == 0:
                state[S_DONE] = 1
                break
            d -= 1
            level = levels + d * L_SIZE
            meld = meld_of[state[level + L_TAKEN]]
            copies[2 * meld + 1] = copies[2 * meld + 1] - 1
            continue
        start = state[level + L_START]
        score = state[level + L_SCORE]
        held = state[level + L_CARDS]
        rate = rates[start + q]
        most = sums[start + q]
        room = best - score
        # the plays left earn at most their melds' sum, and at most the rate's share of
        # the cards they can use (compared as a product: no division)
        if most <= room or rate * state[usable + held] < (room + 1) * SCALE:
            state[level + L_NEXT] = count
            continue
        j = cands[start + q]
        gain = score + gains[j]
        left = held - need_cards[j]
        room = best - gain
        if room >= 0 and (most <= room or rate * state[usable + left] < (room + 1) * SCALE):
            state[level + L_NEXT] = q + 1
            continue
        child = start + count
        if child + count - q > stack_cap:
            state[S_GROW] = 1
            break
        state[level + L_NEXT] = q + 1
        meld = meld_of[j]
        taken = copies[2 * meld + 1] + 1
        copies[2 * meld + 1] = taken
        full = -1
        if taken >= copies[2 * meld]:
            full = meld
        lo = ((state[level + L_LO] | GUARD) - need_lo[j]) & FIELDS
        hi = ((state[level + L_HI] | GUARD) - need_hi[j]) & FIELDS
        state[level + L_TAKEN] = j
        if gain > best:
            best = gain
            chain = state[S_CHAIN]
            i = 0
            while i <= d:
                state[chain + i] = state[levels + i * L_SIZE + L_TAKEN]
                i += 1
            state[S_BEST_LEN] = d + 1
        # The candidates below: this level's from q on that still fit the cards left, with
        # the bounds of them all (the best rate, the melds' sum) on the way.
        fit_lo = lo | GUARD
        fit_hi = hi | GUARD
        n = 0
        top = 0
        total = 0
        meld = -1
        richest = 0
        k = start + q
        end = start + count
        # Most levels are not entered for want of a candidate whose rate could beat the best
        # turn: once the level's best rate from k on cannot either, the rest need no look
        # (the same levels entered, a fraction of the candidates looked at).
        use = state[usable + left]
        lim = (best - gain + 1) * SCALE
        while k < end:
            if top * use < lim and rates[k] * use < lim:
                top = 0
                break
            c = cands[k]
            k += 1
            if ((fit_lo - need_lo[c]) & GUARD) != GUARD:
                continue
            if ((fit_hi - need_hi[c]) & GUARD) != GUARD:
                continue
            this = meld_of[c]
            if this == full:
                continue
            cands[child + n] = c
            n += 1
            if this != meld:
                if meld >= 0:
                    total += richest * copies[2 * meld]
                meld = this
                richest = 0
            if gains[c] > richest:
                richest = gains[c]
            if rate_of[c] > top:
                top = rate_of[c]
        if meld >= 0:
            total += richest * copies[2 * meld]
        if total <= best - gain or top * use < lim:
            n = 0
        if n > 0:                 # those of them that could take part in a better turn
            state[S_ROOM] = best - gain
            n = int(_by_sizes(arrays, child, n, left))
        if n == 0:
            # nothing below can beat the best turn: the level is not entered
            copies[2 * meld_of[j] + 1] = taken - 1
            continue
        d += 1
        level = levels + d * L_SIZE
        state[level + L_NEXT] = 0
        state[level + L_SCORE] = gain
        state[level + L_LO] = lo
        state[level + L_HI] = hi
        state[level + L_CARDS] = left
        state[level + L_START] = child
        state[level + L_COUNT] = n
        _bounds(arrays, child, n)
    state[S_BEST] = best
    state[S_DEPTH] = d
    return int(state[S_DONE])


@micropython.viper
def _by_sizes(arrays, start: int, count: int, cards: int) -> int:
    """The candidates cands[start:start + count] that could still be part of a turn beating
    the best by more than state[S_ROOM] on `cards` cards, kept in order; how many. A play
    can only if its gain and the most the others could add on the cards it leaves do: at
    most, for n cards, the best sum over sizes adding up to n of the richest candidate of each
    size (a knapsack blind to which cards and MELD cards: a bound). It sees what a rate
    cannot: 5 cards left and only 4-card chords that fit give one chord, not 5/4 of one; 12
    left, needing more than 270, and no 4-card chord takes part (70 and at most 200 from the
    8 others). Worked in the stack past the candidates; with no room there, all are kept."""
    cands = ptr32(arrays[A_CANDS])
    richest = ptr32(arrays[A_RATES])
    most = ptr32(arrays[A_SUMS])
    gains = ptr32(arrays[A_GAIN])
    sizes = ptr32(arrays[A_CARDS])
    state = ptr32(arrays[A_STATE])
    at = start + count
    if at + cards + 13 > state[S_STACK_CAP]:
        return count
    s = 0
    while s <= 12:
        richest[at + s] = 0
        s += 1
    q = start
    while q < at:
        c = cands[q]
        if gains[c] > richest[at + sizes[c]]:
            richest[at + sizes[c]] = gains[c]
        q += 1
    most[at] = 0
    n = 1
    while n <= cards:
        best = most[at + n - 1]
        s = 1
        while s <= n and s <= 12:
            if richest[at + s] > 0 and richest[at + s] + most[at + n - s] > best:
                best = richest[at + s] + most[at + n - s]
            s += 1
        most[at + n] = best
        n += 1
    room = state[S_ROOM]
    kept = start
    q = start
    while q < at:
        c = cands[q]
        if gains[c] + most[at + cards - sizes[c]] > room:
            cands[kept] = c
            kept += 1
        q += 1
    return kept - start


def _bytecode():
    """A plain function, to tell machine code from bytecode by type."""


# True where the loops above are machine code (MicroPython gives viper functions a type of
# their own).
NATIVE = type(search) is not type(_bytecode)
# Steps of search() a device takes in a piece of work, a few ms at most on a Pico (measured on
# the emulated one: 60 steps of machine code, 3.5 ms or less with the plays it then shows).
STEPS_A_PIECE = 60 if NATIVE else 6
