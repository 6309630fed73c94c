"""The browser tests' shared helpers (tests/host/test_web.py, test_web_studio.py). Their
fixtures, headless Chromium and the built site, are in tests/conftest.py: a fixture module
imported under two names made two of each."""

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def console_says(page, text, timeout=60000):
    """Wait until the page's console shows `text`; if it never does, fail with the console's
    last lines, so a CI log says where the wheel went instead."""
    try:
        page.wait_for_function("(t) => document.querySelector('#console').textContent.includes(t)",
                               arg=text, timeout=timeout)
    except PlaywrightTimeout:
        lines = page.text_content("#console").splitlines()
        raise AssertionError("the console never said %r; its last lines:\n  %s"
                             % (text, "\n  ".join(lines[-15:]))) from None


def power_up(page, says, timeout=60000):
    """Click the page's power button and wait until the board it starts says `says`. The board
    the page started on load may have said it already, and a key sent before the new board's
    boot goes to the old one, which the reset then ends: so the console is emptied first and
    only what follows the new board's `-- power-up --` line counts."""
    page.evaluate("document.querySelector('#console').textContent = ''")
    page.click("#power")
    page.wait_for_function(
        "(t) => { const parts = document.querySelector('#console').textContent"
        ".split('-- power-up --'); return parts.length > 1 && parts.pop().includes(t); }",
        arg=says, timeout=timeout)
