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
