"""Wiring diagrams (SVG) drawn from a board file, so the picture always matches the pins."""

from xml.sax.saxutils import escape

# Per platform: how the board's power pins are labelled, and the board's display name.
POWER = {"rp2": ("VBUS (5 V)", "GND"), "esp32": ("VIN / 5V", "GND"),
         "circuitpython": ("5V", "GND")}
WIRE = {"data": "#2e9e44", "power": "#d62728", "ground": "#222222", "a": "#e0a000",
        "b": "#1f77b4", "sw": "#9467bd"}


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
    ]


def svg(board):
    """An SVG diagram: the board's pins on the left, the ring and the encoder on the right."""
    wires = connections(board)
    board_pins = []
    for pin, _, _, _ in wires:
        if pin not in board_pins:
            board_pins.append(pin)
    pads = {"ring": [w[2] for w in wires if w[1] == "ring"],
            "encoder": [w[2] for w in wires if w[1] == "encoder"]}
    width, row = 900, 34
    height = 150 + row * max(len(board_pins), len(pads["ring"]) + len(pads["encoder"]) + 2)
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
    for part, title in (("ring", "12 x WS2812B ring (1000 \u00b5F across 5V-GND)"),
                        ("encoder", "EC11 rotary encoder with push switch")):
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
        x_mid = 240 + 28 * i
        y1, y2 = pin_y[pin], pad_y[(part, pad)]
        out.append('<polyline points="190,%d %d,%d %d,%d 500,%d" fill="none" stroke="%s" '
                   'stroke-width="2.5"/>' % (y1, x_mid, y1, x_mid, y2, y2, WIRE[kind]))
    out.append('<text x="20" y="%d" fill="#555">Encoder: %d pulses per detent%s; button '
               'active %s with the %s pull-up.</text>' % (
                   height - 20, board["encoder"]["pulses_per_detent"],
                   ", reversed" if board["encoder"]["reverse"] else "",
                   "low" if board["button"]["active_low"] else "high",
                   "internal" if board["button"]["pull"] == "up" else "external"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
