"""Wheel modes, one module each, each a subclass of Mode below.

A new mode is one module, `firmware/modes/<name with _ for spaces>.py` with a class Mode, and
its name in one place: MODES below. The menu's list, the module imported, the mode's `name`,
deploy's files (package.json, the core/games modules a deploy carries: host_tools/device/
files.py) all follow from that line.

The contract is narrow: events in (on_turn, on_click, on_double, on_long, on_notes,
set_changed), a frame (render) and a description (describe, display) out. A mode sees only
its Context: what it may read (the meld set, the settings, the clock) and ask for (keep a
setting, play a meld, open the menu). The menu alone gets the menu's calls (close the menu,
list the sets, preview and apply a setting), from its own host (firmware/modes/menu.py). The
app makes the context; a test makes its own (tests/host/test_modes.py), so every mode runs on
CPython with plain lists of events.

Fast paths are an opt-in: a mode that offers one also subclasses TurnRotates or LightsNotes,
and the app's loop asks it (firmware/app.py). render() stays the one source of truth for what
a frame shows: tests/host/test_modes.py holds every mode that offers a fast path to render().

So is a kept table: a mode whose table a player would hate to lose mid-game (cards entered,
a game's step) also subclasses KeepsTable: its state goes to the board's record store at
each press and comes back when the mode is loaded again (after a mode switch, a reboot or a
power cut)."""

# The modes, in menu order: the menu name, and the module firmware/modes/<name, _ for spaces>
# (imported when chosen, so unused modes cost no RAM). The first is the fallback.
MODES = ("explorer", "meld check", "hand", "score", "chord poker", "looking glass", "bluff",
         "steps", "alphabet", "key speller", "listen")
FALLBACK = MODES[0]


def module_name(name):
    """The module of the mode called `name` ('meld check' -> 'firmware.modes.meld_check')."""
    return "firmware.modes." + name.replace(" ", "_")


class Context:
    """What a mode may read and ask for.

    Read: meldset (core.meldset.MeldSet), meldset_name, settings (settings["root"]), now (the
    loop's ticks_ms), held_notes() (core.midi.HeldNotes: what MIDI in holds; None when MIDI
    in is off). Ask: keep(name, value) a setting, play_meld(index, root) on the buzzer and
    MIDI out, open_menu(). `host` does the asking: the app, or a test's stand-in."""

    def __init__(self, host, settings, meldset, meldset_name):
        self.host = host
        self.settings = settings
        self.meldset = meldset
        self.meldset_name = meldset_name
        self.now = 0

    def keep(self, name, value):
        self.settings.set(name, value, self.now)

    def play_meld(self, index, root):
        self.host.play_meld(index, root)

    def held_notes(self):
        return self.host.held_notes()

    def open_menu(self):
        self.host.open_menu()


def _nothing(self, *args):
    """A Mode's default for an event it has no use for, and for display() (None: the console
    line will do). The defaults share one function, and so do the methods a mode must give
    (_required): each function is some 80 bytes of a small board's heap, code and all."""
    return None


def _required(self, *args):
    raise NotImplementedError


def _false(self, *args):
    return False


def _true(self, *args):
    return True


class Mode:
    """Events in: on_turn(steps), on_click(), on_double(), on_long(); on_notes() when the
    notes MIDI in holds changed (or MIDI in was turned on or off); set_changed() when the
    meld set was switched. Out: render(frame) paints the 12 sectors and allocates nothing;
    describe() is the console line for the state; display() the display's shorter text, or
    None for the console line. `name` is the mode's name in MODES (load_mode sets it).
    A mode overrides the events it uses; render() and describe() it must give."""

    name = "mode"

    def __init__(self, ctx):
        self.ctx = ctx

    on_turn = on_click = on_double = on_notes = set_changed = display = _nothing
    render = describe = _required

    def on_long(self):
        self.ctx.open_menu()            # in every mode, unless it has a use for it first


class TurnRotates:
    """Opt-in fast path (a mixin beside Mode): while rotates() is True, a turn of N detents
    moves every colour render() paints N sectors with it and changes nothing else. The ring
    then shows the turn at once (Ring.turn), before the mode has even heard of it, and
    render() is not called for it. Asked once an event or a setting may have changed it."""

    rotates = _true


