"""The enclosure (boards/enclosure/chromawheel.scad), rendered to STL by Debian's openscad: every
part for each shipped board with 12- and 24-LED rings, and the 60-LED ring for one board. Each
STL is read back as a solid and checked against the parts it must take, using the makers'
dimensions, not the model's own table: the ring fits its groove, the board its base with the
USB opening in front of its connector, the EC11's bushing and shaft pass, the faceplate covers
the ring and holds the paper face `chromawheel board faceplate` draws, and the screw holes line
up through the stack. The README's figures are the model's and the STL's: its bridges measured
in the printed base, the parts at the clock positions it says. The knob fits the encoder's D
shaft (the makers' numbers) and stops it turning. The MIDI jacks' holes take a 3.5 mm panel
socket's M6 thread through a panel its nut can grip, its body in a seat behind it.

Without openscad these tests are skipped with one line saying what to install; under CI=true
a skip is a failure."""

import json
import math
import os
import re
import shutil
import struct

import pytest

from host_tools.builds import enclosure, faceplate
from running import run

pytestmark = pytest.mark.usefixtures("openscad")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCAD = os.path.join(ROOT, "boards", "enclosure", "chromawheel.scad")
INSTALL = "the enclosure tests need OpenSCAD (Debian: apt-get install openscad)"
OPENSCAD = shutil.which("openscad")

if OPENSCAD is None:                          # one line for the whole file, not one a test
    if os.getenv("CI") == "true":
        pytest.fail("the enclosure tests cannot run under CI: " + INSTALL, pytrace=False)
    pytest.skip(INSTALL, allow_module_level=True)

# Board outlines from the makers (length along the USB end's axis, width): the Pico datasheet,
# Adafruit's QT Py RP2040 page, Espressif's ESP32-DevKitC V4 (the 38-pin clones are ~55 x 28).
FOOTPRINTS = {"pico": (51.0, 21.0), "qtpy_rp2040": (21.8, 17.8), "esp32": (55.0, 28.0)}
EC11_BUSHING = 7.0        # M7 x 0.75
EC11_SHAFT = 6.0
EC11_WASHER = 12.0        # the washer under its nut
PARTS = ("base", "encoder_mount", "ring_holder", "faceplate")
CONFIGS = [(board, leds) for board in sorted(FOOTPRINTS) for leds in (12, 24)] + [("pico", 60)]


def _backend():
    """The manifold backend where this openscad has one (much faster than CGAL)."""
    out = run([OPENSCAD, "--help"], timeout=60)
    return ["--backend=manifold"] if "--backend" in out.stdout + out.stderr else []


BACKEND = _backend()


def render(out, part, stl="asciistl", **params):
    """openscad -o OUT -D part=... ; the STL's path and the model's CHROMAWHEEL echo line."""
    defines = ["-D", 'part="%s"' % part]
    for key, value in params.items():
        defines += ["-D", "%s=%s" % (key, json.dumps(value))]
    rendered = run([OPENSCAD, *BACKEND, "--export-format", stl, "-o", str(out), *defines, SCAD],
                   timeout=300, expect=0)
    assert "ERROR" not in rendered.stderr, rendered.stderr
    assert "WARNING" not in rendered.stderr, rendered.stderr
    return str(out), enclosure.parse_echo(rendered.stderr)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """render() that renders each (part, format, parameters) once for the module: the bridges'
    and the README's tests check the very base and ring holder test_parts_render_and_fit
    renders for the Pico with 12 LEDs (2-3 CPU seconds of CGAL each). Each caller gets its own
    copy of the echo; the STL is only read."""
    folder = tmp_path_factory.mktemp("stl")
    made = {}

    def get(part, stl="asciistl", **params):
        key = (part, stl, tuple(sorted(params.items())))
        if key not in made:
            made[key] = render(folder / ("%d-%s.stl" % (len(made), part)), part, stl, **params)
        path, echo = made[key]
        return path, dict(echo)
    return get


def read_stl(path):
    """The triangles of an ASCII or binary STL, as ((x, y, z), (x, y, z), (x, y, z))."""
    with open(path, "rb") as f:
        data = f.read()
    assert data, "empty STL"
    if data.startswith(b"solid") and b"facet" in data[:1000]:
        numbers = [float(v) for v in re.findall(rb"vertex\s+(\S+)\s+(\S+)\s+(\S+)", data)
                   for v in v]
        assert data.rstrip().split(b"\n")[-1].startswith(b"endsolid")
    else:
        count = struct.unpack_from("<I", data, 80)[0]
        assert len(data) == 84 + 50 * count, "truncated binary STL"
        numbers = []
        for i in range(count):
            numbers += struct.unpack_from("<9f", data, 84 + 50 * i + 12)
    points = [tuple(numbers[i:i + 3]) for i in range(0, len(numbers), 3)]
    triangles = [tuple(points[i:i + 3]) for i in range(0, len(points), 3)]
    assert triangles and len(points) % 3 == 0
    return triangles


