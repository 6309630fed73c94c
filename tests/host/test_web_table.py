"""The table view (table.html), in headless Chromium: the page joins the table link over Web
MIDI as a member with no seat, between two wheels cabled to the computer each by its USB (the
core's link on a bus, run here in Python: core/link.py, the wheels' own code). Web MIDI is a
stand-in with two devices whose outputs call back into the test; the wheels hear each other
only through the page's relay. The page shows the table the wheels keep (the game, the seats'
totals, whose turn, the last entries, its digest equal to theirs) and ignores a synth's notes
and another maker's SysEx on a wheel's line, relaying neither."""

import time

from core import link, table
from core.scorepad import ScorePad

# navigator.requestMIDIAccess: two devices, "Wheel A" and "Wheel B", each an input and an
# output; an output's send() calls the test (window.wheelOut), window.deliver() plays bytes
# into an input.
FAKE_MIDI = """
(() => {
  const inputs = new Map();
  const outputs = new Map();
  for (const name of ["Wheel A", "Wheel B"]) {
    inputs.set(name, { id: name, name, onmidimessage: null });
    outputs.set(name, { id: name, name,
                        send: (bytes) => window.wheelOut(name, Array.from(bytes)) });
  }
  window.deliver = (name, bytes) => {
    const input = inputs.get(name);
    if (input.onmidimessage) input.onmidimessage({ data: Uint8Array.from(bytes) });
  };
  navigator.requestMIDIAccess = async (options) => {
    window.askedSysex = !!(options && options.sysex);
    return { inputs, outputs, onstatechange: null };
  };
})();
"""


def ticks_diff(a, b):
    return a - b


class Wheel:
    """A wheel on USB: its score pad and its link with one bus port."""

    def __init__(self, name, seat, wheel_id, now):
        self.name = name
        self.pad = ScorePad("original", 3, seat=seat - 1)
        self.table = link.LogTable(self.pad)
        self.link = link.Link(self.table, seat, wheel_id, now, ticks_diff)
        self.port = self.link.add_port("usb", True, now)

    def hear(self, data, now):
        at = 0
        while at < len(data):
            end = data.index(0xF7, at)
            self.link.heard(self.port, bytearray(data[at + 1:end]), end - at - 1, now)
            at = end + 1

    def wrote(self, entry):
        self.table.changed()
        self.link.made(table.entry_bytes(entry))


def ms():
    return int(time.monotonic() * 1000)


def test_the_table_view_joins_two_wheels_and_shows_their_table(chromium, site):
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    wheels = {"Wheel A": Wheel("Wheel A", 1, 101, ms()), "Wheel B": Wheel("Wheel B", 2, 102, ms())}
    heard = []                          # (output, bytes) the page sent

    def wheel_out(name, data):
        heard.append((name, bytes(data)))
        wheels[name].hear(bytes(data), ms())
    page.expose_function("wheelOut", wheel_out)
    page.add_init_script(FAKE_MIDI)

    def run(until, limit=60):
        """Pump the wheels' links and the page until `until()` holds (a state, not a time:
        the page's ticks and its sends are slower on a loaded machine)."""
        end = time.monotonic() + limit
        while not until():
            assert time.monotonic() < end, "the table did not settle in %d s" % limit
            now = ms()
            for wheel in wheels.values():
                wheel.link.update(now)
                out = bytes(wheel.port.out[:wheel.port.queued])
                wheel.port.queued = 0
                if out:
                    page.evaluate("([n, b]) => window.deliver(n, b)", [wheel.name, list(out)])
            page.wait_for_timeout(20)   # the page's ticks, and its sends to the wheels

    try:
        page.goto(site.url.rstrip("/") + "/table.html")
        page.wait_for_function("window.chromawheelTable && window.chromawheelTable.started",
                               timeout=90000)
        page.click("#table-connect")
        a, b = wheels["Wheel A"], wheels["Wheel B"]
        run(lambda: page.evaluate("window.askedSysex") and a.pad.log.digest() == b.pad.log.digest()
            and len(a.pad.log) > 0)
        assert page.evaluate("window.askedSysex")
        assert a.pad.log.digest() == b.pad.log.digest()     # one game, through the page
        a.wrote(a.pad.meld("maj", 0, table.RANK_CHORD, (0, 4, 7), 40))
        a.wrote(a.pad.next_player())
        # a synth's notes and clock, and another maker's SysEx, on wheel B's line
        page.evaluate("window.deliver('Wheel B', [0x90, 60, 100])")
        page.evaluate("window.deliver('Wheel B', [0xf8])")
        page.evaluate("window.deliver('Wheel B', [0xf0, 0x41, 0x10, 0x42, 0x12, 0xf7])")

        def settled():
            view = page.evaluate("window.chromawheelTable.view")
            return view is not None and view["ignored"] >= 2 and \
                a.pad.log.digest() == b.pad.log.digest() == view["digest"]

        run(settled)
        view = page.evaluate("window.chromawheelTable.view")
        assert a.pad.log.digest() == b.pad.log.digest() == view["digest"]
        assert b.pad.totals() == view["totals"] == [40, 0, 0]
        assert view["members"] == [1, 2] and view["heard"] and view["ignored"] >= 2
        assert view["current"] == b.pad.current
        assert view["news"][-2][0] == "P1 played C E G, 40"
        tiles = page.query_selector_all("#table-seats .seat")
        assert [t.query_selector(".total").text_content() for t in tiles] == ["40", "0", "0"]
        playing = page.query_selector("#table-seats .seat.playing .name").text_content()
        assert playing.startswith("P%d" % (b.pad.current + 1))
        assert page.text_content("#table-head").startswith("The Original, round 1 of 3")
        assert "P1 played C E G, 40" in page.text_content("#table-news")
        # the page relayed each wheel's messages to the other, and sent its own HELLO; it
        # relayed nothing that is not the link's
        to_b = [data for name, data in heard if name == "Wheel B"]
        assert any(data[1:4] == b"\x7d\x43\x57" and data[6:8] == bytes((0, 101)) for data in
                   to_b)
        assert all(data[0] == 0xF0 and data[1:4] == b"\x7d\x43\x57" for _, data in heard)
        assert errors == []
    finally:
        context.close()
