"""The pass's services: what a loop pass runs after its own work (input -> mode -> LEDs), one
after another, each with one contract:

    update(now, calm) -> True when it has more work waiting (the loop comes back at once)

`now` is the pass's ticks_ms. `calm` says how settled the wheel is: BUSY (the LEDs do not show
the active mode's state yet, or the error pattern shows), SHOWN (they show it), RESTED (they
show it and the knob and the notes have rested REST_MS: the time for slow work). A service
that says more work waits makes the pass at most SHOWN for the services after it, so the
collector never runs while the display still draws.

The pass builds each service once, for the parts the board has and the settings ask for
(firmware/loop.py, Loop._services; MIDI out is firmware/midi.py's Midi itself), in the order
that keeps the ring first and the slow work last, and again (event time, before the next
walk) when a part arrives (the optional display and buzzer are built after the first frame
by a service that goes with the boot's code, firmware/ports/__init__.py's Parts) or MIDI is
first turned on. A service is given the objects and the one or two calls it needs (the
active mode's text, a part's hand-over), never the app or the pass. None allocates in a pass
where nothing happened."""

import gc

from hardware.clock import ticks_diff

from firmware import crashes

BUSY = 0
SHOWN = 1
RESTED = 2
# The display starts its redraw once the knob has rested this long: a spin goes to the LEDs,
# and the display shows where it stopped (its redraw costs milliseconds a row on a real bus).
REST_MS = 40
EROFS = 30


class Console:
    """The active mode's line on the serial console, once the LEDs show its state (the ring
    answers first), printed when it changed. `due` is set by the pass after an event.
    `text(short)`: the active mode's line (App.text), None when the mode raised."""

    def __init__(self, text):
        self.text = text
        self.due = True
        self.line = None
        self.printed = 0              # lines printed so far: the display follows this count

    def update(self, now, calm):
        if not self.due or calm == BUSY:
            return False
        self.due = False
        line = self.text(False)
        if line is not None and line != self.line:
            print(line)
            self.line = line
            self.printed += 1
        return False


class Sound:
    """The buzzer's tones, timed from the clock as it is now, not from the pass's start: the
    line before may have taken a few ms, which would come out of the note."""

    def __init__(self, buzzer, clock):
        self.buzzer = buzzer
        self.clock = clock

    def update(self, now, calm):
        self.buzzer.update(self.clock.ticks_ms())
        return False


class Display:
    """The display shows what the console printed (or the mode's shorter text) once the knob
    has rested: the layout in one pass, then one row a pass (a row is one SSD1306 page: 128
    bytes on the I2C bus, about 3 ms at 400 kHz), so a detent waits for one row at most.
    `text(short)` as the console's; `hand_over(name, part)` takes the display back when it
    is lost (Loop.set_part)."""

    def __init__(self, text, console, display, log, hand_over):
        from firmware.screen import layout
        self.layout = layout
        self.text = text
        self.console = console
        self.display = display
        self.log = log
        self.hand_over = hand_over
        self.seen = 0                 # the console's count of lines when last laid out
        self.rows = None              # the rows being drawn

    def update(self, now, calm):
        display = self.display
        if display is None or calm != RESTED:
            return False
        if self.seen != self.console.printed:
            self.seen = self.console.printed
            self.rows = None
            text = self.text(True)
            if text is None:          # the mode raised: the pass shows the error instead
                return False
            self.rows = self.layout(text or self.console.line, display.columns, display.rows)
            return True
        if self.rows is None:
            return False
        try:
            more = display.draw_next(self.rows)
        except OSError as err:
            # Unplugged or a loose wire (rp2: EIO/ETIMEDOUT; ESP32: ENODEV/ETIMEDOUT;
            # CircuitPython: ENODEV/ETIMEDOUT/EIO): the wheel goes on without its screen.
            self.display = None
            self.log("display lost (%s): running without it" % err)
            self.hand_over("display", None)       # for good: no service draws on it
            more = False
        if not more:
            self.rows = None
        return more


class Saver:
    """The settings saved once they have rested; a failed save is said once per run of
    failures and tried again later."""

    def __init__(self, settings, log):
        self.settings = settings
        self.log = log

    def update(self, now, calm):
        settings = self.settings
        # A flash write (about 10 ms on the emulated Pico) waits for the wheel to rest: a
        # detent arriving during it waited for it (11.7 ms knob to LEDs in make bench).
        if calm == RESTED and settings.save_due(now, ticks_diff):
            try:
                settings.save()
            except OSError as err:
                if not settings.retry_ms:            # once per run of failures, not per try
                    if err.args and err.args[0] == EROFS:
                        # CircuitPython: boot.py left the drive to the computer (the button
                        # was held).
                        self.log("settings not saved: drive is read-only (plug the board in "
                                 "again without holding the button)")
                    else:
                        self.log("settings not saved: %s (will try again later)" % err)
                settings.save_failed(now)
        return False


class Collector:
    """The garbage that input made (events, lines, rows), collected once the wheel is idle
    again, not in the next answer. MicroPython's allocator looks for room from a low mark up
    through all of it: measured on the emulated Pico, a MIDI note's pass took 0.3 ms longer
    for each note since a collection (up to 9 ms), as every call that needs a heap frame
    searched further."""

    def __init__(self):
        self.due = False

    def update(self, now, calm):
        if calm != RESTED:
            self.due = True
        elif self.due:
            self.due = False
            gc.collect()
        return False


class Watchdog:
    """The board's guard against a loop that hangs or crashes: the watchdog (if the port has
    one) fed once a pass, and the boot no longer counted as a crash once it has run
    crashes.STABLE_MS (firmware/crashes.py: safe mode after CRASH_LIMIT crashed boots) and the
    wheel rests: that mark is a flash write (about 10 ms on the emulated Pico), which a
    detent arriving meanwhile waited for (11.7 ms knob to LEDs in make bench)."""

    def __init__(self, records, started_at):
        self.records = records
        self.started_at = started_at
        self.counted = True           # this boot still counts as a crash
        self.dog = None               # the port's watchdog, once the loop began

    def update(self, now, calm):
        if self.dog is not None:
            self.dog.feed()
        if self.counted and calm == RESTED and \
                ticks_diff(now, self.started_at) >= crashes.STABLE_MS:
            self.counted = False
            crashes.set_count(self.records, 0)
        return False
