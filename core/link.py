"""The table link: wheels at one table keeping one table log (core/table.py) over MIDI System
Exclusive, on the jacks in a ring (each wheel's OUT to the next one's IN) or on a bus where
every member hears every message (USB MIDI through a computer, the simulator). Pure: the bytes
come in and go out through the firmware (firmware/link.py) or a host tool.

A message (docs/midi.md, "The table link", has the whole format), the SysEx's bytes between
F0 and F7, all 7-bit:

    7D 43 57  VERSION KIND  SENDER(2)  HOPS  PAYLOAD...  CHECK

7D is MIDI's ID for non-commercial use, "CW" (43 57) says it is ours; SENDER is the wheel that
put it on this ring or bus (a 14-bit id drawn at power-up, drawn again when another seat's
HELLO carries it), HOPS how many wheels forwarded it, CHECK makes the sum of VERSION..CHECK a
multiple of 128. KIND:
  HELLO  every second: the speaker's seat, its id, and for each origin the highest seq its log
         knows (an entry held, or one left behind with an older game). Who knows less, or
         misses an entry below that, asks.
  WANT   asks the wheel named for the entries of one origin from one seq on.
  ENTRY  one entry of the log (core/table.py's entry_bytes), packed 7 bits a byte.
  BASE   with an answer: the seqs of one origin up to this one belong to games before this one
         (named by its new game entry's origin and seq): no wheel holds them any more.

On a ring each wheel forwards what it did not send (HOPS + 1), so a message goes round once:
its sender drops it when it comes back, and its own HELLO coming back says the ring is whole.
On a bus nothing is forwarded. A wheel on both (a ring and a computer) passes what it hears on
one to the other. Anything else on the line (a synth's notes and clock, a SysEx cut short,
another maker's SysEx, a message of a newer VERSION, a damaged one) is ignored and counted.

Nothing allocates for a HELLO heard, forwarded or sent (once a second, in steady state); an
entry heard, made or asked for allocates (an event)."""

from core import table

MANUFACTURER = 0x7D           # MIDI 1.0: the ID for non-commercial and educational use
SIGNATURE = (0x43, 0x57)      # "CW": a ChromaWheel's among the other 7D messages
VERSION = 1
HELLO, ENTRY, WANT, BASE = 1, 2, 3, 4
KIND_NAMES = ("", "hello", "entry", "want", "base")
_KIND, _SENDER, _HOPS, _PAYLOAD = 4, 5, 7, 8      # offsets in a message (after F0)
MAX_HOPS = 8                  # a ring of 4 and a few computers: a stray copy dies
HELLO_SIZE = 15               # seat, id (2), each origin's highest seq known (3 each)
WANT_SIZE = 6                 # asked id (2), origin, seq (3)
BASE_SIZE = 8                 # origin, seq (3), the game's new game entry: origin, seq (3)
_SIZES = (0, HELLO_SIZE, 0, WANT_SIZE, BASE_SIZE)       # by KIND; an ENTRY's varies
MESSAGE_SIZE = 96             # the longest message a port keeps whole (firmware/midi.py)
OUT_SIZE = 512                # a port's queue of whole messages waiting for the wire
HELLO_MS = 1000
BROKEN_MS = 3500              # no HELLO round the ring (or none heard on a bus) this long
ASK_AGAIN_MS = 1500           # a WANT not answered by then is asked again
ANSWER_BATCH = 4              # entries queued at a time for a WANT
SEATS = 4

# What the link ignored (counts, in Link.ignored): by reason.
NOT_OURS, NEWER, DAMAGED, CUT, NOTES, DROPPED = range(6)
IGNORED_NAMES = ("other SysEx", "newer format", "damaged", "cut short", "notes and clock",
                 "dropped")


def checksum(data, start, end):
    """The CHECK byte for data[start:end]."""
    total = 0
    for k in range(start, end):
        total += data[k]
    return -total & 0x7F


