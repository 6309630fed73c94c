"""A meld set as round MELD cards to print, like the game's: each card a wheel of 12 sectors, the
root's at the top, the degrees in the sectors the meld needs coloured by its kind (blue
intervals, orange chords, green scales), optional ones uncoloured in parentheses, the meld's
name in the middle, a line under the card saying its short name and degrees; 6 or 8 cards to an
A4 or Letter page, each with cut marks at its corners.

One layout for both ways out: pages of shapes in millimetres (pages()), drawn as SVG (svg(),
the studio's print, run by the page's MicroPython) or as PDF by fpdf2 (host_tools/cli's
`meldset cards`). Plain Python that MicroPython runs too: no f-strings, dataclasses or typing.

Shapes: ("polygon", points, fill), ("circle", cx, cy, r, dashed), ("line", x1, y1, x2, y2),
("rect", x, y, w, h) filled black (a QR code's module), ("text", x, y, size, text, bold) with
the text centred on (x, y), size in mm (a cap height of about 0.7 of it). With the page's
address, `meldset cards --site URL` adds a last page with the set's share link as a QR code
(share_page), as the studio's print does. Both write the degrees with the music signs ♭ ♯ 𝄫 𝄪;
the PDF draws them in the glyphs of Noto Music the page shows (host_tools/fonts/)."""

import math

from core import degrees
from core.meldset import KINDS

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
LAYOUTS = {6: (2, 3), 8: (2, 4)}               # cards a page: columns, rows
KIND_FILLS = ("#5b9cf0", "#e8a33d", "#59c27a")  # the studio's card: intervals, chords, scales
MARGIN_MM = 8.0            # round the page: what printers leave
CAPTION_MM = 7.0           # under each card: its short name and degrees
CUT_MM = 4.0               # the cut marks' length
INNER = 0.40               # the middle disc (the name) as a share of the card's radius
ARC_STEPS = 6
PT_PER_MM = 72 / 25.4


class CardError(ValueError):
    """A paper or a count of cards a page that there is no layout for."""


def layout(paper, per_page):
    """(page width, height, columns, rows, cell width, height) in mm."""
    if paper not in PAPERS:
        raise CardError("paper %r: a4 or letter" % paper)
    if per_page not in LAYOUTS:
        raise CardError("%r cards a page: 6 or 8" % per_page)
    width, height = PAPERS[paper]
    columns, rows = LAYOUTS[per_page]
    return (width, height, columns, rows, (width - 2 * MARGIN_MM) / columns,
            (height - 2 * MARGIN_MM) / rows)


def degree_text(code):
    """'b3', '(5)': as the set writes a degree."""
    word = degrees.to_text(code)
    return "(" + word + ")" if degrees.is_optional(code) else word


def sectors_of(codes):
    """{sector: (label, optional)} of a meld's degrees, the octave with the root ('1 8')."""
    out = {}
    for code in codes:
        sector = degrees.semitones(code) % 12
        word = degrees.to_text(code)
        optional = degrees.is_optional(code)
        if sector in out:
            out[sector] = (out[sector][0] + " " + word, out[sector][1])
        else:
            out[sector] = (word, optional)
    return out


def _point(cx, cy, radius, angle):
    a = math.radians(angle)
    return (cx + radius * math.sin(a), cy - radius * math.cos(a))


def _wedge(cx, cy, inner, outer, sector):
    first = sector * 30 - 15
    points = [_point(cx, cy, outer, first + 30 * k / ARC_STEPS) for k in range(ARC_STEPS + 1)]
    points += [_point(cx, cy, inner, first + 30 - 30 * k / ARC_STEPS)
               for k in range(ARC_STEPS + 1)]
    return points


def _lines(name, width):
    """The name in lines of at most `width` characters (at most 3, the last cut with '…')."""
    words = name.split()
    lines = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        lines.append(line)
    if len(lines) > 3:
        lines = lines[:2] + [lines[2][:width - 1] + "\u2026"]
    return lines


def card(meld_id, name, kind, codes, cx, cy, radius):
    """The shapes of one card centred on (cx, cy)."""
    shapes = []
    inner = radius * INNER
    marked = sectors_of(codes)
    fill = KIND_FILLS[kind]
    for sector in range(12):
        label, optional = marked.get(sector, (None, False))
        shapes.append(("polygon", _wedge(cx, cy, inner, radius, sector),
                       fill if label is not None and not optional else None))
    shapes.append(("circle", cx, cy, inner, False))
    size = radius * 0.16
    for sector in range(12):
        if sector in marked:
            label, optional = marked[sector]
            x, y = _point(cx, cy, (inner + radius) / 2, sector * 30)
            shapes.append(("text", x, y, size, "(" + label + ")" if optional else label,
                           not optional))
    lines = _lines(name, 11)
    name_size = size * 0.72
    step = name_size * 1.2
    top = cy - inner * 0.12 - step * (len(lines) - 1) / 2
    for k in range(len(lines)):
        shapes.append(("text", cx, top + k * step, name_size, lines[k], True))
    shapes.append(("text", cx, cy + inner * 0.74, size * 0.55, KINDS[kind], False))
    words = [degree_text(c) for c in codes]
    shapes.append(("text", cx, cy + radius + CAPTION_MM * 0.55, 3.2,
                   "%s: %s" % (meld_id, " ".join(words)), False))
    return shapes


