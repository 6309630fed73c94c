"""Wheel modes, one module each. A mode gets the knob and button events and paints the ring:

    on_turn(steps), on_click(), on_double(), on_long() -> nothing
    render(frame)                                       paint 12 sectors, allocate nothing
    describe()                                          the serial console line for its state
A long press opens the menu in every mode."""

# Menu name -> module (imported when chosen, so unused modes cost no RAM).
MODES = (("explorer", "firmware.modes.explorer"),)


def mode_names():
    return [name for name, _ in MODES]


def load_mode(name, app):
    for mode_name, module_name in MODES:
        if mode_name == name:
            module = __import__(module_name, None, None, ["Mode"])
            return module.Mode(app)
    raise ValueError("no mode %r" % name)
