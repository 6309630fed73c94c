"""`make uf2`: the stock MicroPython UF2 for the Pico with the firmware on its littlefs drive,
built with no compiler, booted on the emulated Pico from a blank flash (no deploy): the
simulator's frames for the simulator's script."""

import os

import pytest

from host_tools.builds import littlefs_uf2
from host_tools.device import deploy
from host_tools.emulator import emulate
from host_tools.emulator.rp2040 import flash_with_uf2, image
from host_tools.sim import simulator


@pytest.fixture(scope="module")
def uf2(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("uf2") / "chromawheel-pico.uf2")
    assert littlefs_uf2.main(["-o", path]) == 0
    return path


def test_the_uf2_is_the_stock_firmware_and_a_drive_where_the_rp2_port_keeps_it(uf2):
    with open(uf2, "rb") as f:
        blocks = littlefs_uf2.uf2_blocks(f.read())
    with open(image("uf2"), "rb") as f:
        stock = littlefs_uf2.uf2_blocks(f.read())
    assert blocks[:len(stock)] == stock                   # the firmware's bytes, unchanged
    drive = blocks[len(stock):]
    # RPI_PICO: the last 1408 KiB of 2 MiB, from 0x100A0000, in whole 4 KiB blocks.
    assert min(address for address, _ in drive) == 0x100A0000
    assert max(address for address, _ in drive) < 0x10200000
    assert len(drive) % 16 == 0 and all(len(payload) == 256 for _, payload in drive)
    # The drive read back with littlefs as the port mounts it holds what deploy copies.
    from littlefs import LittleFS
    flash = flash_with_uf2(uf2)
    fs = LittleFS(block_size=4096, block_count=352, read_size=32, prog_size=256,
                  mount=False)
    fs.context.buffer[:] = flash[0xA0000:]
    fs.mount()
    for path, data in deploy.payload("pico", compiled=True):
        with fs.open(path, "rb") as f:
            assert f.read() == data, path
    assert {"boot.py", "main.py", "board.json", "melds"} <= set(fs.listdir("/"))


def test_a_board_of_another_platform_is_refused(capsys, tmp_path):
    assert littlefs_uf2.main(["-o", str(tmp_path / "x.uf2"), "--board", "qtpy_rp2040"]) == 2
    assert "error: board qtpy_rp2040 is for platform circuitpython" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "x.uf2")


def lit(frame):
    return [pc for pc in range(12) if any(frame["wheel"][pc])]


@pytest.mark.usefixtures("emulator", "simulator")
def test_the_emulated_pico_boots_the_uf2_and_runs_the_simulators_script(uf2, tmp_path):
    # A blank chip with only the UF2 written (as the boot ROM writes a dragged file): no
    # deploy, no first-boot copy; MicroPython mounts the drive the UF2 carried and runs it.
    flash = str(tmp_path / "flash.img")
    with open(flash, "wb") as f:
        f.write(flash_with_uf2(uf2))
    script = "cw 3; click; double"
    frames, console = emulate.run_script(script, board="pico", flash=flash,
                                         progress=lambda line: None)
    expected, expected_console = simulator.run_script(script)
    assert [lit(f) for f in frames] == [lit(f) for f in expected]
    assert console == expected_console
    assert console[0] == "meld set default loaded: 60 melds"
    assert frames[-1]["display"] == expected[-1]["display"]
    assert not sum(f["faults"] for f in frames)
