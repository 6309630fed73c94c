"""Writes host_tools/fonts/card-signs.ttf: the music signs of the printed cards (`meldset
cards`), the page's own five glyphs of Noto Music (♭ ♮ ♯ 𝄪 𝄫, host_tools/web/site/fonts/) made
to sit in a line of Helvetica at the same font size.

Noto Music draws them for a staff: beside a bold digit, at the text's size, a flat is thin and
short and a sharp hangs below the line. Here each is scaled by SCALE and moved up or down so that
the middle of its ink is the middle of Helvetica's capitals, and the font's ascent and descent
are Helvetica's. Drawn at the text's own size and baseline, a sign and its degree stay one word
for a PDF reader (poppler's pdftotext reads "♭3", not "♭" and "3"), and the PDF says which
characters they are (fpdf2 writes the font's ToUnicode map).

Run: .venv/bin/python -m host_tools.builds.make_card_signs  (reading WOFF2 needs the brotli
package: pip install brotli; the cards themselves need only the TrueType file this writes)."""

import os
import sys

from host_tools import ROOT
from host_tools.errors import UserError

SOURCE = os.path.join(ROOT, "host_tools", "web", "site", "fonts", "noto-music-signs.woff2")
TARGET = os.path.join(ROOT, "host_tools", "fonts", "card-signs.ttf")
SCALE = 1.25
CAP_MIDDLE = 359            # Helvetica's capitals and figures: 718 of 1000 units, halved
ASCENT, DESCENT = 718, -207  # Helvetica's, in its AFM
FAMILY = "ChromaWheel Card Signs"
HINTING = ("fpgm", "prep", "cvt ", "gasp")


def _moved(font, name):
    """The glyph `name` scaled and moved: its ink's middle at the capitals' middle."""
    from fontTools.pens.transformPen import TransformPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    glyf = font["glyf"]
    old = glyf[name]
    shift = CAP_MIDDLE * _em(font) - (old.yMin + old.yMax) / 2 * SCALE
    glyphs = font.getGlyphSet()
    pen = TTGlyphPen(glyphs)
    glyphs[name].draw(TransformPen(pen, (SCALE, 0, 0, SCALE, 0, shift)))
    glyph = pen.glyph()
    glyph.recalcBounds(glyf)
    advance = font["hmtx"][name][0]
    return glyph, (round(advance * SCALE), glyph.xMin)


def _em(font):
    """The font's units in a thousandth of an em (Helvetica's)."""
    return font["head"].unitsPerEm / 1000


def build(source=SOURCE):
    """The signs' font as a fontTools TTFont."""
    from fontTools.ttLib import TTFont
    try:
        font = TTFont(source, recalcTimestamp=False)
    except ImportError as err:             # fontTools reads WOFF2 through brotli
        raise UserError("%s: %s (pip install brotli)" % (source, err)) from None
    font.flavor = None
    for table in HINTING:
        if table in font:
            del font[table]
    names = sorted(set(font.getBestCmap().values()))
    moved = dict((name, _moved(font, name)) for name in names)
    for name, (glyph, metrics) in moved.items():
        font["glyf"][name] = glyph
        font["hmtx"][name] = metrics
    ascent, descent = round(ASCENT * _em(font)), round(DESCENT * _em(font))
    font["hhea"].ascent, font["hhea"].descent = ascent, descent
    os2 = font["OS/2"]
    os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap = ascent, descent, 0
    os2.usWinAscent, os2.usWinDescent = ascent, -descent
    os2.sCapHeight = round(2 * CAP_MIDDLE * _em(font))
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID in (3, 4):
            record.string = FAMILY + " Regular"
        elif record.nameID == 6:
            record.string = FAMILY.replace(" ", "") + "-Regular"
    return font


def main():
    try:
        font = build()
    except UserError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(TARGET), exist_ok=True)
    font.save(TARGET)
    print("wrote %s (%d bytes)" % (TARGET, os.path.getsize(TARGET)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