class Solid:
    """A closed triangle mesh: its bounding box, and whether a point is inside (the parity of
    a vertical ray's crossings). The triangles are filed by the cells of a grid over x and y
    that their extent touches, so a point is tested against its cell's few, not all of them
    (the same crossings: a triangle a ray can cross is in the ray's cell)."""

    CELLS = 32

    def __init__(self, triangles):
        self.triangles = []
        for a, b, c in triangles:
            area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])
            if abs(area) > 1e-12:              # vertical faces never cross a vertical ray
                self.triangles.append((a, b, c, area))
        xs, ys, zs = zip(*(p for t in triangles for p in t))
        self.lo = (min(xs), min(ys), min(zs))
        self.hi = (max(xs), max(ys), max(zs))
        self.cells = {}
        for a, b, c, area in self.triangles:
            x0, x1 = self._cell(min(a[0], b[0], c[0]), 0), self._cell(max(a[0], b[0], c[0]), 0)
            y0, y1 = self._cell(min(a[1], b[1], c[1]), 1), self._cell(max(a[1], b[1], c[1]), 1)
            for i in range(x0, x1 + 1):
                for j in range(y0, y1 + 1):
                    self.cells.setdefault((i, j), []).append((a, b, c, area))

    def _cell(self, value, axis):
        """The grid's column (axis 0) or row (axis 1) of a coordinate, clamped to the grid."""
        span = (self.hi[axis] - self.lo[axis]) or 1.0
        return min(self.CELLS - 1, max(0, int((value - self.lo[axis]) / span * self.CELLS)))

    @property
    def size(self):
        return tuple(high - low for high, low in zip(self.hi, self.lo))

    def inside(self, x, y, z):
        x += 1.37e-4                           # off the mesh's edges and vertices
        y += 2.71e-4
        crossings = 0
        for a, b, c, area in self.cells.get((self._cell(x, 0), self._cell(y, 1)), ()):
            if (x < min(a[0], b[0], c[0]) or x > max(a[0], b[0], c[0])
                    or y < min(a[1], b[1], c[1]) or y > max(a[1], b[1], c[1])):
                continue
            u = ((b[0] - x) * (c[1] - y) - (c[0] - x) * (b[1] - y)) / area
            v = ((c[0] - x) * (a[1] - y) - (a[0] - x) * (c[1] - y)) / area
            w = 1 - u - v
            if u < 0 or v < 0 or w < 0:
                continue
            if u * a[2] + v * b[2] + w * c[2] > z:
                crossings += 1
        return crossings % 2 == 1


def polar(r, degrees, z):
    a = math.radians(degrees)
    return r * math.cos(a), r * math.sin(a), z


def around(r, z, n=24, skip=()):
    """n points on a circle (angles anticlockwise from +x), leaving out those within 15
    degrees of an angle in `skip`."""
    for i in range(n):
        degrees = i * 360.0 / n + 1.3
        if all(abs((degrees - s + 180) % 360 - 180) > 15 for s in skip):
            yield polar(r, degrees, z)


def empty(solid, points, what):
    full = [p for p in points if solid.inside(*p)]
    assert not full, "%s: material at %s" % (what, ["(%.2f, %.2f, %.2f)" % p for p in full[:4]])


def solid_at(solid, points, what):
    hollow = [p for p in points if not solid.inside(*p)]
    assert not hollow, "%s: no material at %s" % (what, ["(%.2f, %.2f, %.2f)" % p
                                                          for p in hollow[:4]])


def screw_angles(echo):
    return [float(a) for a in str(echo["screw_angles"]).split(",")]


