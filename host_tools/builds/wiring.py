"""Wiring diagrams (SVG) drawn from a board file, so the picture always matches the pins: each
pin with its place on the board (the Pico's physical pin number, the ESP32 DevKitC's header and
pin, the QT Py's side and pad), the 330 ohm data resistor and the ring's capacitor drawn where
they go, the encoder as a bare EC11 or as a KY-040 module, and the MIDI jacks with their
transmitter's resistors and MIDI IN's optocoupler."""

import math
from xml.sax.saxutils import escape

from hardware.ring import led_angle, sector_leds

from host_tools.builds import pinouts

# The pins each board breaks out, with their places (boards/pinouts/): the same tables
# `chromawheel board validate` checks the pins against.
PINOUT_DIR = pinouts.PINOUT_DIR
WIRE = {"data": "#2e9e44", "power": "#d62728", "ground": "#222222", "a": "#e0a000",
        "b": "#1f77b4", "sw": "#9467bd", "sda": "#17becf", "scl": "#8c564b",
        "logic": "#ff7f0e", "tone": "#e377c2", "midi": "#7f3fbf"}
PART_TITLES = (("shifter", "74AHCT125 level shifter, 5 V (DIP-14)"),
               ("ring", "%d x WS2812B ring"),
               ("encoder", "EC11 rotary encoder with push switch"),
               ("display", "SSD1306 128x64 I2C OLED (0.96\")"),
               ("buzzer", "passive piezo buzzer"),
               ("midi_out", "MIDI OUT: 3.5 mm TRS socket, Type A"),
               ("opto", "H11L1 optocoupler (DIP-6), for MIDI IN"),
               ("midi_in", "MIDI IN: 3.5 mm TRS socket, Type A"))
KY040_TITLE = "KY-040 encoder module (its own 10 k\u03a9 pull-ups on CLK and DT)"


def pinout(board):
    """The table of the board's header (boards/pinouts/NAME.json)."""
    if not board.get("pinout"):
        raise ValueError("board %r names no pinout: nothing to draw the pins on" % board["board"])
    return pinouts.read_pinout(PINOUT_DIR, board["pinout"])


def pin_label(board, pin):
    """A signal's name on the board and where it is: 'GP16 (pin 21)'; the power pins by
    their role ("5V", "3V3", "GND" for a part's ground: ("GND", part))."""
    table = pinout(board)
    if isinstance(pin, tuple):               # ("GND", part): the ground the tables give it
        ground = table["ground"]
        return "%s (%s)" % (ground["name"], ground[pin[1]])
    if pin in table["power"]:
        return "%s (%s)" % (table["power"][pin]["name"], table["power"][pin]["place"])
    entry = table["by_pin"][pin]
    if "gpio" in entry:
        return "%s (%s)" % (entry["pin"], entry["place"])
    return pinouts.pin_text(table, entry)


def connections(board, ky040=False, level_shifter=False):
    """(board pin label, part, part pad, wire kind) for every wire from the board. With the
    level shifter the board's data pin goes to its 1A; LINKS gives its 1Y to the ring's DIN."""
    power = pin_label(board, "5V")
    ring, enc, button = board["ring"], board["encoder"], board["button"]
    wires = [(pin_label(board, ring["pin"]), "ring", "DIN", "data")]
    if level_shifter:
        wires = [(pin_label(board, ring["pin"]), "shifter", SHIFTER_IN, "data"),
                 (power, "shifter", "VCC (pin 14)", "power"),
                 (pin_label(board, ("GND", "ring")), "shifter", SHIFTER_GROUND, "ground")]
    wires += [
        (power, "ring", "5V", "power"),
        (pin_label(board, ("GND", "ring")), "ring", "GND", "ground"),
    ]
    ground = pin_label(board, ("GND", "encoder"))
    if ky040:        # the module: its + feeds its pull-ups, from 3.3 V (the board's inputs)
        return wires + [
            (pin_label(board, enc["pin_a"]), "encoder", "CLK", "a"),
            (pin_label(board, enc["pin_b"]), "encoder", "DT", "b"),
            (pin_label(board, button["pin"]), "encoder", "SW", "sw"),
            (pin_label(board, "3V3"), "encoder", "+ (3.3 V)", "logic"),
            (ground, "encoder", "GND", "ground"),
        ] + optional_connections(board)
    return wires + [
        (pin_label(board, enc["pin_a"]), "encoder", "A (CLK)", "a"),
        (pin_label(board, enc["pin_b"]), "encoder", "B (DT)", "b"),
        (ground, "encoder", "C (common)", "ground"),
        (pin_label(board, button["pin"]), "encoder", "SW", "sw"),
        (pin_label(board, ("GND", "button")), "encoder", "SW (other leg)", "ground"),
    ] + optional_connections(board)


