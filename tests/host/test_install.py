"""The tool as a user installs it: a wheel built from the checkout's files (as make dist builds
it), installed into a fresh virtual environment, every command run from a folder outside the
checkout, with nothing of the checkout on the path. The virtual board and the meld-set flash go
through the real mpremote the wheel depends on."""

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile

import pytest

import host_tools
from host_tools.web import build as web_build
from running import line_matching, run

pytestmark = pytest.mark.usefixtures("wheel_install", "web_runtime", "simulator", "emulator")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHON = sys.executable


def _run(args, **kw):
    return run(args, timeout=600, **kw)


def _stage(dest):
    """The checkout's files (tracked and new, as the work tree has them) and the built site:
    what a fresh clone has after make web."""
    listed = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                  cwd=ROOT).stdout.split("\0")
    for rel in filter(None, listed):
        source = os.path.join(ROOT, rel)
        if os.path.isfile(source):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(source, os.path.join(dest, rel))
    web_build.build(out=os.path.join(dest, "build", "web"), progress=lambda line: None)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(command runner, temporary folder): chromawheel from a fresh venv holding its wheel."""
    base = tmp_path_factory.mktemp("install")
    stage, dist, venv, away = (str(base / n) for n in ("stage", "dist", "venv", "away"))
    _stage(stage)
    built = _run([PYTHON, "-m", "build", "--no-isolation", "--wheel", "--outdir", dist, stage])
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = [n for n in os.listdir(dist) if n.endswith(".whl")]
    assert wheels == ["chromawheel-%s-py3-none-any.whl" % host_tools.__version__]
    # A venv without a pip of its own, installed into by this one's pip, as pipx does (its
    # shared pip): making the venv's own pip cost 4 CPU seconds and it takes no part here.
    _run([PYTHON, "-m", "venv", "--without-pip", venv]).check_returncode()
    pip = _run([PYTHON, "-m", "pip", "--python", os.path.join(venv, "bin", "python"), "install",
                "--quiet", "--disable-pip-version-check", os.path.join(dist, wheels[0])])
    assert pip.returncode == 0, pip.stderr
    os.makedirs(away)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CHROMAWHEEL_DEBUG")}
    env["CHROMAWHEEL_CACHE"] = str(base / "cache")
    env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
    command = os.path.join(venv, "bin", "chromawheel")

    def chromawheel(*args):
        return _run([command] + list(args), cwd=away, env=env)

    chromawheel.popen = lambda *args: subprocess.Popen(
        [command] + list(args), cwd=away, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True)
    chromawheel.venv = venv
    chromawheel.env = env
    chromawheel.wheel = os.path.join(dist, wheels[0])
    return chromawheel, away


def test_the_wheel_holds_the_product_and_no_test_rig(installed):
    chromawheel, _ = installed
    names = zipfile.ZipFile(chromawheel.wheel).namelist()
    # What a user runs: the command line, the device tools, the simulator and the virtual
    # board, the emulator behind `chromawheel emulate`, the page and its build.
    for wanted in ("host_tools/cli/main.py", "host_tools/device/target.py",
                   "host_tools/device/sets.py", "host_tools/sim/vboard.py",
                   "host_tools/emulator/rp2040.py", "host_tools/emulator/rp2040js/pico.cjs",
                   "host_tools/web/build.py", "host_tools/web/site/flasher.js",
                   "firmware/maintenance.py", "firmware/layout.py"):
        assert wanted in names, wanted
    # The development tools stay in the checkout: the benchmarks, the page's test rigs (the
    # Web Serial and Web MIDI stand-ins, the WebSocket bridge), the screenshot maker.
    rigs = [n for n in names if n.startswith(("host_tools/bench/", "host_tools/web/testing/",
                                              "tests/"))
            or n in ("host_tools/web/bench.py", "host_tools/web/screenshot.py",
                     "host_tools/web/bridge.py")]
    assert not rigs, rigs
    print("the wheel: %d files, %d bytes" % (len(names), os.path.getsize(chromawheel.wheel)))


def test_it_runs_from_its_own_environment(installed):
    chromawheel, away = installed
    where = _run([os.path.join(chromawheel.venv, "bin", "python"), "-c",
                  "import host_tools, core; print(host_tools.__file__); print(core.__file__)"],
                 cwd=away, env=chromawheel.env).stdout.split()
    assert all(path.startswith(chromawheel.venv) for path in where), where
    version = chromawheel("--version")
    assert version.stdout.strip() == "chromawheel %s" % host_tools.__version__


def test_music_commands(installed):
    chromawheel, _ = installed
    shown = chromawheel("show", "maj", "--root", "C")
    assert shown.returncode == 0 and shown.stdout.splitlines()[0] == "C major triad (maj): C E G"
    melds = chromawheel("melds", "--set", "modes")
    assert melds.stdout.splitlines()[-1] == "34 melds in set 'modes'"


def test_the_simulator_runs_a_shipped_set(installed):
    chromawheel, _ = installed
    sim = chromawheel("sim", "--set", "jazz", "--script", "wait 10")
    assert sim.returncode == 0, sim.stderr
    assert sim.stdout.splitlines()[0] == "meld set jazz loaded: 47 melds"


def test_boards_games_and_scores(installed):
    chromawheel, away = installed
    boards = chromawheel("board", "list", "--json")
    assert {"pico", "sim", "qtpy_rp2040", "esp32", "web"} <= {
        b["board"] for b in json.loads(boards.stdout)}
    played = chromawheel("play", "colour-map", "--seed", "3")
    assert played.returncode == 0 and "every card accounted for" in played.stdout, played.stderr
    scored = chromawheel("score", "colour-map", "--hand", "red:7", "purple:2")
    assert scored.stdout.splitlines()[-1].split() == ["total", "-4"], scored.stderr
    wiring = chromawheel("board", "wiring", "pico", "-o", "pico.svg")
    assert wiring.returncode == 0 and os.path.getsize(os.path.join(away, "pico.svg")) > 1000


def _stop(proc):
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def test_the_web_site_is_inside(installed):
    chromawheel, _ = installed
    site = chromawheel.popen("web", "--port", "0")
    try:
        url = line_matching(site, r"http://127\.0\.0\.1:\d+/").group(0)
        with urllib.request.urlopen(url, timeout=30) as page:
            assert b"ChromaWheel" in page.read()
        with urllib.request.urlopen(url + "runtime/micropython.wasm", timeout=30) as wasm:
            assert wasm.read()[:4] == b"\0asm"          # the pinned runtime came along
    finally:
        _stop(site)


def test_vboard_deploy_and_flash(installed, tmp_path):
    chromawheel, away = installed
    flash = str(tmp_path / "vboard")
    board = chromawheel.popen("vboard", "--dir", flash)
    try:
        port = line_matching(board, r"virtual board on (\S+)").group(1)
        # A Pico's board file onto the unix port: refused before anything is written.
        wrong = chromawheel("deploy", "--port", port, "--board", "pico")
        assert wrong.returncode == 2
        assert "board file pico is for platform rp2" in wrong.stderr, wrong.stderr
        assert "linux" in wrong.stderr and "nothing was written" in wrong.stderr
        assert os.listdir(flash) == []
        # A board file of one's own: the nearest one copied.
        shutil.copyfile(os.path.join(ROOT, "boards", "sim.json"),
                        os.path.join(away, "myboard.json"))
        deployed = chromawheel("deploy", "--port", port, "--board", "./myboard.json")
        assert deployed.returncode == 0, deployed.stderr
        assert "meld set default loaded: 60 melds" in deployed.stdout
        with open(os.path.join(ROOT, "core", "meldsets", "jazz.json")) as f:
            mine = json.load(f)
        mine["name"] = "mine"
        with open(os.path.join(away, "mine.json"), "w") as f:
            json.dump(mine, f)
        flashed = chromawheel("meldset", "flash", "mine.json", "--port", port)
        assert flashed.returncode == 0, flashed.stderr
        assert "the device says: meld set mine loaded: 47 melds" in flashed.stdout
        assert sorted(os.listdir(os.path.join(flash, "melds"))) == ["default.cwm", "mine.cwm"]
    finally:
        _stop(board)


@pytest.mark.skipif(not shutil.which("node") and not os.environ.get("CI"),
                    reason="the emulator needs Node.js (make test installs it in CI)")
def test_the_emulator_installs_its_packages_on_first_use(installed, deployed_image):
    chromawheel, _ = installed
    # The Pico deployed once for the session (the checkout's deploy, the tests' own cache)
    # goes into the tool's cache: the tool finds it under the name it gives its own deploy,
    # a hash of what it would deploy and of its deploy's sources, so it deploys nothing: the
    # wheel carries the same firmware and the same deploy (the same code deploying the same
    # files again would only repeat the session's deploy).
    image = deployed_image("pico")
    kept = os.path.join(chromawheel.env["CHROMAWHEEL_CACHE"], "emulator")
    os.makedirs(kept, exist_ok=True)
    shutil.copyfile(image, os.path.join(kept, os.path.basename(image)))
    run = chromawheel("emulate", "--script", "cw 1")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "installing the emulator's npm packages" in run.stderr
    assert "deploying the firmware" not in run.stderr, run.stderr[-2000:]
    assert run.stdout.splitlines()[:3] == ["meld set default loaded: 60 melds",
                                           "C major triad (maj): C E G",
                                           "Db major triad (maj): Db F Ab"]
