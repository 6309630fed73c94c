"""Writes hardware/font.py: the display font, exported from MicroPython's own framebuf font.

ASCII 32-126 are drawn with `framebuf.FrameBuffer.text` on the real MicroPython unix port (its
built-in 8x8 font) and read back column by column; the four accidentals are drawn here.
Run: .venv/bin/python -m host_tools.builds.make_font  (tests/host/test_display.py checks that the
committed file is what this writes)."""

import os

from host_tools import ROOT
from host_tools.tools import micropython_path, run

TARGET = os.path.join(ROOT, "hardware", "font.py")

# Printed by the unix port: 95 glyphs of 8 column bytes, least significant bit at the top.
EXPORT = """
import framebuf
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
out = []
for code in range(32, 127):
    fb.fill(0)
    fb.text(chr(code), 0, 0, 1)
    out.append(bytes(buf).hex())
print("".join(out))
"""

# The music glyphs, 8x8, top row first: flat, sharp, double flat, double sharp.
ACCIDENTALS = (
    (".#......",
     ".#......",
     ".#......",
     ".#.##...",
     ".##..#..",
     ".#..#...",
     ".#.#....",
     ".##....."),
    ("...#.#..",
     "...#.##.",
     ".####...",
     "..##.#..",
     "...#.##.",
     ".####...",
     "..##.#..",
     "...#.#.."),
    ("#...#...",
     "#...#...",
     "#...#...",
     "##..##..",
     "#.#.#.#.",
     "#.#.#.#.",
     "##..##..",
     "........"),
    ("........",
     "##...##.",
     "##...##.",
     "..#.#...",
     "...#....",
     "..#.#...",
     "##...##.",
     "##...##."),
)


def columns(rows):
    """8 rows of '#'/'.' -> 8 column bytes, bit 0 the top row."""
    out = bytearray(8)
    for y, row in enumerate(rows):
        for x, pixel in enumerate(row):
            if pixel == "#":
                out[x] |= 1 << y
    return bytes(out)


def ascii_glyphs():
    result = run([micropython_path(), "-c", EXPORT], "the unix port's font", 60, text=True,
                 check=True)
    data = bytes.fromhex(result.stdout.strip())
    assert len(data) == 95 * 8
    return data


def _literal(name, data):
    lines = ["%s = (" % name]
    for at in range(0, len(data), 16):
        lines.append("    %r" % data[at:at + 16])
    lines.append(")")
    return "\n".join(lines)


def source():
    accidentals = b"".join(columns(rows) for rows in ACCIDENTALS)
    return '''"""The display font, made by host_tools/builds/make_font.py (do not edit by hand).

8x8 glyphs, one byte a column, least significant bit at the top: the SSD1306's page layout,
so a glyph is copied into the display buffer as it is. ASCII 32-126 are MicroPython's
built-in framebuf font (MIT licence), read back from the unix port; codes 1-4 are the
accidentals: flat, sharp, double flat, double sharp."""

WIDTH = 8
FLAT = "\\x01"
SHARP = "\\x02"
DOUBLE_FLAT = "\\x03"
DOUBLE_SHARP = "\\x04"

%s

%s


def glyph(code):
    """(table, offset) of a character code's 8 column bytes; unknown codes draw as '?'."""
    if 32 <= code < 127:
        return ASCII, (code - 32) * 8
    if 1 <= code <= 4:
        return ACCIDENTALS, (code - 1) * 8
    return ASCII, (ord("?") - 32) * 8
''' % (_literal("ASCII", ascii_glyphs()), _literal("ACCIDENTALS", accidentals))


def main():
    with open(TARGET, "w") as f:
        f.write(source())
    print("wrote %s" % TARGET)


if __name__ == "__main__":
    main()
