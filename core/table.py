"""The table log: a table's public state as a replicable log of entries (the score pad,
core/scorepad.py, derives every public state by replaying it; the link between wheels carries
its entries).

What is stable (a wheel, the command line and a linked wheel all rely on it):

Entry identity and order.
- Every entry carries its origin (the seat of the wheel that made it, 0-3; a wheel with no
  seat writes as the seat whose turn it is), a sequence number per origin (1, 2, 3, ... with no
  gaps) and a Lamport clock (1 + the highest clock the log has seen).
- Its id is (origin, seq). References between entries (an eat names the meld entry it eats,
  an undo the entry it takes back) are ids, never positions.
- Replay order is by (clock, origin, seq): the same on every wheel whatever order the entries
  arrived in. An entry that arrives late is inserted at its place (Log.add); an entry whose id
  the log already holds is a duplicate and changes nothing.
- A NEW_GAME entry ends what came before it: the log keeps the entries from the last NEW_GAME
  on (in replay order). The seqs it dropped are remembered per origin (`base`), so the seqs
  stay gapless across games and an entry older than the game is recognised and dropped.

Entries, decoded: (clock, origin, seq, who, what, data); `who` is the seat the entry is about,
`data` a tuple by `what`:
    NEW_GAME    (game, players, dealer)      game: an index of core/scorepad.py's GAMES
    MELD        (card, root, rank, pcs, tens) a meld played: its MELD card id ("" when entered
                                             as a score item), root pc (NO_ROOT when not
                                             known), rank (RANK_*: the eating power), the NOTE
                                             cards' pcs (bytes), its points / 10
    EAT         (origin, seq, card, rank)    the meld entry eaten, the MELD card that ate it
    SCORE       (item, count)                `count` times item `item` of the game's scoring
                                             table (went out, cards left ...)
    NEXT        ()                           the turn passes clockwise
    DISCARD     (pc,)                        a NOTE card onto the discard pile
    PILE_START  (pc,)                        the pile's first card, turned over at the deal
    PILE_TAKEN  ()                           `who` takes the whole pile
    ROUND       (round,)                     round `round` (0 the first) ends: a second wheel
                                             ending the same round changes nothing (ANY_ROUND:
                                             the round then played, a VERSION 1 log's)
    UNDO        (origin, seq)                takes back that entry

Byte form (VERSION 2; a VERSION 1 log, whose ROUND had no body, is read as ROUND (ANY_ROUND,),
so that a pad kept by the firmware before goes on). A varint is 7 bits a byte, least
significant first, the top bit set on every byte but the last. An entry's body:
    b0 = what << 4 | origin << 2 | who;  varint clock;  varint seq;  then by `what`:
    NEW_GAME: game, players, dealer (a byte each)   MELD: len(card), card (ASCII), root << 4 |
    rank, len(pcs), the pcs two a byte (high nibble first), tens   EAT: origin, varint seq,
    len(card), card, rank   SCORE: item, count   DISCARD, PILE_START: pc   UNDO: origin,
    varint seq   ROUND: round   NEXT, PILE_TAKEN: nothing.
entry_bytes() is VERSION then a body (an entry on its own); Log.to_bytes() is VERSION, the
four base seqs (varints), then the bodies in replay order. Log.digest() is 10 hex digits over
the bodies in replay order (two polynomial hashes mod primes below 2**20: small ints on every
port): two logs holding the same entries give the same digest.

Pure Python for CPython and MicroPython; the log is one bytearray and an array of offsets,
not a tuple an entry (a 3-round game is a few hundred entries, about 1.5 KB)."""

from array import array

VERSION = 2
ANY_ROUND = 255           # a ROUND of a VERSION 1 log: it ends the round then played
ORIGINS = 4

NEW_GAME, MELD, EAT, SCORE, NEXT, DISCARD, PILE_START, PILE_TAKEN, ROUND, UNDO = range(10)
WHAT_NAMES = ("new game", "meld", "eat", "score", "next", "discard", "pile start",
              "pile taken", "round", "undo")

# Eating power (rulebook: chromatic > major scale > other scales > chords > intervals).
RANK_INTERVAL, RANK_CHORD, RANK_SCALE, RANK_MAJOR, RANK_CHROMATIC = range(5)
NO_ROOT = 15              # a meld entered as a score item: its root not known
MAX_CARD_ID = 24          # a MELD card id's characters at most (a meld id of a set)

_P1, _P2 = 999983, 1048573          # primes below 2**20
_M1, _M2 = 257, 263


class TableError(ValueError):
    """Bytes that are not an entry or a log (the message names where), or an entry the log
    cannot hold."""


# ---- the byte form ---------------------------------------------------------------------------

def _varint(out, n):
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)


def _read_varint(data, at):
    """(value, offset after it)."""
    n = shift = 0
    while True:
        if at >= len(data) or shift > 28:
            raise TableError("a number runs past the end")
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        if byte < 0x80:
            return n, at
        shift += 7


