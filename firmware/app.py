"""The application: board, settings, meld set, modes, and the main loop.

Data flow: encoder/button -> events -> active mode -> core -> frame -> ring driver -> wire.

The loop answers the knob first: where the port can, a detent's interrupt has a pass run at
once (the port's knob_wake), and a pass does its work in this order: the input into the mode,
the LEDs (a turn that only rotates them is written before the mode even hears of it), the
console line, the sound, then (once the knob has rested) the display a row a pass, the saves.
So a detent waits at most for the one short piece of work running when it came (a display row
is about 3 ms of I2C; a settings save, rare, longer), never for a whole redraw. The loop tick
allocates nothing in steady state: events, console lines, display rows and saves allocate, an
idle or repainting tick does not.
"""

import gc

from core.meldset import MeldSetError
from hardware.clock import ticks_add, ticks_diff, ticks_since
from hardware.presses import CLICK, DOUBLE, LONG, PressDetector

from firmware import crashes, render
from firmware.modes import Context, LightsNotes, MenuContext, TurnRotates, load_mode
from firmware.settings import Settings

ERROR_SHOW_MS = 1500
NOTES = 9                     # an event beside the presses: the notes held changed
# The display starts its redraw once the knob has rested this long: a spin goes to the LEDs,
# and the display shows where it stopped (its redraw costs milliseconds a row on a real bus).
REST_MS = 40


EROFS = 30


def _save_problem(err):
    if err.args and err.args[0] == EROFS:
        # CircuitPython: boot.py left the drive to the computer (the button was held).
        return ("settings not saved: drive is read-only (plug the board in again without "
                "holding the button)")
    return "settings not saved: %s (will try again later)" % err


