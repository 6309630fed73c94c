"""The browser tests' shared fixtures: headless Chromium and the built site on a local server
(tests/host/test_web.py, test_web_studio.py import them). Without Chromium, or without the
page's runtime, a test is skipped with one line saying what to install; under CI=true a skip
is a failure."""

import os

import pytest

from host_tools.errors import UserError
from host_tools.web import browser, build
from host_tools.web.server import SiteServer


def unavailable(why):
    if os.getenv("CI") == "true":
        pytest.fail("the browser tests cannot run under CI: " + why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def chromium():
    if browser.chromium_path() is None:
        unavailable(browser.INSTALL)
    try:
        with browser.chromium() as chrome:
            yield chrome
    except UserError as err:
        unavailable(str(err))


@pytest.fixture(scope="module")
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
