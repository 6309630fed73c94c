"""The firmware's behaviour under CPython: the Meld Explorer, the menu, settings, meld-set
fallbacks, error isolation, safe mode. Cases follow docs/music.md's spellings."""

import json
import os
import sys
import types

import pytest

from firmware import crashes, log, safemode
from firmware.records import FileRecords
from firmware.settings import Settings
from firmware_harness import Device


@pytest.fixture
def device(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return Device(tmp_path)


def lit(wheel):
    return [i for i, c in enumerate(wheel) if any(c)]


def test_boots_on_the_c_major_triad(device):
    assert device.line == "C major triad (maj): C E G"
    assert lit(device.wheel()) == [0, 4, 7]


def test_turning_moves_the_root_both_ways_and_wraps(device):
    device.turn(3)
    assert device.line == "Eb major triad (maj): Eb G Bb"
    assert lit(device.wheel()) == [3, 7, 10]
    device.turn(-4)
    assert device.line == "B major triad (maj): B D# F#"
    device.turn(-11)
    assert device.line == "C major triad (maj): C E G"


def test_click_next_meld_double_next_kind(device):
    device.click()
    assert device.line == "C minor triad (min): C Eb G"
    device.double()
    assert device.line == "C major pentatonic (major-pentatonic): C D E G A"
    device.double()
    assert device.line == "C minor second (m2): C Db"
    device.double()
    assert device.line == "C minor triad (min): C Eb G"


def test_required_bright_optional_dim_root_marked(device):
    for _ in range(8):
        device.click()                          # maj min dim aug sus2 sus4 6 min6 -> 7
    assert device.line == "C dominant seventh (7): C E (G) Bb"
    wheel = device.wheel()
    root, third, fifth, seventh = wheel[0], wheel[4], wheel[7], wheel[10]
    assert third == seventh                     # required notes alike
    assert sum(fifth) < sum(third) and all(fifth[i] <= third[i] for i in range(3))
    assert fifth[0] > 0                         # dim, not off
    assert root != third and root[2] > third[2]   # the root is whitened
    assert lit(wheel) == [0, 4, 7, 10]


def test_menu_changes_brightness_and_it_is_saved_after_5s(device):
    before = sum(map(sum, device.wheel()))
    device.long()
    assert device.line == "menu: mode (click to change, long press to leave)"
    device.turn(2)
    assert device.line == "menu: brightness (click to change, long press to leave)"
    device.click()
    device.turn(4)                              # 64 -> 96 -> 128 -> 192 -> 255
    device.click()
    assert device.app.settings["brightness"] == 255
    device.long()
    assert device.line == "C major triad (maj): C E G"
    assert sum(map(sum, device.wheel())) > before
    assert not os.path.exists("settings.json")
    device.wait(3000)
    assert not os.path.exists("settings.json")     # not yet: the knob may still move
    device.wait(2500)
    assert json.load(open("settings.json"))["brightness"] == 255
    assert not os.path.exists("settings.json.tmp")


def test_settings_restore_the_explorer_after_a_reboot(device, tmp_path):
    device.turn(2)
    device.click()
    device.wait(6000)
    again = Device(tmp_path, build=False)
    assert again.line == "D minor triad (min): D F A"


def test_colour_by_note_and_other_root_name(device):
    device.turn(1)
    assert device.line == "Db major triad (maj): Db F Ab"
    device.app.apply_setting("other_root_name", True)
    device.wait(20)
    assert device.line == "C# major triad (maj): C# E# G#"
    by_kind = device.wheel()
    device.app.apply_setting("colours", "note")
    device.wait(20)
    assert device.wheel() != by_kind and lit(device.wheel()) == [1, 5, 8]


def test_bad_settings_file_means_defaults(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    from host_tools.device.files import build_flash
    build_flash(str(tmp_path), "sim")
    (tmp_path / "settings.json").write_text('{"brightness": "max", "root": 4')
    device = Device(tmp_path, build=False)
    assert device.line == "C major triad (maj): C E G"
    assert "settings file unreadable: using defaults" in capsys.readouterr().out
    (tmp_path / "settings.json").write_text('{"brightness": "max", "root": 4}')
    device = Device(tmp_path, build=False)
    assert device.line == "E major triad (maj): E G# B"
    assert device.app.settings["brightness"] == 64


def test_settings_survive_a_cut_between_remove_and_rename(tmp_path):
    os.chdir(tmp_path)
    (tmp_path / "settings.json.tmp").write_text('{"root": 7}')
    assert Settings(FileRecords()).load()["root"] == 7


def damaged_copy(name, cut):
    with open("melds/default.cwm", "rb") as f:
        blob = f.read()
    with open("melds/%s.cwm" % name, "wb") as f:
        f.write(blob[:cut])


def test_damaged_meld_set_falls_back_and_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    from host_tools.device.files import build_flash
    build_flash(str(tmp_path), "sim")
    damaged_copy("jazz", 500)
    (tmp_path / "settings.json").write_text('{"meldset": "jazz", "last_good_meldset": "default"}')
    device = Device(tmp_path, build=False)
    out = capsys.readouterr().out
    assert "meld set jazz refused: melds/jazz.cwm: damaged meld set" in out
    assert "using meld set default instead" in out
    assert device.app.meldset_name == "default"
    assert device.line == "C major triad (maj): C E G"


def test_switching_to_a_damaged_set_keeps_the_current_one(device, capsys):
    damaged_copy("broken", 100)
    assert not device.app.switch_set("broken")
    assert device.app.meldset_name == "default"
    assert "keeping default" in capsys.readouterr().out
    device.turn(1)
    assert device.line == "Db major triad (maj): Db F Ab"


def test_a_failing_mode_shows_the_error_pattern_and_returns_to_the_explorer(device):
    def broken(steps):
        raise RuntimeError("boom")
    device.app.mode.on_turn = broken
    device.turn(1)
    assert lit(device.wheel()) == [0, 2, 4, 6, 8, 10]        # the error pattern
    assert all(c == (max(c), 0, 0) for c in device.wheel() if any(c))   # red
    assert "RuntimeError: boom" in open(log.LOG_PATH).read()
    device.wait(1600)
    assert device.line == "C major triad (maj): C E G"
    device.turn(1)
    assert device.line == "Db major triad (maj): Db F Ab"


def test_log_stays_bounded(tmp_path):
    os.chdir(tmp_path)
    for i in range(500):
        log.write("line %d %s" % (i, "x" * 40))
    sizes = [os.path.getsize(p) for p in (log.LOG_PATH, log.OLD_LOG_PATH)]
    assert all(s <= log.LOG_LIMIT for s in sizes)
    assert "line 499" in open(log.LOG_PATH).read()


def test_safe_mode_reasons(device, monkeypatch):
    assert safemode.reason(device.hw) is None
    crashes.set_count(device.hw.records, 3)
    assert safemode.reason(device.hw) is None          # a power-up: those boots lost power
    monkeypatch.setenv("CHROMAWHEEL_RESET_CAUSE", "reset")
    assert safemode.reason(device.hw) == "3 crashed boots in a row"
    crashes.set_count(device.hw.records, 0)
    device.button.down = True
    assert safemode.reason(device.hw) == "button held at power-up"


def test_crash_counter_cleared_once_stable(device):
    crashes.set_count(device.hw.records, 2)
    device.wait(10100)
    assert crashes.count(device.hw.records) == 0


def test_maintenance_only_after_a_deliberate_reset(device, monkeypatch):
    open(safemode.MAINTENANCE_PATH, "w").close()
    monkeypatch.setenv("CHROMAWHEEL_RESET_CAUSE", "reset")
    assert safemode.reason(device.hw).startswith("maintenance")
    assert not os.path.exists(safemode.MAINTENANCE_PATH)      # used up by that boot
    open(safemode.MAINTENANCE_PATH, "w").close()
    monkeypatch.setenv("CHROMAWHEEL_RESET_CAUSE", "power")
    assert safemode.reason(device.hw) is None                 # a power-up starts the app
    assert not os.path.exists(safemode.MAINTENANCE_PATH)


def test_a_failing_save_backs_off_and_is_reported_once(device, monkeypatch):
    # A full or read-only flash: the save fails. It is tried again later and later (the 5 s
    # quiet time plus 5 s, 10 s, 20 s ...), not every 10 ms tick, and the log says so once.
    from firmware import records
    tries = []
    lines = []

    def full(path, data):
        if path == "settings.json":
            tries.append(device.clock.ticks_ms())
        raise OSError(28, "ENOSPC")
    # Its own patches, undone alone: monkeypatch.undo() would also undo the fixture's chdir,
    # and the save below would land in the folder pytest was started in.
    with monkeypatch.context() as full_flash:
        full_flash.setattr(records, "write_atomic", full)
        full_flash.setattr(log, "write", lines.append)
        device.turn(1)
        device.app.settings.set("brightness", 32, device.clock.ticks_ms())
        device.wait(60000)
        gaps = [b - a for a, b in zip(tries, tries[1:])]
        assert gaps == [10000, 15000, 25000] and len(tries) == 4, gaps
        assert [line for line in lines if "settings not saved" in line] == [
            "settings not saved: [Errno 28] ENOSPC (will try again later)"]
    device.wait(80000)                               # the flash has room again: saved
    assert json.load(open("settings.json"))["brightness"] == 32
    assert device.app.settings.retry_ms == 0


def test_the_explorer_after_days_of_uptime_past_the_tick_wrap(tmp_path, monkeypatch):
    # ticks_ms wraps at 2**30 (12.4 days): start the virtual clock just before it and idle
    # across it; the knob and the button still work, the ring still follows.
    monkeypatch.chdir(tmp_path)
    device = Device(tmp_path)
    device.clock.advance((1 << 30) - 20000)
    device.wait(40000)
    device.turn(2)
    assert device.line == "D major triad (maj): D F# A"
    device.click()
    assert device.line == "D minor triad (min): D F A"
    assert lit(device.wheel()) == [2, 5, 9]


def test_the_menus_colour_test_shows_red_green_blue_from_c(device):
    # A wrong colour order is the most common support question in LED projects, hence an
    # R, G, B test pattern (boards/README.md). The sim board is GRB, LED 3 at C, anticlockwise: the
    # wheel decoded through the board file must read red, green, blue on C, C#, D.
    device.long()
    device.turn(5)
    assert device.line == "menu: colour test (click to change, long press to leave)"
    device.click()
    assert device.line.startswith("colour test: C red, C# green, D blue")
    wheel = device.wheel()
    assert [max(range(3), key=lambda c: wheel[s][c]) for s in range(3)] == [0, 1, 2]
    assert all(not any(wheel[s]) for s in range(3, 12))
    assert all(min(wheel[s]) == 0 and max(wheel[s]) > 0 for s in range(3))
    # On the wire (GRB, LED 3 = C, anticlockwise): LED 3 is (0, 255, 0) in G R B order.
    wire = device.output.frames[-1]
    assert wire[9] == 0 and wire[10] > 0 and wire[11] == 0          # LED 3: R only
    device.click()
    assert device.line == "menu: colour test (click to change, long press to leave)"


class Wake:
    """The port's knob_wake at the board boundary: what the interrupt would call."""

    def __init__(self, callback):
        self.callback = callback

    def set(self):
        self.callback()


def test_a_detent_during_a_pass_gets_its_own_pass_right_after(device, monkeypatch):
    # The knob's interrupt asks for a pass while one is running (micropython.schedule runs
    # between any two bytecodes): the running pass is not entered again, and the detent is
    # taken by a pass of its own at the end of it, not 10 ms later.
    loop = device.loop
    tick = loop.tick
    asked = []

    def tick_with_a_detent(now):
        if not asked:
            asked.append(now)
            device.encoder.turn(1)
            loop.wake_pass()                     # inside the pass: only noted
            assert loop.wake_due and device.line == "C major triad (maj): C E G"
        tick(now)
    monkeypatch.setattr(loop, "tick", tick_with_a_detent)
    loop._pass()
    assert loop.app.mode.root == 1 and not loop.wake_due       # taken in the same pass
    monkeypatch.undo()
    monkeypatch.chdir(os.getcwd())
    device.wait(20)                                      # its frame, held by the frame rate
    assert device.line == "Db major triad (maj): Db F Ab"
    assert lit(device.wheel()) == [1, 5, 8]


def test_a_knob_pass_that_raises_ends_the_loop_with_its_error(device, monkeypatch):
    # A pass the knob asked for runs outside the loop's own frame: its error is kept and
    # raised by the loop (then start.main logs it and restarts), not lost in the scheduler.
    loop = device.loop

    def broken(now):
        raise RuntimeError("boom")
    monkeypatch.setattr(loop, "tick", broken)
    loop.wake_pass()
    monkeypatch.undo()
    monkeypatch.chdir(os.getcwd())
    with pytest.raises(RuntimeError, match="boom"):
        loop.step()


def test_a_stopped_loop_hears_the_knob_no_more(device):
    # After Ctrl-C the REPL (mpremote's raw REPL, a deploy) must not get the app's lines,
    # and the interrupt's wake is taken away.
    loop = device.loop
    device.encoder.wake = Wake(loop.wake_pass)
    loop.stop()
    assert device.encoder.wake is None
    device.encoder.turn(1)
    loop.wake_pass()                             # one already scheduled when it stopped
    assert device.line == "C major triad (maj): C E G"
    assert loop.step() is False


def test_the_plain_loop_runs_passes_and_stops_cleanly(device, monkeypatch):
    # CircuitPython's loop (no asyncio): a pass, then pause(ms); stop() ends it with the
    # settings saved and the boot counted good.
    # Its port's module, imported over stand-ins for the chip's modules, and forgotten after.
    for name in ("board", "digitalio", "rotaryio", "neopixel_write", "hardware.cp_devices",
                 "firmware.ports.circuitpython"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    sys.modules["neopixel_write"].neopixel_write = None
    del sys.modules["hardware.cp_devices"], sys.modules["firmware.ports.circuitpython"]
    from firmware.ports.circuitpython import run_plain
    loop = device.loop
    pauses = []
    device.encoder.turn(2)

    def pause(ms):
        pauses.append(ms)
        device.clock.advance(10)
        if len(pauses) == 5:
            loop.stop()
    run_plain(loop, pause)
    assert device.line == "D major triad (maj): D F# A"
    # 10 ms, the loop period, or less while a frame the frame rate held back is due
    assert len(pauses) == 5 and all(0 <= ms <= 10 for ms in pauses) and pauses[-1] == 10
    assert json.load(open("settings.json"))["root"] == 2


def test_quiet_ms_counts_from_the_last_input_once_nothing_waits(device):
    # What CircuitPython's loop sleeps on (firmware/ports/circuitpython.py): 0 while the
    # turn's frame waits to be painted, then the time since the turn.
    loop = device.loop
    device.encoder.turn(1)
    loop.tick(device.clock.ticks_ms())
    turned = loop.now
    loop.dirty = True                       # a frame the frame rate holds back
    assert loop.quiet_ms(loop.now) == 0
    device.wait(500)
    assert loop.quiet_ms(device.clock.ticks_ms()) == device.clock.ticks_ms() - turned


def test_the_period_counts_from_the_pass_start(device):
    # A pass that took 3 ms (a display row on the bus) waits 7 ms for the next, not 10: the
    # passes keep their pace, and a tone ends within one period of its time.
    from firmware.devices import LOOP_PERIOD_MS
    loop = device.loop
    loop.tick(device.clock.ticks_ms())
    device.clock.advance(3)
    assert loop.pause_ms() == LOOP_PERIOD_MS - 3
    device.clock.advance(20)                       # a pass longer than the period
    assert loop.pause_ms() == 0


def test_a_chip_that_rests_deeply_polls_less_often_and_still_hears_a_quick_press(device):
    """A real chip's loop (hw.rest_period_ms, firmware/devices.py) pauses its rest period once
    nothing has touched the wheel for DEEP_REST_MS, and its period again from the next input;
    a tune or a press in play keeps the period. At the rest period's pace a 40 ms press
    counts."""
    from hardware.buzzer import Buzzer

    from firmware.devices import DEEP_REST_MS, LOOP_PERIOD_MS, REST_PERIOD_MS
    loop, hw = device.loop, device.hw
    assert loop.pause_ms() == LOOP_PERIOD_MS       # the simulator's board: no rest period
    hw.rest_period_ms = REST_PERIOD_MS
    device.turn(1)
    assert loop.pause_ms() == LOOP_PERIOD_MS
    device.wait(DEEP_REST_MS - 50)
    assert loop.pause_ms() == LOOP_PERIOD_MS
    device.wait(100)
    assert loop.pause_ms() == REST_PERIOD_MS

    class Piezo:                              # the board's pin (the buzzer's output)
        def tone(self, freq, duty):
            pass

        def off(self):
            pass
    hw.buzzer = Buzzer(Piezo())
    hw.buzzer.play([(440, 100)], 2)
    hw.buzzer.update(device.clock.ticks_ms())
    assert loop.pause_ms() == LOOP_PERIOD_MS      # a tone ends within one loop period
    device.clock.advance(100)
    hw.buzzer.update(device.clock.ticks_ms())
    loop.tick(device.clock.ticks_ms())
    assert loop.pause_ms() == REST_PERIOD_MS
    hw.buzzer = None

    def passes(ms):                           # as the loop runs them at rest
        for _ in range(ms // REST_PERIOD_MS):
            device.clock.advance(REST_PERIOD_MS)
            loop.tick(device.clock.ticks_ms())
    device.clock.advance(7)                   # the press starts between two passes
    device.button.down = True
    passes(40)
    assert loop.pause_ms() == LOOP_PERIOD_MS      # held: its long press is timed to 10 ms
    device.button.down = False
    passes(100)
    assert loop.pause_ms() == LOOP_PERIOD_MS      # a click waits for its double-press window
    passes(400)
    assert device.line == "C# minor triad (min): C# E G#"
    assert loop.pause_ms() == LOOP_PERIOD_MS


def test_a_mode_chosen_in_the_menu_loads_after_the_old_one_is_gone(device, monkeypatch):
    # A QT Py with MIDI on had no room for the hand mode's search arrays and the next mode
    # at once: choosing the score after the hand ran out of memory (make bench's heap run).
    import gc
    import weakref

    from firmware import app as app_module
    device.long()
    device.click()                                  # the mode item: explorer -> hand
    device.turn(2)
    device.click()
    assert device.app.mode.name == "hand"
    old = weakref.ref(device.app.mode)
    gone = []
    load = app_module.load_mode

    def load_after_collecting(name, ctx):
        gc.collect()
        gone.append(old() is None)
        return load(name, ctx)
    monkeypatch.setattr(app_module, "load_mode", load_after_collecting)
    device.click()                                  # hand -> score
    device.turn(1)
    device.click()
    assert device.app.mode.name == "score" and gone == [True]


def test_a_click_whose_window_closed_during_a_slow_pass_comes_before_the_next_turn(device):
    # The page's gestures are queued: a click (press 70 ms, release, 420 ms) then a detent.
    # When no pass runs between the window's end (350 ms) and the detent (a busy browser, a
    # long flash write), the one pass that sees both takes the click first, as it happened.
    device.long()
    device.turn(2)
    assert device.line == "menu: brightness (click to change, long press to leave)"
    device.button.down = True
    device.wait(70)
    device.button.down = False
    device.wait(10)
    device.clock.advance(420)                  # no pass in this time
    device.encoder.turn(1)
    device.wait(20)
    device.click()
    assert device.app.settings["brightness"] == 96      # 64 -> 96: the click entered the item
