"""make pictures (host_tools/builds/pictures.py): a PNG and a PDF of every wiring picture and
shipped faceplate, each named after its SVG, checked against the SVG's own geometry as
Chromium lays it out (picture_geometry.py): the copy is the picture's size, every text is
drawn in its place in its colour, every line runs where the SVG puts it and no polyline is
closed (what ImageMagick did to the wires), the edges carry nothing cut off; the PDF, read back
by poppler (pdfinfo, pdftotext, pdftoppm), is one page of the picture's size holding every
text, the sharps and flats among them, and rasterises to the same picture; the faceplate's
PDF is 1:1, its scale bar 20 mm on the page.

Without Chromium or poppler's tools these tests are skipped with one line saying what to
install; under CI=true a skip is a failure."""

import base64
import os
import re
import shutil
import subprocess

import picture_geometry
import pytest
from PIL import Image

from host_tools.builds import pictures

pytestmark = pytest.mark.usefixtures("chromium")

POPPLER = "poppler's pdfinfo, pdftotext and pdftoppm (Debian: apt-get install poppler-utils)"
if not all(shutil.which(tool) for tool in ("pdfinfo", "pdftotext", "pdftoppm")):
    if os.getenv("CI") == "true":
        pytest.fail("the pictures' PDF tests cannot run under CI: " + POPPLER, pytrace=False)
    pytest.skip(POPPLER, allow_module_level=True)

