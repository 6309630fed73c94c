"""Wiring diagrams (SVG) drawn from a board file, so the picture always matches the pins."""

from xml.sax.saxutils import escape

# Per platform: how the board's power pins are labelled, and the board's display name.
POWER = {"rp2": ("VBUS (5 V)", "GND"), "esp32": ("VIN / 5V", "GND"),
         "circuitpython": ("5V", "GND")}
LOGIC_POWER = {"rp2": "3V3(OUT)", "esp32": "3V3", "circuitpython": "3V"}
WIRE = {"data": "#2e9e44", "power": "#d62728", "ground": "#222222", "a": "#e0a000",
        "b": "#1f77b4", "sw": "#9467bd", "sda": "#17becf", "scl": "#8c564b",
        "logic": "#ff7f0e", "tone": "#e377c2"}
PART_TITLES = (("ring", "12 x WS2812B ring (1000 \u00b5F across 5V-GND)"),
               ("encoder", "EC11 rotary encoder with push switch"),
               ("display", "SSD1306 128x64 I2C OLED (0.96\")"),
               ("buzzer", "passive piezo buzzer"))


def pin_label(board, pin):
    if board["platform"] == "rp2":
        return "GP%d" % pin
    if board["platform"] == "esp32":
        return "GPIO%d" % pin
    return str(pin)


def connections(board):
    """(board pin label, part, part pad, wire kind) for every wire."""
    power, ground = POWER[board["platform"]]
    ring, enc, button = board["ring"], board["encoder"], board["button"]
    return [
        (pin_label(board, ring["pin"]), "ring", "DIN (via 330 \u03a9)", "data"),
        (power, "ring", "5V", "power"),
        (ground, "ring", "GND", "ground"),
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
                  (LOGIC_POWER[board["platform"]], "display", "VCC (3.3 V)", "logic"),
                  (ground, "display", "GND", "ground")]
    if buzzer:
        wires += [(pin_label(board, buzzer["pin"]), "buzzer", "+ (via 100 \u03a9)", "tone"),
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


def svg(board):
    """An SVG diagram: the board's pins on the left, the ring and the encoder on the right."""
    wires = connections(board)
    board_pins = []
    for pin, _, _, _ in wires:
        if pin not in board_pins:
            board_pins.append(pin)
    parts = [(part, title) for part, title in PART_TITLES if [w for w in wires if w[1] == part]]
    pads = {part: [w[2] for w in wires if w[1] == part] for part, _ in parts}
    width, row = 900, 34
    height = 170 + row * max(len(board_pins),
                             sum(len(p) for p in pads.values()) + 2 * (len(parts) - 1))
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="14">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">%s</text>'
           % escape(board["title"]),
           '<text x="20" y="52" fill="#555">generated from boards/%s.json: '
           'chromawheel board wiring %s</text>' % (board["board"], board["board"])]
    top = 90
    out.append('<rect x="20" y="%d" width="170" height="%d" rx="8" fill="#e8f0e8" '
               'stroke="#333"/>' % (top - 20, row * len(board_pins) + 20))
    pin_y = {}
    for i, pin in enumerate(board_pins):
        y = top + i * row
        pin_y[pin] = y
        out.append('<text x="32" y="%d">%s</text>' % (y + 5, escape(pin)))
        out.append('<circle cx="190" cy="%d" r="4" fill="#333"/>' % y)
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
        x_mid = 220 + (260 * i) // len(wires)
        y1, y2 = pin_y[pin], pad_y[(part, pad)]
        out.append('<polyline points="190,%d %d,%d %d,%d 500,%d" fill="none" stroke="%s" '
                   'stroke-width="2.5"/>' % (y1, x_mid, y1, x_mid, y2, y2, WIRE[kind]))
    out.append('<text x="20" y="%d" fill="#555">Encoder: %d pulses per detent%s; button '
               'active %s with the %s pull-up.</text>' % (
                   height - 20, board["encoder"]["pulses_per_detent"],
                   ", reversed" if board["encoder"]["reverse"] else "",
                   "low" if board["button"]["active_low"] else "high",
                   "internal" if board["button"]["pull"] == "up" else "external"))
    note = current_note(board)
    if note:
        out.append('<text x="20" y="%d" fill="#555">%s</text>' % (height - 42, escape(note)))
    out.append("</svg>")
    return "\n".join(out) + "\n"
