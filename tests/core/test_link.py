"""core/link.py: the table link's messages worked out by hand from its format (docs/midi.md,
"The table link": MIDI 1.0's SysEx with the non-commercial ID 7D, MIDI's 7-bit packing), and
wheels on a ring and on a bus, in time steps, keeping one table: entries made on one table
reach every other, a wheel that was off catches up, a ring cut is said, two wheels on one seat
are told, garbage on the line is ignored and counted."""

from core import link, table
from core.scorepad import ScorePad

STEP_MS = 10
BYTES_A_STEP = 31.25          # 31,250 baud: 3.125 bytes a millisecond
BURST = 128                   # the bytes a wheel may have on the wire at once (its UART's)


def ticks_diff(a, b):
    return a - b


def sysex_data(message):
    """A message as the parser hands it over: the bytes between F0 and F7."""
    assert message[0] == 0xF0 and message[-1] == 0xF7
    return bytearray(message[1:-1])


class Wheel:
    """A wheel's table (a score pad) and its link, with one port."""

    def __init__(self, seat, wheel_id, broadcast, now=0, pad=None):
        self.pad = pad or ScorePad("original", 2, seat=seat - 1)
        self.table = link.LogTable(self.pad)
        self.link = link.Link(self.table, seat, wheel_id, now, ticks_diff)
        self.port = self.link.add_port("jacks", broadcast, now)
        self.on = True
        self.tokens = 0.0             # what the line can take now

    def play(self, card, root, rank, pcs, points):
        return self.wrote(self.pad.meld(card, root, rank, bytes(pcs), points))

    def wrote(self, entry):
        self.table.changed()
        self.link.made(table.entry_bytes(entry))
        return entry