def overhangs(triangles, floor=0.05, sliver=0.01):
    """The downward-facing horizontal faces above the bed (what prints over air), merged into
    one region per face the slicer sees: [(z, (x0, y0, x1, y1))]. A sliver under `sliver`
    mm2 (the mesh's where two surfaces meet at a ridge: a MIDI jack's hole's roof where it
    leaves the base's curved wall) prints nothing."""
    faces = []
    for a, b, c in triangles:
        u = [b[i] - a[i] for i in range(3)]
        v = [c[i] - a[i] for i in range(3)]
        normal = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                  u[0] * v[1] - u[1] * v[0])
        length = math.sqrt(sum(n * n for n in normal))
        if length > 2 * sliver and normal[2] / length < -0.999 and min(a[2], b[2], c[2]) > floor:
            xs, ys = [p[0] for p in (a, b, c)], [p[1] for p in (a, b, c)]
            faces.append([a[2], min(xs), min(ys), max(xs), max(ys)])
    regions = []
    while faces:                              # merge faces at one height that touch, until
        face = faces.pop()                    # no two regions touch
        touching = [r for r in regions if _touch(r, face)]
        for region in touching:
            regions.remove(region)
            face = [face[0], min(region[1], face[1]), min(region[2], face[2]),
                    max(region[3], face[3]), max(region[4], face[4])]
        (faces if touching else regions).append(face)
    return [(r[0], tuple(r[1:])) for r in regions]


def _touch(a, b, gap=0.05):
    return abs(a[0] - b[0]) < 0.01 and a[1] <= b[3] + gap and a[3] >= b[1] - gap and \
        a[2] <= b[4] + gap and a[4] >= b[2] - gap


def _edge(solid, x, y, z, dx, dy, reach):
    """How far from (x, y, z) along (dx, dy) the first material is, within `reach`, or None:
    stepped by 0.25 mm, then halved down to 0.01."""
    step, t = 0.25, 0.0
    while t < reach:
        t += step
        if solid.inside(x + dx * t, y + dy * t, z):
            lo, hi = t - step, t
            while hi - lo > 0.01:
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if solid.inside(x + dx * mid, y + dy * mid, z) else (mid, hi)
            return hi
    return None


def bridge_spans(solid, triangles):
    """Each overhang's bridge as a slicer prints it: just under the face, the gap between the
    material on its two sides along x and along y; the shorter gap held at both ends. An
    overhang held at neither end of either axis would need support: None."""
    spans = []
    for z, (x0, y0, x1, y1) in overhangs(triangles):
        x, y, under = (x0 + x1) / 2, (y0 + y1) / 2, z - 0.2
        gaps = []
        for dx, dy, half in ((1, 0, (x1 - x0) / 2), (0, 1, (y1 - y0) / 2)):
            a = _edge(solid, x, y, under, dx, dy, half + 1)
            b = _edge(solid, x, y, under, -dx, -dy, half + 1)
            if a is not None and b is not None:
                gaps.append(a + b)
        spans.append(round(min(gaps), 1) if gaps else None)
    return sorted(spans, key=lambda s: -1 if s is None else s)


def check_common(solid, echo, height):
    """Round, as wide as the model says, as thick as the part, flat on the bed."""
    width, depth, tall = solid.size
    assert width == pytest.approx(echo["outer_d"], abs=0.3)
    assert depth == pytest.approx(echo["outer_d"], abs=0.3)
    assert tall == pytest.approx(height, abs=0.01) and solid.lo[2] == pytest.approx(0, abs=0.01)
    for degrees in screw_angles(echo):         # a screw goes down through every part
        x, y, _ = polar(echo["screw_r"], degrees, 0)
        empty(solid, [(x, y, height * f) for f in (0.3, 0.7, 0.95)], "screw hole")


def check_base(solid, echo, board, ring):
    length, width = FOOTPRINTS[board]
    check_common(solid, echo, echo["base_h"])
    assert min(solid.size[:2]) > math.hypot(length, width)
    # the board: its PCB (the makers' outline) where the model puts it, USB end towards +y
    y0, z0, t = echo["pcb_y"], echo["pcb_z"], echo["pcb_t"]
    xs = [s * (width / 2 - 0.05) for s in (-1, -0.5, 0, 0.5, 1)]
    ys = [y0 + s * (length / 2 - 0.05) for s in (-1, -0.5, 0, 0.5, 1)]
    empty(solid, [(x, y, z) for x in xs for y in ys for z in (z0 + 0.05, z0 + t - 0.05)],
          "the board")
    assert y0 + length / 2 <= echo["usb_face"] + 0.01
    # it rests on something near both of its ends, on a floor
    for end in (-1, 1):
        under = [(x, y0 + end * (length / 2 - d), z0 - 0.2)
                 for x in [width * (i / 8 - 0.5) for i in range(1, 8)] for d in (1, 2, 3)]
        assert any(solid.inside(*p) for p in under), "nothing under the board's end %d" % end
    solid_at(solid, [(0, y0, echo["floor_t"] / 2), (0, 0, echo["floor_t"] / 2)], "the floor")
    # the USB opening: from the connector's face out through the wall, as wide as a plug
    ys = [echo["usb_face"] + 0.5 + i * (echo["outer_d"] / 2 - echo["usb_face"]) / 6
          for i in range(7)]
    empty(solid, [(x, y, echo["usb_z"] + dz) for x in (-5, 0, 5) for y in ys
                  for dz in (-3, 0, 3)], "the USB opening")
    wall = echo["outer_d"] / 2 - 1
    window = [270] if echo["display"] == "true" else []
    jacks = [echo["jack_in_angle"], echo["jack_out_angle"]] if echo["jacks"] == "true" else []
    solid_at(solid, list(around(wall, echo["base_h"] / 2, skip=[90] + window + jacks +
                                screw_angles(echo))), "the wall")
    if window:
        check_oled_seat(solid, echo)
    if echo["buzzer"] == "true":
        check_piezo(solid, echo)
    check_shifter_bay(solid, echo)
    if echo["jacks"] == "true":
        check_jacks(solid, echo)