def _cut_marks(cx, cy, radius):
    """An L at each corner of the card's square: cut round the circle inside them."""
    shapes = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            x = cx + sx * radius
            y = cy + sy * radius
            shapes.append(("line", x, y, x - sx * CUT_MM, y))
            shapes.append(("line", x, y, x, y - sy * CUT_MM))
    return shapes


def pages(ms, paper="a4", per_page=6):
    """The set `ms` (core.meldset.MeldSet) as pages of shapes, its melds in the set's order."""
    width, height, columns, rows, cell_w, cell_h = layout(paper, per_page)
    radius = min(cell_w - 2 * CUT_MM, cell_h - CAPTION_MM - 2 * CUT_MM) / 2
    out = []
    for i in range(ms.count):
        at = i % per_page
        if at == 0:
            out.append([])
        column = at % columns
        row = at // columns
        cx = MARGIN_MM + cell_w * (column + 0.5)
        cy = MARGIN_MM + cell_h * row + CUT_MM + radius + (cell_h - CAPTION_MM - 2 * CUT_MM
                                                              - 2 * radius) / 2
        page = out[-1]
        page.extend(_cut_marks(cx, cy, radius))
        page.append(("circle", cx, cy, radius, True))
        page.extend(card(ms.meld_id(i), ms.meld_name(i), ms.kind(i), ms.meld_codes(i), cx, cy,
                         radius))
    return out


def share_link(source, site):
    """The page's share link for a set (a JSON source, as a dict): `site`, then #s= and the
    set's JSON without its format and version, compact, raw deflate, base64url (what the page's
    studio_link.js makes and reads). Host only."""
    import base64
    import json
    import zlib
    rest = dict((k, v) for k, v in source.items() if k not in ("format", "version"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(rest, ensure_ascii=False, separators=(",", ":"))
                             .encode("utf-8")) + packer.flush()
    return site + "#s=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def share_page(title, link, paper="a4"):
    """A page with the set's title, its share link as a QR code (drawn module by module) and
    as text: students scan it to open the set on the wheel. Host only (segno)."""
    import segno
    width, height = PAPERS[paper]
    shapes = []
    lines = _lines(title, 44)
    for k in range(len(lines)):
        shapes.append(("text", width / 2, 22 + 8 * k, 6, lines[k], True))
    shapes.append(("text", width / 2, 22 + 8 * len(lines) + 4, 4.5,
                   "Scan to open this set on the wheel (read-only)", False))
    matrix = segno.make(link, error="m", micro=False).matrix
    size = 80.0
    cell = size / (len(matrix) + 8)
    left = (width - size) / 2 + 4 * cell
    top = 55 + 4 * cell
    for row, line in enumerate(matrix):
        for column, dark in enumerate(line):
            if dark:
                shapes.append(("rect", left + column * cell, top + row * cell, cell, cell))
    y = 55 + size + 10
    for at in range(0, len(link), 90):
        shapes.append(("text", width / 2, y, 2.6, link[at:at + 90], False))
        y += 4
    return shapes


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _signs(text):
    """A degree with the display's signs: b3 -> ♭3, #11 -> ♯11, bb7 -> 𝄫7."""
    out = []
    for word in text.split(" "):
        body = word.strip("()")
        head = body.rstrip("0123456789")
        if head and len(head) < len(body) and head in ("b", "#", "bb", "##"):
            sign = {"b": "\u266d", "#": "\u266f", "bb": "\U0001d12b", "##": "\U0001d12a"}[head]
            word = word.replace(body, sign + body[len(head):])
        out.append(word)
    return " ".join(out)


def svg(shapes, paper="a4", signs=True):
    """A page of shapes as SVG text, 1:1 in mm (the degrees with music signs when `signs`)."""
    width, height = PAPERS[paper]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" '
             'viewBox="0 0 %g %g" font-family="Noto Music, sans-serif">' % (
                 width, height, width, height)]
    for shape in shapes:
        kind = shape[0]
        if kind == "polygon":
            points = " ".join("%.2f,%.2f" % p for p in shape[1])
            parts.append('<polygon points="%s" fill="%s" stroke="#000" stroke-width="0.3"/>'
                         % (points, shape[2] or "#fff"))
        elif kind == "circle":
            parts.append('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s" stroke="#000" '
                         'stroke-width="0.3"%s/>' % (shape[1], shape[2], shape[3],
                                                    "none" if shape[4] else "#fff",
                                                    ' stroke-dasharray="1.5 1"' if shape[4]
                                                    else ""))
        elif kind == "line":
            parts.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#000" '
                         'stroke-width="0.25"/>' % shape[1:])
        elif kind == "rect":
            parts.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f"/>' % shape[1:])
        else:
            x, y, size, text, bold = shape[1:]
            shown = _signs(text) if signs else text
            parts.append('<text x="%.2f" y="%.2f" font-size="%.2f" text-anchor="middle" '
                         'dominant-baseline="central"%s>%s</text>' % (
                             x, y, size, ' font-weight="700"' if bold else "", _escape(shown)))
    parts.append("</svg>")
    return "\n".join(parts)


