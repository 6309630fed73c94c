"""A picture's own geometry, as headless Chromium lays it out: each text's box (its glyphs),
each stroked line's segments (polylines, lines and paths, with their stroke widths and
colours), in the SVG's user units. What the picture tests hold every picture to: nothing cut
(every text inside the canvas), nothing overlapping (no two texts, no text and a line), nothing
hidden under the STEMMA QT cable (no other wire turns inside it, no text on it)."""

import math

GEOMETRY = """() => {
  const svg = document.querySelector('svg');
  const box = svg.viewBox.baseVal;
  const toUser = svg.getScreenCTM().inverse();
  const user = (el, x, y) => {
    const m = toUser.multiply(el.getScreenCTM());
    return [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  };
  const part = (el) => { const p = el.closest('[data-part]'); return p ? p.dataset.part : ''; };
  const texts = [];
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    if (!b.width) continue;
    const c = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
               [b.x + b.width, b.y + b.height]].map(([x, y]) => user(t, x, y));
    const xs = c.map(p => p[0]), ys = c.map(p => p[1]);
    texts.push({text: t.textContent, part: part(t), fill: getComputedStyle(t).fill,
                box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]});
  }
  const strokes = [];
  for (const el of svg.querySelectorAll('polyline, line, path')) {
    const style = getComputedStyle(el);
    if (style.stroke === 'none' || !parseFloat(style.strokeWidth)) continue;
    let points = [];
    if (el.tagName === 'polyline') {
      points = Array.from(el.points, p => user(el, p.x, p.y));
    } else if (el.tagName === 'line') {
      points = [user(el, el.x1.baseVal.value, el.y1.baseVal.value),
                user(el, el.x2.baseVal.value, el.y2.baseVal.value)];
    } else {
      const length = el.getTotalLength();
      const steps = Math.max(2, Math.ceil(length / 3));
      for (let i = 0; i <= steps; i++) {
        const p = el.getPointAtLength(length * i / steps);
        points.push(user(el, p.x, p.y));
      }
    }
    strokes.push({tag: el.tagName, part: part(el), points, width: parseFloat(style.strokeWidth),
                  colour: style.stroke, cable: el.dataset.cableWire || null,
                  closed: el.tagName === 'path' && /z\\s*$/i.test(el.getAttribute('d'))});
  }
  return {viewBox: [box.x, box.y, box.width, box.height], texts, strokes};
}"""


def measure(page, svg_text):
    """The picture's geometry: {"viewBox", "texts": [{text, part, box}], "strokes": [{tag, part,
    points, width, colour, cable}]}."""
    page.set_content(svg_text)
    return page.evaluate(GEOMETRY)


def _overlap(a, b, margin=0.0):
    return (a[0] < b[2] - margin and b[0] < a[2] - margin and a[1] < b[3] - margin
            and b[1] < a[3] - margin)


def _segment_hits_box(p, q, box, pad):
    """Does the segment p-q, `pad` wide each side, cross the box?"""
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    if (max(p[0], q[0]) < x0 - 1e-6 or min(p[0], q[0]) > x1 + 1e-6
            or max(p[1], q[1]) < y0 - 1e-6 or min(p[1], q[1]) > y1 + 1e-6):
        return False                  # the segment's every sample lies outside the box
    steps = max(1, int(math.hypot(q[0] - p[0], q[1] - p[1]) / 0.5))
    for i in range(steps + 1):
        x = p[0] + (q[0] - p[0]) * i / steps
        y = p[1] + (q[1] - p[1]) * i / steps
        if x0 < x < x1 and y0 < y < y1:
            return True
    return False


def segments(stroke):
    pts = stroke["points"]
    return zip(pts, pts[1:])


def cut(geometry):
    """Texts whose box leaves the canvas."""
    x, y, w, h = geometry["viewBox"]
    return ["%s at %s" % (t["text"], [round(v) for v in t["box"]]) for t in geometry["texts"]
            if t["box"][0] < x or t["box"][1] < y or t["box"][2] > x + w or t["box"][3] > y + h]


def overlapping_texts(geometry, margin=0.5):
    texts = geometry["texts"]
    return ["%r and %r" % (a["text"], b["text"]) for i, a in enumerate(texts)
            for b in texts[i + 1:] if _overlap(a["box"], b["box"], margin)]


def texts_on_lines(geometry, margin=0.5):
    """Texts a stroked line runs through (its stroke's width counted)."""
    found = []
    for t in geometry["texts"]:
        box = [t["box"][0] + margin, t["box"][1] + margin, t["box"][2] - margin,
               t["box"][3] - margin]
        for s in geometry["strokes"]:
            if any(_segment_hits_box(p, q, box, s["width"] / 2) for p, q in segments(s)):
                found.append("%r crossed by a %s (%s)" % (t["text"], s["tag"], s["part"] or
                                                          s["colour"]))
                break
    return found


def under_the_cable(geometry):
    """What the STEMMA QT cable would hide: another wire's corner inside its band, a text on
    it."""
    cables = [s for s in geometry["strokes"] if s["part"] == "stemma-cable"]
    found = []
    for cable in cables:
        for s in geometry["strokes"]:
            if s is cable or s["cable"]:
                continue
            corners = s["points"][1:-1] if s["tag"] == "polyline" else []
            found += ["a %s's corner at %s" % (s["colour"], [round(v) for v in c])
                      for c in corners if _in_band(c, cable)]
        for t in geometry["texts"]:
            if any(_segment_hits_box(p, q, t["box"], cable["width"] / 2)
                   for p, q in segments(cable)):
                found.append("%r on the cable" % t["text"])
    return found


def _in_band(point, stroke):
    return any(_distance(point, p, q) < stroke["width"] / 2 for p, q in segments(stroke))


def _distance(point, p, q):
    (x, y), (x1, y1), (x2, y2) = point, p, q
    dx, dy = x2 - x1, y2 - y1
    if not dx and not dy:
        return math.hypot(x - x1, y - y1)
    t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)
