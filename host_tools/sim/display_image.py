"""The simulated display's pixels, read back on the host: as text (each 8x8 cell matched
against the firmware's own font, so a test sees exactly what is drawn, not what was meant),
as a picture (SVG), and as terminal lines."""

from hardware import font

# The music glyphs as the text reads them.
ACCIDENTAL_TEXT = {font.FLAT: "\u266d", font.SHARP: "\u266f",
                   font.DOUBLE_FLAT: "\U0001d12b", font.DOUBLE_SHARP: "\U0001d12a"}


def _glyph_table():
    table = {}
    for code in list(range(32, 127)) + [1, 2, 3, 4]:
        data, at = font.glyph(code)
        cell = bytes(data[at:at + font.WIDTH])
        char = chr(code)
        table.setdefault(cell, ACCIDENTAL_TEXT.get(char, char))
    return table


GLYPHS = _glyph_table()


class DisplayImage:
    def __init__(self, config):
        self.width = config["width"]
        self.height = config["height"]
        self.pixels = bytearray(self.width * self.height // 8)

    def write(self, first, last, data):
        """Pages first..last as the firmware sent them."""
        self.pixels[first * self.width:(last + 1) * self.width] = data

    def rows(self):
        """The text on the display, a string a row, trailing blank rows left out; a cell that
        is no glyph of the font reads as '\ufffd'."""
        out = []
        for page in range(self.height // 8):
            at = page * self.width
            text = ""
            for x in range(0, self.width, font.WIDTH):
                cell = bytes(self.pixels[at + x:at + x + font.WIDTH])
                text += GLYPHS.get(cell, "\ufffd")
            out.append(text.rstrip())
        while out and not out[-1]:
            out.pop()
        return out

    def lit(self, x, y):
        return bool(self.pixels[(y // 8) * self.width + x] >> (y % 8) & 1)

    def svg(self, scale=4):
        """The panel as an SVG picture: light-blue pixels on black, as a 0.96" module."""
        w, h = self.width * scale, self.height * scale
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
                 'viewBox="0 0 %d %d">' % (w + 16, h + 16, w + 16, h + 16),
                 '<rect width="%d" height="%d" rx="6" fill="#111"/>' % (w + 16, h + 16)]
        for y in range(self.height):
            x = 0
            while x < self.width:           # one rectangle per run of lit pixels
                if not self.lit(x, y):
                    x += 1
                    continue
                start = x
                while x < self.width and self.lit(x, y):
                    x += 1
                parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#9fe3ff"/>' % (
                    8 + start * scale, 8 + y * scale, (x - start) * scale, scale))
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def terminal_lines(self):
        """The text in a box, for the terminal simulator."""
        columns = self.width // font.WIDTH
        rows = self.rows() + [""] * (self.height // 8 - len(self.rows()))
        return (["\u250c" + "\u2500" * columns + "\u2510"]
                + ["\u2502" + row.ljust(columns) + "\u2502" for row in rows]
                + ["\u2514" + "\u2500" * columns + "\u2518"])