# The OLED: a 0.96" SSD1306 module's makers' sizes, not the model's table: its active area
# (21.74 x 10.86 mm), its PCB 27-28 mm square and 1.6 mm thick, the glass 1.6 mm over it.
OLED_ACTIVE = (21.74, 10.86)
OLED_PCB = (27.5, 28.0, 1.6)
PIEZO_D = 12.2            # Adafruit 160 (PS1240)
DIP14 = (19.3, 7.62)      # the 74AHCT125's body length and its span over the pins
CAPACITOR = (8.0, 11.5)   # 1000 uF 10 V: diameter, height


def check_oled_seat(solid, echo):
    """The window shows the whole active area, through the wall; the PCB's slot is open from
    the top down to the floor and as thick as the PCB; the module stands clear of the board."""
    z, plane = echo["oled_window_z"], echo["oled_plane"]
    w, h = OLED_ACTIVE
    view = [(x, y, z + dz) for x in (-w / 2, 0, w / 2) for dz in (-h / 2, 0, h / 2)
            for y in (-echo["outer_d"] / 2 + 0.1, -(echo["outer_d"] / 2 + plane) / 2)]
    empty(solid, view, "the OLED's window")
    slot = [(x, -plane + t, zz) for x in (-OLED_PCB[0] / 2 + 0.1, 0, OLED_PCB[0] / 2 - 0.1)
            for t in (0.05, OLED_PCB[2] - 0.05)
            for zz in (echo["floor_t"] + 0.1, echo["base_h"] / 2, echo["base_h"] - 0.1)]
    empty(solid, slot, "the OLED's PCB in its slot")
    # held: the rails' lips behind the PCB's edges, material beside them
    lips = [(s * (OLED_PCB[0] / 2 - 0.5), -plane + OLED_PCB[2] + 0.5, echo["base_h"] / 2)
            for s in (-1, 1)]
    solid_at(solid, lips, "the rails' lips behind the OLED's PCB")
    assert echo["base_h"] >= echo["floor_t"] + OLED_PCB[1], "the OLED stands taller than the base"
    assert echo["oled_gap"] > 0.5, "the OLED runs into the board's cradle"


def check_piezo(solid, echo):
    x, y = echo["piezo_x"], echo["piezo_y"]
    z = echo["floor_t"] + 0.5
    empty(solid, [(x + dx, y + dy, z) for dx in (-PIEZO_D / 2 + 0.05, 0, PIEZO_D / 2 - 0.05)
                  for dy in (-PIEZO_D / 2 + 0.05, 0, PIEZO_D / 2 - 0.05) if dx * dy == 0],
          "the piezo in its collar")
    solid_at(solid, [(x + PIEZO_D / 2 + 0.9, y, z)], "the piezo's collar")
    empty(solid, [(x + 3, y, echo["floor_t"] / 2)], "a sound hole under the piezo")
    assert math.hypot(x, y) + PIEZO_D / 2 < echo["cavity_d"] / 2
    assert echo["piezo_gap"] > 0.5, "the piezo's collar runs into the board's cradle"


def check_shifter_bay(solid, echo):
    x, y = echo["shifter_x"], echo["shifter_y"]
    length, span = DIP14
    z = echo["floor_t"] + 0.5
    empty(solid, [(x + dx, y + dy, z) for dx in (-span / 2, 0, span / 2)
                  for dy in (-length / 2, 0, length / 2)], "the level shifter in its bay")
    assert math.hypot(abs(x) + span / 2, abs(y) + length / 2) < echo["cavity_d"] / 2


# A 3.5 mm TRS panel socket's makers' sizes (Thonkiconn PJ366ST): an M6 x 0.5 thread, panels
# up to 2.5 mm under its nut (8 mm across the flats); its body behind the panel 9 mm square.
JACK_THREAD = 6.0
JACK_NUT = 8.0            # its nut across the flats
JACK_PANEL_MAX = 2.5
JACK_FACE = 9.0


