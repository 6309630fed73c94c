"""Headless Chromium on the page, through Playwright for Python driving the system's Chromium
(Debian's `chromium`; Playwright's own browser downloads are not needed). Used by the tests,
make bench and the README's screenshot."""

import contextlib
import json
import os
import shutil
from urllib.parse import quote

from host_tools.errors import UserError

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL = ("headless Chromium is not installed: apt-get install chromium (Debian, Ubuntu), or "
           "name a Chrome/Chromium binary in CHROMAWHEEL_CHROMIUM")
SCRIPT_TIMEOUT_MS = 120000


def chromium_path():
    """The Chromium binary, or None."""
    named = os.getenv("CHROMAWHEEL_CHROMIUM")
    if named:
        return named if os.path.exists(named) else None
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@contextlib.contextmanager
def chromium(args=()):
    """A headless Chromium (Playwright's Browser), started with the command-line switches
    `args`; UserError when there is none."""
    path = chromium_path()
    if path is None:
        raise UserError(INSTALL)
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise UserError("Playwright for Python is not installed (run: make setup)") from None
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=path, headless=True,
                                                 args=list(args))
        except Error as err:
            raise UserError("Chromium (%s) did not start: %s" % (
                path, str(err).strip().splitlines()[0])) from err
        try:
            yield browser
        finally:
            browser.close()


def script_url(site_url, script, hold=False, settings=None):
    return site_url + "?script=" + quote(script, safe="") + ("&hold" if hold else "") + (
        "&settings=" + quote(json.dumps(settings), safe="") if settings else "")


def run_script(page, site_url, script, hold=False, timeout_ms=SCRIPT_TIMEOUT_MS,
               settings=None):
    """Play a script in the page; its frames (as `chromawheel sim --script` gives them).
    settings: a dict of settings the page's board starts with (as sim --settings)."""
    page.goto(script_url(site_url, script, hold, settings))
    page.wait_for_selector("body[data-script-done], body[data-script-error]",
                           state="attached", timeout=timeout_ms)
    error = page.get_attribute("body", "data-script-error")
    if error is not None:
        raise UserError(error)
    return page.evaluate("window.chromawheel.frames")