# Each kind's payload: b a byte, v a varint, c a MELD card id (its length, then ASCII), h two
# small ints in one byte (high nibble first), p pitch classes (their count, then two a byte).
FORMATS = ("bbb", "chpb", "bvcb", "bb", "", "b", "b", "", "b", "bv")
FORMATS_1 = FORMATS[:8] + ("",) + FORMATS[9:]          # VERSION 1's: ROUND had no body


def _byte(data, at):
    if at >= len(data):
        raise TableError("an entry runs past the end")
    return data[at]


def _put(out, code, value):
    if code == "v":
        _varint(out, value)
    elif code == "c":
        raw = value.encode()
        if len(raw) > MAX_CARD_ID:
            raise TableError("MELD card id %r: more than %d characters" % (value, MAX_CARD_ID))
        out.append(len(raw))
        out.extend(raw)
    elif code == "p":
        out.append(len(value))
        for k in range(0, len(value), 2):
            out.append(value[k] << 4 | (value[k + 1] if k + 1 < len(value) else 0))
    else:
        out.append(value)


def _get(data, at, code):
    """(value, offset after it) of one field."""
    if code == "v":
        return _read_varint(data, at)
    n = _byte(data, at)
    if code == "b":
        return n, at + 1
    if code == "c":
        if n > MAX_CARD_ID or at + n >= len(data):
            raise TableError("a MELD card id runs past the end")
        return str(bytes(data[at + 1:at + 1 + n]), "ascii"), at + 1 + n
    pcs = bytearray()
    for k in range(n):
        byte = _byte(data, at + 1 + k // 2)
        pcs.append(byte >> 4 if k % 2 == 0 else byte & 15)
    return bytes(pcs), at + 1 + (n + 1) // 2


def encode(entry):
    """An entry's body (bytes); TableError names a field it cannot hold."""
    clock, origin, seq, who, what, data = entry
    if not (0 <= origin < ORIGINS and 0 <= who < ORIGINS and 0 <= what < len(FORMATS)):
        raise TableError("entry origin %d, who %d, what %d: out of range" % (origin, who, what))
    if clock < 1 or seq < 1:
        raise TableError("entry clock %d, seq %d: they start at 1" % (clock, seq))
    out = bytearray((what << 4 | origin << 2 | who,))
    _varint(out, clock)
    _varint(out, seq)
    k = 0
    for code in FORMATS[what]:
        if code == "h":
            out.append(data[k] << 4 | data[k + 1])
            k += 1
        else:
            _put(out, code, data[k])
        k += 1
    return bytes(out)


def decode(data, at=0, version=VERSION):
    """(entry, the offset after it) from a body at `at` (of that byte form's VERSION);
    TableError says what is wrong."""
    b0 = _byte(data, at)
    what = b0 >> 4
    if what >= len(FORMATS):
        raise TableError("no entry kind %d" % what)
    clock, at = _read_varint(data, at + 1)
    seq, at = _read_varint(data, at)
    if clock < 1 or seq < 1:
        raise TableError("clock %d, seq %d: they start at 1" % (clock, seq))
    payload = [] if version == VERSION or what != ROUND else [ANY_ROUND]
    for code in (FORMATS if version == VERSION else FORMATS_1)[what]:
        value, at = _get(data, at, "b" if code == "h" else code)
        if code == "h":
            payload.append(value >> 4)
            value &= 15
        payload.append(value)
    _check(what, payload)
    return (clock, b0 >> 2 & 3, seq, b0 & 3, what, tuple(payload)), at


def _check(what, payload):
    if what == MELD:
        card, root, rank, pcs, tens = payload
        if root > 11 and root != NO_ROOT or rank > RANK_CHROMATIC or len(pcs) > 12 or \
                tens > 50 or (pcs and max(pcs) > 11):
            raise TableError("a meld's root %d, rank %d, %d cards, %d0 points: out of range"
                             % (root, rank, len(pcs), tens))
    elif what in (DISCARD, PILE_START) and payload[0] > 11:
        raise TableError("pitch class %d" % payload[0])


def entry_bytes(entry):
    """An entry on its own: VERSION, then its body."""
    return bytes((VERSION,)) + encode(entry)


def entry_from_bytes(data):
    """entry_bytes() back; TableError for another version or a damaged entry."""
    if not data or data[0] != VERSION:
        raise TableError("entry format %s: this firmware reads %d" % (
            data[0] if data else "none", VERSION))
    entry, end = decode(data, 1)
    if end != len(data):
        raise TableError("%d bytes after the entry" % (len(data) - end))
    return entry


# ---- the log ---------------------------------------------------------------------------------

class Log:
    """The entries in replay order: their bodies in one bytearray, an offset each."""

    def __init__(self):
        self.data = bytearray()
        self.starts = array("H")
        self.base = [0] * ORIGINS   # per origin, the highest seq dropped with an older game
        self.clock = 0              # the highest clock seen

    def __len__(self):
        return len(self.starts)

    def body(self, k):
        end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.data)
        return bytes(self.data[self.starts[k]:end])

    def entry(self, k):
        return decode(self.data, self.starts[k])[0]

    def key(self, k):
        """(clock, origin, seq) of entry k: its place in the replay order."""
        at = self.starts[k]
        b0 = self.data[at]
        clock, at = _read_varint(self.data, at + 1)
        seq, _ = _read_varint(self.data, at)
        return clock, b0 >> 2 & 3, seq

    def find(self, origin, seq):
        """The index of entry (origin, seq), or -1."""
        for k in range(len(self.starts) - 1, -1, -1):
            key = self.key(k)
            if key[1] == origin and key[2] == seq:
                return k
        return -1

    def next_seq(self, origin):
        """The seq a new entry of `origin` takes."""
        top = self.base[origin]
        for k in range(len(self.starts)):
            key = self.key(k)
            if key[1] == origin and key[2] > top:
                top = key[2]
        return top + 1

    def seen(self, origin):
        """The highest seq of `origin` up to which the log misses none (what a wheel that
        catches up asks after)."""
        seqs = [key[2] for key in (self.key(k) for k in range(len(self.starts)))
                if key[1] == origin]
        top = self.base[origin]
        while top + 1 in seqs:
            top += 1
        return top

    def made(self, origin, who, what, data):
        """A new entry of this log's wheel (origin): the next seq, clock 1 + the highest
        seen. Not added: add() it once the rules accept it."""
        return (self.clock + 1, origin, self.next_seq(origin), who, what, data)

    def add(self, entry):
        """Insert an entry at its place in the replay order: its index, or -1 when the log
        holds it already (or it belongs to a game the log has left behind)."""
        body = encode(entry)
        clock, origin, seq = entry[0], entry[1], entry[2]
        self.clock = max(self.clock, clock)
        if seq <= self.base[origin] or self.find(origin, seq) >= 0:
            return -1
        place = len(self.starts)
        while place > 0 and self.key(place - 1) > (clock, origin, seq):
            place -= 1
        game = self._last_game()
        if game >= 0 and place <= game and entry[4] != NEW_GAME:
            self.base[origin] = max(self.base[origin], seq)       # older than the game
            return -1
        at = self.starts[place] if place < len(self.starts) else len(self.data)
        self.data[at:at] = body
        if place == len(self.starts):
            self.starts.append(at)
        else:                   # a late entry (a port's array has no insert)
            later = array("H", [s + len(body) for s in self.starts[place:]])
            self.starts = self.starts[:place] + array("H", [at]) + later
        if entry[4] == NEW_GAME:
            self._drop_before(self._last_game())
            game = self._last_game()
            return game if self.key(game) == (clock, origin, seq) else -1
        return place

    def _last_game(self):
        for k in range(len(self.starts) - 1, -1, -1):
            if self.data[self.starts[k]] >> 4 == NEW_GAME:
                return k
        return -1

    def _drop_before(self, k):
        """Drop the entries before index k, their seqs remembered in `base`."""
        if k <= 0:
            return
        for j in range(k):
            key = self.key(j)
            self.base[key[1]] = max(self.base[key[1]], key[2])
        cut = self.starts[k]
        self.data[:cut] = b""
        self.starts = array("H", [s - cut for s in self.starts[k:]])

    # -- bytes and digest ----------------------------------------------------------------------

    def to_bytes(self):
        out = bytearray((VERSION,))
        for seq in self.base:
            _varint(out, seq)
        return bytes(out) + bytes(self.data)

    def digest(self):
        h1 = h2 = 0
        for byte in self.data:
            h1 = (h1 * _M1 + byte) % _P1
            h2 = (h2 * _M2 + byte) % _P2
        return "%05x%05x" % (h1, h2)


def from_bytes(data):
    """A Log from to_bytes(); TableError names the entry that cannot be read."""
    version = data[0] if data else None
    if version not in (1, VERSION):
        raise TableError("table log format %s: this firmware reads 1 and %d" % (
            "none" if version is None else version, VERSION))
    log = Log()
    at = 1
    for origin in range(ORIGINS):
        log.base[origin], at = _read_varint(data, at)
    index = 0
    while at < len(data):
        index += 1
        entry = problem = None
        try:
            entry, end = decode(data, at, version)
        except TableError as err:       # (said outside: MicroPython warns of chaining)
            problem = str(err)
        if problem:
            raise TableError("table log entry %d: %s" % (index, problem))
        if len(log) and log.key(len(log) - 1) >= (entry[0], entry[1], entry[2]):
            raise TableError("table log entry %d: out of order" % index)
        log.starts.append(len(log.data))
        log.data.extend(data[at:end] if version == VERSION else encode(entry))
        log.clock = max(log.clock, entry[0])
        at = end
    return log
