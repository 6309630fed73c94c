"""A printable faceplate for a board's ring, at 1:1 (the SVG's units are millimetres): the 12
sector labels around the LEDs, each at the middle of the LEDs that light its sector (the ring
mapping of hardware/ring.py: C at the LED the board file puts at C, in the ring's direction),
the LEDs' places, the hole for the encoder's shaft, and cut marks. Printed on paper or card, it
goes in the recess of the enclosure's faceplate (boards/enclosure/), or under any translucent
cover."""

import math

from core.notes import pc_names, format_note
from hardware.ring import SECTORS, led_angle, sector_angle

# The common WS2812B rings (outer, inner diameter in mm): Adafruit's NeoPixel Ring 12, 16, 24
# and the 60 as four quarter arcs.
RING_SIZES = {12: (37.0, 23.3), 16: (44.5, 31.75), 24: (65.6, 52.3), 60: (158.0, 145.0)}
LED_PITCH_MM = 7.93           # between LEDs on the 60 ring: other multiples of 12 are sized so
SHAFT_HOLE_MM = 7.2           # an EC11's M7 bushing comes through
LABEL_GAP_MM = 7.0            # from the ring's outer edge to the labels' centres
MARGIN_MM = 12.0              # from the labels to the cut line
CUT_MARK_MM = 5.0


def ring_size(count):
    """(outer, inner) diameter in mm of a ring of `count` LEDs."""
    if count in RING_SIZES:
        return RING_SIZES[count]
    middle = count * LED_PITCH_MM / math.pi
    return middle + 6.5, middle - 6.5


def _at(centre, radius, degrees):
    """The point `radius` from the centre at `degrees` clockwise from the top."""
    angle = math.radians(degrees)
    return centre + radius * math.sin(angle), centre - radius * math.cos(angle)


def _label(pc):
    return "/".join(format_note(name, True) for name in pc_names(pc))


def svg(board):
    """The faceplate of `board` (a checked board file) as SVG text."""
    ring = board["ring"]
    outer, inner = ring_size(ring["count"])
    led_radius = (outer + inner) / 4
    label_radius = outer / 2 + LABEL_GAP_MM
    cut_radius = label_radius + MARGIN_MM
    size = 2 * (cut_radius + CUT_MARK_MM + 2)
    centre = size / 2
    font = 4.2 if ring["count"] < 24 else 5.0
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.2fmm" height="%.2fmm" '
           'viewBox="0 0 %.2f %.2f" data-board="%s" data-leds="%d">'
           % (size, size, size, size, board["board"], ring["count"]),
           '<title>ChromaWheel faceplate: %s, %d LEDs (print at 100%%, 1:1)</title>'
           % (board["title"], ring["count"]),
           '<g fill="none" stroke="#000" stroke-width="0.2">',
           '<circle data-cut="face" cx="%.2f" cy="%.2f" r="%.2f" stroke-dasharray="2 1"/>'
           % (centre, centre, cut_radius),
           '<circle data-hole="shaft" cx="%.2f" cy="%.2f" r="%.2f"/>'
           % (centre, centre, SHAFT_HOLE_MM / 2),
           '<circle cx="%.2f" cy="%.2f" r="%.2f" stroke="#999"/>' % (centre, centre, outer / 2),
           '<circle cx="%.2f" cy="%.2f" r="%.2f" stroke="#999"/>' % (centre, centre, inner / 2)]
    for x, y in ((0, 0), (size, 0), (0, size), (size, size)):      # cut marks at the corners
        dx = CUT_MARK_MM if x == 0 else -CUT_MARK_MM
        dy = CUT_MARK_MM if y == 0 else -CUT_MARK_MM
        out.append('<path data-cut="mark" d="M %.2f %.2f h %.2f M %.2f %.2f v %.2f"/>'
                   % (x, y, dx, x, y, dy))
    for led in range(ring["count"]):
        x, y = _at(centre, led_radius, led_angle(ring, led))
        out.append('<circle data-led="%d" cx="%.2f" cy="%.2f" r="1.2" stroke="#bbb"/>'
                   % (led, x, y))
    out.append('</g>')
    out.append('<g font-family="sans-serif" font-size="%.1f" text-anchor="middle" '
               'dominant-baseline="central">' % font)
    for pc in range(SECTORS):
        angle = sector_angle(ring, pc)
        x, y = _at(centre, label_radius, angle)
        out.append('<text data-pc="%d" data-angle="%.3f" x="%.2f" y="%.2f">%s</text>'
                   % (pc, angle, x, y, _label(pc)))
    out.append('</g>')
    out.append('<text x="%.2f" y="%.2f" font-family="sans-serif" font-size="2.5" '
               'text-anchor="middle">%s: %d LEDs, C at LED %d, %s</text>'
               % (centre, size - 3, board["board"], ring["count"], ring["led_at_c"],
                  "clockwise" if ring["direction"] == "cw" else "anticlockwise"))
    out.append('</svg>')
    return "\n".join(out) + "\n"
