"""The application: board, settings, meld set, modes, and the main loop.

Data flow: encoder/button -> events -> active mode -> core -> frame -> ring driver -> wire.
The loop tick allocates nothing in steady state: events, console lines and saves allocate,
an idle or repainting tick does not.
"""

import asyncio

from core.meldset import MeldSetError
from hardware.clock import ticks_add, ticks_diff, ticks_since
from hardware.presses import CLICK, DOUBLE, LONG, PressDetector

from firmware import crashes, render
from firmware.modes import Context, load_mode
from firmware.settings import Settings

ERROR_SHOW_MS = 1500


EROFS = 30


def _save_problem(err):
    if err.args and err.args[0] == EROFS:
        # CircuitPython: boot.py left the drive to the computer (the button was held).
        return ("settings not saved: drive is read-only (plug the board in again without "
                "holding the button)")
    return "settings not saved: %s (will try again later)" % err


def _sleep_ms(ms):
    if hasattr(asyncio, "sleep_ms"):
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


class App:
    def __init__(self, hw, settings=None):
        self.hw = hw
        self.records = hw.records
        self.now = hw.clock.ticks_ms()
        self.settings = settings or Settings(hw.records).load()
        for problem in self.settings.problems:
            self._log(problem)
        from firmware import installed_sets        # used at start and from the menu only
        meldset, name = installed_sets.load_with_fallback(
            self.settings["meldset"], self.settings["last_good_meldset"], self._log)
        self.ctx = Context(self, self.settings, meldset, name)     # what the modes see
        self.ctx.now = self.now
        self.settings.set("last_good_meldset", name, self.now)
        print("meld set %s loaded: %d melds" % (name, meldset.count))
        button = hw.board["button"]
        self.presses = PressDetector(button["debounce_ms"], button["long_ms"], button["double_ms"])
        self.frame_ms = 1000 // hw.board["ring"]["max_fps"]
        hw.ring.brightness = self.settings["brightness"]
        self.menu = None
        self.mode = self._start_mode(self.settings["mode"])
        self.error_until = None
        self.dirty = True
        self.pending = False
        self.rendered_at = ticks_add(self.now, -self.frame_ms)
        self.started_at = self.now
        self.stable = False
        self.last_line = None
        self.screen_due = False       # the display shows an older line than the console
        self._layout = None
        if hw.display is not None:
            from firmware.screen import layout
            self._layout = layout
        self.watchdog = None
        self.stopped = False

    @property
    def meldset(self):
        return self.ctx.meldset

    @property
    def meldset_name(self):
        return self.ctx.meldset_name

    def _log(self, line):
        self.records.log(line)

    def _log_exception(self, where, err):
        from firmware.log import exception_text
        self.records.log(exception_text(where, err))

    # ---- modes and settings (event time: these may allocate) --------------------------------

    def _start_mode(self, name):
        try:
            return load_mode(name, self.ctx)
        except Exception as err:
            self._log_exception("mode %s" % name, err)
            return load_mode("explorer", self.ctx)

    @property
    def active(self):
        return self.menu or self.mode

    # ---- what the modes ask for through their context (firmware/modes/__init__.py) ---------

    def open_menu(self):
        from firmware.modes.menu import Mode as Menu
        self.menu = Menu(self.ctx, ("buzzer",) if self.hw.buzzer is not None else ())

    def close_menu(self):
        self.menu = None

    def set_names(self):
        from firmware import installed_sets
        return installed_sets.names()

    def apply_setting(self, key, value):
        """Keep a setting the menu changed, and do what it means now."""
        if key == "meldset":
            self.switch_set(value)            # kept only if the set loads
            return
        self.settings.set(key, value, self.now)
        if key == "mode":
            self.mode = self._start_mode(value)
        elif key == "brightness":
            self.hw.ring.brightness = value
        self.dirty = True

    def preview(self, key, value):
        """Show a value while the menu turns through them, without keeping it (None: back to
        the kept one)."""
        if key == "brightness":
            self.hw.ring.brightness = self.settings["brightness"] if value is None else value
            self.dirty = True
        elif key == "volume" and value is not None:
            self.beep(value)

    def play_meld(self, index, root):
        """The meld on the buzzer (if the board has one and the sound is on)."""
        volume = self.settings["volume"]
        if self.hw.buzzer is not None and volume:
            from firmware.sound import meld_tones
            self.hw.buzzer.play(meld_tones(self.meldset, index, root), volume)

    def beep(self, volume):
        """A short A4 at this volume (the menu's sound item previews with it)."""
        if self.hw.buzzer is not None:
            self.hw.buzzer.play(((440, 120),), volume)

    def switch_set(self, name):
        """Load another meld set; a set that fails to load changes nothing."""
        from firmware import installed_sets
        try:
            meldset = installed_sets.load_named(name)
        except MeldSetError as err:
            self._log("meld set %s refused: %s; keeping %s" % (
                name, str(err).replace("\n", "; "), self.meldset_name))
            return False
        self.ctx.meldset = meldset
        self.ctx.meldset_name = name
        self.settings.set("meldset", name, self.now)
        self.settings.set("last_good_meldset", name, self.now)
        self.mode.set_changed()
        self._log("meld set %s loaded: %d melds" % (name, meldset.count))
        return True

    def _failed(self, err):
        """A mode raised: log it, show the error pattern, go back to the explorer."""
        self._log_exception("mode %s" % self.active.name, err)
        self.menu = None
        self.error_until = ticks_add(self.now, ERROR_SHOW_MS)
        self.mode = load_mode("explorer", self.ctx)
        self.settings.set("mode", "explorer", self.now)
        self.dirty = True

    def _dispatch(self, press, steps=0):
        """A turn of `steps` detents (press None) or a press (CLICK, DOUBLE, LONG) to the
        active mode."""
        mode = self.active
        try:
            if press is None:
                mode.on_turn(steps)
            elif press == CLICK:
                mode.on_click()
            elif press == DOUBLE:
                mode.on_double()
            elif press == LONG:
                mode.on_long()
            self.announce()
        except Exception as err:
            self._failed(err)
        self.dirty = True

    def announce(self):
        """Print the active mode's line on the serial console when it changed."""
        line = self.active.describe()
        if line != self.last_line:
            print(line)
            self.last_line = line
            self.screen_due = self._layout is not None

    # ---- the loop tick: nothing below allocates unless something happened -------------------

    def tick(self, now):
        hw = self.hw
        if hw.link is not None:
            hw.link.poll()
            now = hw.clock.ticks_ms()
        self.now = self.ctx.now = now
        steps = hw.encoder.take()
        if steps:
            self.settings.touch(now)
            self._dispatch(None, steps)
        event = self.presses.update(hw.button.pressed(), now)
        if event:
            self.settings.touch(now)
            self._dispatch(event)
        if self.settings.save_due(now, ticks_diff):
            try:
                self.settings.save()
            except OSError as err:
                if not self.settings.retry_ms:       # once per run of failures, not per try
                    self._log(_save_problem(err))
                self.settings.save_failed(now)
        if not self.stable and ticks_diff(now, self.started_at) >= crashes.STABLE_MS:
            self.stable = True
            crashes.set_count(self.records, 0)
        if self.error_until is not None and ticks_diff(now, self.error_until) >= 0:
            self.error_until = None
            self.dirty = True
            self.announce()
        if self.dirty and ticks_since(now, self.rendered_at) >= self.frame_ms:
            self._render()
            self.rendered_at = now
        if self.pending:
            self.pending = not hw.ring.show(hw.clock.ticks_us())
        # The sound before the screen, timed from the clock as it is now, not from the tick's
        # start: on a real port a tick with a change takes tens of ms (a first import, the
        # console line, a display line is about 50 ms on an RP2040), which would come out of
        # the note.
        if hw.buzzer is not None:
            hw.buzzer.update(hw.clock.ticks_ms())
        # After the ring, and only once the ring shows the same state (a frame held back by
        # the frame rate first): the LEDs answer the knob first.
        if self.screen_due and not self.dirty and not self.pending:
            self.screen_due = False
            self._show_on_display()
        if self.watchdog is not None:
            self.watchdog.feed()

    def _show_on_display(self):
        display = self.hw.display
        active = self.active
        text = active.display() or self.last_line
        try:
            display.show(self._layout(text, display.columns, display.rows))
        except OSError as err:
            # Unplugged or a loose wire (rp2: EIO/ETIMEDOUT; ESP32: ENODEV/ETIMEDOUT;
            # CircuitPython: ENODEV/ETIMEDOUT/EIO): the wheel goes on without its screen.
            self.hw.display = None
            self._layout = None
            self._log("display lost (%s): running without it" % err)

    def _render(self):
        frame = self.hw.ring.frame
        self.dirty = False
        self.pending = True
        if self.error_until is not None:
            render.paint_pattern(frame, render.ERROR, 2)
            return
        try:
            self.active.render(frame)
        except Exception as err:
            self._failed(err)
            render.paint_pattern(frame, render.ERROR, 2)

    async def run(self):
        hw = self.hw
        self.watchdog = hw.start_watchdog()
        self.announce()
        while not self.stopped:
            self.tick(hw.clock.ticks_ms())
            link = hw.link
            if link is not None and (link.quit or link.closed):
                break
            await _sleep_ms(0 if link is not None and link.clock.virtual else hw.period_ms)
        if hw.buzzer is not None:
            hw.buzzer.stop()
        self.settings.save_before_stop()
        crashes.set_count(self.records, 0)     # a clean stop is not a crash