# Runs in the page on a PNG: what of the SVG's geometry (scaled to the PNG's pixels) it shows.
CHECK = """async ([url, geometry, scale]) => {
  const img = new Image();
  img.src = url;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width; canvas.height = img.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const pixel = (x, y) => {
    x = Math.round(x); y = Math.round(y);
    if (x < 0 || y < 0 || x >= img.width || y >= img.height) return null;
    const i = 4 * (y * img.width + x);
    return [data[i], data[i + 1], data[i + 2]];
  };
  const rgb = (css) => (css.match(/\\d+/g) || [0, 0, 0]).slice(0, 3).map(Number);
  const near = (p, c, tol) => p && Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) +
                                   Math.abs(p[2] - c[2]) < tol;
  const around = (x, y, c, r, tol) => {
    for (let dx = -r; dx <= r; dx++) for (let dy = -r; dy <= r; dy++)
      if (near(pixel(x + dx, y + dy), c, tol)) return true;
    return false;
  };
  const problems = [];
  const [vx, vy, vw, vh] = geometry.viewBox;
  if (Math.abs(img.width - vw * scale) > 2 || Math.abs(img.height - vh * scale) > 2)
    problems.push(`size ${img.width}x${img.height}, the SVG's ${vw * scale}x${vh * scale}`);
  const dist = (p, c) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]);
  for (const t of geometry.texts) {             // drawn, in its colour, inside its box
    const c = rgb(t.fill);
    const [x0, y0, x1, y1] = t.box.map((v, i) => (v - (i % 2 ? vy : vx)) * scale);
    // what the text is drawn on: the commonest colour round its box
    const ring = [];
    for (let x = Math.floor(x0) - 1; x <= x1 + 1; x++) {
      ring.push(pixel(x, y0 - 1), pixel(x, y1 + 1));
    }
    for (let y = Math.floor(y0); y <= y1; y++) ring.push(pixel(x0 - 1, y), pixel(x1 + 1, y));
    const counts = new Map();
    for (const p of ring) if (p) counts.set(p.join(), (counts.get(p.join()) || 0) + 1);
    const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
    let found = 0, left = Infinity, right = -Infinity;
    // the pixels nearer the text's colour than the ground's (read in place: an array a pixel
    // was most of the check's time)
    if (dist(c, bg) > 60)
      for (let y = Math.max(0, Math.floor(y0)); y <= y1 && y < img.height; y += 1)
        for (let x = Math.max(0, Math.floor(x0)); x <= x1 && x < img.width; x += 1) {
          const i = 4 * (y * img.width + x);
          const pr = data[i], pg = data[i + 1], pb = data[i + 2];
          if (Math.abs(pr - c[0]) + Math.abs(pg - c[1]) + Math.abs(pb - c[2]) <
              Math.abs(pr - bg[0]) + Math.abs(pg - bg[1]) + Math.abs(pb - bg[2])) {
            found++; left = Math.min(left, x); right = Math.max(right, x);
          }
        }
    if (found < 2) problems.push(`text ${JSON.stringify(t.text)} not drawn in its box`);
    // all of it: a glyph left out (a sharp, a flat) leaves the box's end bare
    else if (right - left + 1 < 0.8 * (x1 - x0) - 2)
      problems.push(`text ${JSON.stringify(t.text)} drawn ${right - left + 1} of ` +
                    `${Math.round(x1 - x0)} px wide`);
  }
  for (const s of geometry.strokes) {           // where the SVG runs its lines
    const c = rgb(s.colour);
    const r = Math.max(1, Math.ceil(s.width * scale / 2));
    let samples = 0, hits = 0;
    for (let k = 1; k < s.points.length; k++) {
      const [a, b] = [s.points[k - 1], s.points[k]];
      const n = Math.max(1, Math.floor(Math.hypot(b[0] - a[0], b[1] - a[1]) / 4));
      for (let i = 0; i <= n; i++) {
        const x = ((a[0] + (b[0] - a[0]) * i / n) - vx) * scale;
        const y = ((a[1] + (b[1] - a[1]) * i / n) - vy) * scale;
        samples++;
        if (around(x, y, c, r, 120)) hits++;
      }
    }
    if (hits < 0.5 * samples) problems.push(`a ${s.tag} (${s.part || s.colour}) drawn at ` +
                                            `${hits} of ${samples} points`);
    // not closed: its colour is not on the chord from its last point back to its first,
    // unless the SVG draws a line of that colour there
    if (s.tag === 'polyline' && s.points.length > 2) {
      const [p, q] = [s.points[0], s.points[s.points.length - 1]];
      const m = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
      const drawnThere = geometry.strokes.some(o => o.colour === s.colour &&
        o.points.some((u, k) => k && distance(m, o.points[k - 1], u) < o.width / 2 + 3));
      if (!drawnThere && Math.hypot(q[0] - p[0], q[1] - p[1]) > 8 &&
          around((m[0] - vx) * scale, (m[1] - vy) * scale, c, 0, 30))
        problems.push(`a polyline (${s.part || s.colour}) closed back to its start`);
    }
  }
  // nothing cut at the edges: the outermost pixels are the background
  for (let x = 0; x < img.width; x += 3)
    for (const y of [0, img.height - 1])
      if (!near(pixel(x, y), [255, 255, 255], 30)) { problems.push(`ink at the edge ${x},${y}`);
                                                     return problems; }
  return problems;

  function distance(m, a, b) {
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const t = dx || dy ? Math.max(0, Math.min(1, ((m[0] - a[0]) * dx + (m[1] - a[1]) * dy) /
                                                   (dx * dx + dy * dy))) : 0;
    return Math.hypot(m[0] - a[0] - t * dx, m[1] - a[1] - t * dy);
  }
}"""


def shown(page, png_path, geometry, scale):
    with open(png_path, "rb") as f:
        url = "data:image/png;base64," + base64.b64encode(f.read()).decode()
    page.set_content("<html><body></body></html>")
    return page.evaluate(CHECK, [url, geometry, scale])


def pdf_page(pdf):
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    w, h = (float(v) for v in re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts",
                                        info).groups())
    return pages, w, h


def raster(pdf, dpi, folder):
    """The PDF's page as poppler rasterises it at `dpi`, a PNG: pdftoppm's pixels (PPM), which
    Pillow writes at zlib's fastest level (the same pixels; pdftoppm's own PNG writer took
    twice as long as its rasterising)."""
    out = os.path.join(folder, os.path.basename(pdf)[:-4] + "-%d" % dpi)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-singlefile", pdf, out], check=True)
    with Image.open(out + ".ppm") as pixels:
        pixels.save(out + ".png", compress_level=1)
    return out + ".png"


