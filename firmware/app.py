"""The application: board, settings, meld set, modes, and the loop pass.

Data flow: encoder/button/MIDI in -> events -> active mode -> frame -> ring driver -> wire.

A pass does the app's own work in the order the user sees it, then walks its services:
1. input: the knob's detents, MIDI in's notes, the button's presses, each into the active
   mode (a turn that only rotates the LEDs, or notes shown as lit sectors, are written before
   the mode even hears of them: the modes' opt-in fast paths, firmware/modes/__init__.py);
2. the LEDs: the mode paints its frame (at most max_fps a second), the ring writes it;
3. the services (firmware/services.py), a fixed tuple built for the board's parts and the
   settings: the console line, the sound, MIDI out, the optional parts (built after the first
   frame, one a rested pass: firmware/ports/__init__.py), the display (a row a pass, once the
   knob has rested), the settings saver, the stable-boot mark, the garbage collector, the
   watchdog.
So a detent waits at most for the one short piece of work running when it came, never for a
whole redraw. Where the port can, a detent's interrupt (or MIDI in) has a pass run at once
(the port's knob_wake: App.wake_pass). A pass allocates nothing in steady state: events,
console lines, display rows and saves allocate, an idle or repainting pass does not.

The loop itself is the port's (firmware/ports/: run_loop), or firmware/async_loop.py: each
calls begin(), step() and pause_ms() until step() says stop, then end(). The simulator's and
the page's host links are driven there, never here.
"""

from core.meldset import MeldSetError
from hardware.clock import ticks_add, ticks_diff, ticks_since
from hardware.presses import PressDetector

from firmware import crashes, render, services
from firmware.devices import DEEP_REST_MS
from firmware.modes import Context, LightsNotes, TurnRotates, Works, load_mode
from firmware.services import BUSY, REST_MS, RESTED, SHOWN
from firmware.settings import Settings

ERROR_SHOW_MS = 1500
WORK_MS = 8          # a pass's share of the mode's work (modes.Works): a turn waits no longer
# A press event (hardware/presses.py: CLICK 1, DOUBLE 2, LONG 3) -> the mode's method.
_PRESSES = (None, "on_click", "on_double", "on_long")


