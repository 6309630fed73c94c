"""Fault tests: damaged files at boot (under MicroPython), and a meld-set flash cut at seeded
points of its bytes on the wire (CHROMAWHEEL_SEED picks them) against the
virtual board. Each time the device boots, runs, and keeps a good set."""

import json
import os
import random
import shutil
from unittest import mock

import pytest
import serial

from host_tools.cli.main import main
from host_tools.device import deploy
from host_tools.device.files import ROOT, build_flash
from host_tools.set_files import compile_file
from host_tools.sim.vboard import VirtualBoard, lit_sectors
from host_tools.tools import micropython_path
from running import run
from waiting import wait_until

pytestmark = pytest.mark.usefixtures("simulator")


def test_damaged_sets_and_settings_at_boot(tmp_path):
    build_flash(str(tmp_path), "sim")
    (tmp_path / "melds" / "jazz.cwm").write_bytes(
        compile_file(os.path.join(ROOT, "core", "meldsets", "jazz.json")))
    shutil.copy(os.path.join(ROOT, "tests", "device_faults.py"), str(tmp_path))
    proc = run([micropython_path(), "-X", "heapsize=512k", "device_faults.py"],
               cwd=str(tmp_path), timeout=600, expect=0)
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    jazz_size = (tmp_path / "melds" / "jazz.cwm").stat().st_size
    assert results["set_truncated"] == jazz_size
    assert results["set_corrupted"] == 300
    assert results["kept_last_good"] == jazz_size + 300
    assert results["settings_truncated"] > 100 and results["settings_corrupted"] == 300


GOOD_SETS = ("meld set jazz loaded: 47 melds", "meld set modes loaded: 34 melds")


class Unplugged(BaseException):
    """The laptop goes (killed, its cable pulled) at a seeded byte: nothing in it catches this."""


def flash_cut_at(port, source, at=None):
    """A meld-set flash of `source` whose laptop is gone once `at` bytes have gone to the board
    (None: a whole flash). The bytes it sent."""
    sent = [0]
    write = serial.Serial.write

    def cut_write(self, data):
        data = bytes(data)
        if at is not None and sent[0] + len(data) > at:
            write(self, data[:at - sent[0]])
            sent[0] = at
            raise Unplugged()
        sent[0] += len(data)
        return write(self, data)

    with mock.patch.object(serial.Serial, "write", cut_write):
        try:
            deploy.flash_set(port, source, progress=lambda line: None)
        except Unplugged:
            pass
    return sent[0]


def test_a_flash_cut_at_seeded_points_loses_nothing(tmp_path):
    rng = random.Random(int(os.getenv("CHROMAWHEEL_SEED", "7")))
    jazz = os.path.join(ROOT, "core", "meldsets", "jazz.json")
    modes = os.path.join(ROOT, "core", "meldsets", "modes.json")
    with VirtualBoard(str(tmp_path / "flash")) as board:
        assert main(["deploy", "--port", board.port, "--board", "sim", "--json"]) == 0
        whole = flash_cut_at(board.port, modes)           # what a whole flash sends
        flash_cut_at(board.port, jazz)
        for at in sorted(rng.sample(range(whole), 7)):
            flash_cut_at(board.port, modes, at)
            # Power is cut and comes back: the board must boot and run on a good set.
            before = len(board.transcript)
            frames = len(board.frames)
            board.power_cycle()
            # The power-up's own words: a boot the cut flash had started (its maintenance
            # reset) may still be speaking, so wait for the state, not for a frame.
            def loaded(before=before):
                said = board.said()[before:]
                return said if any(line in said for line in GOOD_SETS) else None
            said = wait_until(loaded, 15, what="a good set after a cut at byte %d of %d"
                              % (at, whole))
            assert "refused" not in said, said
            board.wait_for_frame(lambda w: len(lit_sectors(w)) >= 3, after=frames, timeout=15)
