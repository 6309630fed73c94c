"""Text rows on a 128x64 monochrome panel (SSD1306 page layout: a row of 8x8 glyphs is one
page, so a glyph's column bytes are copied into the buffer as they are).

The panel adapters (hardware/mp_devices.py, cp_devices.py, sim.py) give `buffer` (the
pixels, pages of `width` bytes) and `write_pages(first, last)`. Only the rows that changed
are redrawn and only their pages are sent: a one-row change costs 128 bytes on the I2C bus,
not 1024."""

from hardware.font import WIDTH, glyph

# SSD1306 commands the adapters send beyond their drivers' own: the column and page window a
# data write fills (horizontal addressing, as both drivers set up).
_SET_COL_ADDR = 0x21
_SET_PAGE_ADDR = 0x22


def set_window(write_cmd, width, first, last):
    """Point the panel's next data write at pages first..last, all columns."""
    for byte in (_SET_COL_ADDR, 0, width - 1, _SET_PAGE_ADDR, first, last):
        write_cmd(byte)


class TextDisplay:
    def __init__(self, panel, width, height):
        self.panel = panel
        self.width = width
        self.columns = width // WIDTH
        self.rows = height // 8
        self._shown = [""] * self.rows
        self.writes = 0                       # pages sent, for the benchmark

    def show(self, rows):
        """Draw every row that changed, now (tests and benchmarks; the app draws them a row a
        pass: draw_next)."""
        while self.draw_next(rows):
            pass

    def draw_next(self, rows):
        """Draw the first row that differs from `rows` and send its page: a redraw split into
        short pieces (firmware/services.py calls it a row a pass). True while more rows differ."""
        drawn = False
        for r in range(self.rows):
            text = rows[r] if r < len(rows) else ""
            if text != self._shown[r]:
                if drawn:
                    return True
                self._draw(r, text)
                self._shown[r] = text
                self.panel.write_pages(r, r)
                self.writes += 1
                drawn = True
        return False

    def _draw(self, page, text):
        buf = self.panel.buffer
        at = page * self.width
        end = at + self.width
        for ch in text[:self.columns]:
            table, offset = glyph(ord(ch))
            for i in range(WIDTH):
                buf[at + i] = table[offset + i]
            at += WIDTH
        while at < end:
            buf[at] = 0
            at += 1