class App:
    def __init__(self, hw, settings=None, parts=None):
        """`parts`: the service that builds the optional parts after the first frame
        (firmware/ports/__init__.py, Parts), or None."""
        self.hw = hw
        # No attribute more than these: a 30th grows the instance's table from 29 entries to
        # 37 (py/map.c), a 592-byte block the 64-bit port's small-heap run could not spare.
        self.now = hw.clock.ticks_ms()
        self.settings = settings or Settings(hw.records).load()
        for problem in self.settings.problems:
            self._log(problem)
        self.midi = None              # firmware/midi.py, once the `midi` setting asks for it
        if self.settings["midi"] != "off":
            # Before the first line: on MicroPython the USB device comes back with MIDI
            # before the set's line, which the laptop waits for, is printed.
            from firmware import midi
            self.midi = midi.start(hw.port, hw, self.settings, self._log)
        from firmware import installed_sets  # used at start and from the menu only
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
        self.dirty = True             # the mode's state changed: its frame is to be painted
        self.pending = False          # a frame painted, not yet written (the latch time)
        self.rendered_at = ticks_add(self.now, -self.frame_ms)
        self.input_at = ticks_add(self.now, -REST_MS)     # the last turn, press or notes
        self.busy = False             # a service has more work: the loop comes back at once
        self.work_until = self.now    # the end of a pass's share of the mode's work
        self.time_left = self._time_left      # made once: a work share allocates nothing
        self.stopped = False
        self.woken = _Woken()         # runs a pass the knob asks for; keeps what it raised
        self.ticking = False          # a pass is running
        self.wake_due = False         # a wake asked for a pass while one was running
        self.console = services.Console(self)
        self.watchdog = services.Watchdog(hw.records, self.now)
        self.parts = parts
        if parts is not None:
            parts.hand_over = self.set_part
        self.services = self._services()

    @property
    def meldset_name(self):
        return self.ctx.meldset_name

    @property
    def last_line(self):
        return self.console.line

    def _log(self, line):
        self.hw.records.log(line)

    def _log_exception(self, where, err):
        from firmware.log import exception_text
        self.hw.records.log(exception_text(where, err))

    def _services(self):
        """The services for the parts the board has and the settings ask for, in the order
        that keeps the ring first (firmware/services.py); made again (event time, never in a
        steady pass) when a part arrives or the `midi` setting first turns MIDI on."""
        hw = self.hw
        wanted = [self.console]
        if hw.buzzer is not None:
            wanted.append(services.Sound(hw.buzzer, hw.clock))
        if self.midi is not None:
            wanted.append(self.midi)                 # MIDI out, after the LEDs
        if self.parts is not None:
            wanted.append(self.parts)    # before the display: it draws once they are all in
        if hw.display is not None:
            wanted.append(services.Display(self, self.console, hw.display, hw.records.log))
        wanted.append(services.Saver(self.settings, hw.records.log))
        wanted.append(services.Collector())
        wanted.append(self.watchdog)
        return tuple(wanted)

    def set_part(self, name, part):
        """An optional part ("display", "buzzer") built after the first frame (self.parts),
        or None when it was left out or lost: the devices get it (hw.display, hw.buzzer) and
        the services are made again for it; a new display shows the current state at once."""
        setattr(self.hw, name, part)
        if self.parts is not None and not self.parts.pending:
            self.parts = None        # all in: the builders and the boot code they keep can go
        self.services = self._services()

    def build_parts(self):
        """The optional parts still waiting, built now (tools and tests that want them at
        once; the loop builds them itself after the first frame)."""
        if self.parts is not None:
            self.parts.build_all()

    # ---- modes and settings (event time: these may allocate) --------------------------------

    def _start_mode(self, name):
        try:
            return load_mode(name, self.ctx)
        except Exception as err:
            # The explorer first: its load collects what the failed one left, so a
            # MemoryError still has room for its log line.
            mode = load_mode("explorer", self.ctx)
            self._log_exception("mode %s" % name, err)
            return mode

    @property
    def active(self):
        return self.menu or self.mode

    def text(self, short):
        """The active mode's console line (describe()), or with `short` the display's text
        (display(), else the console line): for the console and display services. None when
        the mode raised (then it is logged and the explorer takes over)."""
        try:
            if short:
                return self.active.display() or self.console.line
            return self.active.describe()
        except Exception as err:
            self.failed(err)
            return None

    def announce(self):
        """Print the active mode's line on the serial console now, if it changed."""
        self.console.due = True
        self.console.update(self.now, SHOWN)

    # ---- what the modes ask for through their contexts (firmware/modes/__init__.py) --------

    def open_menu(self):
        from firmware.modes.menu import Mode as Menu
        parts = []
        if self.hw.buzzer is not None:
            parts.append("buzzer")
        from firmware.midi import available
        kinds = available(self.hw.port, self.hw.board)
        if kinds:
            parts.append("midi")
        if len(kinds) > 1:
            parts.append("midi ports")          # USB and the jacks: which the notes go on
        self.menu = Menu(self.ctx, self, parts)

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
            # The old mode and its tables go before the new one loads: a QT Py with MIDI on
            # had no room for both after the hand mode (its search's arrays, ~37 KB).
            self.mode = None
            self.mode = self._start_mode(value)
        elif key in ("midi", "midi_port"):
            self._midi_setting()
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
        elif key == "volume" and value is not None and self.hw.buzzer is not None:
            self.hw.buzzer.play(((440, 120),), value)        # a short A4 at this volume

    def play_meld(self, index, root):
        """The meld on the buzzer (if the board has one and the sound is on), and its notes
        on MIDI out."""
        volume = self.settings["volume"]
        if self.hw.buzzer is not None and volume:
            from firmware.sound import meld_tones
            self.hw.buzzer.play(meld_tones(self.ctx.meldset, index, root), volume)
        if self.midi is not None:
            self.midi.play(self.ctx.meldset.meld_codes(index), root, self.settings)

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

    def _midi_setting(self):
        """The menu changed the `midi` or `midi_port` setting: MIDI starts the first time it
        is turned on, a port the first time it is chosen; the direction, the ports and the
        split follow; the mode under the menu hears of it (listen)."""
        from firmware import midi
        if self.midi is None:
            if self.settings["midi"] == "off":
                return
            self.midi = midi.start(self.hw.port, self.hw, self.settings, self._log)
            if self.midi is None:
                return
            if not self.stopped:
                self.midi.wake_with(self.hw.port, self.wake_pass)
            self.services = self._services()
        else:
            kinds = midi.available(self.hw.port, self.hw.board)
            self.midi.follow(self.settings, kinds)
            midi.ensure(self.midi, self.hw.port, self.hw, midi.needed(self.settings, kinds),
                        self._log)
        self._notes_changed()

    def failed(self, err):
        """A mode raised: log it, show the error pattern, go back to the explorer."""
        self._log_exception("mode %s" % self.active.name, err)
        self.menu = None
        self.error_until = ticks_add(self.now, ERROR_SHOW_MS)
        self.mode = None                    # as apply_setting: the failed mode goes first
        self.mode = load_mode("explorer", self.ctx)
        self.settings.set("mode", "explorer", self.now)
        self.dirty = True
        self.rendered_at = ticks_add(self.now, -self.frame_ms)   # at once, even after a turn
        self._mode_changed()

    def _dispatch(self, press, steps=0):
        """A turn of `steps` detents (press None) or a press (hardware.presses: CLICK,
        DOUBLE, LONG) to the active mode."""
        mode = self.active
        try:
            if press is None:
                mode.on_turn(steps)
            else:
                getattr(mode, _PRESSES[press])()
        except Exception as err:
            self.failed(err)
        self.dirty = True
        self.console.due = True
        self._mode_changed()

    def _notes_changed(self):
        """The notes MIDI in holds changed (or MIDI in was turned on or off): to the mode, the
        menu open or not (it shows them after)."""
        try:
            self.mode.on_notes()
        except Exception as err:
            self.failed(err)
        self.dirty = True
        self.console.due = True
        self._mode_changed()

    def _mode_changed(self):
        """What the fast paths need to know of the active mode, asked once an event or a
        setting may have changed it, not at every detent."""
        active = self.active
        self.rotates = isinstance(active, TurnRotates) and active.rotates()
        self.lights = isinstance(active, LightsNotes) and active.lights_notes()
        self.presses.at_once = getattr(active, "clicks_at_once", False)   # card entry
        self.works = isinstance(active, Works)

    # ---- the pass: nothing below allocates unless something happened ------------------------

    def tick(self, now):
        """One pass: input into the mode (the LEDs' fast answer first), the LEDs, then the
        services."""
        self.now = self.ctx.now = now
        # Few locals: a frame of 11 words or less stays off the heap (Ring.turn says why).
        steps = self.hw.encoder.take()
        if steps:
            self._press_due(now)
            fast = self.rotates and self._fast(now, steps)     # first: nothing waits on it
            self._input(now)
            self._dispatch(None, steps)
            if fast and self.error_until is None:
                self.dirty = False        # the LEDs show the turned state already
        if self.midi is not None and self.midi.poll():
            fast = self.lights and self._fast(now, 0)      # first, as a turn is
            self._input(now)
            self._notes_changed()
            self.settle_due = True
            if fast and self.error_until is None:
                self.dirty = False        # the LEDs show the notes already
        steps = self.presses.update(self.hw.button.pressed(), now)     # a press event
        if steps:
            self._input(now)
            self._dispatch(steps)
        self._walk(now, self._leds(now))

    def _press_due(self, now):
        """A press event time alone made due (a click whose double-press window closed
        before this pass) came before the detent this pass takes: to the mode first."""
        press = self.presses.due(now)
        if press:
            self._input(now)
            self._dispatch(press)

    def _leds(self, now):
        """The mode's frame painted (at most max_fps a second) and written; True when the LEDs
        show the mode's state."""
        hw = self.hw
        if self.error_until is not None and ticks_diff(now, self.error_until) >= 0:
            self.error_until = None
            self.dirty = True
            self.console.due = True
        if hasattr(self.active, "blink_due") and self.active.blink_due(now):
            # a blinking cursor's next phase (a table mode's: firmware/modes/table_paint.py,
            # which the app does not import: a board that never starts one keeps its code off)
            self.dirty = True
        if self.dirty and ticks_since(now, self.rendered_at) >= self.frame_ms:
            self._render()
            self.rendered_at = now
        if self.pending:
            self.pending = not hw.ring.show(hw.clock.ticks_us())
        shown = not self.dirty and not self.pending
        if self.settle_due and shown:
            # The mode's work that waits for the LEDs (modes.LightsNotes): it may change what
            # they should show.
            self.settle_due = False
            active = self.active
            try:
                settled = isinstance(active, LightsNotes) and active.settle()
            except Exception as err:
                self.failed(err)
                settled = False
            if settled:
                self.dirty = True
                shown = False
        if shown and self.works and self.active.has_work():
            shown = not self._work(now)
        return shown

    def _work(self, now):
        """A share of the active mode's work between passes (modes.Works): True when what it
        shows changed."""
        self.work_until = ticks_add(now, WORK_MS)
        try:
            changed = self.active.work(self.time_left)
        except Exception as err:
            self.failed(err)
            return False
        if changed:
            self.dirty = True
            self.console.due = True
        return changed

    def _time_left(self):
        return ticks_diff(self.work_until, self.hw.clock.ticks_ms()) > 0

    def _walk(self, now, shown):
        """The services, in order; the calm they see (firmware/services.py) drops to SHOWN
        once one of them has more work waiting."""
        if not shown or self.error_until is not None:
            calm = BUSY
        elif ticks_since(now, self.input_at) < REST_MS:
            calm = SHOWN
        else:
            calm = RESTED
        busy = False
        for service in self.services:
            if service.update(now, calm):
                busy = True
                if calm == RESTED:
                    calm = SHOWN
        # The mode's work waiting (modes.Works) brings the loop back at once too, but only
        # once the LEDs show its state: a frame held back by the frame rate waits for time.
        self.busy = busy or (shown and self.works and self.active.has_work())

    def _fast(self, now, steps):
        """The LEDs' answer before anything else, where the active mode offers a fast path
        (firmware/modes/__init__.py): a turn of `steps` detents that only rotates what they
        show (Ring.turn writes the last frame turned), or, with `steps` 0, a change of the
        notes MIDI in holds shown as their sectors lit white (Ring.light writes the sectors
        that changed). Nothing painted or prepared; tests/host/test_modes.py holds each such
        mode to render(). True when written."""
        if self.dirty or self.pending or self.error_until is not None:
            return False              # the LEDs do not show the mode's state: nothing to turn
        # ticks_since worked out here, not called (about 15 us on the Pico, on the fast path)
        passed = ticks_diff(now, self.rendered_at)
        if 0 <= passed < self.frame_ms:
            return False
        ring = self.hw.ring
        now_us = self.hw.clock.ticks_us()
        if not (ring.turn(steps, now_us) if steps else ring.light(self.midi.held.mask, now_us)):
            return False
        self.rendered_at = now
        return True

    def _input(self, now):
        self.settings.touch(now)
        self.input_at = now

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
            self.failed(err)
            render.paint_pattern(frame, render.ERROR, 2)

    # ---- the loop's calls: the port's run_loop or firmware/async_loop.py -------------------

    def run_plain(self, pause):
        """The loop with no asyncio, `pause(ms)` between passes: CircuitPython's port runs it
        so (firmware/ports/circuitpython.py)."""
        self.begin()
        while self.step():
            pause(self.pause_ms())
        self.end()

    def begin(self):
        hw = self.hw
        self.watchdog.dog = hw.start_watchdog()
        if hasattr(hw.encoder, "wake"):          # its interrupt can ask for a pass at once
            hw.encoder.wake = hw.port.knob_wake(self.wake_pass)
        if self.midi is not None:
            self.midi.wake_with(hw.port, self.wake_pass)

    def step(self):
        """A pass; False once the app was stopped."""
        if self.woken.error is not None:         # a woken pass raised: that error, first
            raise self.woken.error
        if self.stopped:
            return False
        self._pass()
        if self.woken.error is not None:
            raise self.woken.error
        return True

    def pause_ms(self):
        """How long the loop may sleep before its next pass: no longer than until a frame the
        frame rate held back is due; the port's rest period once the wheel rests deeply
        (firmware/devices.py)."""
        if self.busy:
            return 0
        hw = self.hw
        if self.dirty:
            due = self.frame_ms - ticks_since(hw.clock.ticks_ms(), self.rendered_at)
            return max(0, min(due, hw.period_ms))
        if hw.rest_period_ms and self.rests_deeply(hw.clock.ticks_ms()):
            return hw.rest_period_ms
        return hw.period_ms

    def rests_deeply(self, now):
        """Whether the wheel has rested DEEP_REST_MS with nothing in play: no press (a button
        held, a click waiting for its double-press window: their events are timed to the
        loop's period), no MIDI note heard in listen (a port whose MIDI wakes nothing polls
        for it), no tune (a tone ends within one loop period of its time)."""
        buzzer = self.hw.buzzer
        return self.quiet_ms(now) >= DEEP_REST_MS and self.presses.settled and \
            self.held_notes() is None and (buzzer is None or not buzzer.playing)

    def quiet_ms(self, now):
        """How long the wheel has had nothing to do: ms since the last turn, press or MIDI
        notes, or 0 while a pass has work waiting (a frame to paint or latch, the mode's or a
        service's work). For a port whose knob cannot wake the loop (CircuitPython's): it
        polls while the wheel is in use and sleeps once it has rested."""
        if self.busy or self.dirty or self.pending or self.settle_due:
            return 0
        return ticks_since(now, self.input_at)

    def stop(self):
        """No more passes, not even one the knob asks for (the REPL after Ctrl-C must not
        hear the app, and a save must not run twice at once)."""
        self.stopped = True
        if hasattr(self.hw.encoder, "wake"):
            self.hw.encoder.wake = None
        if self.midi is not None:
            self.midi.wake_with(self.hw.port, None)

    def stop_watchdog(self):
        """A deliberate stop (Ctrl-C: a deploy, mpremote): the REPL after it is not reset under
        the host, where the chip's watchdog can stop (never after a crash: the restart that
        follows must come even if reporting it hangs)."""
        dog = self.watchdog.dog
        if dog is not None and hasattr(dog, "stop"):
            dog.stop()

    def end(self):
        self.stop()
        if self.hw.buzzer is not None:
            self.hw.buzzer.stop()
        self.settings.save_before_stop()
        crashes.set_count(self.hw.records, 0)     # a clean stop is not a crash

    def _pass(self):
        """A tick with woken passes held off (a detent meanwhile gets its own pass at the
        end)."""
        self.ticking = True
        try:
            self.tick(self.hw.clock.ticks_ms())
            while self.wake_due:         # a detent completed during the pass: its own pass
                self.wake_due = False
                self.tick(self.hw.clock.ticks_ms())
        finally:
            self.ticking = False

    def wake_pass(self):
        """A pass as soon as the knob's interrupt says a detent is complete, or MIDI in has
        bytes (the port runs it between two bytecodes of whatever runs: asyncio's sleep, most
        often); inside a pass it is left to that pass, which takes the input itself."""
        if self.ticking:
            self.wake_due = True
            return
        if self.stopped:
            return
        self._woken_pass()

    def _woken_pass(self):
        with self.woken:                         # what it raises, for step() to raise
            self._pass()


class _Woken:
    """What a pass the knob's interrupt ran raised, kept for step() to raise in the loop's
    frame (the port's scheduler would only print it). A `with`, not a try/except: a frame
    with `except ... as` is 14 words, over the 11 MicroPython keeps on the C stack
    (py/objfun.c), so every woken pass had its frame allocated on the heap, a search as long
    as the heap's layout made it (the emulated Pico's knob median moved 1.20 <-> 1.30 ms)."""

    error = None

    def __enter__(self):
        return self

    def __exit__(self, kind, err, trace):
        if isinstance(err, Exception):
            self.error = err
            return True
        return False
