"""A mode that cannot start (a MemoryError on a small board: the QT Py under CircuitPython
with MIDI on had no room for the hand mode) falls back to the explorer, and the user is
told; when not even the explorer can be made, a mode of code always loaded (modes.NoRoom)
keeps the board taking input: never a deaf board. The firmware under CPython, load_mode
failing as a board's full heap makes it fail."""

import pytest

from firmware import app as app_module
from firmware.modes import NoRoom
from firmware_harness import Device


@pytest.fixture(autouse=True)
def _back_where_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)       # the device runs in its flash folder: cwd put back after


@pytest.fixture
def failing(monkeypatch):
    """load_mode raising MemoryError for the modes named in the returned set."""
    real = app_module.load_mode
    refused = set()

    def load_mode(name, ctx):
        if name in refused:
            raise MemoryError("memory allocation failed, allocating 1024 bytes")
        return real(name, ctx)
    monkeypatch.setattr(app_module, "load_mode", load_mode)
    return refused


def logged(app):
    lines = []
    app._log = lines.append
    app._log_exception = lambda where, err: lines.append("%s: %s" % (where, err))
    return lines


def test_a_mode_that_does_not_fit_falls_back_and_says_so(tmp_path, failing):
    device = Device(tmp_path)
    failing.add("hand")
    lines = logged(device.app)
    device.app.apply_setting("mode", "hand")
    assert device.app.mode.name == "explorer"
    assert device.app.settings["mode"] == "explorer"        # the menu says what runs
    assert "mode hand could not start: explorer instead" in lines
    assert device.loop.error_until is not None              # the error pattern a moment
    device.wait(2000)
    before = device.line
    device.turn(1)
    assert device.line != before                            # the explorer hears the knob


def test_when_not_even_the_explorer_fits_the_board_still_takes_input(tmp_path, failing):
    device = Device(tmp_path)
    failing.update(("hand", "explorer"))
    lines = logged(device.app)
    device.app.apply_setting("mode", "hand")
    assert isinstance(device.app.mode, NoRoom)
    assert any(line.startswith("mode explorer: ") for line in lines)
    device.wait(2000)                                       # the error pattern's moment over
    assert device.line == "no room for a mode (MemoryError): long press for the menu"
    assert device.wheel()[0] != [0, 0, 0]                   # a dim pattern, not a dark ring
    device.turn(1)
    device.click()
    device.long()
    assert device.app.menu is not None                      # the menu: another mode
    assert device.line.startswith("menu: ")


def test_a_mode_that_fails_at_boot_is_shown_once_the_loop_runs(tmp_path, failing):
    first = Device(tmp_path).app
    first.apply_setting("mode", "hand")
    first.settings.save()                                   # the hand, at the next boot
    failing.add("hand")
    device = Device(tmp_path, build=False)
    assert device.app.mode.name == "explorer"
    assert device.app.settings["mode"] == "explorer"
    assert device.loop.error_until is not None              # shown, once the loop runs