# The PDF's text font (Helvetica, a core font) holds Latin-1: the signs are drawn in Noto
# Music's glyphs, the page's own five, sized for a line of Helvetica (host_tools/fonts/, made by
# host_tools/builds/make_card_signs.py); other characters become what the set's JSON writes.
SIGNS = "\u266d\u266e\u266f\U0001d12a\U0001d12b"
SIGNS_FONT = "card-signs.ttf"
_PLAIN = {"\u266d": "b", "\u266f": "#", "\U0001d12b": "bb", "\U0001d12a": "x", "\u2026": "...",
          "\u2013": "-", "\u2014": "-", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


def latin1(text):
    """Text the PDF's core font can write: the signs as the JSON writes them, the rest of
    Latin-1 kept, anything else '?'."""
    out = []
    for ch in text:
        ch = _PLAIN.get(ch, ch)
        out.append(ch if all(ord(c) < 256 for c in ch) else "?")
    return "".join(out)


def runs(text):
    """The text in runs of signs and of the rest: 'm2: 1 ♭2' -> [('m2: 1 ', False), ('♭', True),
    ('2', False)]."""
    out = []
    for ch in text:
        sign = ch in SIGNS
        if out and out[-1][1] == sign:
            out[-1] = (out[-1][0] + ch, sign)
        else:
            out.append((ch, sign))
    return out


def pdf(all_pages, paper="a4", title=""):
    """The pages as a PDF (bytes), drawn by fpdf2 (host only: the page prints the SVG)."""
    import os

    from fpdf import FPDF
    width, height = PAPERS[paper]
    doc = FPDF(unit="mm", format=(width, height))
    doc.add_font("signs", "", os.path.join(os.path.dirname(__file__), "fonts", SIGNS_FONT))
    doc.set_auto_page_break(False)
    doc.set_title(latin1(title))
    doc.set_creator("chromawheel meldset cards")
    doc.set_line_width(0.3)
    for shapes in all_pages:
        doc.add_page()
        for shape in shapes:
            _draw(doc, shape)
    return bytes(doc.output())


def _draw(doc, shape):
    kind = shape[0]
    if kind == "polygon":
        fill = shape[2] or "#ffffff"
        doc.set_fill_color(int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16))
        doc.polygon(shape[1], style="DF")
    elif kind == "circle":
        cx, cy, r, dashed = shape[1:]
        if dashed:
            doc.set_dash_pattern(dash=1.5, gap=1)
            doc.circle(x=cx, y=cy, radius=r, style="D")
            doc.set_dash_pattern()
        else:
            doc.set_fill_color(255, 255, 255)
            doc.circle(x=cx, y=cy, radius=r, style="DF")
    elif kind == "line":
        doc.line(*shape[1:])
    elif kind == "rect":
        doc.set_fill_color(0, 0, 0)
        doc.rect(*shape[1:], style="F")
    else:
        _text(doc, *shape[1:])


def _text(doc, x, y, size, text, bold):
    """The text centred on (x, y): its baseline a third of the size below it, each run of
    signs in the signs' font at the text's size."""
    points = size * PT_PER_MM
    parts = []
    for part, sign in runs(_signs(text)):
        part = part if sign else latin1(part)
        _font(doc, sign, bold, points)
        parts.append((part, sign, doc.get_string_width(part)))
    at = x - sum(w for _, _, w in parts) / 2
    for part, sign, w in parts:
        _font(doc, sign, bold, points)
        doc.text(at, y + size * 0.35, part)
        at += w


def _font(doc, sign, bold, points):
    if sign:
        doc.set_font("signs", "", points)
    else:
        doc.set_font("helvetica", "B" if bold else "", points)