# The 74AHCT125 (TI SN74AHCT125N pinout): gate 1 buffers the data, OE active low; every OE and
# the unused inputs are tied to GND so that nothing floats (the chip's top view: _dip14).
SHIFTER_IN = "1A (pin 2)"
SHIFTER_OUT = "1Y (pin 3)"
SHIFTER_GROUND = "GND (pin 7)"
DIP14 = ("1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y", "4A", "4OE", "VCC")
SHIFTER_TIED = (1, 4, 5, 7, 9, 10, 12, 13)       # to GND: every OE, 2A, 3A, 4A, GND itself
SHIFTER_OPEN = (6, 8, 11)                        # 2Y, 3Y, 4Y: unconnected
# Part to part: (from part, pad) -> (to part, pad), drawn left of the parts' pads, with the
# resistor in series where RESISTORS has one for the (to part, pad).
LINKS = {("shifter", SHIFTER_OUT): ("ring", "DIN"),
         ("opto", "1 (LED anode)"): ("midi_in", "Ring (pin 4)"),
         ("opto", "2 (LED cathode)"): ("midi_in", "Tip (pin 5)")}


def optional_connections(board):
    wires = midi_connections(board)
    display, buzzer = board.get("display"), board.get("buzzer")
    if display:
        wires += [(pin_label(board, display["sda"]), "display", "SDA", "sda"),
                  (pin_label(board, display["scl"]), "display", "SCL", "scl"),
                  (_display_power(board), "display", "VCC (3.3 V)", "logic"),
                  (pin_label(board, ("GND", "display")), "display", "GND", "ground")]
    if buzzer:
        wires += [(pin_label(board, buzzer["pin"]), "buzzer", "+", "tone"),
                  (pin_label(board, ("GND", "buzzer")), "buzzer", "\u2212", "ground")]
    return wires


# The MIDI jacks (MIDI 1.0 Electrical Specification Update, CA-033, 2014; TRS Type A: tip
# pin 5, ring pin 4, sleeve pin 2). OUT: a 3.3 V transmitter, 33 ohm from 3.3 V to pin 4 and
# 10 ohm from TX to pin 5 (the UART's idle high: no current; a 0 bit sinks about 5 mA). IN:
# pin 4 through 220 ohm into the optocoupler's LED, out of it to pin 5, a 1N4148 across it
# backwards; the H11L1's open-collector output pulled up to 3.3 V by 470 ohm is RX (light: low,
# a 0 bit, as the UART reads it). MIDI IN's sleeve stays unconnected (no ground loop).
OUT_TIP, OUT_RING, OUT_SLEEVE = "Tip (pin 5)", "Ring (pin 4)", "Sleeve (pin 2)"
IN_TIP, IN_RING = "Tip (pin 5)", "Ring (pin 4)"
OPTO_ANODE, OPTO_CATHODE = "1 (LED anode)", "2 (LED cathode)"
OPTO_OUT, OPTO_PULL_UP = "4 (output)", "4 (output): pull-up"
OPTO_VCC, OPTO_GROUND = "6 (VCC)", "5 (GND)"


def midi_connections(board):
    """The jacks' wires from the board: MIDI OUT's three, the optocoupler's output, its pull-up
    and its supply (MIDI IN's socket is wired to the optocoupler alone: LINKS)."""
    midi = board.get("midi")
    if not midi:
        return []
    power, ground = pin_label(board, "3V3"), pin_label(board, ("GND", "midi"))
    return [(pin_label(board, midi["tx"]), "midi_out", OUT_TIP, "midi"),
            (power, "midi_out", OUT_RING, "logic"),
            (ground, "midi_out", OUT_SLEEVE, "ground"),
            (pin_label(board, midi["rx"]), "opto", OPTO_OUT, "midi"),
            (power, "opto", OPTO_PULL_UP, "logic"),
            (power, "opto", OPTO_VCC, "logic"),
            (ground, "opto", OPTO_GROUND, "ground")]