def check_jacks(solid, echo):
    """Each jack's thread passes through the wall where the model says, through a panel thin
    enough for its nut and thick enough to hold it, its square body in the seat behind."""
    outer = echo["outer_d"] / 2
    panel = echo["jack_panel"]
    assert 1.2 <= panel <= JACK_PANEL_MAX
    for angle in (echo["jack_in_angle"], echo["jack_out_angle"]):
        at = _jack_point(math.radians(angle), echo["jack_z"])
        thread = JACK_THREAD / 2 - 0.05
        empty(solid, [at(r, side, up) for r in (outer - panel + 0.05, outer - 0.05)
                      for side, up in ((0, 0), (thread, 0), (-thread, 0), (0, thread),
                                       (0, -thread))], "a jack's thread through the wall")
        nut = JACK_NUT / 2 + 0.5           # under the nut: material all round the hole
        solid_at(solid, [at(outer - panel / 2, side, up) for side, up in
                         ((nut, 0), (-nut, 0), (0, nut), (0, -nut))],
                 "the panel round a jack's thread")
        face = JACK_FACE / 2 - 0.05
        empty(solid, [at(outer - panel - 0.05 - depth, side, up) for depth in (0, 2, 4)
                      for side in (-face, 0, face) for up in (-face, 0, face)],
              "a jack's body behind the panel")
    assert echo["jack_gap"] > 0.5, "a jack's body runs into the board's cradle"


def _jack_point(a, z):
    """at(r, side, up): a point r from the axis along a jack's axis (angle a), `side` across
    it and `up` above it."""
    along, across = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))

    def at(r, side, up):
        return (r * along[0] + side * across[0], r * along[1] + side * across[1], z + up)
    return at


def check_encoder_mount(solid, echo, board, ring):
    check_common(solid, echo, echo["plate_t"])
    z = echo["plate_t"] / 2
    empty(solid, around(EC11_BUSHING / 2, z, 16), "the EC11's bushing")
    solid_at(solid, around(EC11_BUSHING / 2 + 2.5, z, 16, skip=[90]), "the plate round the nut")
    check_channel(solid, echo, z)


def channel(echo):
    """Angles for around()'s skip that cover the channel (15 degrees each side of each)."""
    half = echo["chan_deg"] / 2
    return [echo["wire_angle"] + a for a in (-half + 15, 0, half - 15)]


def check_channel(solid, echo, z):
    """The capacitor (the can's makers' size, not the model's) and the ring's wires go down
    through the channel at wire_angle: a circle as wide as the can fits in it, at the ring."""
    d = CAPACITOR[0]
    r = (echo["chan_r0"] + echo["chan_r1"]) / 2
    cx, cy, _ = polar(r, echo["wire_angle"], z)
    ring = [(cx + d / 2 * math.cos(math.radians(a)), cy + d / 2 * math.sin(math.radians(a)), z)
            for a in range(0, 360, 30)]
    assert echo["chan_r1"] - echo["chan_r0"] >= d + 0.4
    empty(solid, ring + [(cx, cy, z)], "the capacitor's channel")


def check_ring_holder(solid, echo, board, ring):
    od, inner = faceplate.RING_SIZES[ring]
    check_common(solid, echo, echo["holder_t"])
    assert min(solid.size[:2]) > od
    top, bottom = echo["holder_t"], echo["holder_floor"]
    skip = [90] + screw_angles(echo)
    # the ring: its outer and inner edges and its middle, anywhere round, up to the top
    for r in (od / 2 - 0.05, (od + inner) / 4, inner / 2 + 0.05):
        for z in (bottom + 0.05, top - 0.05):
            empty(solid, around(r, z, 36), "the ring at r=%.2f" % r)
    # held in a groove: a wall outside it, the boss inside, a floor under it
    solid_at(solid, around(od / 2 + 1.0, top - 0.3, skip=skip + channel(echo)),
             "the groove's outer wall")
    solid_at(solid, around(inner / 2 - 1.0, top - 0.3, skip=channel(echo)),
             "the boss in the ring's hole")
    solid_at(solid, around((od + inner) / 4, bottom / 2, skip=channel(echo)),
             "the floor under the ring")
    empty(solid, around(EC11_WASHER / 2, top / 2, 16), "the encoder's washer and nut")
    check_channel(solid, echo, bottom / 2)


