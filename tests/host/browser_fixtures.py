"""The browser tests' shared fixtures: headless Chromium and the built site on a local server
(tests/host/test_web.py, test_web_studio.py import them). Without Chromium, or without the
page's runtime, a test is skipped with one line saying what to install; under CI=true a skip
is a failure.

Both are per session (a worker's), not per module: a module-scoped fixture makes its file one
unit of `make test`'s scheduler (tests/conftest.py), so test_web_studio.py's forty tests ran
one after another on one worker while the other sat idle. Every test opens its own context.
One Chromium a worker, whichever module imports the fixture (test_pictures.py imports this file
as tests.host.browser_fixtures, a second module): Playwright's sync API runs one at a time in a
thread."""

import contextlib
import os

import pytest

from host_tools.errors import UserError
from host_tools.web import browser, build
from host_tools.web.server import SiteServer


def unavailable(why):
    if os.getenv("CI") == "true":
        pytest.fail("the browser tests cannot run under CI: " + why)
    pytest.skip(why)


@pytest.fixture(scope="session")
def chromium(request):
    config = request.config
    held = getattr(config, "_chromawheel_chromium", None)
    if held is None:
        held = config._chromawheel_chromium = _start_chromium(config)
    if isinstance(held, str):
        unavailable(held)
    return held


def _start_chromium(config):
    """The worker's Chromium, closed when the session ends; or why there is none."""
    if browser.chromium_path() is None:
        return browser.INSTALL
    stack = contextlib.ExitStack()
    try:
        chrome = stack.enter_context(browser.chromium())
    except UserError as err:
        return str(err)
    config.add_cleanup(stack.close)
    return chrome


@pytest.fixture(scope="session")
def site(tmp_path_factory, web_runtime):
    """The site built into a temporary folder (its path: `folder`), served locally."""
    out = str(tmp_path_factory.mktemp("web") / "site")
    try:
        build.build(out, progress=lambda line: None)
    except UserError as err:
        unavailable(str(err))
    with SiteServer(out) as server:
        server.folder = out
        yield server


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
