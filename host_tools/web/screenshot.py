"""The README's pictures of the page (`make web-screenshot`): headless Chromium opens the built
site at a desktop's size, a portrait tablet's and a phone's (as a second visit: help shut),
plays a script in the simulator's virtual time (so the wheel and the display show the same
thing every run); on the desktop it puts a mistake in the studio's set (typed in the JSON: the
6/9's 6 as b4) so that the meld is marked ⚠ in the list while the card still shows the degrees
it can read (the validator's message under it, below the picture's edge); the tablet shows
its larger wheel with the studio under it; the phone shows the wheel. The pictures are then
made small (PNG with a palette). The page's icons are drawn from icon.svg the same way. The
tests take the same pictures into build/."""

import io
import os
import sys

from host_tools import ROOT
from host_tools.errors import UserError
from host_tools.web import browser, build
from host_tools.web.server import SiteServer

HERE = os.path.join(ROOT, "host_tools", "web")
PICTURE = os.path.join(HERE, "screenshot.png")
PHONE_PICTURE = os.path.join(HERE, "screenshot-phone.png")
TABLET_PICTURE = os.path.join(HERE, "screenshot-tablet.png")
SCRIPT = "cw 3; click; click; click; click; click; click; click"
VIEWPORT = {"width": 1280, "height": 960}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
SIZES = {"desktop": VIEWPORT, "tablet": TABLET, "phone": PHONE}
MISTAKE = ('"degrees": ["1", "3", "(5)", "6", "9"]', '"degrees": ["1", "3", "(5)", "b4", "9"]')
ICONS = {os.path.join(HERE, "site", "icon-%d.png" % size): size for size in (192, 512)}


def _with_the_mistake(page):
    """The studio with the README's mistake in its JSON: the messages it shows."""
    source = page.input_value("#source")
    page.fill("#source", source.replace(*MISTAKE, 1))
    page.wait_for_function("document.querySelector('#studio').dataset.valid === 'false'")
    page.evaluate("window.chromawheel.studio.settled()")
    page.eval_on_selector("#source", "editor => { editor.scrollTop = 0; editor.blur(); }")
    page.evaluate("scrollTo(0, 0)")
    return page.eval_on_selector_all("#problems li", "items => items.map(i => i.textContent)")


def _card(page):
    """The wheel at the top, the studio under it (the tablet's picture): what the studio
    says."""
    page.eval_on_selector("#wheel", "wheel => wheel.scrollIntoView({block: 'start'})")
    return page.eval_on_selector_all("#problems li", "items => items.map(i => i.textContent)")


def take(site_url, chromium, path, size="desktop"):
    """Write a picture to `path` at a size of SIZES, in a browser context of its own; the text
    the studio showed."""
    touch = size != "desktop"
    context = chromium.new_context(viewport=SIZES[size], device_scale_factor=1,
                                   has_touch=touch, is_mobile=touch)
    try:
        return take_on(context.new_page(), site_url, path, size)
    finally:
        context.close()


def take_on(page, site_url, path, size="desktop"):
    """take() on a new page already at the size's viewport, pixel ratio 1 and touch (the
    tests' pages come from a context they keep)."""
    page.add_init_script("localStorage.setItem('chromawheel.seen', '1')")
    browser.run_script(page, site_url, SCRIPT)
    page.wait_for_selector("body[data-ready]", state="attached")
    page.evaluate("window.chromawheel.studio.settled()")
    page.wait_for_function("document.querySelector('#ring-text').textContent"
                           ".startsWith('the ring shows')")
    if size == "desktop":
        shown = _with_the_mistake(page)
    elif size == "tablet":
        shown = _card(page)
    else:
        shown = page.eval_on_selector_all("#problems li",
                                          "items => items.map(i => i.textContent)")
    page.screenshot(path=path)
    return shown


def small(path, colours=128):
    """The PNG at `path` rewritten with a palette (about a third of the bytes); False when
    Pillow is not installed (the picture stays as Chromium wrote it)."""
    try:
        from PIL import Image
    except ImportError:
        return False
    with Image.open(path) as image:
        quantised = image.convert("RGB").quantize(colours, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    quantised.save(out, "PNG", optimize=True)
    with open(path, "wb") as f:
        f.write(out.getvalue())
    return True


def icons(chromium, svg=None, targets=None):
    """The manifest's PNG icons drawn from icon.svg (or `svg`)."""
    svg = svg or os.path.join(HERE, "site", "icon.svg")
    targets = ICONS if targets is None else targets
    with open(svg, encoding="utf-8") as f:
        drawing = f.read()
    for path, size in targets.items():
        context = chromium.new_context(viewport={"width": size, "height": size},
                                       device_scale_factor=1)
        try:
            page = context.new_page()
            page.set_content('<body style="margin:0">%s</body>' % drawing.replace(
                "<svg ", '<svg width="%d" height="%d" ' % (size, size), 1))
            page.screenshot(path=path, omit_background=True)
        finally:
            context.close()
    return sorted(targets)


def main():
    try:
        with SiteServer(build.OUT) as site, browser.chromium() as chromium:
            shown = take(site.url, chromium, PICTURE)
            shown += take(site.url, chromium, TABLET_PICTURE, "tablet")
            shown += take(site.url, chromium, PHONE_PICTURE, "phone")
            drawn = icons(chromium)
        for path in drawn:
            small(path, 64)
    except UserError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    except Exception as err:              # Playwright's own errors (a page that never loads)
        sys.stderr.write("error: the screenshot failed (%s)\n" % str(err).strip().splitlines()[0])
        return 1
    for path in (PICTURE, TABLET_PICTURE, PHONE_PICTURE):
        small(path)
        print("wrote %s (%d bytes)" % (os.path.relpath(path), os.path.getsize(path)))
    print("the studio says: %s" % "; ".join(shown))
    print("drew %s (make web puts them in the site)" % ", ".join(
        os.path.relpath(p) for p in drawn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
