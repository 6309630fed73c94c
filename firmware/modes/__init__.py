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
and the loop's pass asks it (firmware/loop.py). render() stays the one source of truth for what
a frame shows: tests/host/test_modes.py holds every mode that offers a fast path to render().

So is a kept table: a mode whose table a player would hate to lose mid-game (cards entered,
a game's step) also subclasses KeepsTable (firmware/modes/kept.py: a module of its own, so
the explorer alone does not keep its code in RAM): its state goes to the board's record
store at each press and comes back when the mode is loaded again (after a mode switch, a
reboot or a power cut)."""

import sys

# The modes, in menu order: the menu name, and the module firmware/modes/<name, _ for spaces>
# (imported when chosen, so unused modes cost no RAM). The first is the fallback.
MODES = ("explorer", "meld check", "hand", "score", "chord poker", "looking glass", "bluff",
         "steps", "alphabet", "key speller", "listen")
FALLBACK = MODES[0]
# The modules the table modes bring with them beyond their own (the hand's answers and picker,
# its core, the score pad and its log): dropped with the modes at a switch, so the next mode
# starts in a heap without them (the one that needs them imports them again).
# The table modes' shared ones too (kept, table_paint, carmony_table): some 2 KB of the QT Py's
# heap.
# And the other modes' (the identifier, the readings, the games' tables, core.melds that
# meldset.meld() brings, the sound a meld played brought): about 12 KB of code, which left
# 4-7 KB less free on the QT Py in each mode after meld check (make bench's heap rows).
HELPERS = ("firmware.modes.hand_work", "firmware.modes.hand_faces",
           "firmware.modes.meld_picker", "core.hand_round", "core.hand", "core.hand_loops",
           "firmware.scorebook", "firmware.score_text", "core.scorepad", "core.table",
           "firmware.modes.kept", "firmware.modes.table_paint", "core.pcset",
           "core.games.carmony_table", "core.identify", "core.melds",
           "firmware.modes.readings", "core.games.chord_poker_table",
           "core.games.looking_glass_table", "core.games", "firmware.sound")
# Modes whose largest blocks are made before their own code loads, right after the switch's
# collect, while the heap is least cut up (the hand's: the set's table for its search, 4 KB,
# and the score pad's view, its 13 KB of code in and out): the module whose prepare(ctx) makes
# them (in ctx.prepared while the mode is made: it takes them).
PREPARED = {"hand": "firmware.modes.hand_work"}
TABLE_HELPERS = ("firmware.scorebook", "core.scorepad", "core.table",
                 "core.games.carmony_table", "core.games")


def module_name(name):
    """The module of the mode called `name` ('meld check' -> 'firmware.modes.meld_check')."""
    return "firmware.modes." + name.replace(" ", "_")


class Context:
    """What a mode may read and ask for.

    Read: meldset (core.meldset.MeldSet), meldset_name, settings (settings["root"]), now (the
    loop's ticks_ms), held_notes() (core.midi.HeldNotes: what MIDI in holds; None when MIDI
    in is off), table (the score pad the wheels at the table share while the link is on, or
    None: firmware/scorebook.py reads it). Ask: keep(name, value) a setting, play_meld(index,
    root) on the buzzer and MIDI out, open_menu(), table_saved(pad) (the link sends what the
    pad has that it has not). `host` does the asking: the app, or a test's stand-in."""

    def __init__(self, host, settings, meldset, meldset_name):
        self.host = host
        self.settings = settings
        self.meldset = meldset
        self.meldset_name = meldset_name
        self.now = 0
        self.table = None
        self.prepared = None          # what load_mode made for the mode it loads (PREPARED)

    def keep(self, name, value):
        self.settings.set(name, value, self.now)

    def play_meld(self, index, root):
        self.host.play_meld(index, root)

    def held_notes(self):
        return self.host.held_notes()

    def open_menu(self):
        self.host.open_menu()

    def table_saved(self, pad):
        saved = getattr(self.host, "table_saved", None)
        if saved is not None:
            saved(pad)


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
    meld set was switched; on_table() when another wheel changed the shared table. Out:
    render(frame) paints the 12 sectors and allocates nothing; describe() is the console
    line for the state; display() the display's shorter text, or
    None for the console line; notes() the notes the ring shows, spelled ("3:E♭ 7:G":
    pitch class, then the name with the display's signs; the root first), or None: the web
    page labels its ring with them. `name` is the mode's name in MODES (load_mode sets it).
    A mode overrides the events it uses; render() and describe() it must give."""

    name = "mode"

    def __init__(self, ctx):
        self.ctx = ctx

    on_turn = on_click = on_double = on_notes = set_changed = on_table = display = \
        notes = _nothing
    render = describe = _required

    def on_long(self):
        self.ctx.open_menu()            # in every mode, unless it has a use for it first


class NoRoom(Mode):
    """The fallback's own fallback, made of code that is always loaded: when a mode could not
    start and not even the explorer could be made after it (a heap left in pieces: a
    MemoryError), the board still takes input. Every fourth sector dim red; its line says
    why and what to do: the long press opens the menu, to choose a mode again."""

    name = FALLBACK

    def __init__(self, ctx, why):
        Mode.__init__(self, ctx)
        self.why = why

    def render(self, frame):
        for i in range(36):
            frame[i] = 40 if i % 12 == 0 else 0

    def describe(self):
        return "no room for a mode (%s): long press for the menu" % self.why


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
    code and the helpers they brought (HELPERS) are dropped first (small boards)."""
    if name not in MODES:
        raise ValueError("no mode %r" % name)
    from firmware import unload
    # While the link keeps the table in RAM (ctx.table), its pad's code stays: the link holds
    # names of it.
    helpers = [helper for helper in HELPERS if helper in sys.modules and
               (ctx.table is None or helper not in TABLE_HELPERS)]
    names = [module_name(other) for other in MODES if other not in (name, FALLBACK)] + helpers
    if helpers:
        # Its own module too: one kept while the helpers go would hold names of theirs that
        # a fresh import of them no longer matches (an exception class an except misses).
        names.append(module_name(name))
    unload(names)
    early = PREPARED.get(name)
    try:
        if early is not None:
            ctx.prepared = __import__(early, None, None, ["prepare"]).prepare(ctx)
        module = __import__(module_name(name), None, None, ["Mode"])
        mode = _made(module, name, ctx)
    finally:
        ctx.prepared = None           # the mode took them, or they go with a failed start
    kept = sys.modules.get("firmware.modes.kept")      # loaded by the modes that keep a table
    if kept is not None and isinstance(mode, kept.KeepsTable):
        try:
            mode.load_state()
        except Exception:                   # a kept record this firmware misreads
            # starts the mode afresh, not a mode that fails at every start
            mode = _made(module, name, ctx)
            mode._kept = b""
    return mode


def _made(module, name, ctx):
    mode = module.Mode(ctx)
    mode.name = name
    return mode