def _display_power(board):
    """On a STEMMA QT socket the cable carries 3.3 V with SDA and SCL: no wire from a pad."""
    table = pinout(board)
    if board["display"]["sda"] in table.get("stemma_qt", ()):
        return "%s (STEMMA QT)" % table["power"]["3V3"]["name"]
    return pin_label(board, "3V3")


def current_note(board):
    """What the optional parts add to the supply, for the maker's power budget."""
    parts = []
    if board.get("display"):
        parts.append("OLED up to %d mA from 3.3 V" % board["display"]["ma"])
    if board.get("buzzer"):
        parts.append("piezo about %d mA while it sounds" % board["buzzer"]["ma"])
    if board.get("midi"):
        parts.append("MIDI jacks up to %d mA from 3.3 V" % board["midi"]["ma"])
    return ("Optional parts: " + ", ".join(parts) + " (on top of the ring's %d mA budget)."
            % board["ring"]["max_ma"]) if parts else ""


def ring_sketch(ring, cx, cy, radius=30):
    """The ring seen from the front, as hardware/ring.py maps it: every LED a dot, the ones
    that show C filled and labelled outside, LED 0 (the first after DIN) numbered inside."""
    out = ['<g data-part="ring-leds" font-size="10" text-anchor="middle">']
    c_leds = sector_leds(ring)[0]
    for led in range(ring["count"]):
        angle = math.radians(led_angle(ring, led))
        x, y = cx + radius * math.sin(angle), cy - radius * math.cos(angle)
        out.append('<circle data-led="%d" cx="%.1f" cy="%.1f" r="2.2" fill="%s" stroke="#333" '
                   'stroke-width="0.6"/>' % (led, x, y, "#333" if led in c_leds else "white"))
        if led == 0:
            out.append('<text x="%.1f" y="%.1f" fill="#2e9e44">0</text>'
                       % (cx + (radius - 9) * math.sin(angle),
                          cy - (radius - 9) * math.cos(angle) + 3))
    out.append('<text x="%d" y="%d">C</text>' % (cx, cy - radius - 5))
    out.append('</g>')
    return "".join(out)


# Parts on a wire: (part, pad) -> the resistor in series with it, drawn on the wire.
RESISTORS = {("ring", "DIN"): "330 \u03a9", ("buzzer", "+"): "100 \u03a9",
             ("midi_out", OUT_TIP): "10 \u03a9", ("midi_out", OUT_RING): "33 \u03a9",
             ("opto", OPTO_PULL_UP): "470 \u03a9", ("midi_in", IN_RING): "220 \u03a9"}
CAPACITOR = "1000 \u00b5F (6.3 V or more), + to 5V"
WIDTH = 1060
ROW = 34
FOOTER_CHARS = 110        # a line of the 14 px notes fits the canvas (a test measures them)


def place_of(label):
    """'GP16 (pin 21)' -> 'pin 21'; 'VBUS (5 V) (pin 40)' -> 'pin 40'."""
    return label[label.rindex("(") + 1:-1] if label.endswith(")") else label


def wrap(text, width=FOOTER_CHARS):
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    return lines + [line] if line else lines


def command(board, ky040, level_shifter):
    return "chromawheel board wiring %s%s%s -o FILE.svg" % (
        board["board"], " --ky040" if ky040 else "", " --level-shifter" if level_shifter else "")


def notes(board, ky040, level_shifter):
    text = ["Encoder: pulses_per_detent %d (quadrature steps a click)%s; button active %s with "
            "the %s pull-up." % (
        board["encoder"]["pulses_per_detent"],
        ", reversed" if board["encoder"]["reverse"] else "",
        "low" if board["button"]["active_low"] else "high",
        "internal" if board["button"]["pull"] == "up" else "external")]
    if ky040:
        text.append("KY-040: its + to 3.3 V, never 5 V; with its own pull-ups the board file's "
                    "encoder \"pull\" can be \"none\".")
    if level_shifter:
        text.append("74AHCT125: 3.3 V in on 1A, 5 V out on 1Y through the 330 \u03a9 to DIN; "
                    "every OE and the unused inputs to GND (pins 1, 4, 5, 9, 10, 12, 13 with "
                    "pin 7), so that none floats; pins 2Y, 3Y, 4Y stay unconnected; 100 nF "
                    "from pin 14 to GND if you have one.")
    if any(place_of(p) == "STEMMA QT" for p, part, _, _ in connections(board, ky040)
           if part == "display"):
        text.append("The OLED's four wires are one STEMMA QT cable (JST SH, 4 pins): plug it "
                    "in, nothing to solder.")
    note = current_note(board)
    if note:
        text.append(note)
    if board.get("midi"):
        text.append("MIDI (Type A sockets, MIDI 1.0 3.3 V electrical specification): a 1N4148 "
                    "across the H11L1's pins 1 and 2, its band to pin 1; 100 nF from pin 6 to "
                    "5; MIDI IN's sleeve unconnected. Resistors: 10 \u03a9 and 33 \u03a9 (1/2 W) "
                    "on MIDI OUT, 220 \u03a9 into the LED, 470 \u03a9 pull-up.")
    lines = []
    for paragraph in text:
        lines += wrap(paragraph)
    return lines


