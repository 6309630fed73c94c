"""`chromawheel meldset cards` (issue 48): a set as round MELD cards to print, read back from
the PDF with poppler's pdftotext: every meld of the set once, its degrees as the set says with
the music signs (♭3, ♯11, 𝄫7, as the page writes them), each degree in the sector of its
semitones, 6 or 8 a page, A4 and Letter."""

import json
import math
import os
import re
import shutil

import pytest

from core import degrees

from host_tools import cards
from host_tools.cli.main import main
from host_tools.device.files import ROOT
from host_tools.set_files import load_set
from running import run

MM = 72 / 25.4
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                  r'([^<]*)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')
SIGN = {"bb": "\U0001d12b", "##": "\U0001d12a", "b": "\u266d", "#": "\u266f"}
ASCII_SIGN = re.compile(r"(^|[ (])(bb|##|b|#)\d")


def _signed(degree):
    """A degree as the card prints it: 'b3' -> '\u266d3', '(bb7)' -> '(\U0001d12b7)'."""
    return re.sub(r"bb|##|b|#", lambda m: SIGN[m.group()], degree)


def _pdftotext(path):
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed (Debian: apt-get install poppler-utils)")
    out = run(["pdftotext", "-bbox", str(path), "-"], timeout=60, expect=0)
    pages = []
    for chunk in out.stdout.split("<page ")[1:]:
        size = PAGE.search("<page " + chunk)
        words = [(float(a), float(b), float(c), float(d), w.replace("&amp;", "&"))
                 for a, b, c, d, w in WORD.findall(chunk)]
        pages.append(((float(size.group(1)) / MM, float(size.group(2)) / MM), words))
    return pages


def _caption_lines(words):
    """The cards' captions ('maj7: 1 3 (5) 7'): the words on one baseline from an 'id:'."""
    rows = {}
    for x0, y0, _, _, word in words:
        rows.setdefault(round(y0, 1), []).append((x0, word))
    captions = []
    for row in rows.values():
        row.sort()
        line = []
        for _x, word in row:
            if word.endswith(":") and line:
                captions.append(" ".join(line))
                line = []
            if word.endswith(":") or line:
                line.append(word)
        if line:
            captions.append(" ".join(line))
    return captions


