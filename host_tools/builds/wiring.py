"""Wiring diagrams (SVG) drawn from a board file, so the picture always matches the pins: each
pin with its place on the board (the Pico's physical pin number, the ESP32 DevKitC's header and
pin, the QT Py's side and pad), the 330 ohm data resistor and the ring's capacitor drawn where
they go, and the encoder as a bare EC11 or as a KY-040 module."""

import math
from xml.sax.saxutils import escape

from hardware.ring import led_angle, sector_leds

# Per platform: how the board's power pins are labelled, and the board's display name.
POWER = {"rp2": ("VBUS (5 V)", "GND"), "esp32": ("VIN / 5V", "GND"),
         "circuitpython": ("5V", "GND")}
LOGIC_POWER = {"rp2": "3V3(OUT)", "esp32": "3V3", "circuitpython": "3V"}
WIRE = {"data": "#2e9e44", "power": "#d62728", "ground": "#222222", "a": "#e0a000",
        "b": "#1f77b4", "sw": "#9467bd", "sda": "#17becf", "scl": "#8c564b",
        "logic": "#ff7f0e", "tone": "#e377c2"}
PART_TITLES = (("ring", "%d x WS2812B ring"),
               ("encoder", "EC11 rotary encoder with push switch"),
               ("display", "SSD1306 128x64 I2C OLED (0.96\")"),
               ("buzzer", "passive piezo buzzer"))
KY040_TITLE = "KY-040 encoder module (its own 10 k\u03a9 pull-ups on CLK and DT)"

# Where each signal is on the board. Pico: the physical pin numbers (GND also 3, 8, 13, 18, 23,
# 28, 33); ESP32-DevKitC V4: header J2 (left) or J3 (right) and the pin on it; QT Py RP2040:
# the side and pad, USB at the top.
PICO_PINS = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
             12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
             22: 29, 26: 31, 27: 32, 28: 34, "VBUS (5 V)": 40, "GND": 38, "3V3(OUT)": 36}
ESP32_PINS = {36: "J2-3", 39: "J2-4", 34: "J2-5", 35: "J2-6", 32: "J2-7", 33: "J2-8",
              25: "J2-9", 26: "J2-10", 27: "J2-11", 14: "J2-12", 12: "J2-13", 13: "J2-15",
              23: "J3-2", 22: "J3-3", 21: "J3-6", 19: "J3-8", 18: "J3-9", 5: "J3-10",
              17: "J3-11", 16: "J3-12", 4: "J3-13", 0: "J3-14", 2: "J3-15", 15: "J3-16",
              "3V3": "J2-1", "VIN / 5V": "J2-19", "GND": "J2-14"}
QTPY_PINS = {"A0": "left 1", "A1": "left 2", "A2": "left 3", "A3": "left 4", "SDA": "left 5",
             "SCL": "left 6", "TX": "left 7", "5V": "right 1", "GND": "right 2",
             "3V": "right 3", "MOSI": "right 4", "MISO": "right 5", "SCK": "right 6",
             "RX": "right 7", "SDA1": "STEMMA QT", "SCL1": "STEMMA QT"}


def pin_label(board, pin):
    """A signal's name on the board and where it is: 'GP16 (pin 21)'."""
    platform = board["platform"]
    if platform == "rp2":
        name, place = ("GP%d" % pin if isinstance(pin, int) else pin), PICO_PINS.get(pin)
        return "%s (pin %s)" % (name, place) if place else name
    if platform == "esp32":
        name, place = ("GPIO%d" % pin if isinstance(pin, int) else pin), ESP32_PINS.get(pin)
        return "%s (%s)" % (name, place) if place else name
    place = QTPY_PINS.get(pin) if platform == "circuitpython" else None
    return "%s (%s)" % (pin, place) if place else str(pin)


def connections(board, ky040=False):
    """(board pin label, part, part pad, wire kind) for every wire."""
    power, ground = (pin_label(board, p) for p in POWER[board["platform"]])
    ring, enc, button = board["ring"], board["encoder"], board["button"]
    wires = [
        (pin_label(board, ring["pin"]), "ring", "DIN", "data"),
        (power, "ring", "5V", "power"),
        (ground, "ring", "GND", "ground"),
    ]
    if ky040:        # the module: its + feeds its pull-ups, from 3.3 V (the board's inputs)
        return wires + [
            (pin_label(board, enc["pin_a"]), "encoder", "CLK", "a"),
            (pin_label(board, enc["pin_b"]), "encoder", "DT", "b"),
            (pin_label(board, button["pin"]), "encoder", "SW", "sw"),
            (pin_label(board, LOGIC_POWER[board["platform"]]), "encoder", "+ (3.3 V)", "logic"),
            (ground, "encoder", "GND", "ground"),
        ] + optional_connections(board, ground)
    return wires + [
        (pin_label(board, enc["pin_a"]), "encoder", "A (CLK)", "a"),
        (pin_label(board, enc["pin_b"]), "encoder", "B (DT)", "b"),
        (ground, "encoder", "C (common)", "ground"),
        (pin_label(board, button["pin"]), "encoder", "SW", "sw"),
        (ground, "encoder", "SW (other leg)", "ground"),
    ] + optional_connections(board, ground)


def optional_connections(board, ground):
    wires = []
    display, buzzer = board.get("display"), board.get("buzzer")
    if display:
        wires += [(pin_label(board, display["sda"]), "display", "SDA", "sda"),
                  (pin_label(board, display["scl"]), "display", "SCL", "scl"),
                  (pin_label(board, LOGIC_POWER[board["platform"]]), "display", "VCC (3.3 V)",
                   "logic"),
                  (ground, "display", "GND", "ground")]
    if buzzer:
        wires += [(pin_label(board, buzzer["pin"]), "buzzer", "+", "tone"),
                  (ground, "buzzer", "\u2212", "ground")]
    return wires


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