def check_faceplate(solid, echo, board, ring):
    od, inner = faceplate.RING_SIZES[ring]
    cut = od + 2 * (faceplate.LABEL_GAP_MM + faceplate.MARGIN_MM)    # the paper's cut line
    t = echo["face_t"]
    check_common(solid, echo, t)
    assert min(solid.size[:2]) >= max(od, cut), "the faceplate is smaller than the paper"
    empty(solid, around(EC11_SHAFT / 2, t / 2, 16), "the shaft")
    # as printed, the paper's recess is on top (on the top face, or the faceplate printed top
    # face down when the paper goes under it), as wide as the paper, and not through
    recess = t - 0.15
    empty(solid, around(cut / 2 - 0.05, recess, 36), "the paper's recess")
    solid_at(solid, list(around(cut / 2 - 0.05, t / 3, skip=[90])) +
             list(around((od + inner) / 4, t / 3)), "the face over the ring")


CHECKS = {"base": check_base, "encoder_mount": check_encoder_mount,
          "ring_holder": check_ring_holder, "faceplate": check_faceplate}


def test_the_shipped_boards_are_the_ones_checked():
    names = set()
    for name in os.listdir(os.path.join(ROOT, "boards")):
        if name.endswith(".json"):
            with open(os.path.join(ROOT, "boards", name)) as f:
                if json.load(f)["platform"] not in ("sim", "web"):
                    names.add(name[:-5])
    assert names == set(FOOTPRINTS)


@pytest.mark.parametrize("board,leds", CONFIGS)
def test_parts_render_and_fit(rendered, board, leds):
    stl = "binstl" if leds == 60 else "asciistl"
    for part in PARTS:
        path, echo = rendered(part, stl, board=board, ring_leds=leds)
        # the model's ring table is faceplate.py's, so the paper face and the groove agree
        assert (echo["ring_od"], echo["ring_id"]) == faceplate.RING_SIZES[leds]
        with open(path, "rb") as f:
            assert (f.read(5) == b"solid") == (stl == "asciistl")
        triangles = read_stl(path)
        CHECKS[part](Solid(triangles), echo, board, leds)
        # nothing prints over air but the base's bridges (measured in test_the_bridges_...)
        assert len(overhangs(triangles)) == (3 if part == "base" else 0), part


def test_the_paper_face_can_go_under_the_faceplate(tmp_path):
    path, echo = render(tmp_path / "f.stl", "faceplate", paper_side="under", board="pico",
                        ring_leds=12)
    assert echo["paper_side"] == "under"
    check_faceplate(Solid(read_stl(path)), echo, "pico", 12)


def test_the_assembly_renders_with_a_ky040(tmp_path):
    path, echo = render(tmp_path / "all.stl", "all", encoder="ky040", board="qtpy_rp2040")
    solid = Solid(read_stl(path))
    stack = echo["base_h"] + echo["plate_t"] + echo["holder_t"] + echo["face_t"]
    assert solid.size[2] > stack and echo["screw_len"] >= echo["face_t"] + echo["holder_t"] \
        + echo["plate_t"] + 6
    # the KY-040 module (32 x 19 mm, shaft ~9 mm from one end, header pins beyond the other)
    # fits in the base whichever way it turns
    assert echo["cavity_d"] / 2 >= math.hypot(32 - 9 + 6, 19 / 2)


@pytest.mark.parametrize("define,message", [
    ({"board": "uno"}, 'board = uno is not one of ["pico", "qtpy", "esp32"]'),
    ({"ring_leds": 13}, "ring_leds = 13 is not one of [12, 16, 24, 60]"),
    ({"part": "lid"}, 'unknown part "lid"'),
])
def test_a_bad_parameter_is_named(tmp_path, define, message):
    params = dict(define)
    part = params.pop("part", "base")
    with pytest.raises(AssertionError, match=re.escape(message)):
        render(tmp_path / "x.stl", part, **params)


def test_the_readmes_figures_are_the_models():
    with open(enclosure.README, encoding="utf-8") as f:
        text = f.read()
    assert enclosure.readme_with_blocks(text) == text, \
        "regenerate: python -m host_tools.builds.enclosure --readme"


def readme():
    with open(enclosure.README, encoding="utf-8") as f:
        return f.read()


def test_the_bridges_the_readme_names_are_the_printed_bases(rendered):
    # measured in the STL, not read from the model: every face that prints over air, and
    # the span it bridges; the README says the same spans, and no others
    path, echo = rendered("base", board="pico", ring_leds=12)
    triangles = read_stl(path)
    spans = bridge_spans(Solid(triangles), triangles)
    said = [float(mm) for mm in re.findall(r"\((\d+(?:\.\d+)?) mm\)",
                                           readme().split("<!-- bridges")[1].split("<!--")[0])]
    assert spans == sorted(said) == [13.0, 23.0, 27.6], (spans, said)
    # without the OLED: its window and its glass's recess go, the USB opening's stays
    path, echo = rendered("base", "binstl", display=False)
    triangles = read_stl(path)
    assert bridge_spans(Solid(triangles), triangles) == [echo["bridge_usb"]] == [13.0]


