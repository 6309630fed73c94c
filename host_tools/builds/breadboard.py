"""The Pico build on a breadboard (SVG), drawn from the board file as the wiring pictures are:
the Pico across the middle channel of a full-size (830-point) breadboard, USB at the left, each
wire from a hole in the strip of the pin it serves, the ring, the encoder and the OLED on their
wires above and below the board, the 100 ohm and the piezo on it. Every Pico pin, part pad and
wire carries its place (data-pin / data-pad with data-hole, data-from, data-to, data-via), so
a test can follow the breadboard's strips and rails and find the wiring picture's nets
(host_tools/builds/wiring.py connections()).

A breadboard joins the five holes a-e of a column (a strip), and f-j below the channel; each
long rail (+ and -, at the top and at the bottom) is one node. The Pico's pins sit in line c
(pins 40 to 21, left to right) and line h (pins 1 to 20), 7 holes apart, so lines a-b and i-j
stay free beside them."""

from xml.sax.saxutils import escape

from host_tools.builds import wiring

PITCH = 14                  # one 2.54 mm step of the breadboard, in px
COLUMNS = 63
X0, Y0 = 70, 300            # column 1; the top rail's line
WIDTH = 1060
LINES = {"T+": 0, "T-": 1, "a": 3, "b": 4, "c": 5, "d": 6, "e": 7, "f": 10, "g": 11, "h": 12,
         "i": 13, "j": 14, "B-": 16, "B+": 17}
RAILS = ("T+", "T-", "B-", "B+")
PICO_FIRST = 3              # the column of pins 1 and 40 (the USB end)
# The off-board parts' pads (px), left to right as their wires arrive, and their short names.
ENCODER_PADS = (("SW", "SW", 250), ("B (DT)", "B", 285), ("C (common)", "C", 320),
                ("A (CLK)", "A", 355), ("SW (other leg)", "SW", 390))
ENCODER_Y = 196
RING_PADS = (("DIN", 110), ("5V", 140), ("GND", 170))
RING_X, RING_CENTRE = 760, (1005, 140)     # the pads, on the ring's edge; its LEDs
OLED_PADS = (("VCC (3.3 V)", "VCC", 120), ("SDA", "SDA", 156), ("SCL", "SCL", 192),
             ("GND", "GND", 228))
OLED_Y = 640
# The rail holes the ring's supply and the switch's other leg are taken from: right of the
# data wire's path, so that no two wires cross.
RING_POWER_HOLE, RING_GROUND_HOLE, SWITCH_GROUND_HOLE = "T+40", "T-42", "T-24"


def hole_xy(hole):
    """'c21' -> its centre in px; a rail's hole is 'T+12'."""
    line, column = (hole[:2], hole[2:]) if hole[:2] in RAILS else (hole[0], hole[1:])
    return X0 + (int(column) - 1) * PITCH, Y0 + LINES[line] * PITCH


def node(hole):
    """The breadboard's node a hole is in: a rail, or a column's strip above or below."""
    if hole[:2] in RAILS:
        return hole[:2]
    return ("top:" if hole[0] in "abcde" else "bottom:") + hole[1:]


def pico_hole(physical):
    """The hole the Pico's physical pin sits in: pins 1-20 along line h, 40-21 along line c."""
    if physical <= 20:
        return "h%d" % (PICO_FIRST - 1 + physical)
    return "c%d" % (PICO_FIRST - 1 + 41 - physical)


def _hole_of(label, line):
    """A free hole, in line `line`, of the strip of the pin a wiring label names."""
    return line + pico_hole(int(wiring.place_of(label).split()[1]))[1:]