class Net:
    """Wheels on a ring (each one's OUT to the next one's IN) or a bus, a message arriving a
    step after it was sent, whole messages only as fast as the line takes them."""

    def __init__(self, wheels, ring=True):
        self.wheels = wheels
        self.ring = ring
        self.now = 0
        self.wire = 0                 # bytes sent on all the cables

    def step(self):
        self.now += STEP_MS
        sent = []
        for wheel in self.wheels:
            if not wheel.on:
                wheel.port.queued = 0
                continue
            wheel.link.update(self.now)
            wheel.tokens = min(wheel.tokens + BYTES_A_STEP, BURST)
            count = wheel.port.ready(int(wheel.tokens))
            wheel.tokens -= count
            sent.append((wheel, bytes(wheel.port.out[:count])))
            wheel.port.sent(count)
            self.wire += count
        for wheel, data in sent:
            for other in self.hearers(wheel):
                if other.on:
                    deliver(other, data, self.now)

    def hearers(self, wheel):
        if self.ring:
            return [self.wheels[(self.wheels.index(wheel) + 1) % len(self.wheels)]]
        return [w for w in self.wheels if w is not wheel]

    def run(self, ms):
        for _ in range(ms // STEP_MS):
            self.step()


def deliver(wheel, data, now):
    """Whole messages into a wheel's link, as its port's parser hands them over."""
    at = 0
    while at < len(data):
        end = data.index(0xF7, at)
        wheel.link.heard(wheel.port, bytearray(data[at + 1:end]), end - at - 1, now)
        at = end + 1


def digests(wheels):
    return [w.pad.log.digest() for w in wheels]


# ---- the bytes -------------------------------------------------------------------------------

def test_seven_bit_packing_is_midis():
    out = bytearray(16)
    # 80 01 FF: their top bits 1, 0, 1 (bit k for the k-th byte) first, then the low 7 bits.
    end = link.pack7(b"\x80\x01\xff", out, 0)
    assert bytes(out[:end]) == b"\x05\x00\x01\x7f"
    data = bytes(range(120, 136))          # 16 bytes: groups of 7, 7 and 2
    packed = bytearray(32)
    end = link.pack7(data, packed, 0)
    assert end == 19 and max(packed[:end]) < 0x80
    assert bytes(link.unpack7(packed, 0, end)) == data


def test_a_hello_as_the_format_says():
    wheel = Wheel(2, 0x1234, broadcast=True)
    wheel.link.update(0)
    message = bytes(wheel.port.out[:wheel.port.queued])
    # A new game made on seat 2 (origin 1): origin 1's highest seq is 1, the others' 0.
    body = [0x01, link.HELLO, 0x1234 >> 7, 0x1234 & 0x7F, 0,         # VERSION KIND SENDER HOPS
            2, 0x24, 0x34]                                            # seat, id
    for top in (0, 1, 0, 0):
        body += [top >> 14, top >> 7 & 0x7F, top & 0x7F]
    check = -sum(body) & 0x7F
    assert message == bytes([0xF0, 0x7D, 0x43, 0x57] + body + [check, 0xF7])
    assert len(message) == 26 == 11 + link.HELLO_SIZE
    assert link.message_kind(sysex_data(message), len(message) - 2) == link.HELLO


def test_what_is_not_a_message_of_ours_is_named():
    wheel = Wheel(1, 1, broadcast=True)
    wheel.link.update(0)
    data = sysex_data(bytes(wheel.port.out[:wheel.port.queued]))
    kind = link.message_kind
    assert kind(data, len(data)) == link.HELLO
    other = bytearray(data)
    other[0] = 0x41                                   # Roland's ID
    assert kind(other, len(other)) == -1 - link.NOT_OURS
    other = bytearray(data)
    other[2] = 0x58                                   # 7D, but not "CW"
    assert kind(other, len(other)) == -1 - link.NOT_OURS
    newer = bytearray(data)
    newer[3] = 2
    newer[-1] = (newer[-1] - 1) & 0x7F                # its check right: still a newer format
    assert kind(newer, len(newer)) == -1 - link.NEWER
    damaged = bytearray(data)
    damaged[12] ^= 0x01
    assert kind(damaged, len(damaged)) == -1 - link.DAMAGED
    assert kind(data, len(data) - 1) == -1 - link.DAMAGED          # its last byte lost
    assert kind(b"\x7d\x43\x57", 3) == -1 - link.NOT_OURS          # too short to be one


# ---- one table on every wheel ----------------------------------------------------------------

def test_a_meld_played_on_one_wheel_reaches_every_wheel_of_a_ring():
    wheels = [Wheel(seat, 100 + seat, broadcast=False) for seat in (1, 2, 3)]
    net = Net(wheels)
    net.run(3000)                     # the new games settle on one (the last by its order)
    assert len(set(digests(wheels))) == 1
    wheels[0].play("maj", 0, table.RANK_CHORD, (0, 4, 7), 70)
    net.run(300)
    assert len(set(digests(wheels))) == 1 and [w.pad.totals() for w in wheels] == \
        [wheels[0].pad.totals()] * 3
    assert wheels[1].link.news[3] == 0 and wheels[1].link.news[4] == table.MELD
    assert wheels[0].link.news is None or wheels[0].link.news[1] != 0   # not its own
    assert not any(w.link.broken(net.now) for w in wheels)
    assert [w.link.members(net.now) for w in wheels] == [[1, 2, 3]] * 3


def test_a_message_goes_round_a_ring_once():
    wheels = [Wheel(seat, 100 + seat, broadcast=False) for seat in (1, 2, 3, 4)]
    net = Net(wheels)
    net.run(1500)
    before = net.wire
    wheels[2].play("5", 2, table.RANK_INTERVAL, (2, 9), 50)
    for _ in range(30):
        net.step()
    entry_bytes = net.wire - before
    # Once over each of the four cables (the last back to its sender, which drops it), and no
    # HELLO due in those 300 ms (they came at 1010 ms): four copies of one ENTRY message.
    size = entry_bytes // 4
    assert entry_bytes == 4 * size and 20 <= size <= 30
    assert [w.pad.totals() for w in wheels] == [[0, 50]] * 4


def test_a_wheel_that_was_off_asks_for_what_it_missed_and_catches_up():
    wheels = [Wheel(seat, 100 + seat, broadcast=True) for seat in (1, 2)]
    net = Net(wheels, ring=False)
    net.run(2000)
    wheels[1].on = False
    for k in range(6):
        wheels[0].play("maj", k, table.RANK_CHORD, (k, (k + 4) % 12, (k + 7) % 12), 70)
        wheels[0].wrote(wheels[0].pad.next_player())
        net.run(200)
    assert digests(wheels)[0] != digests(wheels)[1]
    # Back from a power cut: its log as it kept it, a new id drawn, its link afresh.
    kept = wheels[1].pad
    wheels[1] = Wheel(2, 999, broadcast=True, now=net.now, pad=kept)
    net.wheels = wheels
    net.run(3000)
    assert len(set(digests(wheels))) == 1
    assert wheels[1].pad.totals() == wheels[0].pad.totals() == [420, 0]


def test_a_cut_ring_is_said_and_mended_when_the_cable_is_back():
    wheels = [Wheel(seat, 100 + seat, broadcast=False) for seat in (1, 2, 3)]
    net = Net(wheels)
    net.run(2000)
    assert not any(w.link.broken(net.now) for w in wheels)
    wheels[1].on = False                           # off: nothing passes it
    net.run(link.BROKEN_MS + 1100)
    assert all(w.link.broken(net.now) for w in wheels if w.on)
    wheels[0].play("maj", 0, table.RANK_CHORD, (0, 4, 7), 70)   # while the ring is cut
    net.run(500)
    wheels[1].on = True
    net.run(3000)
    assert not any(w.link.broken(net.now) for w in wheels)
    assert len(set(digests(wheels))) == 1 and wheels[2].pad.totals() == [70, 0]


def test_two_wheels_on_one_seat_are_told_so_on_both():
    wheels = [Wheel(1, 11, broadcast=False), Wheel(2, 12, broadcast=False),
              Wheel(2, 13, broadcast=False)]
    net = Net(wheels)
    net.run(2500)
    assert [w.link.conflict(net.now) for w in wheels] == [False, True, True]


def test_garbage_on_the_line_is_ignored_and_counted():
    wheels = [Wheel(seat, 100 + seat, broadcast=True) for seat in (1, 2)]
    net = Net(wheels, ring=False)
    net.run(1500)
    wheels[0].play("maj", 0, table.RANK_CHORD, (0, 4, 7), 70)
    net.run(300)
    kept = digests(wheels)
    hello = sysex_data(_a_hello(wheels[0]))
    newer = bytearray(hello)
    newer[3] = 9
    damaged = bytearray(hello)
    damaged[-2] ^= 3
    listener = wheels[1]
    for data in (b"\x41\x10\x42\x12\x40\x00\x7f\x00\x41", newer, damaged, hello[:10]):
        listener.link.heard(listener.port, bytearray(data), len(data), net.now)
    # An ENTRY of a newer entry format (table.VERSION + 1): the link's own format is read,
    # the entry is not.
    entry = table.entry_bytes(wheels[0].pad.log.entry(1))
    message = _message(wheels[0], link.ENTRY, bytes((table.VERSION + 1,)) + entry[1:])
    listener.link.heard(listener.port, message, len(message), net.now)
    listener.link.take()              # (an entry goes into the table at the next update)
    ignored = dict(zip(link.IGNORED_NAMES, listener.link.ignored))
    assert ignored["other SysEx"] == 1 and ignored["newer format"] == 2
    assert ignored["damaged"] == 2
    net.run(1000)
    assert digests(wheels) == kept


def _a_hello(wheel):
    wheel.port.queued = 0
    wheel.link.hello_at = None
    wheel.link.update(0)
    data = bytes(wheel.port.out[:wheel.port.queued])
    wheel.port.queued = 0
    return data


def _message(wheel, kind, raw):
    """A link message of `kind` carrying `raw` (packed), as wheel's link frames one."""
    out = bytearray(link.MESSAGE_SIZE)
    end = link.pack7(raw, out, 8)
    head = bytes((0x7D, 0x43, 0x57, link.VERSION, kind, wheel.link.wheel >> 7,
                  wheel.link.wheel & 0x7F, 0))
    out[:8] = head
    out[end] = link.checksum(out, 3, end)
    return out[:end + 1]


def test_a_ring_and_a_bus_joined_by_a_wheel_on_both():
    # Wheels 1 and 2 on a ring; wheel 2 also on a bus with a computer (the page: seat 3).
    ring = [Wheel(1, 21, broadcast=False), Wheel(2, 22, broadcast=False)]
    bus_port = ring[1].link.add_port("usb", True, 0)
    page = Wheel(3, 23, broadcast=True)
    net = Net(ring)
    for _ in range(300):
        net.step()
        page.link.update(net.now)
        count = bus_port.ready(1000)
        deliver(page, bytes(bus_port.out[:count]), net.now)
        bus_port.sent(count)
        count = page.port.ready(1000)
        data = bytes(page.port.out[:count])
        page.port.sent(count)
        at = 0
        while at < len(data):
            end = data.index(0xF7, at)
            ring[1].link.heard(bus_port, bytearray(data[at + 1:end]), end - at - 1, net.now)
            at = end + 1
        if net.now == 1500:
            page.play("7", 5, table.RANK_INTERVAL, (5, 0), 50)
    assert len(set(digests(ring + [page]))) == 1
    assert ring[0].link.members(net.now) == [1, 2, 3]


def test_a_new_game_made_twice_on_one_wheel_reaches_the_others_each_time():
    # The score mode's new game, then its dealer asked: a second new game. Each goes on the
    # wheel's own log (its seq and clock go on), so the other wheel takes both, not the second
    # as a duplicate of the first.
    wheels = [Wheel(seat, 100 + seat, broadcast=True) for seat in (1, 2)]
    net = Net(wheels, ring=False)
    net.run(1500)
    for dealer in (0, 2):
        pad = wheels[0].pad
        pad.new_game("original", 3, dealer, 0)
        wheels[0].wrote(pad.log.entry(0))
        net.run(1000)
        assert [(w.pad.players, w.pad.dealer) for w in wheels] == [(3, dealer)] * 2
        assert len(set(digests(wheels))) == 1


def test_two_wheels_that_drew_one_id_draw_again_and_keep_one_table():
    # Two emulated QT Pys drew one id (their random numbers were one): each took the other's
    # messages for its own and dropped them. Another seat's HELLO with our id says so.
    wheels = [Wheel(seat, wheel_id, broadcast=False, pad=ScorePad("original", 4, seat=seat - 1))
              for seat, wheel_id in ((1, 11), (2, 77), (3, 12), (4, 77))]
    net = Net(wheels)
    net.run(3000)
    ids = [w.link.wheel for w in wheels]
    assert len(set(ids)) == 4 and ids[0] == 11 and ids[2] == 12
    assert wheels[1].link.redrawn == wheels[3].link.redrawn == 1
    wheels[1].wrote(wheels[1].pad.next_player())
    wheels[3].play("maj", 0, table.RANK_CHORD, (0, 4, 7), 70)
    net.run(300)
    assert len(set(digests(wheels))) == 1
    assert [w.link.members(net.now) for w in wheels] == [[1, 2, 3, 4]] * 4
    assert not any(w.link.broken(net.now) or w.link.conflict(net.now) for w in wheels)
