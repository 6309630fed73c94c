"""package.json and the compiled default set are current, and mip installs a working firmware."""

import os
import sys

import pytest

from host_tools.builds.package import COMPILED_DEFAULT, PACKAGE_PATH, package_json
from host_tools.set_files import DEFAULT_SOURCE, compile_file
from host_tools.sim.vboard import VirtualBoard, lit_sectors
from running import run

pytestmark = pytest.mark.usefixtures("simulator")

ROOT = os.path.dirname(PACKAGE_PATH)
REGENERATE = "regenerate them with: make package"


def test_package_files_are_current():
    with open(PACKAGE_PATH) as f:
        assert f.read() == package_json(), REGENERATE
    with open(COMPILED_DEFAULT, "rb") as f:
        assert f.read() == compile_file(DEFAULT_SOURCE), REGENERATE


def test_mip_installs_a_firmware_that_runs(tmp_path):
    mpremote = os.path.join(os.path.dirname(sys.executable), "mpremote")
    with VirtualBoard(str(tmp_path / "flash")) as board:
        def mp(*args):
            return run([mpremote, "connect", "port:" + board.port] + list(args), timeout=120,
                       expect=0, context=lambda: "the board said: " + board.said()[-2000:]).stdout
        # --target . : the virtual board's flash is its working folder (a board's is /).
        out = mp("mip", "install", "--target", ".", PACKAGE_PATH)
        assert "Installing: ./firmware/app.py" in out
        # The package carries the Pico's board file; this board is the simulator.
        shown = len(board.frames)          # (the reboot's frame may come before the wait)
        mp("fs", "cp", os.path.join(ROOT, "boards", "sim.json"), ":board.json", "+", "reset")
        frame = board.wait_for_frame(lambda w: lit_sectors(w) == [0, 4, 7], timeout=20,
                                     after=shown)
        assert frame
        assert "meld set default loaded: 60 melds" in board.said()
