"""The table link in the app: core/link.py on the MIDI ports the `link` setting names (the
jacks, USB, both), keeping the table this wheel shares with the wheels at its table.

A service of the pass (firmware/services.py), after MIDI out: HELLO once a second, answers to
WANTs, and whole messages written to each port as fast as its line takes them (31,250 baud on
the jacks: a message is never cut by another's bytes, a chord's included). What comes in is
read by the pass's MIDI poll (firmware/midi.py): each link port's parser hands its SysEx here.

The table is the score pad the modes share (firmware/scorebook.py: while the link is on the
pad stays in RAM, ctx.table, one object for the modes and the link). An entry this wheel
writes goes out as soon as it is saved (scorebook.save: App.table_saved); entries from other
wheels are taken into the pad at once (the modes hear of it: App.table_changed) and written to
the record store once the line has rested SAVE_AFTER_MS (a catch-up of sixty entries is one
write, not sixty: a wheel that loses power meanwhile asks for them again).

Said on the console (and so on the display): `link: P2; members P1 P2 P3; 17 entries; digest
0a1b2c3d4e` whenever one of those changes (the frames' "link" field is read from it), what
another seat did (the app's flash), a broken link and its return, a seat another wheel claims
too."""

from core import link as protocol
from core import table
from hardware.clock import ticks_diff

from firmware import scorebook

SAVE_AFTER_MS = 200
BROKEN_CHECK_MS = 250         # how often the link's state is looked at
IGNORED_SAY_MS = 5000         # what it ignored said at most this often, when it grew
# The bytes a port's line takes, counted in thousandths of a byte (small ints: a float is an
# object on the heap): 31,250 baud, 10 bits a byte, is 3,125 a millisecond.
MILLI_BYTES_A_MS = {"jacks": 3125}
# At most this much handed to a port at once: the PL011's TX FIFO (CircuitPython's write waits
# for room there; MicroPython's UART has a 256-byte buffer besides).
_BURST = {"jacks": 32, "usb": 256}


