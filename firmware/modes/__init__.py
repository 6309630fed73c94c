"""Wheel modes, one module each, each a subclass of Mode below. A mode sees only its Context:
what it may read (the meld set, the settings, the clock) and ask for (keep a setting, play a
meld, open the menu). The app makes the context; a test makes its own (tests/host/
test_modes.py), so every mode runs on CPython with plain lists of events."""

# Menu name -> module (imported when chosen, so unused modes cost no RAM).
MODES = (("explorer", "firmware.modes.explorer"),
         ("meld check", "firmware.modes.meld_check"),
         ("chord poker", "firmware.modes.chord_poker"),
         ("looking glass", "firmware.modes.looking_glass"),
         ("bluff", "firmware.modes.bluff"),
         ("steps", "firmware.modes.steps"),
         ("alphabet", "firmware.modes.alphabet"),
         ("key speller", "firmware.modes.key_speller"),
         ("listen", "firmware.modes.listen"))
FALLBACK = "explorer"


class Context:
    """What a mode may read and ask for.

    Read: meldset (core.meldset.MeldSet), meldset_name, settings (settings["root"]), now (the
    loop's ticks_ms), held_notes() (core.midi.HeldNotes: what MIDI in holds; None when MIDI
    in is off). Ask: keep(name, value) a setting, play_meld(index, root) on the buzzer,
    open_menu(); and, for the menu, close_menu(), set_names(), preview(key, value) (brightness
    shown, a volume sounded, nothing kept; None: the preview ends) and apply(key, value) (the
    setting kept and acted on).
    `host` does the asking: the app, or a test's stand-in."""

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

    def close_menu(self):
        self.host.close_menu()

    def set_names(self):
        return self.host.set_names()

    def preview(self, key, value):
        self.host.preview(key, value)

    def apply(self, key, value):
        self.host.apply_setting(key, value)


class Mode:
    """A mode's events and defaults. Events: on_turn(steps), on_click(), on_double(),
    on_long(); on_notes() when the notes MIDI in holds changed (or MIDI in was turned on or
    off); set_changed() when the meld set was switched. render(frame) paints the 12
    sectors and allocates nothing; describe() is the console line for the state; display()
    the display's shorter text, or None for the console line. turn_rotates() says that a
    turn of N detents moves every colour N sectors with it and changes nothing else render()
    paints: the ring then shows the turn at once, before the mode has even heard of it, and
    render() is not called for it (tests/host/test_modes.py checks each mode that says so).
    notes_light() says that after on_notes() render() paints the notes held white and nothing
    else, until settle(): the ring then lights them at once (Ring.light), and settle(), run
    once the LEDs show them, does the slower work (it returns True when render() would then
    paint something else)."""

    name = "mode"

    def __init__(self, ctx):
        self.ctx = ctx

    def on_turn(self, steps):
        pass

    def on_click(self):
        pass

    def on_double(self):
        pass

    def on_long(self):
        self.ctx.open_menu()            # in every mode, unless it has a use for it first

    def on_notes(self):
        pass

    def set_changed(self):
        pass

    def turn_rotates(self):
        return False

    def notes_light(self):
        return False

    def settle(self):
        return False

    def render(self, frame):
        raise NotImplementedError

    def describe(self):
        raise NotImplementedError

    def display(self):
        return None


def mode_names():
    return [name for name, _ in MODES]


def load_mode(name, ctx):
    """The mode called `name`; the other table modes' code is dropped first (small boards)."""
    from firmware.unload import unload
    unload([module for mode_name, module in MODES if mode_name not in (name, FALLBACK)])
    for mode_name, module_name in MODES:
        if mode_name == name:
            module = __import__(module_name, None, None, ["Mode"])
            return module.Mode(ctx)
    raise ValueError("no mode %r" % name)
