"""The device code type-checked against each port's published stubs, so that calling an API a
port does not have (a module, a function, a keyword) fails here, not on a board.

`python -m host_tools.device.port_check [PORT ...]` (make test runs it through the tests). The stubs
are pinned below and installed, once, into build/stubs/PORT (each port's `machine` differs, so
they cannot share one environment). Only the errors that mean "this port has no such thing"
count: a missing attribute or module, a wrong call; the stubs' own typing noise does not."""

import os
import sys

from host_tools import tools
from host_tools.device.files import ROOT
from host_tools.errors import UserError

# port -> (stub package pinned, replaces the standard library, the device files for it,
#          modules of the other ports that its code imports only on their branches)
PORTS = {
    "rp2": ("micropython-rp2-rpi-pico-stubs==1.29.0.post1", True,
            ("hardware/mp_devices.py", "hardware/irq_encoder.py", "hardware/mp_parts.py",
             "hardware/rp2_pio_encoder.py", "hardware/mp_usb_midi.py",
             "hardware/mp_uart_midi.py"),
            ("microcontroller", "watchdog", "traceback", "supervisor")),
    "esp32": ("micropython-esp32-esp32-generic-stubs==1.29.0.post1", True,
              ("hardware/mp_devices.py", "hardware/irq_encoder.py", "hardware/mp_parts.py",
               "hardware/esp32_encoder.py", "hardware/mp_uart_midi.py"),
              ("microcontroller", "watchdog", "traceback", "rp2", "supervisor")),
    "circuitpython": ("circuitpython-stubs==10.3.1", False,
                      ("hardware/cp_devices.py", "hardware/cp_parts.py"),
                      ("machine", "neopixel", "rp2", "esp32", "vfs")),
}
# What every port runs: the loop, the modes, the drivers' pure logic, the core they use.
COMMON = ("hardware/clock.py", "hardware/ring.py", "hardware/presses.py",
          "hardware/quadrature.py", "hardware/board.py", "hardware/oled.py",
          "hardware/buzzer.py", "hardware/font.py", "firmware")
# The page's own modules (host_tools/web/site gives them to the web port's MicroPython).
PAGE_MODULES = ("webpins", "uctypes")
COUNTED = ("[attr-defined]", "[call-arg]", "[import-not-found]", "[name-defined]",
           "[import-untyped]")


def stubs_dir(port):
    package = PORTS[port][0]
    target = os.path.join(ROOT, "build", "stubs", port)
    stamp = os.path.join(target, ".installed")
    if not os.path.exists(stamp) or open(stamp).read() != package:
        proc = tools.run([sys.executable, "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", "--upgrade", "--target", target,
                          package], "pip install " + package, 600, text=True)
        if proc.returncode:
            raise UserError("could not install %s: %s" % (package, proc.stderr.strip()[-300:]))
        with open(stamp, "w") as f:
            f.write(package)
    if not PORTS[port][1]:
        # PEP 561 "X-stubs" packages are found in site-packages only: give them their module
        # names in a folder of their own for MYPYPATH.
        named = os.path.join(target, "modules")
        os.makedirs(named, exist_ok=True)
        for entry in os.listdir(target):
            link = os.path.join(named, entry[:-len("-stubs")])
            if entry.endswith("-stubs") and not os.path.exists(link):
                os.symlink(os.path.join(target, entry), link)
        return named
    return target


def check(port, extra=()):
    """The problems mypy finds in the device code (and `extra` files) against `port`'s stubs,
    as mypy's lines."""
    package, replaces_stdlib, files, others = PORTS[port]
    stubs = stubs_dir(port)
    config = os.path.join(ROOT, "build", "stubs", "mypy-%s.ini" % port)
    with open(config, "w") as f:
        f.write("[mypy]\n[mypy-%s]\nignore_missing_imports = True\n" % ",".join(
            others + PAGE_MODULES + ("circuitpython_typing",)))
    args = [sys.executable, "-m", "mypy", "--config-file", config, "--no-site-packages",
            "--follow-imports=silent", "--check-untyped-defs", "--no-error-summary",
            "--no-incremental", "--cache-dir", os.devnull]
    if replaces_stdlib:
        args += ["--custom-typeshed-dir", stubs]
    if port != "circuitpython":      # firmware/ holds CircuitPython's boot.py too
        args += ["--exclude", "firmware/circuitpy_boot.py"]
    # The outside libraries deploy installs in lib/ (a CircuitPython board's; a MicroPython
    # board has none) are checked as the device would run them.
    path = stubs
    if port == "circuitpython":
        from host_tools.device import libs
        path += os.pathsep + libs.lib_dir("circuitpython")
    env = dict(os.environ, MYPYPATH=path)
    proc = tools.run(args + list(COMMON) + list(files) + list(extra), "mypy", 600, cwd=ROOT,
                     env=env, text=True)
    if proc.returncode not in (0, 1):           # 1: errors found; anything else: mypy failed
        raise UserError("mypy failed on the %s check: %s" % (
            port, (proc.stderr or proc.stdout).strip()[-300:]))
    ours = ("hardware/", "firmware/", "core/") + tuple(extra)
    return [line for line in proc.stdout.splitlines()
            if line.startswith(ours) and line.rstrip().endswith(COUNTED)]


def main(argv=None):
    ports = (argv if argv is not None else sys.argv[1:]) or sorted(PORTS)
    failed = 0
    for port in ports:
        problems = check(port)
        print("%s (%s): %s" % (port, PORTS[port][0], "ok" if not problems else
                               "%d problems" % len(problems)))
        for line in problems:
            print("  " + line)
        failed += len(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