class LightsNotes:
    """Opt-in fast path (a mixin beside Mode): while lights_notes() is True, after on_notes()
    render() paints the notes held white and nothing else until settle(). The ring then
    lights them at once (Ring.light); settle(), run once the LEDs show them, does the slower
    work and returns True when render() would then paint something else."""

    lights_notes = _true
    settle = _false


class KeepsTable:
    """Opt-in (a mixin listed before Mode): the table's state kept in the board's record store
    (ctx.settings.records: each record written whole and atomically), so a mode switch, a
    reboot or a power cut loses nothing. The mode gives state() -> bytes (its table, small)
    and restore(raw) -> bool (that state back; bytes it does not accept change nothing and
    give False), and calls keep_state() after each press and each change of the meld set.
    load_mode restores the kept state. A turn's change is kept with the next press (the long
    press that opens the menu too, below): a spin does not write the flash at each detent.

    The record, `state_file` (by default the mode's name, _ for spaces, .txt), is a header
    line, `<mode name> <state_format> <meld set name, or * when kept_per_set is False>`, and
    the state's bytes: a record of another mode, format or set, or one restore() refuses,
    leaves the mode as it starts. It is written only when it changed, at event time, never
    from render(); a store that refuses it (full, read-only) is tried again at the next
    change: the game goes on. CircuitPython's store needs the name in
    firmware/records.py's RECORD_KEYS."""

    # What the Mode beside this mixin has (Mode.__init__ and load_mode set them): said here
    # for the port checks' type checker (host_tools/device/port_check.py).
    name = "mode"
    ctx = None                # type: Context
    state_file = None
    state_format = 1          # a new format of state(): bump it, older records are ignored
    kept_per_set = True       # the state names melds of the set (positions in its lists)
    _kept = None              # the record last read or written; None until load_state()

    state = restore = _required            # state() -> bytes; restore(raw) -> bool

    def state_path(self):
        return self.state_file or kept_file(self.name)

    def _header(self):
        kept_for = self.ctx.meldset_name if self.kept_per_set else "*"
        return ("%s %d %s\n" % (self.name, self.state_format, kept_for)).encode()

    def load_state(self):
        """The kept state, if there is one for this mode, format and set: True when restored."""
        raw = self.ctx.settings.records.read(self.state_path())
        self._kept = raw or b""
        header = self._header()
        if not raw or bytes(raw[:len(header)]) != header:
            return False
        return self.restore(bytes(raw[len(header):]))

    def keep_state(self):
        """Write the state if it changed since it was last kept (after load_state() only: a
        mode being built does not overwrite its kept table)."""
        if self._kept is None:
            return
        record = self._header() + self.state()
        if record == self._kept:
            return
        try:
            self.ctx.settings.records.write(self.state_path(), record)
        except OSError:
            return                          # not kept: tried again at the next change
        self._kept = record

    def on_long(self):
        self.keep_state()                   # the menu may switch the mode: the turns kept
        self.ctx.open_menu()


def kept_file(name):
    """The record of the kept table of the mode called `name` ('meld check' ->
    'meld_check.txt')."""
    return name.replace(" ", "_") + ".txt"


class Works:
    """Opt-in (a mixin beside Mode): work the mode does between passes, a small piece at a
    time, so that the knob stays live while it runs (the hand's search). Once the LEDs show
    the mode's state, the app asks has_work() and, while it is True, calls work(time_left):
    the mode does pieces while time_left() is True (the pass's share of a few ms; in the
    simulator's virtual time, until the work is done) and returns True when what render()
    or describe() show changed. While it has work the loop does not sleep."""

    has_work = work = _false                # has_work(); work(time_left) -> bool


def mode_names():
    return list(MODES)


def load_mode(name, ctx):
    """The mode called `name`, its kept table restored (KeepsTable); the other table modes'
    code is dropped first (small boards)."""
    if name not in MODES:
        raise ValueError("no mode %r" % name)
    from firmware import unload
    unload([module_name(other) for other in MODES if other not in (name, FALLBACK)])
    module = __import__(module_name(name), None, None, ["Mode"])
    mode = _made(module, name, ctx)
    if isinstance(mode, KeepsTable):
        try:
            mode.load_state()
        except Exception:                   # noqa: a kept record this firmware misreads
            # starts the mode afresh, not a mode that fails at every start
            mode = _made(module, name, ctx)
            mode._kept = b""
    return mode


def _made(module, name, ctx):
    mode = module.Mode(ctx)
    mode.name = name
    return mode