def clock_angle(text, what):
    """The README's clock position of `what` as the model's angle (anticlockwise from 3
    o'clock, seen from above)."""
    hour = int(re.search(r"\| %s[^|]*\| (\d+) o'clock" % re.escape(what), text).group(1))
    return (3 - hour) * 30.0


def test_the_readme_puts_the_parts_where_the_stl_has_them(rendered):
    text = readme()
    path, echo = rendered("base", board="pico", ring_leds=12)
    base = Solid(read_stl(path))
    # the piezo: its collar round an empty pocket with a sound hole, at the README's hour (the
    # issue found "5 o'clock" where the model has 4)
    a = clock_angle(text, "the piezo's collar")
    r = math.hypot(echo["piezo_x"], echo["piezo_y"])
    x, y, _ = polar(r, a, 0)
    z = echo["floor_t"] + 0.5
    empty(base, [(x, y, z), (x + 3, y, echo["floor_t"] / 2)], "the piezo's pocket")
    solid_at(base, [(x + PIEZO_D / 2 + 0.9, y, z)], "the piezo's collar")
    assert abs(math.degrees(math.atan2(echo["piezo_y"], echo["piezo_x"])) % 360 - a % 360) < 1
    # the OLED's window through the wall, the USB opening
    for what, z in (("the OLED's window", echo["oled_window_z"]),
                    ("the USB opening", echo["usb_z"])):
        x, y, _ = polar(echo["outer_d"] / 2 - 0.5, clock_angle(text, what), z)
        empty(base, [(x, y, z)], what)
    # the level shifter's bay: its rim on the floor beside the board
    x, y, _ = polar(abs(echo["shifter_x"]), clock_angle(text, "the level shifter's bay"), 0)
    empty(base, [(x, y, echo["floor_t"] + 0.5)], "the level shifter's bay")
    solid_at(base, [(x + echo["shifter_w"] / 2 + 0.6, y, echo["floor_t"] + 0.6)],
             "the level shifter's rim")
    # the channel through the ring holder, and the screws
    path, echo = rendered("ring_holder", board="pico", ring_leds=12)
    holder = Solid(read_stl(path))
    r = (echo["chan_r0"] + echo["chan_r1"]) / 2
    a = clock_angle(text, "the channel")
    empty(holder, [polar(r, a, echo["holder_t"] / 2)], "the channel")
    solid_at(holder, [polar(r, a + 90, echo["holder_floor"] / 2)], "the holder's floor")
    hours = re.search(r"\| the three screws \| ([\d, and]+) o'clock", text).group(1)
    assert sorted((3 - int(h)) * 30 % 360 for h in re.findall(r"\d+", hours)) == \
        sorted(a % 360 for a in screw_angles(echo))
    # how far the ring turns in its holder: half the channel, as the README says
    assert "\u00b1%s\u00b0 on the 12-LED ring" % enclosure._mm(echo["chan_deg"] / 2) in " ".join(
        text.split())


# Bourns PEC11R-4220F-S0024's flatted ("F") shaft, as its datasheet draws it: 6 mm round,
# 4.5 mm across the flat, the flat running 7 mm down from the end.
SHAFT_D, SHAFT_FLAT, SHAFT_FLAT_LEN = 6.0, 4.5, 7.0


def d_shaft(turn=0.0, inset=0.03, n=48):
    """Points on the D shaft's outline (its flat towards +x, turned `turn` degrees), just
    inside it."""
    r, flat = SHAFT_D / 2 - inset, SHAFT_FLAT - SHAFT_D / 2 - inset
    points = []
    for i in range(n):
        a = 2 * math.pi * i / n
        x, y = r * math.cos(a), r * math.sin(a)
        if x > flat:
            x, y = flat, max(-r, min(r, y))
        t = math.radians(turn)
        points.append((x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)))
    return points


