"""A printable faceplate for a board's ring, at 1:1 (the SVG's units are millimetres): the 12
sector labels around the LEDs, each at the middle of the LEDs that light its sector (the ring
mapping of hardware/ring.py: C at the LED the board file puts at C, in the ring's direction),
the LEDs' places (an LED that stays dark crossed out), the hole for the encoder's shaft, one
cut line (the dashed circle, its diameter printed on the face) and a scale bar to check the
print. Printed on paper or card, it goes in the recess of the enclosure's faceplate
(boards/enclosure/), or under any translucent cover."""

import math

from core.notes import format_note, pc_names
from hardware.ring import SECTORS, led_angle, sector_angle, sector_leds

# The common WS2812B rings (outer, inner diameter in mm): Adafruit's NeoPixel Ring 12, 16, 24
# and the 60 as four quarter arcs.
RING_SIZES = {12: (37.0, 23.3), 16: (44.5, 31.75), 24: (65.6, 52.3), 60: (158.0, 145.0)}
LED_PITCH_MM = 7.93           # between LEDs on the 60 ring: other multiples of 12 are sized so
SHAFT_HOLE_MM = 7.2           # an EC11's M7 bushing comes through
LABEL_GAP_MM = 7.0            # from the ring's outer edge to the labels' centres
MARGIN_MM = 12.0              # from the labels to the cut line
SCALE_MM = 20               # the scale bar: measure it on the print
BORDER_MM = 19.0            # the page under the cut circle: the scale bar and the notes


def ring_size(count, diameter=None):
    """(outer, inner) diameter in mm of a ring of `count` LEDs; `diameter` (outer, or
    (outer, inner)) for a ring of another maker (a generic 50 mm ring of 16)."""
    if diameter is not None:
        if isinstance(diameter, (tuple, list)):
            return float(diameter[0]), float(diameter[1])
        return float(diameter), float(diameter) - 13.0      # the common 6.5 mm wide PCB
    if count in RING_SIZES:
        return RING_SIZES[count]
    middle = count * LED_PITCH_MM / math.pi
    return middle + 6.5, middle - 6.5


def cut_diameter(count, diameter=None):
    """The paper face's cut circle, in mm (the enclosure's recess is sized to it)."""
    outer, _ = ring_size(count, diameter)
    return outer + 2 * (LABEL_GAP_MM + MARGIN_MM)


def _at(centre, radius, degrees):
    """The point `radius` from the centre at `degrees` clockwise from the top."""
    angle = math.radians(degrees)
    return centre + radius * math.sin(angle), centre - radius * math.cos(angle)


def _label(pc):
    return "/".join(format_note(name, True) for name in pc_names(pc))


def svg(board, diameter=None):
    """The faceplate of `board` (a checked board file) as SVG text; `diameter`: the ring's
    outer diameter in mm (or (outer, inner)) when it is not one of RING_SIZES'."""
    ring = board["ring"]
    outer, inner = ring_size(ring["count"], diameter)
    led_radius = (outer + inner) / 4
    label_radius = outer / 2 + LABEL_GAP_MM
    cut_radius = label_radius + MARGIN_MM
    size = 2 * (cut_radius + 2)
    height = size + BORDER_MM
    centre = size / 2
    font = 4.2 if ring["count"] < 24 else 5.0
    lit = set(led for leds in sector_leds(ring) for led in leds)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%.2fmm" height="%.2fmm" '
           'viewBox="0 0 %.2f %.2f" data-board="%s" data-leds="%d">'
           % (size, height, size, height, board["board"], ring["count"]),
           '<title>ChromaWheel faceplate: %s, %d LEDs (print at 100%%, 1:1)</title>'
           % (board["title"], ring["count"]),
           '<g fill="none" stroke="#000" stroke-width="0.2">',
           '<circle data-cut="face" cx="%.2f" cy="%.2f" r="%.2f" stroke-dasharray="2 1"/>'
           % (centre, centre, cut_radius),
           '<circle data-hole="shaft" cx="%.2f" cy="%.2f" r="%.2f"/>'
           % (centre, centre, SHAFT_HOLE_MM / 2),
           '<circle cx="%.2f" cy="%.2f" r="%.2f" stroke="#999"/>' % (centre, centre, outer / 2),
           '<circle cx="%.2f" cy="%.2f" r="%.2f" stroke="#999"/>' % (centre, centre, inner / 2)]
    for led in range(ring["count"]):
        x, y = _at(centre, led_radius, led_angle(ring, led))
        out.append('<circle data-led="%d" cx="%.2f" cy="%.2f" r="1.2" stroke="#bbb"/>'
                   % (led, x, y))
        if led not in lit:                   # a 16-LED ring's dark LEDs: crossed out
            out.append('<path data-dark="%d" d="M %.2f %.2f l 2 2 M %.2f %.2f l -2 2" '
                       'stroke="#666"/>' % (led, x - 1, y - 1, x + 1, y - 1))
    out.append('</g>')
    out.append('<g font-family="sans-serif" font-size="%.1f" text-anchor="middle" '
               'dominant-baseline="central">' % font)
    for pc in range(SECTORS):
        angle = sector_angle(ring, pc)
        x, y = _at(centre, label_radius, angle)
        out.append('<text data-pc="%d" data-angle="%.3f" x="%.2f" y="%.2f">%s</text>'
                   % (pc, angle, x, y, _label(pc)))
    out.append('</g>')
    # Below the circle: the scale bar, the one cutting instruction, what the face is for.
    bar_y = size + 3
    out.append('<g data-part="scale" stroke="#000" stroke-width="0.3">'
               '<path d="M 3 %.2f h %d M 3 %.2f v 2 M %d %.2f v 2 M %d %.2f v 1.2"/></g>'
               % (bar_y + 1, SCALE_MM, bar_y, 3 + SCALE_MM, bar_y, 3 + SCALE_MM // 2, bar_y))
    out.append('<text x="%.2f" y="%.2f" font-family="sans-serif" font-size="2.3">%d mm</text>'
               % (5 + SCALE_MM, bar_y + 2, SCALE_MM))
    notes = ["Print at 100 %%, not \"fit to page\": the bar is %d mm." % SCALE_MM,
             "Cut along the dashed circle (%.1f mm across)." % (2 * cut_radius)]
    if len(lit) < ring["count"]:
        notes.append("A crossed-out LED stays dark (%d LEDs light the 12 sectors)." % len(lit))
    notes.append("%s: %d LEDs, C at LED %d, %s" % (
        board["board"], ring["count"], ring["led_at_c"],
        "clockwise" if ring["direction"] == "cw" else "anticlockwise"))
    for i, note in enumerate(notes):
        out.append('<text x="3" y="%.2f" font-family="sans-serif" font-size="2.3">%s</text>'
                   % (bar_y + 5.2 + 2.8 * i, note))
    out.append('</svg>')
    return "\n".join(out) + "\n"
