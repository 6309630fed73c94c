"""The README's picture of the page (`make web-screenshot`): headless Chromium opens the built
site, plays a script in the simulator's virtual time (so the wheel and the display show the
same thing every run), puts a set with a mistake in the studio's editor so that the
validator's message shows, and takes the screenshot. The tests take the same one into build/."""

import os
import sys

from host_tools import ROOT
from host_tools.errors import UserError
from host_tools.web import browser, build
from host_tools.web.server import SiteServer

PICTURE = os.path.join(ROOT, "host_tools", "web", "screenshot.png")
SCRIPT = "cw 3; click; click; click; click; click; click; click"
VIEWPORT = {"width": 1280, "height": 960}
MISTAKE = ('"degrees": ["1", "3", "(5)", "6", "9"]', '"degrees": ["1", "3", "(5)", "b4", "9"]')


def take(site_url, chromium, path):
    """Write the picture to `path`; the text the studio showed."""
    context = chromium.new_context(viewport=VIEWPORT, device_scale_factor=1)
    try:
        page = context.new_page()
        browser.run_script(page, site_url, SCRIPT)
        page.wait_for_selector("body[data-ready]", state="attached")
        source = page.input_value("#source")
        page.fill("#source", source.replace(*MISTAKE, 1))
        page.wait_for_function("document.querySelector('#studio').dataset.valid === 'false'")
        page.eval_on_selector("#source", "editor => { editor.scrollTop = 0; editor.blur(); }")
        shown = page.eval_on_selector_all("#problems li", "items => items.map(i => i.textContent)")
        page.screenshot(path=path)
        return shown
    finally:
        context.close()


def main():
    try:
        with SiteServer(build.OUT) as site, browser.chromium() as chromium:
            shown = take(site.url, chromium, PICTURE)
    except UserError as err:
        sys.stderr.write("error: %s\n" % err)
        return 2
    except Exception as err:              # Playwright's own errors (a page that never loads)
        sys.stderr.write("error: the screenshot failed (%s)\n" % str(err).strip().splitlines()[0])
        return 1
    print("wrote %s (the studio says: %s)" % (os.path.relpath(PICTURE), shown[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