def test_make_pictures_copies_every_picture_as_it_is_drawn(chromium, tmp_path):
    folder = str(tmp_path / "pictures")
    written = pictures.make(folder, progress=lambda line: None, chrome=chromium)
    sources = pictures.sources(str(tmp_path))
    names = sorted(name for name, _ in sources)
    assert len(names) >= 11 and "pico-breadboard" in names and "faceplate-pico" in names
    # one PNG and one PDF a picture, named after its SVG, nothing else
    assert sorted(os.path.basename(p) for p in written) == sorted(
        name + ext for name in names for ext in (".png", ".pdf"))
    page = chromium.new_page()
    for name, svg in sources:
        geometry = picture_geometry.measure(page, svg)
        width, height, unit = pictures.size(svg)
        png, pdf = (os.path.join(folder, name + ext) for ext in (".png", ".pdf"))
        assert shown(page, png, geometry, pictures.scale(unit)) == [], name
        # the PDF: one page the picture's size, every text in it, drawn the same
        pages, w, h = pdf_page(pdf)
        points = 72 / 25.4 if unit == "mm" else 72 / 96
        assert pages == 1 and abs(w - width * points) < 1 and abs(h - height * points) < 1, \
            (name, w, h, width, height)
        text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True,
                              check=True).stdout
        words = " ".join(text.split())
        for t in geometry["texts"]:
            assert " ".join(t["text"].split()) in words or t["text"].strip() in text, \
                (name, t["text"])
        dpi = 300 if unit == "mm" else 192
        assert shown(page, raster(pdf, dpi, str(tmp_path)), geometry,
                     dpi / 25.4 if unit == "mm" else dpi / 96) == [], name + ".pdf"


def test_the_faceplates_pdf_is_one_to_one(chromium, tmp_path):
    """Printed at 100 %, the face measures what the SVG says in mm: its page, its cut circle's
    place, and the 20 mm scale bar between its end ticks, measured in the PDF's own raster."""
    from hardware import board as board_file

    from host_tools.builds import faceplate
    from host_tools.device.files import board_path
    svg = faceplate.svg(board_file.load(board_path("pico")))
    width, height, unit = pictures.size(svg)
    assert unit == "mm"
    page = chromium.new_context(device_scale_factor=pictures.scale(unit) * 25.4 / 96).new_page()
    pictures.render(page, svg, str(tmp_path / "f.png"), str(tmp_path / "f.pdf"))
    _, w, h = pdf_page(str(tmp_path / "f.pdf"))
    assert abs(w * 25.4 / 72 - width) < 0.05 and abs(h * 25.4 / 72 - height) < 0.05
    dpi = 600
    png = raster(str(tmp_path / "f.pdf"), dpi, str(tmp_path))
    bar = re.search(r'data-part="scale".*?d="M 3 ([\d.]+) h 20', svg).group(1)
    y_mm = float(bar) + 0.6           # between the bar (at +1) and the ends of its ticks (+2)
    runs = page.evaluate(RUNS, [_url(png), y_mm * dpi / 25.4, 24 * dpi / 25.4])
    ends = [(a + b) / 2 for a, b in runs]
    assert len(ends) == 2, runs                      # the two end ticks, not the middle one
    assert abs((ends[1] - ends[0]) * 25.4 / dpi - faceplate.SCALE_MM) < 0.1, runs


RUNS = """async ([url, row, before]) => {
  const img = new Image();
  img.src = url;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const d = ctx.getImageData(0, Math.round(row), img.width, 1).data;
  const runs = [];
  let start = null;
  for (let x = 0; x < img.width; x++) {
    const dark = d[4 * x] + d[4 * x + 1] + d[4 * x + 2] < 300;
    if (dark && start === null) start = x;
    if (!dark && start !== null) { runs.push([start, x - 1]); start = null; }
  }
  return runs.filter(([a, b]) => a < before);       // left of the bar's "20 mm"
}"""


def _url(path):
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode()
