"""Copies of the pictures that print anywhere: a PNG and a PDF of every wiring picture
(boards/wiring/*.svg) and of each shipped board's faceplate, rendered by headless Chromium (the
browser the tests measure the pictures in), into build/pictures/, each named after its SVG.

    python -m host_tools.builds.pictures [-o build/pictures]      (make pictures)

The PDF is one page the picture's own size: the faceplate's is 1:1 in millimetres (print it at
100 %, its 20 mm scale bar measures 20 mm); a wiring picture's page is its size at 96 px an
inch (print it "fit to page"). The PNG is 2 pixels a px for a wiring picture, 300 dpi for a
faceplate. Some tools draw these SVGs wrongly (ImageMagick closes the wires' polylines and
drops the sharp and flat signs): these copies are the ones to print from."""

import argparse
import glob
import os
import re
import sys

from host_tools import shipped
from host_tools.errors import UserError

OUTPUT = os.path.join("build", "pictures")
WIRING = shipped("boards", "wiring")
FACEPLATES = ("pico", "qtpy_rp2040", "esp32")
WIRING_SCALE = 2              # PNG pixels a px
FACEPLATE_DPI = 300
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>
@page { size: %s %s; margin: 0 }
html, body { margin: 0; padding: 0; background: white }
svg { display: block }
</style></head><body>%s</body></html>"""


def size(svg):
    """(width, height, unit) the SVG declares: (1060, 1948, 'px'), (93.0, 112.0, 'mm')."""
    found = re.search(r'<svg[^>]*\bwidth="([\d.]+)(mm|px)?"[^>]*\bheight="([\d.]+)(mm|px)?"', svg)
    if found is None:
        raise UserError("the picture names no width and height: nothing to size its copies by")
    return float(found.group(1)), float(found.group(3)), found.group(2) or "px"


def scale(unit):
    """PNG pixels a unit of the picture's size."""
    return FACEPLATE_DPI / 25.4 if unit == "mm" else WIRING_SCALE


def sources(folder):
    """[(name, svg text)]: every wiring picture, and each shipped board's faceplate (written
    into `folder` as SVG too: it is drawn from the board file, not kept in the repository)."""
    from hardware import board as board_file

    from host_tools.builds import faceplate
    from host_tools.device.files import board_path
    out = []
    for path in sorted(glob.glob(os.path.join(WIRING, "*.svg"))):
        with open(path, encoding="utf-8") as f:
            out.append((os.path.basename(path)[:-4], f.read()))
    for name in FACEPLATES:
        text = faceplate.svg(board_file.load(board_path(name)))
        out.append(("faceplate-%s" % name, text))
        with open(os.path.join(folder, "faceplate-%s.svg" % name), "w", encoding="utf-8") as f:
            f.write(text)
    return out


def render(page, svg, png_path, pdf_path):
    """One picture's PNG and PDF, the SVG's own size (the page's context sets the PNG's
    pixels a CSS px: scale(), in CSS px)."""
    width, height, unit = size(svg)
    css = (width * 96 / 25.4, height * 96 / 25.4) if unit == "mm" else (width, height)
    page.set_viewport_size({"width": int(css[0] + 0.999), "height": int(css[1] + 0.999)})
    html = PAGE % ("%.3f%s" % (width, unit), "%.3f%s" % (height, unit), svg)
    page.set_content(html)
    page.locator("svg").screenshot(path=png_path, scale="device", animations="disabled")
    page.pdf(path=pdf_path, prefer_css_page_size=True, print_background=True)


def make(folder=OUTPUT, progress=print, chrome=None):
    """Write NAME.png and NAME.pdf for every picture into `folder`; their paths. `chrome`: a
    running Chromium (Playwright's Browser) to use, else one is started."""
    from host_tools.web import browser
    os.makedirs(folder, exist_ok=True)
    if chrome is None:
        with browser.chromium() as started:
            return make(folder, progress, started)
    written = []
    pages = {}          # one page a unit (its pixel density): a context a picture cost twice
    try:                # the CPU, a renderer process started for each
        for name, svg in sources(folder):
            _, _, unit = size(svg)
            if unit not in pages:
                pages[unit] = chrome.new_context(device_scale_factor=scale(unit) / (
                    96 / 25.4 if unit == "mm" else 1)).new_page()
            png, pdf = (os.path.join(folder, name + ext) for ext in (".png", ".pdf"))
            render(pages[unit], svg, png, pdf)
            progress("wrote %s and %s" % (png, pdf))
            written += [png, pdf]
    finally:
        for page in pages.values():
            page.context.close()
    return written


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.builds.pictures",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=OUTPUT, metavar="FOLDER")
    args = parser.parse_args(argv)
    try:
        make(args.output)
    except UserError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