def pack7(data, out, at):
    """`data` (8-bit bytes) into `out` from `at` as MIDI packs them: each group of up to 7
    bytes after a byte of their top bits (the first byte's in bit 0). The end offset."""
    for start in range(0, len(data), 7):
        group = data[start:start + 7]
        high = 0
        for k in range(len(group)):
            high |= (group[k] >> 7) << k
        out[at] = high
        at += 1
        for byte in group:
            out[at] = byte & 0x7F
            at += 1
    return at


def unpack7(data, start, end):
    """pack7's bytes data[start:end] back (a bytearray)."""
    out = bytearray()
    at = start
    while at < end:
        high = data[at]
        group = min(7, end - at - 1)
        for k in range(group):
            out.append(data[at + 1 + k] | ((high >> k) & 1) << 7)
        at += group + 1
    return out


def _put(out, at, value, width):
    """`value` as `width` 7-bit bytes, most significant first."""
    for k in range(width - 1, -1, -1):
        out[at + k] = value & 0x7F
        value >>= 7
    return at + width


def _get(data, at, width):
    value = 0
    for k in range(width):
        value = value << 7 | data[at + k]
    return value


def message_kind(data, count):
    """A SysEx's bytes (between F0 and F7): its KIND when it is a whole link message of this
    VERSION, else -1 - the reason it is ignored (NOT_OURS, NEWER, DAMAGED)."""
    if count < _PAYLOAD + 1 or data[0] != MANUFACTURER or data[1] != SIGNATURE[0] or \
            data[2] != SIGNATURE[1]:
        return -1 - NOT_OURS
    if data[3] != VERSION:
        return -1 - (NEWER if data[3] > VERSION else DAMAGED)
    total = 0
    for k in range(3, count):
        total += data[k]
    kind = data[_KIND]
    if total & 0x7F or not HELLO <= kind <= BASE or data[_HOPS] > MAX_HOPS:
        return -1 - DAMAGED
    size = count - _PAYLOAD - 1
    if _SIZES[kind] and size != _SIZES[kind] or size < 1:
        return -1 - DAMAGED
    return kind


class LogTable:
    """The table a Link keeps in step: a score pad (core/scorepad.py: its `log`, and take() for
    an entry from another wheel), with what HELLO says of it worked out once a change, not once
    a message. The firmware (firmware/link.py) tells it of entries its own wheel wrote."""

    def __init__(self, pad):
        self.pad = pad
        self.top = [0] * SEATS        # per origin: the highest seq known
        self.missing = [1] * SEATS    # per origin: the lowest seq not held above its base
        self.game = (0, 0)            # the game's new game entry: (origin, seq)
        self.last = (0, 0, 0)         # the last entry's (clock, origin, seq)
        self.count = 0
        self.digest = ""
        self.changed()

    def changed(self):
        """The log changed (an entry added here or taken): what HELLO says, again."""
        log = self.pad.log
        held = [[] for _ in range(SEATS)]
        for k in range(len(log)):
            key = log.key(k)
            held[key[1]].append(key[2])
        for origin in range(SEATS):
            seqs = held[origin]
            base = log.base[origin]
            self.top[origin] = max([base] + seqs)
            first = base + 1
            while first in seqs:
                first += 1
            self.missing[origin] = first
        if len(log):
            key = log.key(0)
            self.game = (key[1], key[2])
            self.last = log.key(len(log) - 1)
        self.count = len(log)
        self.digest = log.digest()

    def take(self, raw):
        """An entry's bytes from another wheel: its index in the log, -1 when it holds it
        already; TableError for bytes it cannot read (another format, damaged)."""
        at = self.pad.take(table.entry_from_bytes(raw))
        if at >= 0:
            self.changed()
        return at

    def base(self, origin):
        return self.pad.log.base[origin]

    def raise_base(self, origin, seq, game):
        """Another wheel in this game says `origin`'s seqs up to `seq` are older than it."""
        if game == self.game and seq > self.pad.log.base[origin]:
            self.pad.log.base[origin] = seq
            self.changed()

    def entries(self, origin, first, limit):
        """Up to `limit` entries of `origin` from seq `first` on that the log holds, as bytes,
        in seq order."""
        log = self.pad.log
        found = []
        for k in range(len(log)):
            key = log.key(k)
            if key[1] == origin and key[2] >= first:
                found.append((key[2], k))
        found.sort()
        return [(seq, table.entry_bytes(log.entry(k))) for seq, k in found[:limit]]


