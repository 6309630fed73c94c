"""Events into a mode, as the unit tests of the modes write them (tests/host/test_modes.py,
test_kept_state.py): 'cw 3; click; double; ccw 1; long'."""


def play(mode, events):
    """The console line after each event: 'cw 3', 'ccw 1', 'click', 'double', 'long'."""
    lines = []
    for event in filter(None, events.split("; ")):
        verb, _, count = event.partition(" ")
        if verb == "cw":
            mode.on_turn(int(count))
        elif verb == "ccw":
            mode.on_turn(-int(count))
        else:
            getattr(mode, "on_" + verb)()
        lines.append(mode.describe())
    return lines
