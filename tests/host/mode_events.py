"""Events into a mode, as the unit tests of the modes write them (tests/host/test_modes.py,
test_kept_state.py): 'cw 3; click; double; ccw 1; long'; and a mode's context as the app makes
it at power-up, over a record store in memory."""

from firmware.modes import Context
from firmware.settings import Settings
from host_tools.set_files import load_set


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


class MemoryRecords:
    """The record store at the board boundary: nothing on a flash; counts the writes."""

    def __init__(self):
        self.records = {}
        self.writes = 0
        self.refuse = False

    def read(self, name):
        return self.records.get(name)

    def write(self, name, data):
        if self.refuse:
            raise OSError(28, "no space left")
        self.writes += 1
        self.records[name] = bytes(data)

    def log(self, line):
        pass


class Host:
    def held_notes(self):
        return None

    def play_meld(self, index, root):
        pass

    def open_menu(self):
        pass


def boot(records, set_name="default"):
    """A context as the app makes it at power-up, over the same record store."""
    return Context(Host(), Settings(records).load(), load_set(set_name), set_name)
