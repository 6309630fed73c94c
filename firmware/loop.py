"""The loop's pass: the knob, the button and MIDI in read, the LEDs, the services, the wake
and the pause. What the wheel is (its modes and menu, settings, meld set and MIDI) is the
app's (firmware/app.py); the pass only times it.

A pass does the work in the order the user sees it, then walks its services:
1. input: the knob's detents, MIDI in's notes, the button's presses, each to the app, which
   hands them to the active mode (a turn that only rotates the LEDs, or notes shown as lit
   sectors, are written before the mode even hears of them: the modes' opt-in fast paths,
   firmware/modes/__init__.py);
2. the LEDs: the mode paints its frame (at most max_fps a second), the ring writes it;
3. the services (firmware/services.py), a fixed tuple built for the board's parts and the
   settings: the console line, the sound, MIDI out, the optional parts (built after the first
   frame, one a rested pass: firmware/ports/__init__.py), the display (a row a pass, once the
   knob has rested), the settings saver, the stable-boot mark, the garbage collector, the
   watchdog.
So a detent waits at most for the one short piece of work running when it came, never for a
whole redraw. Where the port can, a detent's interrupt (or MIDI in) has a pass run at once
(the port's knob_wake: Loop.wake_pass). A pass allocates nothing in steady state: events,
console lines, display rows and saves allocate, an idle or repainting pass does not.

The loop itself is the port's (firmware/ports/: run_loop), or firmware/async_loop.py: each
calls begin(), step() and pause_ms() until step() says stop, then end(). The simulator's and
the page's host links are driven there, never here.
"""

from hardware.clock import ticks_add, ticks_diff, ticks_since
from hardware.presses import BOUNCE_MS, PressDetector
from hardware.quadrature import TURNED_MASK, turned_between

from firmware import crashes, render, services
from firmware.devices import DEEP_REST_MS
from firmware.modes import LightsNotes, TurnRotates, Works
from firmware.services import BUSY, REST_MS, RESTED, SHOWN

ERROR_SHOW_MS = 1500
WORK_MS = 8          # a pass's share of the mode's work (modes.Works): a turn waits no longer


