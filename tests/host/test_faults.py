"""Fault tests: damaged files at boot (under MicroPython), and a meld-set flash killed at many
points against the virtual board. Each time the device boots, runs, and keeps a good set."""

import json
import os
import shutil
import subprocess
import sys
import time

from host_tools.cli.main import main
from host_tools.device.files import ROOT, build_flash
from host_tools.set_files import compile_file
from host_tools.tools import micropython_path
from host_tools.sim.vboard import VirtualBoard, lit_sectors

import pytest

pytestmark = pytest.mark.usefixtures("simulator")

BIN = os.path.dirname(sys.executable)


def test_damaged_sets_and_settings_at_boot(tmp_path):
    build_flash(str(tmp_path), "sim")
    (tmp_path / "melds" / "jazz.cwm").write_bytes(
        compile_file(os.path.join(ROOT, "core", "meldsets", "jazz.json")))
    shutil.copy(os.path.join(ROOT, "tests", "device_faults.py"), str(tmp_path))
    proc = subprocess.run([micropython_path(), "-X", "heapsize=512k", "device_faults.py"],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    jazz_size = (tmp_path / "melds" / "jazz.cwm").stat().st_size
    assert results["set_truncated"] == jazz_size
    assert results["set_corrupted"] == 300
    assert results["kept_last_good"] == jazz_size + 300
    assert results["settings_truncated"] > 100 and results["settings_corrupted"] == 300


def _wait_said(board, since, lines, timeout=15):
    """What the board said since `since`, once it holds one of `lines`."""
    deadline = time.time() + timeout
    while True:
        said = board.said()[since:]
        if any(line in said for line in lines) or time.time() > deadline:
            assert any(line in said for line in lines), said
            return said
        time.sleep(0.05)


def test_a_flash_killed_midway_loses_nothing(tmp_path):
    jazz = os.path.join(ROOT, "core", "meldsets", "jazz.json")
    modes = os.path.join(ROOT, "core", "meldsets", "modes.json")
    with VirtualBoard(str(tmp_path / "flash")) as board:
        assert main(["deploy", "--port", board.port, "--board", "sim", "--json"]) == 0
        assert main(["meldset", "flash", jazz, "--port", board.port, "--json"]) == 0
        for delay in (0.05, 0.2, 0.4, 0.6, 0.8, 1.0, 1.3):
            flash = subprocess.Popen([os.path.join(BIN, "chromawheel"), "meldset", "flash",
                                      modes, "--port", board.port],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            flash.kill()
            flash.wait()
            # Power is cut and comes back: the board must boot and run on a good set.
            before = len(board.transcript)
            frames = len(board.frames)
            board.power_cycle()
            # The power-up's own words: a boot the killed flash had started (its maintenance
            # reset) may still be speaking, so wait for the state, not for a frame.
            said = _wait_said(board, before, ("meld set jazz loaded: 47 melds",
                                              "meld set modes loaded: 34 melds"))
            assert "refused" not in said, said
            board.wait_for_frame(lambda w: len(lit_sectors(w)) >= 3, after=frames, timeout=15)
