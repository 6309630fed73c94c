"""What the make targets install: `make uf2` and `make stl` need only what running needs
(requirements.txt, which pins littlefs-python for the UF2), not the test tools
(requirements-dev.txt: pytest, Playwright, mypy, ...) nor any npm package; `make check` no npm
package but the JS linter (the emulator and the page's runtime are make test's). Read from
make's own plan (`make -n -B`: every command it would run from nothing), so a new prerequisite
that pulls them in fails here."""

import os

import pytest

from host_tools import ROOT
from running import run


def plan(target):
    return run(["make", "-n", "-B", target], cwd=ROOT, timeout=60, expect=0).stdout


@pytest.mark.parametrize("target", ["uf2", "stl"])
def test_a_makers_target_installs_only_what_running_needs(target):
    commands = plan(target)
    assert "pip install" in commands and "-r requirements.txt" in commands
    assert "requirements-dev" not in commands and "pytest" not in commands
    assert "npm" not in commands and "node_modules" not in commands
    with open(os.path.join(ROOT, "requirements.txt")) as f:
        assert "littlefs-python==" in f.read()          # the UF2's drive image


def test_the_plan_shows_the_test_tools_where_they_are_needed():
    # the check above can fail: make check does install them
    commands = plan("check")
    assert "requirements-dev.txt" in commands and "pytest" in commands


def test_make_check_installs_no_npm_package_but_the_js_linter():
    commands = plan("check")
    installs = [line for line in commands.splitlines() if "npm ci" in line]
    assert len(installs) == 1 and "host_tools/web/lint" in installs[0], installs
    assert "rp2040js" not in commands and "--prefix host_tools/web " not in commands
    assert "npm ci --prefix host_tools/emulator/rp2040js" in plan("test")   # (it can fail)