class Loop:
    def __init__(self, app, parts=None):
        """`app`: the wheel's modes, settings, meld set and MIDI (firmware/app.py). `parts`:
        the service that builds the optional parts after the first frame
        (firmware/ports/__init__.py, Parts), or None."""
        hw = app.hw
        self.hw = hw
        self.app = app
        # Fewer than 30 attributes: a 30th grows the instance's table from 29 entries to 37
        # (py/map.c), a 592-byte block a small heap may not spare.
        self.ctx = app.ctx            # its `now` is the pass's
        self.now = self.ctx.now
        button = hw.board["button"]
        self.presses = PressDetector(button["debounce_ms"], button["long_ms"], button["double_ms"])
        # The button's edges, stamped where they came (hardware/presses.py: Edges), or None
        # where the port only reads the pin.
        self.edges = getattr(hw.button, "edges", None)
        self.frame_ms = 1000 // hw.board["ring"]["max_fps"]
        self.rotates = self.lights = self.works = False   # the mode's fast paths: _mode_changed
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
        self.console = services.Console(app.text)
        self.watchdog = services.Watchdog(hw.records, self.now)
        self.parts = parts
        if parts is not None:
            parts.hand_over = self.set_part
        self.midi = None              # the app's MIDI, as the services last saw it
        self.services = self._services()
        # What the app tells the pass (event time): see App.__init__.
        app.redraw = self._changed
        app.show_error = self._show_error
        app.services_changed = self._midi_started
        self._mode_changed()
        if app.fell_back:             # the mode the settings ask for could not start
            self._show_error()

    def _services(self):
        """The services for the parts the board has and the settings ask for, in the order
        that keeps the ring first (firmware/services.py); made again (event time, never in a
        steady pass) when a part arrives, or the `midi` or `link` setting first turns MIDI or
        the table link on."""
        hw = self.hw
        self.midi = self.app.midi
        wanted = [self.console]
        if hw.buzzer is not None:
            wanted.append(services.Sound(hw.buzzer, hw.clock))
        if self.midi is not None:
            wanted.append(self.midi)                 # MIDI out, after the LEDs
        if self.app.link is not None:
            wanted.append(self.app.link)             # the table link: whole messages out
        if self.parts is not None:
            wanted.append(self.parts)    # before the display: it draws once they are all in
        if hw.display is not None:
            wanted.append(services.Display(self.app.text, self.console, hw.display,
                                           hw.records.log, self.set_part))
        wanted.append(services.Saver(self.app.settings, hw.records.log))
        wanted.append(services.Collector())
        wanted.append(self.watchdog)
        return tuple(wanted)

    def set_part(self, name, part):
        """An optional part ("display", "buzzer") built after the first frame (self.parts),
        or None when it was left out or lost: the devices get it (hw.display, hw.buzzer) and
        the services are made again for it at the next walk, not under the walk that may be
        running them; a new display shows the current state at once."""
        setattr(self.hw, name, part)
        if self.parts is not None and not self.parts.pending:
            self.parts = None        # all in: the builders and the boot code they keep can go
        self.services = None

    # ---- what the app tells the pass (event time: these may allocate) -----------------------

    def _changed(self, settle=False):
        """The active mode's state (or the mode itself) changed: its frame and line are due;
        `settle`: its work that waits for the LEDs too (the menu closed over it)."""
        self.dirty = True
        self.console.due = True
        if settle:
            self.settle_due = True
        self._mode_changed()

    def _show_error(self):
        """A mode raised (the app has gone back to the explorer): the error pattern now, for
        ERROR_SHOW_MS, even after a turn."""
        self.error_until = ticks_add(self.now, ERROR_SHOW_MS)
        self.dirty = True
        self.rendered_at = ticks_add(self.now, -self.frame_ms)
        self._mode_changed()

    def _midi_started(self):
        """The `midi` or `link` setting turned MIDI or the link on (or off): MIDI wakes the
        loop too, and the services follow."""
        if not self.stopped and self.app.midi is not None:
            self.app.midi.wake_with(self.hw.port, self.wake_pass)
        self.services = None

    def _mode_changed(self):
        """What the fast paths need to know of the active mode, asked once an event or a
        setting may have changed it, not at every detent."""
        active = self.app.active
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
        if self.edges is not None and (steps or self.edges.waiting()):
            steps = self._edges(now, steps)
        if steps:
            # a press time alone made due (a click whose double-press window closed before
            # this pass) came before the detent this pass takes: to the mode first
            self._press(now, self.presses.due(now))
            fast = self.rotates and self._fast(now, steps)     # first: nothing waits on it
            self._input(now)
            self.app.event(None, steps)
            if fast and self.error_until is None:
                self.dirty = False        # the LEDs show the turned state already
        if self.midi is not None and self.midi.poll():
            fast = self.lights and self._fast(now, 0)      # first, as a turn is
            self._input(now)
            self.app.notes_changed()
            self.settle_due = True
            if fast and self.error_until is None:
                self.dirty = False        # the LEDs show the notes already
        if self.edges is not None and self.edges.waiting():
            steps = self.presses.due(now)     # edges came during the pass: the next takes them
        else:
            steps = self.presses.update(self.hw.button.pressed(), now)     # a press event
        if steps:
            self._input(now)
            self.app.event(steps)
        self._walk(now, self._leds(now))

    def _edges(self, now, steps):
        """The button's edges stamped since the last pass, each to the press detector at its
        own time (a click, a double or a long press judged on when the contact moved, not on
        when a busy pass got to it), and each after the detents turned before it: the
        detents of `steps` turned after the last edge are left to the pass. (An edge and a
        detent both within the microseconds between take() and here may swap.)"""
        edges = self.edges
        taken = edges.seen                   # the knob's count at the last take
        edges.seen = (taken + steps) & TURNED_MASK
        ordered = edges.knob is not None
        while edges.waiting():
            slot = edges.oldest()
            at = edges.times[slot]
            pressed = edges.levels[slot] == 1
            # (no knob count: the turns of this pass before its first edge, as when the pin
            # was read)
            before = turned_between(taken, edges.turns[slot]) if ordered else steps
            edges.take()
            if before:
                # what time alone made due by this edge first, as a pass does before a turn
                # (as tick() does): the turn is taken as late as it may have come
                self._press(now, self.presses.due(at))
                taken = (taken + before) & TURNED_MASK
                steps -= before
                self._input(now)
                self.app.event(None, before)
            if edges.waiting() and ticks_diff(edges.times[edges.oldest()], at) < BOUNCE_MS:
                continue          # bounce, or a glitch: the contact had not settled there
            self._press(now, self.presses.due(at))       # a long press held to this edge
            self._press(now, self.presses.update(pressed, at))
        return steps

    def _press(self, now, press):
        if press:
            self._input(now)
            self.app.event(press)

    def _leds(self, now):
        """The mode's frame painted (at most max_fps a second) and written; True when the LEDs
        show the mode's state."""
        hw = self.hw
        if self.error_until is not None and ticks_diff(now, self.error_until) >= 0:
            self.error_until = None
            self.dirty = True
            self.console.due = True
        if hasattr(self.app.active, "blink_due") and self.app.active.blink_due(now):
            # a blinking cursor's next phase (a table mode's: firmware/modes/table_paint.py,
            # which the pass does not import: a board that never starts one keeps its code off)
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
            active = self.app.active
            try:
                settled = isinstance(active, LightsNotes) and active.settle()
            except Exception as err:
                self.app.failed(err)
                settled = False
            if settled:
                self.dirty = True
                shown = False
        if shown and self.works and self.app.active.has_work():
            shown = not self._work(now)
        return shown

    def _work(self, now):
        """A share of the active mode's work between passes (modes.Works): True when what it
        shows changed."""
        self.work_until = ticks_add(now, WORK_MS)
        try:
            changed = self.app.active.work(self.time_left)
        except Exception as err:
            self.app.failed(err)
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
        if self.services is None:             # a part came or went, or MIDI started
            self.services = self._services()
        busy = False
        for service in self.services:
            if service.update(now, calm):
                busy = True
                if calm == RESTED:
                    calm = SHOWN
        # The mode's work waiting (modes.Works) brings the loop back at once too, but only
        # once the LEDs show its state: a frame held back by the frame rate waits for time.
        self.busy = busy or (shown and self.works and self.app.active.has_work())

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
        self.app.settings.touch(now)
        self.input_at = now

    def _render(self):
        frame = self.hw.ring.frame
        self.dirty = False
        self.pending = True
        if self.error_until is not None:
            render.paint_pattern(frame, render.ERROR, 2)
            return
        try:
            self.app.active.render(frame)
        except Exception as err:
            self.app.failed(err)
            render.paint_pattern(frame, render.ERROR, 2)

    # ---- the loop's calls: firmware/async_loop.py, or the port's run_loop -------------------

    def begin(self):
        hw = self.hw
        self.watchdog.dog = hw.start_watchdog()
        if hasattr(hw.encoder, "wake"):          # its interrupt can ask for a pass at once
            hw.encoder.wake = hw.port.knob_wake(self.wake_pass)
        if self.midi is not None:
            self.midi.wake_with(hw.port, self.wake_pass)

    def step(self):
        """A pass; False once the loop was stopped."""
        if self.woken.error is not None:         # a woken pass raised: that error, first
            raise self.woken.error
        if self.stopped:
            return False
        self._pass()
        if self.woken.error is not None:
            raise self.woken.error
        return True

    def pause_ms(self):
        """How long the loop may sleep before its next pass: the port's period, its rest
        period once the wheel rests deeply (firmware/devices.py), counted from the last pass's
        start, not its end, so a pass that drew a display row does not push the next one
        later (a tone ends within one period of its time: the emulated Pico's second note
        sounded 13 ms long once a 3 ms pass came at its end); no longer than until a frame
        the frame rate held back is due."""
        if self.busy:
            return 0
        hw = self.hw
        now = hw.clock.ticks_ms()
        passed = ticks_since(now, self.now)          # since the last pass started
        if self.dirty:
            due = self.frame_ms - ticks_since(now, self.rendered_at)
            return max(0, min(due, hw.period_ms - passed))
        period = hw.period_ms
        if hw.rest_period_ms and self.rests_deeply(now):
            period = hw.rest_period_ms
        return max(0, period - passed)

    def rests_deeply(self, now):
        """Whether the wheel has rested DEEP_REST_MS with nothing in play: no press (a button
        held, a click waiting for its double-press window: their events are timed to the
        loop's period), no MIDI note heard in listen (a port whose MIDI wakes nothing polls
        for it), no tune (a tone ends within one loop period of its time)."""
        buzzer = self.hw.buzzer
        return self.quiet_ms(now) >= DEEP_REST_MS and self.presses.settled and \
            self.app.held_notes() is None and (buzzer is None or not buzzer.playing)

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
        self.app.settings.save_before_stop()
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
