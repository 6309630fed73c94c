"""Wheel modes, one module each. A mode gets the knob and button events and paints the ring:

    on_turn(steps), on_click(), on_double(), on_long() -> nothing
    render(frame)                                       paint 12 sectors, allocate nothing
    describe()                                          the serial console line for its state
    set_changed()                                       (optional) the meld set was switched
A long press opens the menu in every mode (Meld Check first clears its cards)."""

# Menu name -> module (imported when chosen, so unused modes cost no RAM).
MODES = (("explorer", "firmware.modes.explorer"),
         ("meld check", "firmware.modes.meld_check"),
         ("chord poker", "firmware.modes.chord_poker"),
         ("looking glass", "firmware.modes.looking_glass"),
         ("bluff", "firmware.modes.bluff"),
         ("steps", "firmware.modes.steps"),
         ("alphabet", "firmware.modes.alphabet"),
         ("key speller", "firmware.modes.key_speller"))
FALLBACK = "explorer"


def mode_names():
    return [name for name, _ in MODES]


def load_mode(name, app):
    """The mode called `name`; the other table modes' code is dropped first (small boards)."""
    from firmware.unload import unload
    unload([module for mode_name, module in MODES if mode_name not in (name, FALLBACK)])
    for mode_name, module_name in MODES:
        if mode_name == name:
            module = __import__(module_name, None, None, ["Mode"])
            return module.Mode(app)
    raise ValueError("no mode %r" % name)
