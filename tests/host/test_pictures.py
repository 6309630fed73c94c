"""Every picture a maker follows, measured in headless Chromium: each text element's box (the
browser's own layout of its glyphs) inside the SVG's view box, no two texts overlapping, no
line running through a text, nothing hidden under the STEMMA QT cable (picture_geometry.py).
The shipped wiring pictures, the level shifter's, the breadboard's, and faceplates drawn for
every ring size."""

import glob
import os

import picture_geometry
import pytest

from hardware import board as board_file

from host_tools.builds import faceplate
from host_tools.device.files import ROOT, board_path

pytestmark = pytest.mark.usefixtures("chromium")

MEASURE = """() => {
  const svg = document.querySelector('svg');
  const box = svg.viewBox.baseVal;
  const outside = [];
  for (const text of svg.querySelectorAll('text')) {
    const b = text.getBBox();
    // the text's transform into the SVG's user units (a rotated label; the mm view box)
    const m = svg.getScreenCTM().inverse().multiply(text.getScreenCTM());
    const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                     [b.x + b.width, b.y + b.height]].map(([x, y]) =>
      [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
    const xs = corners.map(c => c[0]), ys = corners.map(c => c[1]);
    if (Math.min(...xs) < box.x || Math.max(...xs) > box.x + box.width ||
        Math.min(...ys) < box.y || Math.max(...ys) > box.y + box.height)
      outside.push(text.textContent + ' at ' + [Math.min(...xs), Math.min(...ys),
                   Math.max(...xs), Math.max(...ys)].map(Math.round).join(','));
  }
  return {count: svg.querySelectorAll('text').length, width: box.width, outside};
}"""


def pictures():
    shipped = sorted(glob.glob(os.path.join(ROOT, "boards", "wiring", "*.svg")))
    shipped += sorted(glob.glob(os.path.join(ROOT, "boards", "pictures", "*.svg")))
    return shipped


def measure(page, svg_text):
    page.set_content(svg_text)
    return page.evaluate(MEASURE)


def test_every_shipped_pictures_text_is_inside_its_canvas(chromium):
    page = chromium.new_page()
    checked = 0
    for path in pictures():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "viewBox" not in text:
            continue                  # a picture with no view box: nothing to hold it to
        result = measure(page, text)
        assert result["count"] > 0 or "/pictures/" in path, path   # the OLED's is pixels
        assert result["outside"] == [], (os.path.basename(path), result["outside"])
        checked += 1
    assert checked >= 7               # 3 boards x (EC11, KY-040) and the level shifter


def test_the_faceplates_text_is_inside_its_canvas(chromium):
    page = chromium.new_page()
    pico = board_file.load(board_path("pico"))
    for count in (12, 16, 24, 60):
        b = dict(pico, ring=dict(pico["ring"], count=count, led_at_c=0))
        result = measure(page, faceplate.svg(b))
        assert result["outside"] == [], (count, result["outside"])


def faceplates():
    pico = board_file.load(board_path("pico"))
    return [faceplate.svg(dict(pico, ring=dict(pico["ring"], count=count, led_at_c=0)))
            for count in (12, 16, 24, 60)]


def test_nothing_in_a_picture_overlaps_or_hides(chromium):
    page = chromium.new_page()
    checked = 0
    for name, text in [(os.path.basename(p), open(p, encoding="utf-8").read())
                       for p in pictures()] + [("faceplate", t) for t in faceplates()]:
        geometry = picture_geometry.measure(page, text)
        assert picture_geometry.cut(geometry) == [], name
        assert picture_geometry.overlapping_texts(geometry) == [], name
        assert picture_geometry.texts_on_lines(geometry) == [], name
        assert picture_geometry.under_the_cable(geometry) == [], name
        checked += 1
    assert checked >= 13          # 3 boards x 2, the level shifter's, the breadboard, ...
