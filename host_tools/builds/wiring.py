"""Wiring diagrams (SVG) drawn from a board file, so the picture always matches the pins: each
pin with its place on the board (the Pico's physical pin number, the ESP32 DevKitC's header and
pin, the QT Py's side and pad), the 330 ohm data resistor and the ring's capacitor drawn where
they go, and the encoder as a bare EC11 or as a KY-040 module."""

import math
from xml.sax.saxutils import escape

from hardware.ring import led_angle, sector_leds

from hardware import board as board_file
from host_tools import shipped

# The pins each board breaks out, with their places (boards/pinouts/): the same tables
# `chromawheel board validate` checks the pins against.
PINOUT_DIR = shipped("boards", "pinouts")
WIRE = {"data": "#2e9e44", "power": "#d62728", "ground": "#222222", "a": "#e0a000",
        "b": "#1f77b4", "sw": "#9467bd", "sda": "#17becf", "scl": "#8c564b",
        "logic": "#ff7f0e", "tone": "#e377c2"}
PART_TITLES = (("ring", "%d x WS2812B ring"),
               ("encoder", "EC11 rotary encoder with push switch"),
               ("display", "SSD1306 128x64 I2C OLED (0.96\")"),
               ("buzzer", "passive piezo buzzer"))
KY040_TITLE = "KY-040 encoder module (its own 10 k\u03a9 pull-ups on CLK and DT)"


def pinout(board):
    """The table of the board's header (boards/pinouts/NAME.json)."""
    if not board.get("pinout"):
        raise ValueError("board %r names no pinout: nothing to draw the pins on" % board["board"])
    return board_file.read_pinout(PINOUT_DIR, board["pinout"])


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
    return board_file.pin_text(table, entry)


def connections(board, ky040=False):
    """(board pin label, part, part pad, wire kind) for every wire."""
    power = pin_label(board, "5V")
    ring, enc, button = board["ring"], board["encoder"], board["button"]
    wires = [
        (pin_label(board, ring["pin"]), "ring", "DIN", "data"),
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


def optional_connections(board):
    wires = []
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
    return ("Optional parts: " + ", ".join(parts) + " (on top of the ring's %d mA budget)."
            % board["ring"]["max_ma"]) if parts else ""


def _ring_sketch(ring, cx, cy, radius=30):
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
RESISTORS = {("ring", "DIN"): "330 \u03a9", ("buzzer", "+"): "100 \u03a9"}
CAPACITOR = "1000 \u00b5F (6.3 V or more), + to 5V"


def svg(board, ky040=False):
    """An SVG diagram: the board's pins on the left, the ring and the encoder on the right,
    the resistors on their wires and the capacitor across the ring's supply. ky040: the
    encoder as a KY-040 module instead of a bare EC11."""
    wires = connections(board, ky040)
    titles = {"ring": PART_TITLES[0][1] % board["ring"]["count"],
              "encoder": KY040_TITLE if ky040 else PART_TITLES[1][1]}
    board_pins = []
    for pin, _, _, _ in wires:
        if pin not in board_pins:
            board_pins.append(pin)
    parts = [(part, titles.get(part, title)) for part, title in PART_TITLES
             if [w for w in wires if w[1] == part]]
    pads = {part: [w[2] for w in wires if w[1] == part] for part, _ in parts}
    width, row = 900, 34
    height = 170 + row * max(len(board_pins),
                             sum(len(p) for p in pads.values()) + 2 * (len(parts) - 1))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="14">' % (width + 160, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">%s</text>'
           % escape(board["title"]),
           '<text x="20" y="52" fill="#555">generated from boards/%s.json: '
           'chromawheel board wiring %s</text>' % (board["board"], board["board"])]
    top = 90
    out.append('<rect x="20" y="%d" width="200" height="%d" rx="8" fill="#e8f0e8" '
               'stroke="#333"/>' % (top - 20, row * len(board_pins) + 20))
    pin_y = {}
    for i, pin in enumerate(board_pins):
        y = top + i * row
        pin_y[pin] = y
        out.append('<text x="32" y="%d">%s</text>' % (y + 5, escape(pin)))
        out.append('<circle cx="220" cy="%d" r="4" fill="#333"/>' % y)
    pad_y = {}
    y = top + row // 2      # half a row off the board's pins: no wire runs along another net
    for part, title in parts:
        box_top = y - 20
        out.append('<text x="500" y="%d" font-weight="bold">%s</text>' % (box_top - 6,
                                                                         escape(title)))
        out.append('<rect x="500" y="%d" width="240" height="%d" rx="8" fill="#eef" '
                   'stroke="#333"/>' % (box_top, row * len(pads[part]) + 10))
        for pad in pads[part]:
            pad_y[(part, pad)] = y
            out.append('<circle cx="500" cy="%d" r="4" fill="#333"/>' % y)
            out.append('<text x="512" y="%d">%s</text>' % (y + 5, escape(pad)))
            y += row
        y += 2 * row
    for i, (pin, part, pad, kind) in enumerate(wires):
        x_mid = 240 + (180 * i) // len(wires)
        y1, y2 = pin_y[pin], pad_y[(part, pad)]
        out.append('<polyline points="220,%d %d,%d %d,%d 500,%d" fill="none" stroke="%s" '
                   'stroke-width="2.5"/>' % (y1, x_mid, y1, x_mid, y2, y2, WIRE[kind]))
        if (part, pad) in RESISTORS:          # in series, on the wire, next to the part
            out.append('<rect data-part="resistor" x="440" y="%d" width="36" height="12" '
                       'fill="white" stroke="#333" stroke-width="1.5"/>' % (y2 - 6))
            out.append('<text x="458" y="%d" font-size="12" text-anchor="middle">%s</text>'
                       % (y2 - 10, RESISTORS[(part, pad)]))
    if ("ring", "DIN") in pad_y:
        out.append(_ring_sketch(board["ring"], 680, pad_y[("ring", "5V")]))
    if ("ring", "5V") in pad_y:               # across the ring's supply, at the ring
        y_power, y_ground = pad_y[("ring", "5V")], pad_y[("ring", "GND")]
        middle = (y_power + y_ground) // 2
        out.append('<g data-part="capacitor" stroke="#333" stroke-width="2" fill="none">'
                   '<polyline points="740,%d 780,%d 780,%d"/><polyline points="740,%d 780,%d '
                   '780,%d"/><line x1="768" y1="%d" x2="792" y2="%d"/><line x1="768" y1="%d" '
                   'x2="792" y2="%d"/></g>' % (y_power, y_power, middle - 4, y_ground,
                                                y_ground, middle + 4, middle - 4, middle - 4,
                                                middle + 4, middle + 4))
        out.append('<text x="798" y="%d" font-size="12">%s</text>' % (middle + 4, CAPACITOR))
    out.append('<text x="20" y="%d" fill="#555">Encoder: %d pulses per detent%s; button '
               'active %s with the %s pull-up.%s</text>' % (
                   height - 20, board["encoder"]["pulses_per_detent"],
                   ", reversed" if board["encoder"]["reverse"] else "",
                   "low" if board["button"]["active_low"] else "high",
                   "internal" if board["button"]["pull"] == "up" else "external",
                   " KY-040: its + to 3.3 V, never 5 V; with its own pull-ups the board file's "
                   "encoder \"pull\" can be \"none\"." if ky040 else ""))
    note = current_note(board)
    if note:
        out.append('<text x="20" y="%d" fill="#555">%s</text>' % (height - 42, escape(note)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
