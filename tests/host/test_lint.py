"""make lint's Python half: ruff, configured in pyproject.toml, over every Python file of the
project (device code, host tools, tests). It finds nothing today; an unused import or a
function above the McCabe bound of 15, planted anywhere, is a finding. The exceptions (a
`noqa` or `type: ignore` comment, the JavaScript linter's disable comments) number at most 15
in the whole project, each with its reason."""

import os
import re
import sys

import pytest

from host_tools import ROOT
from running import run

BUDGET = 15
# Written in two halves, so that this file does not count itself.
EXCEPTION = re.compile("#\\s*no" "qa\\b|#\\s*type:\\s*ig" "nore\\b|"
                       "eslint-dis" "able|biome-ig" "nore")
SKIP_DIRS = {".git", ".venv", "node_modules", "build", "dist", "__pycache__", ".lock-venv"}
SOURCES = (".py", ".js", ".cjs", ".mjs")


def ruff(*args, source=None):
    return run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=ROOT,
               input=source, timeout=120)


def test_the_project_has_no_finding():
    proc = ruff(".")
    assert proc.returncode == 0, proc.stdout


def _function(complexity):
    """A function of that McCabe complexity: one path, and one more for each `if`."""
    lines = ["def planted(x):"]
    lines += ["    if x == %d:\n        return %d" % (k, k) for k in range(complexity - 1)]
    return "\n".join(lines + ["    return -1", ""])


@pytest.mark.parametrize("where", ["firmware/planted.py", "host_tools/planted.py",
                                   "tests/host/planted.py"])
def test_a_planted_unused_import_or_too_complex_function_is_a_finding(where):
    found = ruff("--stdin-filename", where, "-", source="import os\n")
    assert found.returncode == 1 and "F401" in found.stdout, found.stdout
    assert ruff("--stdin-filename", where, "-", source=_function(15)).returncode == 0
    found = ruff("--stdin-filename", where, "-", source=_function(16))
    assert found.returncode == 1 and "C901" in found.stdout and "(16 > 15)" in found.stdout


def _exceptions():
    """(path:line, the line) of every exception comment in the project's sources."""
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(names):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
            for k, line in enumerate(lines):
                if EXCEPTION.search(line):
                    above = lines[k - 1].strip() if k else ""
                    yield "%s:%d" % (os.path.relpath(path, ROOT), k + 1), line, above


def _has_reason(line, above):
    """A reason after the directive (`# noqa: C901 (why)`), or a comment on the line above."""
    rest = EXCEPTION.split(line, 1)[1]
    rest = re.sub(r"^(:\s*[A-Z0-9, ]+|\[[a-z-, ]+\])", "", rest)
    return bool(re.search(r"[a-z]{3}", rest)) or above.startswith(("#", "//"))


def test_the_exceptions_are_few_and_each_says_why():
    found = list(_exceptions())
    assert len(found) <= BUDGET, "\n".join(where for where, _, _ in found)
    assert [where for where, line, above in found if not _has_reason(line, above)] == []