class Port:
    """One of the link's ports: a ring (the jacks: forward what is not ours) or a bus (every
    member hears every message); the whole messages waiting for the wire."""

    def __init__(self, kind, broadcast, now):
        self.kind = kind
        self.broadcast = broadcast
        self.out = bytearray(OUT_SIZE)
        self.queued = 0
        self.started = now
        self.round_at = None          # a ring: when our own HELLO last came back round
        self.heard_at = None          # when another wheel was last heard here

    def room(self):
        return OUT_SIZE - self.queued

    def queue(self, data, start, count):
        """A whole message data[start:start + count] onto the queue: False when it does not
        fit (it is dropped: what was lost is asked for again)."""
        if count > OUT_SIZE - self.queued:
            return False
        out = self.out
        at = self.queued
        for k in range(count):
            out[at + k] = data[start + k]
        self.queued = at + count
        return True

    def ready(self, budget):
        """How many bytes of whole messages at the front of the queue fit `budget`."""
        out = self.out
        end = 0
        at = 0
        while at < self.queued:
            if out[at] == 0xF7:
                if at + 1 > budget:
                    break
                end = at + 1
            at += 1
        return end

    def sent(self, count):
        """The first `count` bytes went to the wire: the rest moves up."""
        out = self.out
        rest = self.queued - count
        for k in range(rest):
            out[k] = out[count + k]
        self.queued = rest

    def broken(self, now, ticks_diff):
        """A ring: our HELLO has not come back round for BROKEN_MS. A bus: no other wheel
        heard for that long."""
        last = self.heard_at if self.broadcast else self.round_at
        return ticks_diff(now, self.started if last is None else last) > BROKEN_MS