def layout(board):
    """(wires, on_board, jumpers): wires (from hole, part, pad, kind, resistor or None) to the
    parts off the board; on_board (part, pad, hole); jumpers (from hole, to hole, kind,
    resistor or None) on it."""
    label = {(part, pad): (pin, kind) for pin, part, pad, kind in wiring.connections(board)}

    def wire(part, pad, line):
        pin, kind = label[(part, pad)]
        return (_hole_of(pin, line), part, pad, kind, wiring.RESISTORS.get((part, pad)))
    power, ground = label[("ring", "5V")][0], label[("ring", "GND")][0]
    jumpers = [(_hole_of(power, "a"), "T+" + _hole_of(power, "a")[1:], "power", None),
               (_hole_of(ground, "a"), "T-" + _hole_of(ground, "a")[1:], "ground", None)]
    wires = [wire("ring", "DIN", "a"), (RING_POWER_HOLE, "ring", "5V", "power", None),
             (RING_GROUND_HOLE, "ring", "GND", "ground", None), wire("encoder", "SW", "a"),
             wire("encoder", "B (DT)", "a"), wire("encoder", "C (common)", "a"),
             wire("encoder", "A (CLK)", "a"),
             (SWITCH_GROUND_HOLE, "encoder", "SW (other leg)", "ground", None)]
    on_board = []
    if board.get("display"):
        wires += [wire("display", "VCC (3.3 V)", "b"), wire("display", "SDA", "i"),
                  wire("display", "SCL", "i"), wire("display", "GND", "i")]
    if board.get("buzzer"):
        pin = _hole_of(label[("buzzer", "+")][0], "j")
        column = int(pin[1:])
        ground = _hole_of(label[("buzzer", "\u2212")][0], "j")
        jumpers += [(pin, "j%d" % (column + 4), "tone", wiring.RESISTORS[("buzzer", "+")]),
                    (ground, "B-" + ground[1:], "ground", None),
                    ("j%d" % (column + 6), "B-%d" % (column + 6), "ground", None)]
        on_board += [("buzzer", "+", "f%d" % (column + 4)),
                     ("buzzer", "\u2212", "f%d" % (column + 6))]
    return wires, on_board, jumpers


def pads(board):
    """{(part, pad): (x, y)} of the off-board parts' pads."""
    out = {("encoder", pad): (x, ENCODER_Y) for pad, _, x in ENCODER_PADS}
    out.update({("ring", pad): (RING_X, y) for pad, y in RING_PADS})
    if board.get("display"):
        out.update({("display", pad): (x, OLED_Y) for pad, _, x in OLED_PADS})
    return out


def _board(out):
    """The breadboard: its rails (red +, blue -), its holes, the lines' letters, the columns'
    numbers."""
    left, right = X0 - 30, X0 + (COLUMNS - 1) * PITCH + 30
    out.append('<rect data-part="breadboard" x="%d" y="%d" width="%d" height="%d" rx="6" '
               'fill="#f4f1e8" stroke="#999"/>' % (left, Y0 - 16, right - left,
                                                    LINES["B+"] * PITCH + 32))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#e2dfd4"/>' % (
        left, Y0 + int(8.2 * PITCH), right - left, int(0.6 * PITCH)))        # the channel
    for rail in RAILS:
        y = Y0 + LINES[rail] * PITCH
        colour = "#d62728" if rail.endswith("+") else "#1f77b4"
        offset = -7 if rail in ("T+", "B-") else 7
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1.5"/>'
                   % (left + 14, y + offset, right - 14, y + offset, colour))
        out.append('<text x="%d" y="%d" font-size="10" fill="%s">%s</text>'
                   % (left + 4, y + 4, colour, rail[1]))
    for line, row in LINES.items():
        y = Y0 + row * PITCH
        for column in range(1, COLUMNS + 1):
            if line in RAILS and column % 6 == 0:
                continue                              # the rails' holes come in fives
            out.append('<rect x="%d" y="%d" width="4" height="4" fill="#888"/>'
                       % (X0 + (column - 1) * PITCH - 2, y - 2))
        if line not in RAILS:
            out.append('<text x="%d" y="%d" font-size="9" fill="#777" text-anchor="end">%s'
                       '</text>' % (X0 - 10, y + 3, line))
    for column in range(PICO_FIRST + 20 + 5 - (PICO_FIRST + 20) % 5, COLUMNS + 1, 5):
        out.append('<text x="%d" y="%d" font-size="9" fill="#777" text-anchor="middle">%d'
                   '</text>' % (X0 + (column - 1) * PITCH, Y0 + int(8.75 * PITCH), column))


