"""The frozen build (`make uf2-frozen`: MicroPython with the firmware frozen in, the build that
meets the memory goals) on the emulated Pico: a fresh flash, no deploy; its first boot writes the
rest of the firmware, and the simulator's script gives the simulator's frames.

The UF2 is taken from build/uf2 when it is newer than everything frozen into it; else it is
built, when the ARM toolchain and the sources are there (MIRROR=DIR, or the sources an
earlier `make uf2-frozen` exported); else the test is skipped, saying which is missing."""

import os
import shutil

import pytest

from host_tools import ROOT
from host_tools.device.files import board_path, python_files
from host_tools.emulator import emulate
from host_tools.set_files import DEFAULT_SOURCE
from host_tools.sim import simulator
from running import run
from tests.host.test_emulated_pico import SCRIPT, same_display

pytestmark = pytest.mark.usefixtures("emulator", "simulator")

FROZEN = os.path.join(ROOT, "build", "uf2", "chromawheel-RPI_PICO.uf2")
BUILD = os.path.join(ROOT, "host_tools", "builds", "build_uf2.sh")
SOURCES = os.path.join(ROOT, "build", "uf2", "micropython", ".complete")
TOOLCHAIN = ("apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi "
             "libstdc++-arm-none-eabi-dev cmake")


def _frozen_uf2():
    inputs = [source for source, _ in python_files()] + [
        board_path("pico"), DEFAULT_SOURCE, BUILD,
        os.path.join(ROOT, "host_tools", "builds", "uf2_manifest.py")]
    newest = max(os.path.getmtime(path) for path in inputs)
    if os.path.exists(FROZEN) and os.path.getmtime(FROZEN) >= newest:
        return FROZEN
    why = "no frozen UF2 newer than the firmware in build/uf2"
    if shutil.which("arm-none-eabi-gcc") is None:
        pytest.skip("%s, and make uf2-frozen needs the ARM toolchain (%s)" % (why, TOOLCHAIN))
    if not (os.environ.get("MIRROR") or os.path.exists(SOURCES)):
        pytest.skip("%s, and its sources are not here: run make uf2-frozen once (it clones them)"
                    " or set MIRROR=DIR" % why)
    run(["bash", BUILD, "frozen"], timeout=3600, expect=0)
    return FROZEN


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


def test_the_frozen_uf2_runs_the_simulators_script(tmp_path):
    uf2 = _frozen_uf2()
    script = SCRIPT
    frames, console = emulate.run_script(script, board="pico", uf2=uf2,
                                         flash=str(tmp_path / "fresh.img"),
                                         progress=lambda line: None)
    expected, expected_console = simulator.run_script(script)
    assert [lit(f) for f in frames] == [lit(f) for f in expected]
    # The first boot wrote main.py, boot.py, board.json and the default set from the UF2
    # itself (its line comes before USB is up, so no host hears it), then the app ran, its
    # OLED driver frozen in too.
    assert console == expected_console
    same_display(frames, expected)
    assert not sum(f["faults"] for f in frames)