class Link:
    """The link's state: its ports, the members heard, the seat conflicts, what it ignored.
    heard() takes what a port's parser hands over (an entry into the table at the next
    update()); update() sends HELLO and answers; made() sends an entry this wheel wrote.
    `news` is the last entry another seat wrote that the table took (for the firmware to
    show), `changed` says the table changed."""

    def __init__(self, log_table, seat, wheel, now, ticks_diff):
        """`ticks_diff`: the clock's (hardware/clock.py: ticks wrap on a real port)."""
        self.table = log_table
        self.seat = seat              # 1-4, or None
        self.wheel = wheel & 0x3FFF
        self.ticks_diff = ticks_diff
        self.ports = []
        self.heard_seats = [None] * (SEATS + 1)   # seat 1-4 -> when last heard
        self.conflict_at = None       # when another wheel on our seat was last heard
        self.ignored = [0] * len(IGNORED_NAMES)
        self.hello_at = None          # when our last HELLO was queued
        self.asked_at = [None] * SEATS    # per origin: when we last asked for its entries
        self.asked_from = [0] * SEATS     # and from which seq
        self.answers = []             # [origin, next seq] of the WANTs to answer
        self.news = None              # the last entry of another seat the table took
        self.pending = []             # entries heard, not yet taken (take())
        self.changed = False
        self.redrawn = 0              # times another wheel had our id (_redraw)
        self.was = -1                 # our id before the last _redraw
        self._message = bytearray(MESSAGE_SIZE)

    def add_port(self, kind, broadcast, now):
        port = Port(kind, broadcast, now)
        self.ports.append(port)
        return port

    # ---- what comes in ---------------------------------------------------------------------

    def heard(self, port, data, count, now):
        """A whole SysEx (its bytes between F0 and F7) from `port`."""
        kind = message_kind(data, count)
        if kind < 0:
            self.ignored[-1 - kind] += 1
            return
        sender = _get(data, _SENDER, 2)
        ours = kind != HELLO or data[_PAYLOAD] == (self.seat or 0)
        if sender == self.wheel:
            if ours:
                if not port.broadcast and kind == HELLO:
                    port.round_at = now   # ours, back round the ring: it is whole
                return
            self._redraw(now)         # another seat's wheel drew our id: draw another
        elif sender == self.was and ours:
            return                    # ours from before _redraw (or the other's: asked again)
        port.heard_at = now
        self._pass_on(port, data, count)
        at = _PAYLOAD
        if kind == HELLO:
            self.take()               # what came before it, so that it asks for no more
            self._hello(port, data, now)
        elif kind == WANT:
            if _get(data, at, 2) == self.wheel:
                self._want(data[at + 2], _get(data, at + 3, 3))
        elif kind == BASE:
            if data[at] < SEATS:
                self.table.raise_base(data[at], _get(data, at + 1, 3),
                                      (data[at + 4], _get(data, at + 5, 3)))
        else:
            # taken at the next update() (or HELLO): the copy forwarded goes to the wire first,
            # the table's replay after it (each hop of a ring waits for the wire alone)
            self.pending.append(unpack7(data, _PAYLOAD, count - 1))

    def take(self):
        """The entries heard since the last take, into the table."""
        pending = self.pending
        while pending:
            self._entry(pending.pop(0))

    def _redraw(self, now):
        """A HELLO with our id and another seat: a wheel that drew the same id (1 in 16,383;
        two boards whose random numbers are one, as two emulated chips'). Until now each took
        the other's messages for its own and dropped them; a new id from the clock and the
        seat (the other wheel, hearing ours, draws from its own seat), and what was dropped
        is asked for after the next HELLO."""
        self.was = self.wheel
        self.wheel = ((self.wheel * 1103515245 + now + 4099 * (self.seat or 0) + 12345) >> 7
                      & 0x3FFF) or 1
        self.redrawn += 1

    def _pass_on(self, port, data, count):
        """Forward on a ring, pass between a ring and a bus (into a ring as our own, so that
        it dies when it comes back round)."""
        for other in self.ports:
            if other is port:
                if not port.broadcast and data[_HOPS] < MAX_HOPS:
                    self._queue_copy(other, data, count, None)
            elif port.broadcast != other.broadcast:
                self._queue_copy(other, data, count, self.wheel if port.broadcast else None)

    def _queue_copy(self, port, data, count, sender):
        message = self._message
        message[0] = 0xF0
        for k in range(count):
            message[1 + k] = data[k]
        if sender is None:
            message[1 + _HOPS] = data[_HOPS] + 1
        else:
            _put(message, 1 + _SENDER, sender, 2)
            message[1 + _HOPS] = 0
        message[count] = checksum(message, 4, count)
        message[count + 1] = 0xF7
        if not port.queue(message, 0, count + 2):
            self.ignored[DROPPED] += 1

    def _hello(self, port, data, now):
        at = _PAYLOAD
        seat = data[at]
        wheel = _get(data, at + 1, 2)
        if 1 <= seat <= SEATS:
            self.heard_seats[seat] = now
            if seat == self.seat and wheel != self.wheel:
                self.conflict_at = now
        missing = self.table.missing
        for origin in range(SEATS):
            # they know a seq we do not hold: a newer entry, or one we missed below our top
            if _get(data, at + 3 + 3 * origin, 3) >= missing[origin]:
                self._ask(port, wheel, origin, missing[origin], now)

    def _ask(self, port, wheel, origin, first, now):
        """A WANT to `wheel` for `origin`'s entries from `first` on, unless one was asked for
        lately (answers take a moment to come round)."""
        last = self.asked_at[origin]
        if last is not None and self.asked_from[origin] == first and \
                self.ticks_diff(now, last) < ASK_AGAIN_MS:
            return
        self.asked_at[origin] = now
        self.asked_from[origin] = first
        message = self._message
        at = _PAYLOAD + 1
        at = _put(message, at, wheel, 2)
        message[at] = origin
        _put(message, at + 1, first, 3)
        self._send(WANT, WANT_SIZE, (port,))

    def _want(self, origin, first):
        if not 0 <= origin < SEATS:
            return
        for answer in self.answers:
            if answer[0] == origin:
                answer[1] = min(answer[1], first)
                return
        self.answers.append([origin, first])
        base = self.table.base(origin)
        if base >= first:             # those are older than this game: say so first
            message = self._message
            at = _PAYLOAD + 1
            message[at] = origin
            _put(message, at + 1, base, 3)
            message[at + 4] = self.table.game[0]
            _put(message, at + 5, self.table.game[1], 3)
            self._send(BASE, BASE_SIZE, self.ports)

    def _entry(self, raw):
        try:
            at = self.table.take(raw)
        except table.TableError:
            self.ignored[NEWER if raw and raw[0] > table.VERSION else DAMAGED] += 1
            return
        if at >= 0:
            self.changed = True
            entry = table.entry_from_bytes(raw)
            if self.seat is None or entry[1] != self.seat - 1:
                self.news = entry

    def notes(self, count=1):
        """Channel or real-time messages came on a port that carries the link alone."""
        self.ignored[NOTES] += count

    # ---- what goes out ---------------------------------------------------------------------

    def made(self, raw):
        """An entry this wheel wrote (its bytes: core/table.py's entry_bytes), to every port
        (its LogTable told of the change first: changed())."""
        self._queue_entry(raw)

    def _queue_entry(self, raw):
        end = pack7(raw, self._message, _PAYLOAD + 1)
        self._send(ENTRY, end - _PAYLOAD - 1, self.ports)

    def _send(self, kind, size, ports):
        """The message in self._message (its payload from _PAYLOAD + 1) framed and queued."""
        message = self._message
        message[0] = 0xF0
        message[1] = MANUFACTURER
        message[2] = SIGNATURE[0]
        message[3] = SIGNATURE[1]
        message[4] = VERSION
        message[1 + _KIND] = kind
        _put(message, 1 + _SENDER, self.wheel, 2)
        message[1 + _HOPS] = 0
        end = 1 + _PAYLOAD + size
        message[end] = checksum(message, 4, end)
        message[end + 1] = 0xF7
        for port in ports:
            if not port.queue(message, 0, end + 2):
                self.ignored[DROPPED] += 1

    def update(self, now):
        """The entries heard taken, HELLO when due, answers to WANTs as there is room:
        called once a pass."""
        self.take()
        if self.hello_at is None or self.ticks_diff(now, self.hello_at) >= HELLO_MS:
            self.hello_at = now
            self._send_hello()
        if self.answers:
            self._answer()

    def _send_hello(self):
        message = self._message
        at = _PAYLOAD + 1
        message[at] = self.seat or 0
        _put(message, at + 1, self.wheel, 2)
        top = self.table.top
        for origin in range(SEATS):
            _put(message, at + 3 + 3 * origin, top[origin], 3)
        self._send(HELLO, HELLO_SIZE, self.ports)

    def _answer(self):
        """The next entries asked for, while every port has room for a batch."""
        for port in self.ports:
            if port.room() < ANSWER_BATCH * MESSAGE_SIZE:
                return
        answer = self.answers[0]
        batch = self.table.entries(answer[0], answer[1], ANSWER_BATCH)
        for seq, raw in batch:
            self._queue_entry(raw)
            answer[1] = seq + 1
        if len(batch) < ANSWER_BATCH:
            self.answers.pop(0)

    # ---- what the wheel shows --------------------------------------------------------------

    def members(self, now):
        """The seats heard lately, and ours: sorted."""
        mask = self.members_mask(now)
        return [seat for seat in range(1, SEATS + 1) if mask >> seat & 1]

    def members_mask(self, now):
        """members() as bits (bit k: seat k), with no list made."""
        mask = 0 if self.seat is None else 1 << self.seat
        for seat in range(1, SEATS + 1):
            heard = self.heard_seats[seat]
            if heard is not None and self.ticks_diff(now, heard) <= BROKEN_MS:
                mask |= 1 << seat
        return mask

    def conflict(self, now):
        """Another wheel says it sits on our seat (heard lately)."""
        return self.conflict_at is not None and \
            self.ticks_diff(now, self.conflict_at) <= BROKEN_MS

    def broken(self, now):
        """No HELLO of ours round the ring lately (with buses alone: nobody heard lately)."""
        rings = buses = False
        for port in self.ports:
            if port.broadcast:
                buses = buses or not port.broken(now, self.ticks_diff)
            elif port.broken(now, self.ticks_diff):
                return True
            else:
                rings = True
        return not rings and not buses and bool(self.ports)
