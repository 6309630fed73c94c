"""Boot: board file, devices, safe mode or the app. Ctrl-C always reaches the REPL.

What is needed only to start (the board-file checker, the port's factory, the safe-mode
checks) is dropped from memory before the app starts: a small board needs that RAM."""

import sys

from firmware import unload  # the package is in already: start.py is in it

# An import of a built-in module that MicroPython lets a file replace (time, os, json,
# machine, ...: its "extensible" modules) first looks for that file in every sys.path folder
# on the flash, and does so again at every import statement, since built-ins are not kept in
# sys.modules: about 8 ms each on an RP2040 (littlefs lookups), some 16 of them before the
# first frame. The u-prefixed name reaches the built-in without the search; kept in
# sys.modules, every later import of it is a dictionary lookup. (Where a name is already there,
# a test's stand-in say, it stays; CPython has no u-names.)
for _name in ("machine", "time", "os", "json", "array", "binascii", "select", "io"):
    if _name not in sys.modules:
        try:
            sys.modules[_name] = __import__("u" + _name)
        except ImportError:
            pass

BOARD_PATH = "board.json"
BOOT_ONLY = ("hardware.board", "firmware.ports", "firmware.safemode")
# Needed to build the app, then only from the menu or on errors (imported again there).
START_ONLY = ("firmware.installed_sets", "firmware.log")


def _boot():
    """(devices, None) to start the app, or (devices or None, reason) for safe mode."""
    from hardware import board as board_file
    try:
        board = board_file.load(BOARD_PATH)
    except board_file.BoardError as err:
        return None, "the board file is not usable:\n%s" % err
    from firmware import ports, safemode
    try:
        hw = ports.build(board)
    except board_file.BoardError as err:      # a driver this chip cannot have
        return None, "the board file is not usable:\n%s" % err
    return hw, safemode.reason(hw)


def start_app(hw):
    """The loop's pass over the app (firmware/loop.py, firmware/app.py), built with boot-only
    code already gone and start-only code dropped after. The optional parts (display, buzzer)
    are built by the pass after its first frame: the ring first (firmware/ports/__init__.py,
    Parts)."""
    from firmware import ports
    parts = ports.optional_parts(hw)
    unload(BOOT_ONLY)
    from firmware.app import App
    from firmware.loop import Loop
    loop = Loop(App(hw), parts)
    unload(START_ONLY)
    return loop


def main():
    hw, why = _boot()
    if why:
        if hw is None:
            print("safe mode: " + why)
        else:
            from firmware import safemode
            safemode.run(hw, why)
        return
    from firmware import crashes
    crashes.booting(hw.records, hw.reset_cause())   # before the app is built: that can crash
    loop = None
    try:
        run_loop = getattr(hw.port, "run_loop", None)    # a port's own loop, or asyncio's
        if run_loop is None:
            # Before the app says it started (deploy waits for that line): a missing or
            # shadowed asyncio stops the boot here, where the deploy can quote it.
            import asyncio

            from firmware import async_loop
        loop = start_app(hw)
        _drop_boot_code()
        if run_loop is not None:
            run_loop(loop)
        else:
            drive = getattr(hw.port, "drive", None)       # the simulator's and the page's
            step, pause = drive(loop) if drive is not None else (None, None)
            asyncio.run(async_loop.run(loop, step, pause))
    except KeyboardInterrupt:
        if loop is not None:
            loop.stop()             # the knob's interrupt asks for no more passes
            loop.stop_watchdog()
            _quietly(loop.app.silence, True)     # no note left hanging on a synth
        _silence(hw)               # else the piezo sounds on at the REPL
        crashes.set_count(hw.records, 0)      # a deliberate stop (mpremote), not a crash
        if loop is not None:
            loop.app.settings.save_before_stop()
        raise
    except Exception as err:
        if loop is not None:
            loop.stop()
            _quietly(loop.app.silence, True)
        _silence(hw)
        try:
            from firmware import log, render
            hw.records.log(log.exception_text("fatal", err))
            render.paint_pattern(hw.ring.frame, render.ERROR, 2)
            hw.ring.show()
        except Exception:
            pass                   # no memory even for the report: the reset still comes
        hw.restart()
        raise


def _drop_boot_code():
    """This module's boot-only functions, dropped once the app runs: a small board needs the
    RAM (main() keeps running, so the module itself stays)."""
    global _boot, start_app
    del _boot, start_app


def _quietly(action, *args):
    try:
        action(*args)
    except Exception:          # a USB error must not hide the error that stopped the app
        pass


def _silence(hw):
    if hw.buzzer is not None:
        hw.buzzer.stop()