def _outline(board, wires, used_kinds, x0, y0):
    """The board seen from above, USB at the left, every header pad in its place: the pads
    the wiring uses in their wire's colour and named, the others grey."""
    table = pinout(board)
    outline = table["outline"]
    rows = outline["rows"]
    if outline["usb"] == "top":
        top, bottom = rows[1], rows[0]
    else:
        top, bottom = rows[0][::-1], rows[1][::-1]
    pitch = 24
    count = max(len(top), len(bottom))
    stemma = any(place_of(w[0]) == "STEMMA QT" for w in wires)
    width = 50 + pitch * count + (60 if stemma else 10)
    height = 96
    names = {}
    for pin, _, _, kind in wires:
        names.setdefault(place_of(pin), (pin.split(" (")[0], kind))
    out = ['<g data-part="board-outline" font-size="10" text-anchor="middle">',
           '<text x="%d" y="%d" font-size="13" text-anchor="start" fill="#555">The %s from '
           'above, USB at the left: the pads wired here in colour.</text>'
           % (x0, y0 - 30, escape(table["short"])),
           '<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#e8f0e8" stroke="#333"/>'
           % (x0, y0, width, height),
           '<rect x="%d" y="%d" width="22" height="26" rx="3" fill="#bbb" stroke="#333"/>'
           % (x0 - 8, y0 + height // 2 - 13),
           '<text x="%d" y="%d" font-size="9">USB</text>' % (x0 + 26, y0 + height // 2 + 4)]
    for edge, pads in (("top", top), ("bottom", bottom)):
        y = y0 + 8 if edge == "top" else y0 + height - 8
        for i, place in enumerate(pads):
            x = x0 + 50 + pitch * i
            name = names.get(place)
            colour = WIRE[name[1]] if name else "#bbb"
            out.append('<circle data-pad="%s" cx="%d" cy="%d" r="4.5" fill="%s" stroke="#333" '
                       'stroke-width="0.6"/>' % (escape(place), x, y, colour))
            if name:                         # staggered, so neighbours' names do not touch
                step = 12 if i % 2 else 0
                ty = y - 10 - step if edge == "top" else y + 18 + step
                out.append('<text x="%d" y="%d">%s</text>' % (x, ty, escape(name[0])))
    if stemma:
        sx = x0 + width - 44
        out.append('<rect x="%d" y="%d" width="30" height="22" rx="3" fill="#ddd" stroke="#333"/>'
                   '<text x="%d" y="%d" font-size="9">STEMMA</text>'
                   % (sx, y0 + height // 2 - 11, sx + 15, y0 + height // 2 + 24))
    out.append("</g>")
    return out, height


def svg(board, ky040=False, level_shifter=False):
    """An SVG diagram: the board's pins on the left, the parts on the right, the resistors on
    their wires and the capacitor across the ring's supply, the board's outline with the pads
    in their places below, and the notes wrapped inside the canvas. ky040: the encoder as a
    KY-040 module instead of a bare EC11; level_shifter: a 74AHCT125 on the data line."""
    wires = connections(board, ky040, level_shifter)
    titles = {"ring": PART_TITLES[1][1] % board["ring"]["count"],
              "encoder": KY040_TITLE if ky040 else PART_TITLES[2][1]}
    board_pins = []
    for pin, _, _, _ in wires:
        if pin not in board_pins:
            board_pins.append(pin)
    # The STEMMA QT socket's four pins together, drawn as one socket and one cable.
    stemma = [p for p in board_pins if place_of(p) == "STEMMA QT"]
    board_pins = [p for p in board_pins if p not in stemma] + stemma
    # the OLED on a STEMMA QT cable last: its cable then runs below every other wire's end
    parts, pads = _parts_and_pads(wires, titles, last="display" if stemma else None)
    rows = max(len(board_pins), sum(len(p) for p in pads.values()) + 2 * (len(parts) - 1))
    top = 90
    outline_y = top + ROW * rows + 70
    outline, outline_h = _outline(board, wires, None, 40, outline_y)
    footer = notes(board, ky040, level_shifter)
    height = outline_y + outline_h + 70 + 20 * len(footer)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="14">' % (WIDTH, height, WIDTH, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">%s</text>'
           % escape(board["title"]),
           '<text x="20" y="52" fill="#555">generated from boards/%s.json: %s</text>'
           % (board["board"], command(board, ky040, level_shifter))]
    out.append('<rect x="20" y="%d" width="200" height="%d" rx="8" fill="#e8f0e8" '
               'stroke="#333"/>' % (top - 20, ROW * len(board_pins) + 20))
    pin_y = {}
    for i, pin in enumerate(board_pins):
        y = top + i * ROW
        pin_y[pin] = y
        out.append('<text x="32" y="%d">%s</text>' % (y + 5, escape(pin)))
        out.append('<circle cx="220" cy="%d" r="4" fill="#333"/>' % y)
    if stemma:
        y1, y2 = pin_y[stemma[0]] - 14, pin_y[stemma[-1]] + 14
        out.append('<rect data-part="stemma-socket" x="24" y="%d" width="192" height="%d" '
                   'rx="4" fill="none" stroke="#555" stroke-dasharray="4 3"/>' % (y1, y2 - y1))
    pad_y = {}
    y = top + ROW // 2      # half a row off the board's pins: no wire runs along another net
    for part, title in parts:
        box_top = y - 20
        out.append('<text x="500" y="%d" font-weight="bold">%s</text>' % (box_top - 6,
                                                                         escape(title)))
        out.append('<rect x="500" y="%d" width="240" height="%d" rx="8" fill="#eef" '
                   'stroke="#333"/>' % (box_top, ROW * len(pads[part]) + 10))
        for pad in pads[part]:
            pad_y[(part, pad)] = y
            out.append('<circle cx="500" cy="%d" r="4" fill="#333"/>' % y)
            out.append('<text x="512" y="%d"%s>%s</text>' % (
                y + 5, ' font-size="11"' if len(pad) > 24 else "", escape(pad)))
            y += ROW
        y += 2 * ROW
    _draw_wires(out, wires, pin_y, pad_y, stemma)
    _draw_links(out, pad_y)
    if ("ring", "DIN") in pad_y:
        out.append(ring_sketch(board["ring"], 680, pad_y[("ring", "5V")]))
    if ("ring", "5V") in pad_y:               # across the ring's supply, at the ring
        out.extend(capacitor(pad_y[("ring", "5V")], pad_y[("ring", "GND")]))
    if ("shifter", SHIFTER_IN) in pad_y:      # the chip itself, beside its pads
        out.extend(_dip14(800, pad_y[("shifter", SHIFTER_IN)] - 40,
                          {2: WIRE["data"], 3: WIRE["data"], 14: WIRE["power"],
                           7: WIRE["ground"]}))
    out.extend(outline)
    for i, line in enumerate(footer):
        out.append('<text x="20" y="%d" fill="#555">%s</text>'
                   % (outline_y + outline_h + 60 + 20 * i, escape(line)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _parts_and_pads(wires, titles, last=None):
    """The parts drawn (those wired from the board, and those linked to them), in
    PART_TITLES's order (`last` moved to the end), with their titles, and each one's pads top
    to bottom."""
    wired = {w[1] for w in wires}
    linked = {to_part for (part, _), (to_part, _) in LINKS.items() if part in wired}
    parts = [(part, titles.get(part, title)) for part, title in PART_TITLES
             if part in wired or part in linked]
    parts.sort(key=lambda item: item[0] == last)
    pads = {part: [w[2] for w in wires if w[1] == part] for part, _ in parts}
    for (part, pad), (to_part, to_pad) in LINKS.items():
        if part in pads and to_part in pads:     # a wire between two parts' pads
            pads[part].append(pad)
            pads[to_part].insert(0, to_pad)
    return parts, pads


CABLE_LANE = 390           # the STEMMA QT cable's run down to the OLED: no wire turns there,
                          # clear of the resistors and their labels right of it
CABLE_PITCH = 6           # its four wires' spacing inside it


def _draw_wires(out, wires, pin_y, pad_y, stemma):
    """The wires from the board's pins to the parts' pads, with the resistors in series on
    theirs; the STEMMA QT ones as one cable, drawn first, under the others, in a lane of its
    own: no other wire turns inside it and nothing is written on it."""
    cable = [i for i, w in enumerate(wires) if w[0] in stemma]
    span = 180
    if cable:
        y_from = pin_y[stemma[1]]             # on a row of the board's: no pad's row near
        ends = [pad_y[(wires[i][1], wires[i][2])] for i in cable]
        y_to = sum(ends) // len(ends)
        width = CABLE_PITCH * (len(cable) - 1) + 8
        out.append('<polyline data-part="stemma-cable" points="252,%d %d,%d %d,%d 468,%d" '
                   'fill="none" stroke="#ccc" stroke-width="%d" stroke-linejoin="round"/>'
                   % (y_from, CABLE_LANE, y_from, CABLE_LANE, y_to, y_to, width))
        out.append('<text data-part="stemma-label" x="%d" y="%d" font-size="12" '
                   'text-anchor="end">STEMMA QT cable</text>' % (CABLE_LANE - width, y_to + 4))
        span = CABLE_LANE - width - 240       # the other wires turn left of the lane
    for i, (pin, part, pad, kind) in enumerate(wires):
        y1, y2 = pin_y[pin], pad_y[(part, pad)]
        if i in cable:                    # into the cable at one end, out at the other
            k = (cable.index(i) - (len(cable) - 1) / 2.0) * CABLE_PITCH
            out.append('<polyline data-cable-wire="%s" points="220,%d 252,%.0f %d,%.0f %d,%.0f '
                       '468,%.0f 500,%d" fill="none" stroke="%s" stroke-width="1.5"/>' % (
                           escape(pad), y1, y_from + k, CABLE_LANE - k, y_from + k,
                           CABLE_LANE - k, y_to + k, y_to + k, y2, WIRE[kind]))
            continue
        x_mid = 240 + (span * i) // len(wires)
        out.append('<polyline points="220,%d %d,%d %d,%d 500,%d" fill="none" stroke="%s" '
                   'stroke-width="2.5"/>' % (y1, x_mid, y1, x_mid, y2, y2, WIRE[kind]))
        if (part, pad) in RESISTORS:
            out.append('<rect data-part="resistor" x="440" y="%d" width="36" height="12" '
                       'fill="white" stroke="#333" stroke-width="1.5"/>' % (y2 - 6))
            out.append('<text x="458" y="%d" font-size="12" text-anchor="middle">%s</text>'
                       % (y2 - 10, RESISTORS[(part, pad)]))


def _draw_links(out, pad_y):
    """The wires from part to part, left of their pads: into one part, the shorter one nearer
    the pads, so that they nest and none crosses another; a resistor on those that have one."""
    drawn = sorted((abs(pad_y[end] - pad_y[start]), start, end) for start, end in LINKS.items()
                   if start in pad_y and end in pad_y)
    into = {}
    for _, start, end in drawn:
        x = 470 - 16 * into.get(end[0], 0)
        into[end[0]] = into.get(end[0], 0) + 1
        y1, y2 = pad_y[start], pad_y[end]
        out.append('<polyline data-part="link" points="500,%d %d,%d %d,%d 500,%d" '
                   'fill="none" stroke="%s" stroke-width="2.5"/>' % (y1, x, y1, x, y2, y2,
                                                                    WIRE["data"]))
        if end in RESISTORS:
            out.append('<rect data-part="resistor" x="%d" y="%d" width="12" height="30" '
                       'fill="white" stroke="#333" stroke-width="1.5"/>'
                       % (x - 6, (y1 + y2) // 2 - 15))
            out.append('<text x="%d" y="%d" font-size="12" text-anchor="end">%s</text>'
                       % (x - 12, (y1 + y2) // 2 + 4, RESISTORS[end]))


def capacitor(y_power, y_ground, x_pad=740, label=CAPACITOR):
    """The capacitor across the ring's supply, at the ring's pads (at x_pad): an
    electrolytic's symbol, its straight plate (+) to 5V and its curved plate (-) to GND."""
    middle = (y_power + y_ground) // 2
    x = x_pad + 40
    return ['<g data-part="capacitor" data-polarised="+ to 5V" stroke="#333" stroke-width="2" '
            'fill="none"><polyline points="%d,%d %d,%d %d,%d"/><polyline points="%d,%d %d,%d '
            '%d,%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/>'
            '<path d="M %d %d Q %d %d %d %d"/></g>' % (
                x_pad, y_power, x, y_power, x, middle - 5, x_pad, y_ground, x, y_ground, x,
                middle + 3, x - 12, middle - 5, x + 12, middle - 5, x - 12, middle + 7, x,
                middle + 1, x + 12, middle + 7),
            '<text data-part="capacitor-plus" x="%d" y="%d" font-size="12" '
            'text-anchor="middle">+</text>' % (x - 18, middle - 2),
            '<text x="%d" y="%d" font-size="12">%s</text>' % (x + 18, middle + 4, label)]


def _dip14(x0, y0, colours):
    """The 74AHCT125 seen from above, its notch up: pins 1-7 down the left, 8-14 up the right,
    each with its name; the pins tied to GND joined to pin 7 by a rail each side and a bar
    under the chip; the wired pins (`colours`: pin -> wire colour) in their wires' colours, the
    unconnected outputs marked n.c."""
    pitch, width = 16, 84
    top, height = y0 + 26, 7 * pitch + 6
    left, right = x0, x0 + width
    out = ['<g data-part="dip14" font-size="9">',
           '<text x="%d" y="%d" font-size="11" fill="#555">74AHCT125 from above, notch up'
           '</text>' % (left - 34, y0 + 12),
           '<rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="#333"/>'
           % (left, top, width, height),
           '<path data-part="notch" d="M %d %d a 7 7 0 0 0 14 0" fill="white" stroke="#333"/>'
           % (left + width // 2 - 7, top)]
    rails = {"left": left - 40, "right": right + 40}
    for pin in range(1, 15):
        side = "left" if pin <= 7 else "right"
        y = top + 9 + pitch * ((pin - 1) if pin <= 7 else (14 - pin))
        edge, stub = (left, left - 8) if side == "left" else (right, right + 8)
        colour = colours.get(pin, WIRE["ground"] if pin in SHIFTER_TIED else "#999")
        out.append('<line data-pin="%d" x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" '
                   'stroke-width="3"/>' % (pin, edge, y, stub, y, colour))
        label = "%d %s" % (pin, DIP14[pin - 1]) if side == "left" else "%s %d" % (
            DIP14[pin - 1], pin)
        out.append('<text x="%d" y="%d" fill="white"%s>%s</text>' % (
            left + 4 if side == "left" else right - 4, y + 3,
            "" if side == "left" else ' text-anchor="end"', label))
        if pin in SHIFTER_TIED:
            out.append('<polyline data-tie="%d" points="%d,%d %d,%d" fill="none" stroke="%s" '
                       'stroke-width="1.5"/><circle cx="%d" cy="%d" r="2" fill="%s"/>' % (
                           pin, stub, y, rails[side], y, WIRE["ground"], rails[side], y,
                           WIRE["ground"]))
        elif pin in SHIFTER_OPEN:
            out.append('<text x="%d" y="%d" fill="#777"%s>n.c.</text>' % (
                stub - 3 if side == "left" else stub + 3, y + 3,
                ' text-anchor="end"' if side == "left" else ""))
    first = {side: top + 9 + pitch * min((p - 1) if p <= 7 else (14 - p) for p in SHIFTER_TIED
                                         if (p <= 7) == (side == "left")) for side in rails}
    bar = top + height + 10
    out.append('<polyline data-part="ground-rail" points="%d,%d %d,%d %d,%d %d,%d" fill="none" '
               'stroke="%s" stroke-width="1.5"/>' % (
                   rails["left"], first["left"], rails["left"], bar, rails["right"], bar,
                   rails["right"], first["right"], WIRE["ground"]))
    out.append('<text x="%d" y="%d" fill="#555" text-anchor="middle">to GND: pins %s</text>'
               % (left + width // 2, bar + 14, ", ".join(str(p) for p in SHIFTER_TIED)))
    out.append('<text x="%d" y="%d" fill="#555" text-anchor="middle">in colour: the pins wired '
               'on the left</text>' % (left + width // 2, bar + 26))
    out.append('</g>')
    return out