def test_the_default_set_as_cards_each_meld_once_with_its_degrees(tmp_path, capsys):
    out = tmp_path / "cards.pdf"
    assert main(["meldset", "cards", "default", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith("wrote %s: 60 cards on 10 A4 pages" % out)
    assert out.read_bytes()[:5] == b"%PDF-"
    pages = _pdftotext(out)
    assert len(pages) == 10
    ms = load_set("default")
    wanted = ["%s: %s" % (ms.meld_id(i), " ".join(_signed(cards.degree_text(c))
                                                   for c in ms.meld_codes(i)))
              for i in range(ms.count)]
    assert "dim7: 1 \u266d3 \u266d5 \U0001d12b7" in wanted and "TT: 1 \u266f4" in wanted
    found = []
    for size, words in pages:
        assert abs(size[0] - 210) < 0.5 and abs(size[1] - 297) < 0.5
        found += _caption_lines(words)
    assert sorted(found) == sorted(wanted)
    assert len(found) == len(set(found)) == 60
    printed = [w for _, words in pages for *_, w in words]
    assert not [w for w in printed if ASCII_SIGN.search(w)]       # no b3 or #11 left
    # Each degree in its sector: the label's centre at the sector's angle from the card's
    # centre (the layout's, which the PDF drew), at 30 degrees a semitone clockwise from the top.
    shapes = cards.pages(ms)
    for (_, words), page in zip(pages, shapes):
        centres = [(s[1], s[2], s[3]) for s in page if s[0] == "circle" and s[4]]
        labels = [(x0 + x1) / 2 / MM for x0, _, x1, _, _ in words], \
                 [(y0 + y1) / 2 / MM for _, y0, _, y1, _ in words], [w for *_, w in words]
        for k, (cx, cy, r) in enumerate(centres):
            i = shapes.index(page) * 6 + k
            for code in ms.meld_codes(i):
                if degrees.semitones(code) == 12:
                    continue                        # the octave shares the root's sector
                angle = degrees.semitones(code) * 30
                x = cx + r * (1 + cards.INNER) / 2 * math.sin(math.radians(angle))
                y = cy - r * (1 + cards.INNER) / 2 * math.cos(math.radians(angle))
                text = _signed(degrees.to_text(code))
                near = [w for lx, ly, w in zip(*labels)
                        if abs(lx - x) < 4 and abs(ly - y) < 4 and text in w.strip("()")]
                assert near, (ms.meld_id(i), text)


def test_letter_paper_and_eight_a_page(tmp_path, capsys):
    out = tmp_path / "cards.pdf"
    assert main(["meldset", "cards", "jazz", "-o", str(out), "--paper", "letter",
                 "--per-page", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["pages"] == 6 and report["melds"] == 47
    pages = _pdftotext(out)
    assert len(pages) == 6
    assert abs(pages[0][0][0] - 215.9) < 0.5 and abs(pages[0][0][1] - 279.4) < 0.5
    assert len(_caption_lines(pages[0][1])) == 8 and len(_caption_lines(pages[-1][1])) == 7


def test_the_card_layout_and_its_svg():
    """The layout the studio prints as SVG (run by the page's MicroPython) and the CLI as PDF:
    every sector, required ones filled by kind, optional ones not; music signs in the SVG."""
    ms = load_set("jazz")
    page = cards.pages(ms, "a4", 6)[0]
    wedges = [s for s in page if s[0] == "polygon"]
    assert len(wedges) == 72
    first = wedges[:12]                            # 6/9: 1 3 (5) 6 9, a chord
    filled = [k for k, s in enumerate(first) if s[2]]
    assert filled == [0, 2, 4, 9] and {s[2] for s in first if s[2]} == {"#e8a33d"}
    svg = cards.svg(page)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="210mm"')
    assert ">(5)</text>" in svg and "\u266d3" in svg            # min6/9's b3
    with pytest.raises(cards.CardError, match="6 or 8"):
        cards.pages(ms, "a4", 7)
    assert cards.latin1("B\u266d \u0394 caf\u00e9") == "Bb ? caf\u00e9"


def test_a_text_with_signs_is_printed_with_them(tmp_path):
    """The signs in a name or a title are the music signs too (they were 'Bb', '#'), the rest
    of the text as Latin-1 holds it."""
    out = tmp_path / "signs.pdf"
    title = "B\u266d blues, F\u266f caf\u00e9 \u0394"
    out.write_bytes(cards.pdf([[("text", 60, 40, 5, title, True),
                                ("text", 60, 60, 3.2, "7alt: 1 3 b5 #5 b7 bb9 ##9", False)]]))
    (_, words), = _pdftotext(out)
    assert [w for *_, w in words] == [
        "B\u266d", "blues,", "F\u266f", "caf\u00e9", "?",
        "7alt:", "1", "3", "\u266d5", "\u266f5", "\u266d7", "\U0001d12b9", "\U0001d12a9"]


def test_the_sheet_carries_the_sets_qr_code(tmp_path, capsys):
    """With the page's address, a last page with the set's share link as a QR code (read by
    zbar's zbarimg): the link the page's share panel makes, which opens the set."""
    import base64
    import zlib
    if shutil.which("zbarimg") is None or shutil.which("pdftoppm") is None:
        pytest.skip("zbarimg and pdftoppm (Debian: zbar-tools, poppler-utils)")
    out = tmp_path / "cards.pdf"
    site = "https://example.org/chromawheel/"
    assert main(["meldset", "cards", "jazz", "-o", str(out), "--site", site]) == 0
    assert capsys.readouterr().out.startswith(
        "wrote %s: 47 cards on 8 A4 pages and a page with the set's QR code" % out)
    run(["pdftoppm", "-r", "150", "-png", "-f", "9", "-l", "9", str(out), str(tmp_path / "qr")],
        timeout=60, expect=0)
    read = run(["zbarimg", "-q", "--raw", str(tmp_path / "qr-9.png")], timeout=60)
    link = read.stdout.strip()
    assert link.startswith(site + "#s=")
    packed = link.split("#s=", 1)[1]
    data = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4)), -15)
    with open(os.path.join(ROOT, "core", "meldsets", "jazz.json"), encoding="utf-8") as f:
        jazz = json.load(f)
    assert json.loads(data) == {k: v for k, v in jazz.items() if k not in ("format", "version")}
    assert main(["meldset", "cards", "jazz", "-o", str(out), "--site", "example.org"]) == 2
    assert "--site example.org: the page's address" in capsys.readouterr().err