class App:
    def __init__(self, hw, settings=None):
        self.hw = hw
        self.records = hw.records
        self.now = hw.clock.ticks_ms()
        self.settings = settings or Settings(hw.records).load()
        for problem in self.settings.problems:
            self._log(problem)
        self.midi = None              # firmware/midi.py, once the `midi` setting asks for it
        if self.settings["midi"] != "off":
            # Before the first line: on MicroPython the USB device comes back with MIDI
            # before the set's line, which the laptop waits for, is printed.
            from firmware import midi
            midi.start(self)
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
        self.rotates = self.lights = False     # the active mode's fast paths: _mode_changed
        self._mode_changed()
        self.settle_due = False       # the mode has work to do once the LEDs show its state
        self.error_until = None
        self.dirty = True
        self.pending = False
        self.rendered_at = ticks_add(self.now, -self.frame_ms)
        self.started_at = self.now
        self.stable = False
        self.last_line = None
        self.line_due = True          # the console line waits until the ring shows its state
        self.screen_due = False       # the display shows an older line than the console
        self.screen_rows = None       # the rows it is drawing, laid out once the knob rests
        self.input_at = ticks_add(self.now, -REST_MS)     # the last turn or press (none)
        self.busy = False             # more work waits: the loop comes back without a sleep
        self.garbage = False          # input came: collect once the wheel is idle again
        self._layout = None
        if hw.display is not None:
            from firmware.screen import layout
            self._layout = layout
        self.watchdog = None
        self.stopped = False
        self.crashed = None           # what a pass the knob asked for raised
        self.ticking = False          # a pass is running
        self.knob_due = False         # the knob asked for a pass while one was running

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
        parts = []
        if self.hw.buzzer is not None:
            parts.append("buzzer")
        if getattr(self.hw.port, "midi_port", None) is not None:
            parts.append("midi")
        self.menu = Menu(MenuContext(self.ctx), parts)

    def close_menu(self):
        self.menu = None
        self.settle_due = True        # what the mode heard while the menu was open

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
            self.silence()
            self.mode = self._start_mode(value)
        elif key == "midi":
            from firmware import midi
            midi.setting_changed(self)
        elif key == "brightness":
            self.hw.ring.brightness = value
        self.dirty = True
        self._mode_changed()

    def preview(self, key, value):
        """Show a value while the menu turns through them, without keeping it (None: back to
        the kept one)."""
        if key == "brightness":
            self.hw.ring.brightness = self.settings["brightness"] if value is None else value
            self.dirty = True
        elif key == "volume" and value is not None:
            self.beep(value)

    def play_meld(self, index, root):
        """The meld on the buzzer (if the board has one and the sound is on), and its notes
        on MIDI out."""
        volume = self.settings["volume"]
        if self.hw.buzzer is not None and volume:
            from firmware.sound import meld_tones
            self.hw.buzzer.play(meld_tones(self.meldset, index, root), volume)
        if self.midi is not None:
            self.midi.play(self.meldset.meld_codes(index), root, self.settings)

    def silence(self, now=False):
        """The chord MIDI out sounds, ended (after the LEDs, or `now`): no note is left
        hanging on a synth."""
        if self.midi is not None:
            self.midi.silence()
            if now:
                self.midi.flush()

    def held_notes(self):
        """The notes MIDI in holds (core.midi.HeldNotes), or None when MIDI in is off."""
        midi = self.midi
        return midi.held if midi is not None and midi.listening else None

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
        self.rendered_at = ticks_add(self.now, -self.frame_ms)   # at once, even after a turn
        self._mode_changed()

    def _dispatch(self, press, steps=0):
        """A turn of `steps` detents (press None) or a press (CLICK, DOUBLE, LONG) to the
        active mode; a change of the notes MIDI in holds (NOTES) to the mode, menu or not."""
        mode = self.active
        try:
            if press is None:
                mode.on_turn(steps)
            elif press == NOTES:
                self.mode.on_notes()      # the mode under the menu too: it shows them after
            elif press == CLICK:
                mode.on_click()
            elif press == DOUBLE:
                mode.on_double()
            elif press == LONG:
                mode.on_long()
        except Exception as err:
            self._failed(err)
        self.dirty = True
        self.line_due = True
        self._mode_changed()

    def _mode_changed(self):
        """What the knob's fast path needs to know of the active mode, asked once an event
        or a setting may have changed it, not at every detent."""
        active = self.active
        self.rotates = isinstance(active, TurnRotates) and active.rotates()
        self.lights = isinstance(active, LightsNotes) and active.lights_notes()

    def announce(self):
        """Print the active mode's line on the serial console when it changed."""
        self.line_due = False
        try:
            line = self.active.describe()
        except Exception as err:
            self._failed(err)
            return
        if line != self.last_line:
            print(line)
            self.last_line = line
            self.screen_due = self._layout is not None
            self.screen_rows = None

    # ---- the loop tick: nothing below allocates unless something happened -------------------

    def tick(self, now):
        """One pass of the loop. What the user sees first comes first: the input into the
        mode, then the ring, then the console line, the sound, the display and the saves."""
        hw = self.hw
        if hw.link is not None:
            hw.link.poll(not self.busy)          # a pass with work waiting takes no time
            now = hw.clock.ticks_ms()
        steps = hw.encoder.take()
        turned = steps and self._turn_ring(steps, now)    # first: nothing else waits on it
        self.now = self.ctx.now = now
        if steps:
            self._input(now)
            self._dispatch(None, steps)
            if turned and self.error_until is None:
                self.dirty = False        # the LEDs show the turned state already
        if self.midi is not None and self.midi.poll():
            lit = self.lights and self._light_notes(now)     # first, as a turn is
            self._input(now)
            self._dispatch(NOTES)
            self.settle_due = True
            if lit and self.error_until is None:
                self.dirty = False        # the LEDs show the notes already
        event = self.presses.update(hw.button.pressed(), now)
        if event:
            self._input(now)
            self._dispatch(event)
        if self.error_until is not None and ticks_diff(now, self.error_until) >= 0:
            self.error_until = None
            self.dirty = True
            self.line_due = True
        if isinstance(self.active, render.BlinkingCursor) and self.active.blink_due(now):
            self.dirty = True             # a blinking cursor's next phase (firmware/render.py)
        if self.dirty and ticks_since(now, self.rendered_at) >= self.frame_ms:
            self._render()
            self.rendered_at = now
        if self.pending:
            self.pending = not hw.ring.show(hw.clock.ticks_us())
        shown = not self.dirty and not self.pending      # the LEDs show the mode's state
        if self.settle_due and shown:
            self.settle_due = False
            if self._settle():
                self.dirty = True
                shown = False
        if self.line_due and shown and self.error_until is None:
            self.announce()
        # The sound timed from the clock as it is now, not from the pass's start: the line
        # before it may have taken a few ms, which would come out of the note.
        if hw.buzzer is not None:
            hw.buzzer.update(hw.clock.ticks_ms())
        if self.midi is not None:
            self.midi.flush()             # a meld played: its notes, after the LEDs
        self.busy = False
        if self.screen_due and shown and ticks_since(now, self.input_at) >= REST_MS:
            self._display_pass()
        if self.garbage and not (self.busy or self.screen_due or self.line_due) \
                and ticks_since(now, self.input_at) >= REST_MS:
            # The events, lines and rows since the last input made garbage: collected now,
            # while the wheel is idle, not in the next answer. MicroPython's allocator looks
            # for room from a low mark up through all of it: measured on the emulated Pico,
            # a MIDI note's pass took 0.3 ms longer for each note since a collection (up to
            # 9 ms), as every call that needs a heap frame searched further.
            self.garbage = False
            gc.collect()
        self._keep(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def _turn_ring(self, steps, now):
        """The knob's answer on the LEDs before anything else, where a turn only rotates what
        they show (modes.TurnRotates): the frame written is turned and written, nothing
        painted or prepared (tests/host/test_modes.py holds each such mode to it). True when
        done."""
        if not self.rotates or self.dirty or self.pending or self.error_until is not None:
            return False              # the LEDs do not show the mode's state: nothing to turn
        if ticks_since(now, self.rendered_at) < self.frame_ms:
            return False
        if not self.hw.ring.turn(steps, self.hw.clock.ticks_us()):
            return False
        self.rendered_at = now
        return True

    def _light_notes(self, now):
        """MIDI in's answer on the LEDs before anything else, where the mode shows a change of
        the notes held as their sectors lit white (modes.LightsNotes): Ring.light writes them,
        nothing painted or prepared (tests/host/test_modes.py holds listen to it). True when
        done."""
        if self.dirty or self.pending or self.error_until is not None:
            return False
        if ticks_since(now, self.rendered_at) < self.frame_ms:
            return False
        if not self.hw.ring.light(self.midi.held.mask, self.hw.clock.ticks_us()):
            return False
        self.rendered_at = now
        return True

    def _settle(self):
        """The mode's work that waits for the LEDs (modes.LightsNotes); True when it changed what
        they should show."""
        active = self.active
        if not isinstance(active, LightsNotes):
            return False
        try:
            return active.settle()
        except Exception as err:
            self._failed(err)
            return False

    def _input(self, now):
        self.settings.touch(now)
        self.input_at = now
        self.garbage = True

    def _keep(self, now):
        """The settings saved once they have rested, and a boot that ran long enough is no
        longer counted as a crash (firmware/crashes.py)."""
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

    def _display_pass(self):
        """One short piece of the display's redraw: the layout first, then one row a pass
        (a row is one SSD1306 page: 128 bytes on the I2C bus, about 3 ms at 400 kHz)."""
        display = self.hw.display
        rows = self.screen_rows
        if rows is None:
            try:
                text = self.active.display() or self.last_line
                self.screen_rows = self._layout(text, display.columns, display.rows)
            except Exception as err:             # a mode's bug: as in any of its events
                self.screen_due = self.busy = False
                self._failed(err)
                return
            self.screen_due = self.busy = True
            return
        try:
            more = display.draw_next(rows)
        except OSError as err:
            # Unplugged or a loose wire (rp2: EIO/ETIMEDOUT; ESP32: ENODEV/ETIMEDOUT;
            # CircuitPython: ENODEV/ETIMEDOUT/EIO): the wheel goes on without its screen.
            self.hw.display = None
            self._layout = None
            self._log("display lost (%s): running without it" % err)
            more = False
        self.screen_due = more
        self.busy = more

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

    # ---- the loop: firmware/async_loop.py runs it as an asyncio task, run_plain without -----

    def run_plain(self, pause):
        """The loop with no asyncio, `pause(ms)` between passes: CircuitPython's port runs it
        so (firmware/ports/circuitpython.py)."""
        self.begin()
        while self.step():
            pause(self.pause_ms())
        self.end()

    def begin(self):
        hw = self.hw
        self.watchdog = hw.start_watchdog()
        if hasattr(hw.encoder, "wake"):          # its interrupt can ask for a pass at once
            hw.encoder.wake = hw.port.knob_wake(self._knob_pass)
        if self.midi is not None:
            from firmware import midi
            midi.wake(self)

    def step(self):
        """A pass; False once the simulator's host said quit."""
        if self.crashed is not None:             # a knob pass raised: that error, first
            raise self.crashed
        if self.stopped:
            return False
        self._pass()
        if self.crashed is not None:
            raise self.crashed
        link = self.hw.link
        return link is None or not (link.quit or link.closed)

    def pause_ms(self):
        """How long the loop may sleep before its next pass: no longer than until a frame the
        frame rate held back is due."""
        link = self.hw.link
        if self.busy or (link is not None and link.clock.virtual):
            return 0
        if self.dirty:
            due = self.frame_ms - ticks_since(self.hw.clock.ticks_ms(), self.rendered_at)
            return max(0, min(due, self.hw.period_ms))
        return self.hw.period_ms

    def stop(self):
        """No more passes, not even one the knob asks for (the REPL after Ctrl-C must not
        hear the app, and a save must not run twice at once)."""
        self.stopped = True
        if hasattr(self.hw.encoder, "wake"):
            self.hw.encoder.wake = None
        if self.midi is not None:
            self.midi.transport.on_receive = None

    def end(self):
        self.stop()
        if self.hw.buzzer is not None:
            self.hw.buzzer.stop()
        self.settings.save_before_stop()
        crashes.set_count(self.records, 0)     # a clean stop is not a crash

    def _pass(self):
        """A tick with the knob's passes held off (a detent meanwhile gets its own pass at the
        end)."""
        self.ticking = True
        try:
            self.tick(self.hw.clock.ticks_ms())
            while self.knob_due:         # a detent completed during the pass: its own pass
                self.knob_due = False
                self.tick(self.hw.clock.ticks_ms())
        finally:
            self.ticking = False

    def _knob_pass(self):
        """A pass as soon as the knob's interrupt says a detent is complete (the port runs
        it between two bytecodes of whatever runs: asyncio's sleep, most often); inside a
        pass it is left to that pass, which takes the detent itself."""
        if self.ticking:
            self.knob_due = True
            return
        if self.stopped:
            return
        try:
            self._pass()
        except Exception as err:                 # for run() to raise, in the app's own frame
            self.crashed = err