class Link:
    def __init__(self, midi, ctx, clock, log, told):
        """`midi`: the app's MIDI (its ports with `link` set carry it); `ctx`: the modes'
        context (the settings, the shared table); `told(news, line)`: the app hears of a table
        changed by another wheel (news: the entry, or None) or of a line to say and show."""
        self.midi = midi
        self.ctx = ctx
        self.clock = clock
        self.log = log
        self.told = told
        now = clock.ticks_ms()
        pad = scorebook.load(ctx)
        ctx.table = pad
        self.table = protocol.LogTable(pad)
        self.core = protocol.Link(self.table, ctx.settings["seat"], _wheel_id(now), now,
                                  ticks_diff)
        self.ports = []               # [(midi port, link port, tokens, last ms)]
        self.attach()
        self.unsaved = None           # when entries from others were last taken, unsaved
        self.checked = now
        self.said = [None, -1, -1, None]    # what was last said: seat, members, count, digest
        self.broken = False
        self.conflict = False
        self.ignored_said = (0, now)  # the count of what was ignored last said, and when

    # ---- ports -------------------------------------------------------------------------------

    def attach(self):
        """The link on every MIDI port that carries it now (the `link` setting, and the ports
        started); each one's parser hands its SysEx here."""
        now = self.clock.ticks_ms()
        for port in self.midi.ports:
            if not port.link or [p for p in self.ports if p[0] is port]:
                continue
            broadcast = getattr(port.transport, "broadcast", True)
            linked = self.core.add_port(port.kind, broadcast, now)
            port.parser.on_sysex = self._hearer(linked)
            self.ports.append([port, linked, 0, now])

    def _hearer(self, linked):
        def heard(data, count):
            self.core.heard(linked, data, count, self.ctx.now)
        return heard

    def detach(self):
        for port, _, _, _ in self.ports:
            port.parser.on_sysex = None
        self.ports = []

    # ---- what the wheel writes ---------------------------------------------------------------

    def saved(self, pad):
        """The modes saved the table (scorebook.save): the entries this wheel wrote since (a
        new one takes the highest clock: it comes last in the order, after every entry the
        link knew) go out; a new game's pad becomes the shared one."""
        log = pad.log
        fresh = []
        for k in range(len(log) - 1, -1, -1):
            if log.key(k) <= self.table.last:
                break
            fresh.append(k)
        self.table.pad = pad
        self.ctx.table = pad
        self.table.changed()
        for k in reversed(fresh):
            self.core.made(table.entry_bytes(log.entry(k)))
        now = self.clock.ticks_ms()
        for entry in self.ports:      # on the wire now, before the frame that shows it
            self._write(entry, now)
        self._say_state()

    # ---- the service -------------------------------------------------------------------------

    def update(self, now, calm):
        core = self.core
        core.seat = self.ctx.settings["seat"]
        for entry in self.ports:      # what this pass heard and forwards, before the take
            self._write(entry, now)
        core.update(now)
        for entry in self.ports:
            self._write(entry, now)
        changed = core.changed
        if changed:
            core.changed = False
            self.unsaved = now
            news = core.news
            core.news = None
            self.told(news, None)
            self._say_state()
        if self.unsaved is not None and ticks_diff(now, self.unsaved) >= SAVE_AFTER_MS:
            self.unsaved = None
            try:
                scorebook.records(self.ctx).write(scorebook.PATH, self.table.pad.to_bytes())
            except OSError as err:
                self.log("link: the table not saved (%s)" % err)
        if ticks_diff(now, self.checked) >= BROKEN_CHECK_MS:
            self.checked = now
            self._check(now)
        return changed                # the loop back at once: the flash shows in the next pass

    def _write(self, entry, now):
        """Whole messages to the port, no more than its line has carried since the last: a line
        at rest takes a burst at once (a forward leaves in the pass that read it), a message
        longer than a burst goes once the line has rested that long."""
        port, linked, tokens, last = entry
        burst = _BURST.get(port.kind, 256) * 1000
        rate = MILLI_BYTES_A_MS.get(port.kind)
        if rate is None:
            tokens = burst
        else:
            tokens = min(tokens + min(ticks_diff(now, last), 100) * rate, burst)
        entry[3] = now
        if linked.queued:
            count = linked.ready(tokens // 1000)
            if not count and tokens >= burst:
                count = linked.ready(protocol.MESSAGE_SIZE + 2)
            if count:
                port.transport.write(linked.out, count)
                linked.sent(count)
                tokens -= 1000 * count
        entry[2] = tokens

    def _check(self, now):
        """A broken ring or a claimed seat said once when it starts and when it ends; the
        members, the count and the digest when they change."""
        core = self.core
        broken = core.broken(now)
        if broken != self.broken:
            self.broken = broken
            self.told(None, "link broken: no message round the ring for %d s (a cable out, a "
                            "wheel off?)" % (protocol.BROKEN_MS // 1000) if broken else
                      "link: back, members %s" % _seats(core.members(now)))
        conflict = core.conflict(now)
        if conflict != self.conflict:
            self.conflict = conflict
            if conflict:
                self.told(None, "link: another wheel says it is P%d too: choose another seat "
                                "(menu > seat)" % core.seat)
        self._say_state()
        total = self.ignored_total()
        if total != self.ignored_said[0] and ticks_diff(now, self.ignored_said[1]) >= \
                IGNORED_SAY_MS:
            self.ignored_said = (total, now)
            counts = self.ignored()
            print("link: ignored %d (%s)" % (total, ", ".join(
                "%s %d" % (name, count) for name, count in zip(protocol.IGNORED_NAMES, counts)
                if count)))

    def _say_state(self):
        """The link's line, when its seat, members, count or digest changed (compared one by
        one: asked a few times a second, it allocates nothing when nothing changed)."""
        core = self.core
        said = self.said
        mask = core.members_mask(self.ctx.now)
        if said[0] == core.seat and said[1] == mask and said[2] == self.table.count and \
                said[3] is self.table.digest:
            return
        said[0], said[1], said[2], said[3] = core.seat, mask, self.table.count, \
            self.table.digest
        print("link: %s; members %s; %d entries; digest %s" % (
            "P%d" % core.seat if core.seat else "no seat",
            _seats(core.members(self.ctx.now)) or "none", self.table.count, self.table.digest))

    def ignored(self):
        """What the link ignored, by reason, with what its ports' parsers dropped."""
        counts = list(self.core.ignored)
        for port, _, _, _ in self.ports:
            counts[protocol.CUT] += port.parser.cut + port.parser.too_long
            counts[protocol.NOTES] += port.parser.realtime + port.skipped
        return counts

    def ignored_total(self):
        """How much the link ignored in all (no list made: it is asked a few times a
        second)."""
        total = 0
        for count in self.core.ignored:
            total += count
        for entry in self.ports:
            parser = entry[0].parser
            total += parser.cut + parser.too_long + parser.realtime + entry[0].skipped
        return total


def _seats(seats):
    return " ".join("P%d" % seat for seat in seats)


def _wheel_id(now):
    """This power-up's id on the link: random where the port has os.urandom, else from the
    clock (two wheels in the simulator each draw their own)."""
    try:
        import os
        raw = os.urandom(2)
        return (raw[0] << 8 | raw[1]) & 0x3FFF or 1
    except (ImportError, AttributeError, NotImplementedError, OSError):
        return (now * 2654435761) & 0x3FFF or 1


# ---- what another seat did, shown a moment over the mode ----------------------------------------

FLASH_MS = 500
SEAT_COLOURS = ((255, 40, 0), (0, 220, 60), (0, 90, 255), (230, 180, 0))   # P1-P4
BROKEN_COLOUR = (255, 0, 0)
BACK_COLOUR = (0, 200, 0)


class Flash:
    """Over the active mode for FLASH_MS (App.flash): the ring lights what another seat did
    in that seat's colour (a meld's notes, a discarded card, else the seat's quarter), or the
    link's state; the console and the display say it. Any turn or press ends it (App.event)
    and goes to the mode; the loop asks blink_due() each pass, which ends it in time."""

    name = "flash"

    def __init__(self, app, line, pcs, colour):
        self.app = app
        self.line = line
        self.pcs = pcs                # a 12-bit mask
        self.colour = colour
        self.until = None             # set by the first blink_due(): the pass's own time

    @classmethod
    def of(cls, app, news, line):
        if line is not None:
            colour = BROKEN_COLOUR if line.startswith("link broken") else BACK_COLOUR
            return cls(app, line, 0xFFF, colour)
        if news is None:
            return None
        text, pcs = said(app.ctx, news)
        return cls(app, text, pcs, SEAT_COLOURS[news[3] & 3])

    def blink_due(self, now):
        if self.until is None:
            self.until = now + FLASH_MS
        elif ticks_diff(now, self.until) >= 0:
            self.app.flash_over()
            return True
        return False

    def render(self, frame):
        level = 4 if self.pcs == 0xFFF else 1         # the whole ring: a glow, not a glare
        for sector in range(12):
            on = self.pcs >> sector & 1
            for c in range(3):
                frame[3 * sector + c] = self.colour[c] // level if on else 0

    def describe(self):
        return self.line

    def display(self):
        return self.line


def said(ctx, entry):
    """(the console's words, the pitch classes to light) for an entry another seat wrote."""
    what, who, data = entry[4], entry[3], entry[5]
    seat = "P%d" % (who + 1)
    quarter = 0b111 << (3 * (who & 3))
    if what == table.MELD:
        card, root, pcs = data[0], data[1], data[3]
        if not pcs:                   # entered as a score item: its points alone
            return "%s played a meld, %d" % (seat, data[4] * 10), quarter
        mask = 0
        for pc in pcs:
            mask |= 1 << pc
        return "%s played %s, %d" % (seat, _meld_words(ctx, card, root, pcs), data[4] * 10), \
            mask
    if what == table.DISCARD:
        from core.notes import pc_label
        return "%s discarded %s" % (seat, pc_label(data[0])), 1 << data[0]
    words = {table.NEW_GAME: "started a new game", table.EAT: "ate a meld with %s" % (
                 data[2] if what == table.EAT else ""),
             table.SCORE: "scored", table.NEXT: "passed the turn",
             table.PILE_START: "turned the pile's first card", table.PILE_TAKEN: "took the pile",
             table.ROUND: "ended the round", table.UNDO: "took back an entry"}
    if what == table.SCORE:
        pad = scorebook.load(ctx)
        if data[0] < len(pad.items):
            label, points = pad.items[data[0]]
            return "%s: %s%s, %+d" % (seat, "%d x " % data[1] if data[1] > 1 else "", label,
                                      points * data[1]), quarter
    return "%s %s" % (seat, words.get(what, "wrote")), quarter


def _meld_words(ctx, card, root, pcs):
    """'C minor triad (min): C Eb G' when the set has the card, else its notes."""
    from core.notes import pc_label
    meldset = ctx.meldset
    if card and root <= 11:
        for i in range(meldset.count):
            if meldset.meld_id(i) == card:
                from firmware.modes.names import meld_notes, meld_title, root_note
                codes = meldset.meld_codes(i)
                name = root_note(ctx, root, codes)
                return "%s: %s" % (meld_title(meldset, i, name), meld_notes(name, codes))
    return "a %d-card meld: %s" % (len(pcs), " ".join(pc_label(pc) for pc in pcs))