def _pico(out, board):
    """The Pico over the channel, USB at the left, every header pin in its hole."""
    x1, y1 = hole_xy("c%d" % PICO_FIRST)
    x2, y2 = hole_xy("h%d" % (PICO_FIRST + 19))
    out.append('<rect data-part="pico" x="%d" y="%d" width="%d" height="%d" rx="4" '
               'fill="#2e7d32" stroke="#1b5e20"/>' % (x1 - 16, y1 - 9, x2 - x1 + 26,
                                                       y2 - y1 + 18))
    out.append('<rect x="%d" y="%d" width="22" height="30" rx="3" fill="#bbb" stroke="#333"/>'
               % (x1 - 34, (y1 + y2) // 2 - 15))
    out.append('<text x="%d" y="%d" font-size="12" fill="white">Raspberry Pi Pico</text>'
               '<text x="%d" y="%d" font-size="11" fill="white">pin 1 bottom left, 40 top left'
               '</text>' % (x1 + 120, (y1 + y2) // 2 - 4, x1 + 120, (y1 + y2) // 2 + 12))
    table = wiring.pinout(board)
    names = [(e["name"], e["place"]) for e in table["pins"]]
    names += [(e["name"], e["place"]) for e in table["power"].values()]
    names += [("GND", place) for place in table["ground"]["places"]]
    for name, place in names:
        hole = pico_hole(int(place.split()[1]))
        x, y = hole_xy(hole)
        out.append('<circle data-pin="%s (%s)" data-hole="%s" cx="%d" cy="%d" r="3" '
                   'fill="%s"/>' % (escape(name), place, hole, x, y,
                                    "#222" if name == "GND" else "#ddd"))


def _resistor(out, x, y, value, data):
    out.append('<rect data-part="resistor"%s x="%d" y="%d" width="26" height="10" rx="3" '
               'fill="#e8d4a8" stroke="#333"/>' % (data, x - 13, y - 5))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle" stroke="white" '
               'stroke-width="3" paint-order="stroke">%s</text>' % (x, y - 9, value))


def _parts(out, board, at):
    """The ring (its pads, its capacitor, its LEDs), the encoder and the OLED, off the board."""
    cx, cy = RING_CENTRE
    out.append('<text x="%d" y="%d" font-weight="bold">%d x WS2812B ring</text>'
               % (RING_X - 20, 70, board["ring"]["count"]))
    out.append('<rect data-part="ring-edge" x="%d" y="%d" width="44" height="%d" rx="4" '
               'fill="#eef" stroke="#333"/>' % (RING_X - 8, RING_PADS[0][1] - 16,
                                                 RING_PADS[-1][1] - RING_PADS[0][1] + 32))
    out.append('<circle cx="%d" cy="%d" r="40" fill="none" stroke="#999" stroke-width="12" '
               'stroke-opacity="0.3"/>' % (cx, cy))
    out.append(wiring.ring_sketch(board["ring"], cx, cy, 40))
    out.extend(wiring.capacitor(at[("ring", "5V")][1], at[("ring", "GND")][1], RING_X + 36,
                                "1000 \u00b5F, + to 5V"))
    out.append('<text x="20" y="88" font-weight="bold">EC11 rotary encoder, on its wires</text>')
    out.append('<rect x="230" y="100" width="180" height="70" rx="6" fill="#ddd" '
               'stroke="#333"/><circle cx="320" cy="135" r="18" fill="#999" stroke="#333"/>')
    if board.get("display"):
        out.append('<rect x="100" y="%d" width="150" height="80" rx="6" fill="#223" '
                   'stroke="#333"/>' % (OLED_Y + 10))
        out.append('<text x="100" y="%d" font-weight="bold">SSD1306 OLED, on its wires</text>'
                   % (OLED_Y + 110))
    shorts = {("encoder", pad): (short, -9) for pad, short, _ in ENCODER_PADS}
    shorts.update({("ring", pad): (pad, 4) for pad, _ in RING_PADS})
    shorts.update({("display", pad): (short, 28) for pad, short, _ in OLED_PADS})
    for (part, pad), (x, y) in sorted(at.items()):
        out.append('<circle data-pad="%s:%s" cx="%d" cy="%d" r="4" fill="#333"/>'
                   % (part, escape(pad), x, y))
        short, dy = shorts[(part, pad)]
        if part == "ring":
            out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x + 8, y + dy, short))
        else:
            out.append('<text x="%d" y="%d" font-size="11" text-anchor="middle"%s>%s</text>'
                       % (x, y + dy, ' fill="white"' if part == "display" else "", short))


def svg(board):
    """The Pico build on a breadboard, as SVG text."""
    if board.get("pinout") != "pico":
        raise ValueError("the breadboard view is drawn for the Pico's header (pinout \"pico\"),"
                         " not %r" % board.get("pinout"))
    wires, on_board, jumpers = layout(board)
    notes = wiring.wrap(
        "The encoder, the ring and the OLED hang on their wires (Dupont jumpers, or wires "
        "soldered on): an EC11's mounting lugs do not go into a breadboard. The 330 \u03a9 "
        "sits at the ring's DIN pad, the 1000 \u00b5F across the ring's 5V and GND, + to 5V. "
        "The top rail: 5 V from VBUS (red) and GND (blue); the bottom rail's blue line: GND. "
        "The MIDI jacks and the level shifter: the wiring pictures (%s.svg, "
        "%s-level-shifter.svg)." % (board["board"], board["board"]), 120)
    height = OLED_Y + 160 + 20 * len(notes)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif" font-size="14">' % (WIDTH, height, WIDTH, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="30" font-size="18" font-weight="bold">%s, on a breadboard</text>'
           % escape(board["title"]),
           '<text x="20" y="52" fill="#555">generated from boards/%s.json: chromawheel board '
           'wiring %s --breadboard -o FILE.svg</text>' % (board["board"], board["board"])]
    _board(out)
    _pico(out, board)
    at = pads(board)
    _parts(out, board, at)
    _on_board(out, on_board, jumpers)
    for start, part, pad, kind, resistor in wires:
        _wire(out, start, part, pad, kind, resistor, at[(part, pad)])
    for i, line in enumerate(notes):
        out.append('<text x="20" y="%d" fill="#555">%s</text>' % (OLED_Y + 150 + 20 * i,
                                                                  escape(line)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _on_board(out, on_board, jumpers):
    """The jumpers and the 100 ohm between holes, the piezo with its legs in theirs."""
    for start, end, kind, resistor in jumpers:
        (x1, y1), (x2, y2) = hole_xy(start), hole_xy(end)
        out.append('<polyline data-from="%s" data-to="%s"%s points="%d,%d %d,%d" fill="none" '
                   'stroke="%s" stroke-width="3"/>' % (
                       start, end, ' data-via="%s"' % resistor if resistor else "", x1, y1,
                       x2, y2, "#e8d4a8" if resistor else wiring.WIRE[kind]))
        if resistor:
            _resistor(out, (x1 + x2) // 2, y1, resistor, ' data-from="%s" data-to="%s"'
                      % (start, end))
    if on_board:
        (x1, y1), (x2, _) = hole_xy(on_board[0][2]), hole_xy(on_board[-1][2])
        out.append('<circle data-part="piezo" cx="%d" cy="%d" r="33" fill="#222" '
                   'fill-opacity="0.85" stroke="#333"/>' % ((x1 + x2) // 2, y1 + 4))
        out.append('<text x="%d" y="%d" font-size="11" fill="white" text-anchor="middle">'
                   'piezo</text>' % ((x1 + x2) // 2, y1 + 22))
    for part, pad, hole in on_board:
        x, y = hole_xy(hole)
        out.append('<circle data-pad="%s:%s" data-hole="%s" cx="%d" cy="%d" r="3" '
                   'fill="#ddd"/>' % (part, escape(pad), hole, x, y))
        out.append('<text x="%d" y="%d" font-size="11" fill="white" text-anchor="middle">%s'
                   '</text>' % (x, y - 7, "+" if pad == "+" else "\u2212"))


def _wire(out, start, part, pad, kind, resistor, end):
    """A wire from a hole to an off-board part's pad, straight, the resistor in series on it
    just before the pad."""
    (x1, y1), (x2, y2) = hole_xy(start), end
    via = ' data-via="%s"' % resistor if resistor else ""
    if resistor:                              # the last 40 px level with the pad, resistor on it
        out.append('<polyline data-from="%s" data-to="%s:%s"%s points="%d,%d %d,%d %d,%d" '
                   'fill="none" stroke="%s" stroke-width="3"/>' % (
                       start, part, escape(pad), via, x1, y1, x2 - 60, y2, x2, y2,
                       wiring.WIRE[kind]))
        _resistor(out, x2 - 30, y2, resistor, "")
        return
    out.append('<polyline data-from="%s" data-to="%s:%s" points="%d,%d %d,%d" fill="none" '
               'stroke="%s" stroke-width="3"/>' % (start, part, escape(pad), x1, y1, x2, y2,
                                                   wiring.WIRE[kind]))
