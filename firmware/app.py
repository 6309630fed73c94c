"""The application: what the wheel is, its modes and menu, settings, meld set, MIDI and the
table link; the host the modes ask (through their Context) and the menu asks
(firmware/modes/menu.py).

Data flow: encoder/button/MIDI in -> events -> active mode -> frame -> ring driver -> wire.
The loop's pass (firmware/loop.py) reads the knob, the button and MIDI in, hands each event
here (event: a turn or a press; notes_changed), paints the active mode's frame and runs the
services. What the app tells the pass back, it tells through three calls the pass gives it
(redraw, show_error, services_changed): the app never sees the pass's state, nor the
services.
"""

from core.meldset import MeldSetError

from firmware.modes import FALLBACK, Context, NoRoom, load_mode
from firmware.settings import Settings

# A press event (hardware/presses.py: CLICK 1, DOUBLE 2, LONG 3) -> the mode's method.
_PRESSES = (None, "on_click", "on_double", "on_long")


class App:
    def __init__(self, hw, settings=None):
        self.hw = hw
        self.settings = settings or Settings(hw.records).load()
        for problem in self.settings.problems:
            self._log(problem)
        self.midi = None              # firmware/midi.py, once `midi` or `link` asks for it
        if self.settings["midi"] != "off" or self.settings["link"] != "off":
            # Before the first line: on MicroPython the USB device comes back with MIDI
            # before the set's line, which the laptop waits for, is printed.
            from firmware import midi
            self.midi = midi.start(hw.port, hw, self.settings, self._log)
        self.link = None              # firmware/link.py, once the `link` setting asks for it
        self.flash = None             # what another seat did, shown over the mode a moment
        from firmware import installed_sets  # used at start and from the menu only
        meldset, name = installed_sets.load_with_fallback(
            self.settings["meldset"], self.settings["last_good_meldset"], self._log)
        self.ctx = Context(self, self.settings, meldset, name)     # what the modes see
        self.ctx.now = hw.clock.ticks_ms()           # the pass's time, once it runs
        self.settings.set("last_good_meldset", name, self.ctx.now)
        print("meld set %s loaded: %d melds" % (name, meldset.count))
        hw.ring.brightness = self.settings["brightness"]
        self.menu = None
        # What the app tells the loop's pass, which sets them (firmware/loop.py): redraw(settle)
        # when the active mode's state changed (settle: its work that waits for the LEDs is
        # due too), show_error() when a mode raised, services_changed() when MIDI started.
        self.redraw = self.show_error = self.services_changed = None
        self.fell_back = False        # the mode asked for could not start: shown once the
        #                               loop runs (Loop.__init__)
        self._start_link()            # before the mode: the table the modes read is its
        self.mode = self._start_mode(self.settings["mode"])

    @property
    def meldset_name(self):
        return self.ctx.meldset_name

    def _log(self, line):
        self.hw.records.log(line)

    def _log_exception(self, where, err):
        from firmware.log import exception_text
        self.hw.records.log(exception_text(where, err))

    # ---- modes and settings (event time: these may allocate) --------------------------------

    def _start_mode(self, name):
        try:
            return load_mode(name, self.ctx)
        except Exception as err:
            # The fallback first: its load collects what the failed one left, so a
            # MemoryError still has room for its log line.
            mode = self._fallback(err)
            self._log_exception("mode %s" % name, err)
            self._told_fallback(name)
            return mode

    def _fallback(self, err):
        """The explorer (its module is never dropped: load_mode), or, when even it cannot be
        made, NoRoom: a mode that cannot start never leaves the board deaf."""
        self.mode = None
        try:
            return load_mode(FALLBACK, self.ctx)
        except Exception as again:
            self._log_exception("mode %s" % FALLBACK, again)
            return NoRoom(self.ctx, type(err).__name__)

    def _told_fallback(self, name):
        """The user is told: the log line says why, the setting says the mode that runs, and
        once the loop runs, the ring shows the error pattern a moment (as for a mode that
        raised)."""
        self.settings.set("mode", FALLBACK, self.ctx.now)
        self._log("mode %s could not start: %s instead" % (name, FALLBACK))
        if self.show_error is not None:
            self.show_error()
        else:
            self.fell_back = True         # at boot: the loop shows it once it runs

    @property
    def active(self):
        return self.flash or self.menu or self.mode

    def text(self, short):
        """The active mode's console line (describe()), or with `short` the display's text
        (display(), "" when it has none: the console line will do): for the console and
        display services. None when the mode raised (then it is logged and the explorer takes
        over)."""
        try:
            if short:
                return self.active.display() or ""
            return self.active.describe()
        except Exception as err:
            self.failed(err)
            return None

    # ---- what the modes ask for through their contexts (firmware/modes/__init__.py) --------

    def open_menu(self):
        from firmware.modes.menu import Mode as Menu
        parts = []
        if self.hw.buzzer is not None:
            parts.append("buzzer")
        # The MIDI ports the board has (firmware/midi.py's available(), not imported: a menu
        # opened with MIDI off must not load MIDI's code onto a small heap)
        usb = getattr(self.hw.port, "midi_port", None) is not None
        jacks = getattr(self.hw.port, "jacks_port", None) is not None and \
            self.hw.board.get("midi") is not None
        if usb or jacks:
            parts.append("midi")
        if usb and jacks:
            parts.append("midi ports")          # USB and the jacks: which the notes go on
        self.menu = Menu(self.ctx, self, parts)

    def close_menu(self):
        self.menu = None
        self.redraw(True)             # what the mode heard while the menu was open

    def set_names(self):
        from firmware import installed_sets
        return installed_sets.names()

    def apply_setting(self, key, value):
        """Keep a setting the menu changed, and do what it means now."""
        if key == "meldset":
            self.switch_set(value)            # kept only if the set loads
            return
        self.settings.set(key, value, self.ctx.now)
        if key == "mode":
            self.silence()
            # The old mode and its tables go before the new one loads: a QT Py with MIDI on
            # had no room for both after the hand mode (its search's arrays, ~37 KB).
            self.mode = None
            self.mode = self._start_mode(value)
        elif key in ("midi", "midi_port", "link"):
            self._midi_setting()
        elif key == "seat":
            pad = self.ctx.table          # the link's table: what this wheel writes is P`value`'s
            if pad is not None:
                pad.seat = value - 1 if value is not None and value <= pad.players else None
            self.mode.on_table()
        elif key == "brightness":
            self.hw.ring.brightness = value
        self.redraw()

    def preview(self, key, value):
        """Show a value while the menu turns through them, without keeping it (None: back to
        the kept one)."""
        if key == "brightness":
            self.hw.ring.brightness = self.settings["brightness"] if value is None else value
            self.redraw()
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
        self.settings.set("meldset", name, self.ctx.now)
        self.settings.set("last_good_meldset", name, self.ctx.now)
        self.mode.set_changed()
        self._log("meld set %s loaded: %d melds" % (name, meldset.count))
        return True

    def _midi_setting(self):
        """The menu changed the `midi` or `midi_port` setting: MIDI starts the first time it
        is turned on, a port the first time it is chosen; the direction, the ports and the
        split follow; the mode under the menu hears of it (listen)."""
        from firmware import midi
        if self.midi is None:
            if self.settings["midi"] == "off" and self.settings["link"] == "off":
                return
            self.midi = midi.start(self.hw.port, self.hw, self.settings, self._log)
            if self.midi is None:
                return
        else:
            kinds = midi.available(self.hw.port, self.hw.board)
            self.midi.follow(self.settings, kinds)
            midi.ensure(self.midi, self.hw.port, self.hw, midi.needed(self.settings, kinds),
                        self._log)
        self._start_link()
        self.services_changed()
        self.notes_changed()

    # ---- the table link (firmware/link.py) ---------------------------------------------------

    def _start_link(self):
        """The link starts the first time the `link` setting and a MIDI port ask for it;
        after that it follows the setting (its ports, on or off)."""
        wanted = self.settings["link"] != "off" and self.midi is not None and \
            [p for p in self.midi.ports if p.link]
        if self.link is not None:
            self.link.detach()
            if wanted:
                self.link.attach()
            else:
                self.link = None
                self.ctx.table = None         # the modes read the record store again
            return
        if wanted:
            from firmware.link import Link
            self.link = Link(self.midi, self.ctx, self.hw.clock, self._log, self._told)

    def table_saved(self, pad):
        """A mode saved the table (firmware/scorebook.py): the link sends what it wrote."""
        if self.link is not None:
            self.link.saved(pad)

    def _told(self, news, line):
        """The link took another wheel's entry (`news`: it, when another seat made it), or has
        a line to say: the mode hears of the table, and a flash shows it a moment."""
        if news is not None or line is None:
            try:
                self.mode.on_table()
            except Exception as err:
                self.failed(err)
                return
        from firmware.link import Flash
        flash = Flash.of(self, news, line)
        if flash is not None:
            self.flash = flash
        self.redraw()

    def flash_over(self):
        """The flash's moment is over: the mode again, its line said again."""
        self.flash = None
        self.redraw()

    def failed(self, err):
        """A mode raised: log it, go back to the explorer, and the pass shows the error
        pattern."""
        self._log_exception("mode %s" % self.active.name, err)
        self.menu = None
        self.mode = self._fallback(err)     # as apply_setting: the failed mode goes first
        self.settings.set("mode", FALLBACK, self.ctx.now)
        self.show_error()

    # ---- the pass's events (firmware/loop.py) -----------------------------------------------

    def event(self, press, steps=0):
        """A turn of `steps` detents (press None) or a press (hardware.presses: CLICK,
        DOUBLE, LONG) to the active mode (a flash showing ends: the event is the mode's)."""
        self.flash = None
        mode = self.active
        try:
            if press is None:
                mode.on_turn(steps)
            else:
                getattr(mode, _PRESSES[press])()
        except Exception as err:
            self.failed(err)
        self.redraw()

    def notes_changed(self):
        """The notes MIDI in holds changed (or MIDI in was turned on or off): to the mode, the
        menu open or not (it shows them after)."""
        try:
            self.mode.on_notes()
        except Exception as err:
            self.failed(err)
        self.redraw()