def test_the_knob_fits_the_encoders_shaft(tmp_path):
    path, echo = render(tmp_path / "knob.stl", "knob", "binstl")
    triangles = read_stl(path)
    knob = Solid(triangles)
    assert not overhangs(triangles)                  # printed top down: no support, no bridge
    assert knob.size[2] == pytest.approx(echo["knob_h"], abs=0.01)
    top = echo["knob_h"] - echo["knob_bore_depth"]   # the shaft's end rests here
    # pushed fully on, the shaft's flat part is in the D; its round part in the round bore
    flat = [top + f * min(echo["knob_flat_depth"], SHAFT_FLAT_LEN) for f in (0.05, 0.5, 0.95)]
    assert echo["knob_flat_depth"] <= SHAFT_FLAT_LEN - 0.5
    for z in flat:
        empty(knob, [(x, y, z) for x, y in d_shaft()], "the D shaft at z=%.1f" % z)
    round_part = top + SHAFT_FLAT_LEN + 0.5
    if round_part < echo["knob_h"]:
        empty(knob, [(x, y, round_part) for x, y in d_shaft(inset=0.03, n=48)] +
              [(SHAFT_D / 2 - 0.03, 0, round_part)], "the round shaft below its flat")
    # the bore's flat takes the shaft's: turned 10 degrees the shaft runs into it
    assert any(knob.inside(x, y, flat[1]) for x, y in d_shaft(turn=10))
    # a push fit, not loose
    assert SHAFT_D < echo["knob_bore_d"] <= SHAFT_D + 0.4
    solid_at(knob, [(echo["knob_bore_d"] / 2 + 0.3, 0.5, flat[1])], "the bore's wall")
    # deep enough to grip, and clear of the faceplate when pushed fully on
    assert echo["knob_bore_depth"] >= echo["knob_bore"]
    assert echo["knob_room"] - echo["knob_bore_depth"] >= 0.5
    solid_at(knob, [(0, 0, top / 2)], "the knob's top")


def test_the_parts_lists_encoder_leaves_room_for_a_knob(tmp_path):
    # boards/README.md names the encoder by its Bourns code: PEC11R-42LLF, LL its shaft's
    # length in mm from the mounting face. The model is drawn for that shaft.
    with open(os.path.join(ROOT, "boards", "README.md"), encoding="utf-8") as f:
        (code,) = set(re.findall(r"Bourns (PEC11R-42(\d\d)F-S0024)", f.read()))
    from host_tools.builds import enclosure
    sizes = enclosure.echo()
    assert sizes["shaft_len"] == int(code[1])
    assert sizes["knob_room"] == pytest.approx(
        int(code[1]) - sizes["plate_t"] - sizes["holder_t"] - sizes["face_t"])
    assert sizes["knob_room"] >= sizes["knob_bore"] >= 8
    # the 15 mm shaft the issue found: refused, naming the shaft
    with pytest.raises(enclosure.OpenScadError, match=r"shaft_len = 15 leaves only 5\.8 mm"):
        enclosure.echo(shaft_len=15)


def test_the_header_variant_makes_room_under_the_board(tmp_path):
    path, echo = render(tmp_path / "base.stl", "base", board="pico", ring_leds=12,
                        headers=True)
    assert echo["under"] >= 11            # 2.5 mm of header plastic, 6 mm pins, a joint
    check_base(Solid(read_stl(path)), echo, "pico", 12)
    # nothing under the board but its supports: the pins and the wires on them fit
    y0, z0 = echo["pcb_y"], echo["pcb_z"]
    empty(Solid(read_stl(path)), [(x, y0 + dy, z) for x in (-8, 0, 8) for dy in (-15, 0, 15)
                                  for z in (echo["floor_t"] + 0.5, z0 - 0.5)],
          "the room under the board for its header pins")


def test_the_capacitor_hangs_clear_of_the_board():
    from host_tools.builds import enclosure
    for board in FOOTPRINTS:
        sizes = enclosure.echo(board="qtpy" if board == "qtpy_rp2040" else board)
        # standing on its leads at the pads, the can reaches cap_below into the base: above
        # the board and what is on it, and the channel is as wide as the can
        top_of_board = sizes["pcb_z"] + sizes["pcb_t"] + 6.0
        assert sizes["base_h"] - sizes["cap_below"] > top_of_board, board
        assert sizes["chan_r1"] - sizes["chan_r0"] >= CAPACITOR[0] + 2 * 0.4


def test_make_stl_renders_the_four_parts_and_the_knob(tmp_path):
    from host_tools.builds import enclosure
    assert enclosure.main(["--stl", str(tmp_path), "--board", "qtpy", "--ring-leds", "12"]) == 0
    names = sorted(os.listdir(tmp_path))
    assert names == sorted(["chromawheel-qtpy-12-%s.stl" % p for p in PARTS] + ["knob.stl"])
    for name in names:
        assert Solid(read_stl(str(tmp_path / name))).size[0] > (15 if name == "knob.stl"
                                                                 else 80)
