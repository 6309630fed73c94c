"""Where the Pico's power-up goes, in emulated time: every import from reset to the first
frame, nested, with its start and its length (ticks_us on the board, so the board's own
clock times it, not the host's).

    .venv/bin/python -m host_tools.bench.boot_profile [BOARD]

A copy of the deployed image (host_tools/emulator) boots once with a main.py that puts a
timing wrapper in front of builtins.__import__ (MicroPython lets a program replace it), then
starts the firmware as main.py does; the times are read back over the raw REPL. The wrapper
costs a few percent, so the first frame comes a little later than make bench's. What is not an
import is the time between them: the board file's checks, the devices, the meld set, the first
pass."""

import json
import os
import shutil
import sys
import tempfile

from host_tools.device.deploy import out_of_line_script
from host_tools.device.link import DeviceLink
from host_tools.emulator import emulate

_TIMER = r'''
import builtins, utime
T = []
_import = builtins.__import__
_depth = [0]
def _timed(name, *args):
    start = utime.ticks_us()
    _depth[0] += 1
    try:
        return _import(name, *args)
    finally:
        _depth[0] -= 1
        T.append((name, _depth[0], start, utime.ticks_us()))
builtins.__import__ = _timed
'''
_MAIN = "import _boot_timer\nfrom firmware.start import main\nmain()\n"
_READ = "import _boot_timer, json\nprint(json.dumps(_boot_timer.T))"


def profile(name="pico"):
    """(first frame ns, [(module, depth, start us, end us)]) for board `name`'s power-up."""
    with tempfile.TemporaryDirectory() as tmp:
        flash = os.path.join(tmp, "flash.img")
        shutil.copyfile(emulate.deployed_image(name, progress=lambda line: None), flash)
        with emulate.emulated(name, flash) as pico:
            emulate.wait_started(pico)
            with DeviceLink(pico.port) as link:
                # Padded as deploy pads the root's scripts: the root folder's metadata, read
                # at every import, stays as the plain deploy's.
                link.write_atomic("_boot_timer.py", out_of_line_script(_TIMER.encode()))
                link.write_atomic("main.py", out_of_line_script(_MAIN.encode()))
            pico.power_cut()
            pico.frames.clear()
            pico.serial.clear()
            pico.power_up()
            pico.send("started", "wait 100")
            emulate.wait_started(pico)
            pico.wait_done(timeout=600)
            first_ns = pico.frames[0][5]
            with DeviceLink(pico.port) as link:
                out = link.run(_READ, timeout=60)
    return first_ns, json.loads(out.strip().splitlines()[-1])


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    name = argv[0] if argv else "pico"
    first_ns, imports = profile(name)
    first_us = first_ns / 1000.0
    print("%s: power-up to the first frame %.1f ms (with the timer); imports before it:"
          % (name, first_us / 1000))
    print("   start ms    took ms  module")
    for module, depth, start, end in sorted(imports, key=lambda row: row[2]):
        if start <= first_us:
            print("%11.1f %10.2f  %s%s" % (start / 1000.0, (end - start) / 1000.0,
                                          "  " * depth, module))
    top = sum(end - start for _, depth, start, end in imports if depth == 0 and start <= first_us)
    print("top-level imports: %.0f ms of %.0f" % (top / 1000.0, first_us / 1000))


if __name__ == "__main__":
    main()
