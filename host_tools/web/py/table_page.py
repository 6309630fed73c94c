"""The table view's side of the table link (host_tools/web/site/table.html), run by the page's
own MicroPython (table_worker.js): a member of the link with no seat, on one bus (the page
relays what each wheel sends to the others: table_relay.js), keeping the table's log as every
wheel does (core/link.py, core/table.py, core/scorepad.py, unchanged) and saying it as JSON
for the large view.

It writes nothing of its own: its pad starts with an empty log (no new game of its own that
could replace the table's), so its HELLO says it knows nothing and it asks the wheels for the
game; what it hears is taken as a wheel takes it.

    start(now_ms)           the link afresh (a page load)
    heard(hex, now_ms)      MIDI bytes from a wheel (Web MIDI: a whole SysEx an event)
    update(now_ms)          JSON {"out": hex of whole messages for every wheel, "view": ...}"""

import json
from binascii import hexlify, unhexlify

from core import link as protocol
from core import table
from core.midi import Parser
from core.notes import pc_label
from core.scorepad import ScorePad

_page = None
NEWS = 8                      # the view's last entries


def _ticks_diff(a, b):
    return a - b


class Page:
    def __init__(self, now, wheel):
        pad = ScorePad("original", 2)
        pad.log = table.Log()         # nothing of its own: the table's game comes from a wheel
        self.pad = pad
        self.table = protocol.LogTable(pad)
        self.link = protocol.Link(self.table, None, wheel, now, _ticks_diff)
        self.port = self.link.add_port("usb", True, now)
        self.parser = Parser(protocol.MESSAGE_SIZE)
        self.parser.on_sysex = self._sysex
        self.now = now

    def _sysex(self, data, count):
        self.link.heard(self.port, data, count, self.now)

    def heard(self, data, now):
        self.now = now
        self.parser.feed_all(data, len(data), self._note)

    def _note(self, status, data1, data2):
        self.link.notes()             # a synth's notes on a wheel's line: not the table's

    def update(self, now):
        self.now = now
        link = self.link
        link.update(now)
        link.news = None
        port = self.port
        out = hexlify(bytes(port.out[:port.queued])).decode()
        port.queued = 0
        return {"out": out, "view": self.view(now)}

    def view(self, now):
        pad = self.pad
        link = self.link
        known = len(pad.log) > 0
        view = {"known": known, "members": link.members(now), "entries": self.table.count,
                "digest": self.table.digest, "heard": not link.broken(now),
                "ignored": sum(link.ignored), "news": self.news()}
        if known:
            view.update(pad.frame())
            view.update({"title": pad.title, "rounds": pad.rounds, "dealer": pad.dealer,
                         "over": pad.over, "leaders": pad.leaders()})
        return view


    def news(self):
        """The log's last NEWS entries, newest last: [what it says, the seat it is about]."""
        log = self.pad.log
        return [[said(self.pad, log.entry(k)), log.entry(k)[3] + 1]
                for k in range(max(0, len(log) - NEWS), len(log))]


def said(pad, entry):
    """What an entry says, as the wheels' flash says it (firmware/link.py), the meld's notes
    spelled from its pitch classes (the page holds no meld set)."""
    what, who, data = entry[4], entry[3], entry[5]
    seat = "P%d" % (who + 1)
    if what == table.MELD:
        if not data[3]:
            return "%s played a meld, %d" % (seat, data[4] * 10)
        return "%s played %s, %d" % (seat, " ".join(pc_label(pc) for pc in data[3]),
                                     data[4] * 10)
    if what == table.DISCARD:
        return "%s discarded %s" % (seat, pc_label(data[0]))
    if what == table.SCORE and data[0] < len(pad.items):
        label, points = pad.items[data[0]]
        return "%s: %s%s, %+d" % (seat, "%d x " % data[1] if data[1] > 1 else "", label,
                                  points * data[1])
    words = {table.NEW_GAME: "started a new game", table.EAT: "ate a meld",
             table.NEXT: "passed the turn", table.PILE_START: "turned the pile's first card",
             table.PILE_TAKEN: "took the pile", table.ROUND: "ended the round",
             table.UNDO: "took back an entry"}
    return "%s %s" % (seat, words.get(what, "wrote"))


def start(now, wheel):
    global _page
    _page = Page(now, wheel)
    return True


def heard(hex_bytes, now):
    _page.heard(unhexlify(hex_bytes), now)


def update(now):
    return json.dumps(_page.update(now))
